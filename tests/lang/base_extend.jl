# Methods added to Base's functions (Base.f(x) = ..., Base.:op, `import Base: f`) extend them: Base's own
# methods and the built-ins keep answering the other calls. Docstrings at the top level document.
"""
    Scaled{T}

Multiplying a number by `Scaled{T}()` converts it to `T` (as AcceleratedKernels' `5u16`).
"""
struct Scaled{T} end
Base.:*(x::Number, ::Scaled{T}) where {T} = T(x)
const as_i16 = Scaled{Int16}()

"A grid of points, two of them per cell."
struct Cells
    n::Int
end
Base.length(c::Cells) = 2 * c.n
function Base.getindex(c::Cells, i::Int)
    return i / 2
end

import Base: +
+(a::Cells, b::Cells) = Cells(a.n + b.n)

function extend!(out, x, n)
    i = 1
    out[i] = 7as_i16 + n * n # the user's * and the built-in Int * Int
    out[i+1] = sizeof(3as_i16)
    c = Cells(n) + Cells(2)
    out[i+2] = length(c) + length((1, 2, 3)) # the user's length and Base's of a tuple
    out[i+3] = c[3] * 2 + x[1] * x[2]
    return nothing
end
# run: extend!(out = zeros(Int64, 4), x = Int64[3, -4], n = 5)
# expect out: [32, 2, 17, -9]

# NTuple{N} (any element type, the same for all) in a signature, with N bound by another argument
function fill_shape!(out, a::AbstractArray{<:Any, N}, dims::NTuple{N}) where {N}
    for d in 1:N
        out[d] = dims[d] * size(a, d)
    end
    return nothing
end
# run: fill_shape!(out = zeros(Int64, 2), a = reshape(Float32[1, 2, 3, 4, 5, 6], 2, 3), dims = (Int32(4), Int32(5)))
# expect out: [8, 15]
