# Base.Cartesian's `@nexprs N i -> x_i = ...` with a literal count: Julia's N copies, each with its own
# x_1, x_2, ...; later copies and code after the macro read them, as hand-unrolled stencils do.
using Base.Cartesian

function stencil3!(out, a)
    i = workitemIdx().x
    if 2 <= i <= length(a) - 1
        @nexprs 3 k -> (w_k = a[i+k-2])
        @nexprs 3 k -> (p_k = w_k * k)
        out[i] = p_1 + p_2 + p_3 - w_2
    end
    return nothing
end
# run: stencil3!(out = zeros(Float32, 5), a = Float32[1.5, -2.0, 4.25, 0.5, 3.0]) groupsize 8
# expect out: [0.0, 12.25, 3.75, 13.75, 0.0]
