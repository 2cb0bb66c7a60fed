# A @kernel whose last parameter is a vararg (GPUArrays' indexing kernels take `Is::Vararg{Any,N}`): the
# values, and KernelAbstractions' hidden context after them, arrive as one tuple; N counts the values.
using KernelAbstractions

@kernel function gather_sum!(out, src, Is::Vararg{Any,N}) where {N}
    i = @index(Global, Linear)
    acc = zero(eltype(out))
    for k in 1:N
        acc += src[Is[k][i]] * k
    end
    out[i] = acc
end
# run: gather_sum!(out = zeros(Float32, 3), src = Float32[1.5, -2, 4, 0.5], a = Int64[4, 1, 2], b = Int64[3, 3, 1]) ndrange 3 groupsize 2
# expect out: [8.5, 9.5, 1.0]

@kernel function double_all!(xs...)
    i = @index(Global)
    for x in xs
        x[i] *= 2
    end
end
# run: double_all!(p = Float64[1.5, -3], q = Float64[0.25, 7]) ndrange 2
# expect p: [3.0, -6.0]
# expect q: [0.5, 14.0]
