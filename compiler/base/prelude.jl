# base/prelude.jl: the part of Julia's Base that juke writes in the kernel
# language itself, compiled by the same front end as a kernel (compiler/prelude.h).
# The C side keeps the primitives (compiler/builtins.def). A definition in the
# user's file shadows the name here, as a definition in Main shadows Base's; a
# name here that is also a built-in adds methods to it: the built-in answers the
# calls no method here matches. Only what a kernel calls is compiled.

identity(x) = x

oftype(x, y) = convert(typeof(x), y)

iszero(x) = x == zero(x)
isone(x) = x == one(x)

# minmax: isless order, NaN-propagating for floats as min and max are.
minmax(x, y) = isless(y, x) ? (y, x) : (x, y)
minmax(x::T, y::T) where {T<:AbstractFloat} = (min(x, y), max(x, y))

# mod1(x, y): the result in 1:y for y > 0 (in y:-1 for y < 0).
function mod1(x::T, y::T) where {T<:Integer}
    m = mod(x, y)
    return m == 0 ? y : m
end
function mod1(x::T, y::T) where {T<:AbstractFloat}
    m = mod(x, y)
    return m == 0 ? y : m
end
fld1(x::T, y::T) where {T<:Integer} = fld(x - 1, y) + 1

# evalpoly(x, p): p[1] + x*p[2] + x^2*p[3] + ..., by Horner's rule with muladd.
function evalpoly(x, p)
    n = length(p)
    ex = p[n] + zero(x) # the promoted type from the start, so that ex keeps one type
    for i in n-1:-1:1
        ex = muladd(x, ex, p[i])
    end
    return ex
end
