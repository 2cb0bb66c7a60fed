# A @kernel inside a function (a closure over its variables, as GPUArrays 11's linalg.jl writes them).
using KernelAbstractions

function tril_like!(A::AbstractMatrix{T}, d::Integer = 0) where T
    @kernel function tril_kernel!(_A, _d)
        I = @index(Global, Cartesian)
        i, j = Tuple(I)
        if i < j - _d
            @inbounds _A[i, j] = zero(T)
        end
    end
    tril_kernel!(get_backend(A))(A, d; ndrange = size(A))
    return A
end
# expect error: a @kernel defined inside a function is not supported: KernelAbstractions makes it a closure over the function's variables (GPUArrays 11 writes `tril_kernel!` so, using the method's T); define the kernel at the top level and pass those values as arguments
# expect error at: 5:5
