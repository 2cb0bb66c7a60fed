# A @kernel defined inside a function, as GPUArrays 11 defines fill_kernel!, rmul_kernel! and its other
# kernels in the methods that launch them: KernelAbstractions makes each a closure over the function's
# variables, and one that uses none of them is the same kernel as at the top level.
using KernelAbstractions

function scale!(A, s)
    @kernel function scale_kernel!(a, @Const(b), f)
        i = @index(Global)
        a[i] = b[i] * f
    end
    scale_kernel!(get_backend(A))(A, A, s; ndrange = length(A))
    return A
end
# run: scale_kernel!(a = zeros(Float64, 6), b = Float64[-0.3, -1.01, -2.89, 2.93, -3.95, 0.02], f = -2.5) ndrange 6
# expect a: [0.75, 2.525, 7.2250000000000005, -7.325, 9.875, -0.05]

# in the branches of a function, with parameters named as the function's own (x, n): the kernel's, not a capture
function shift!(x, n, flag)
    if flag
        @kernel function shift_up!(x, n)
            i, j = @index(Global, NTuple)
            x[i, j] += n * j
        end
        shift_up!(get_backend(x))(x, n; ndrange = size(x))
    else
        @kernel function shift_down!(x, n)
            I = @index(Global, Cartesian)
            x[I] -= n
        end
        shift_down!(get_backend(x))(x, n; ndrange = size(x))
    end
    return x
end
# run: shift_up!(x = reshape(Int64[27, -40, -8, 20, 28, 39, -45, 43, -2, -29, 40, 7], 4, 3), n = 7) groupsize 2,2 ndrange 4,3
# expect x: [34, -33, -1, 27, 42, 53, -31, 57, 19, -8, 61, 28]
# run: shift_down!(x = reshape(Int64[27, -40, -8, 20, 28, 39, -45, 43, -2, -29, 40, 7], 4, 3), n = 3) ndrange 4,3
# expect x: [24, -43, -11, 17, 25, 36, -48, 40, -5, -32, 37, 4]
