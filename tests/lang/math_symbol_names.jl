# Names made of the math symbols Julia's parser takes as letters (∂x, ∇f, ∑, ∞ as LuxLib writes its
# ∇batchnorm kernels), and KernelAbstractions 0.1's groupsize() without the @ in a kernel.
using KernelAbstractions

∂(a, b) = b - a

@kernel function ∇diff!(∂x, @Const(x))
    i = @index(Global)
    N = prod(groupsize())
    ∑ = zero(eltype(x))
    for k in 1:i
        ∑ += x[k]
    end
    ∂x[i] = i < length(x) ? ∂(x[i], x[i + 1]) * N + ∑ : ∑
end
# run: ∇diff!(dx = zeros(Float64, 5), x = Float64[1.5, -2, 4.25, 0.5, 3]) groupsize 2 ndrange 5
# expect dx: [-5.5, 12.0, -3.75, 9.25, 7.25]
