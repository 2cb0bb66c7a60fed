# `function f end` declares a function with no method yet; `function (a::typeof(f))(args)` adds a method of f
# (a callable of f's own type, as KernelAbstractions' tests define kernels); Adapt.@adapt_structure at the top
# level only tells the host how to convert a struct, so the kernel file ignores it.
using KernelAbstractions, Adapt
struct Scale
    s::Int64
end
Adapt.@adapt_structure Scale
function fill_val end
@kernel function (k::typeof(fill_val))(x, ::Val{m}, p::Scale) where {m}
    I = @index(Global)
    @inbounds x[I] = m * p.s + I
end
# run: fill_val(x = zeros(Int64, 3), N = Val(4), p = Scale(10)) ndrange 3 groupsize 2
# expect x: [41, 42, 43]
