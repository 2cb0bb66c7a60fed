# @private needs dims known at compile time.
using KernelAbstractions

@kernel function private_dims!(A, n)
    I = @index(Global, Linear)
    p = @private Float32 (n,)
    p[1] = 1f0
    A[I] = p[1]
end
# run: private_dims!(A = zeros(Float32, 4), n = 2) groupsize 4 ndrange 4
# expect error: @private needs constant dims (an integer or a tuple of integers known at compile time: literals, constants, `where` parameters, @groupsize() of a static launch)
# expect error at: 6:9
