# A @kernel inside a function that uses the function's static parameter T (a closure over it, as GPUArrays 11's
# linalg.jl writes tril_kernel!); one that uses nothing of the function compiles (ka_kernel_in_function.jl).
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
# expect error: the @kernel tril_kernel!, defined inside the function tril_like!, uses that function's `T`: KernelAbstractions makes the kernel a closure over it, which exists only when the function runs on the host; pass `T` to the kernel as an argument
# expect error at: 10:39
