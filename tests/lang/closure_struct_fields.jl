# A kernel that takes its work as a callable struct holding arrays, as Julia passes a closure over arrays (the
# body of KernelAbstractions' foreach_index): the runs build it from arrays, and the expectations name an array
# by its field (`expect body.dst`).
using KernelAbstractions

struct AxpyBody{D, S}
    dst::D
    src::S
    a::Float32
end
(b::AxpyBody)(i) = (@inbounds b.dst[i] += b.a * b.src[i])

@kernel function each_index!(f)
    i = @index(Global, Linear)
    f(i)
end

# dst .+= 2.5f0 .* src
# run: each_index!(body = AxpyBody(Float32[1, -2, 0.5, 4, 3], Float32[0.5, 1, -1.25, 2, -0.5], 2.5f0)) groupsize 4 ndrange 5
# expect body.dst: [2.25, 0.5, -2.625, 9.0, 1.75]
# expect body.src: [0.5, 1.0, -1.25, 2.0, -0.5]
