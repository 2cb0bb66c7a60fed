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

# isless of floats (base/float.jl): NaN above every number and equal to itself, -0.0 below 0.0, else as <;
# of a float and an integer, in their promoted type. The built-in < answers isless of other types.
isless(x::AbstractFloat, y::AbstractFloat) = !isnan(x) & (isnan(y) | (x < y) | ((x == y) & signbit(x) & !signbit(y)))
isless(x::AbstractFloat, y::Integer) = isless(promote(x, y)...)
isless(x::Integer, y::AbstractFloat) = isless(promote(x, y)...)

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
# mixed types promote first, as Base's mod1(x::Real, y::Real) (mod1(i, wavefrontsize()): Int64 and UInt32)
mod1(x::Real, y::Real) = mod1(oftype(x + y, x), oftype(x + y, y))

# evalpoly(x, p): p[1] + x*p[2] + x^2*p[3] + ..., by Horner's rule with muladd.
function evalpoly(x, p)
    n = length(p)
    ex = p[n] + zero(x) # the promoted type from the start, so that ex keeps one type
    for i in n-1:-1:1
        ex = muladd(x, ex, p[i])
    end
    return ex
end

# ---- iteration: Julia's iterate protocol (`for x in itr` lowers to it) ----
# iterate(itr[, state]) is nothing when done, else (value, next state): its type is
# Union{Nothing, Tuple{V, S}}.

isempty(r::AbstractRange) = step(r) > 0 ? first(r) > last(r) : first(r) < last(r)

# ranges: the state is the last value (last(r) is exact, so the loop ends on it)
iterate(r::AbstractRange) = isempty(r) ? nothing : (first(r), first(r))
function iterate(r::AbstractRange, i)
    i == last(r) && return nothing
    v = oftype(i, i + step(r))
    return (v, v)
end

# arrays: linear indices, column-major
iterate(A::AbstractArray) = iterate(A, 1)
function iterate(A::AbstractArray, i)
    i > length(A) && return nothing
    return (A[i], i + 1)
end

# a number iterates once, as in Julia
iterate(x::Number) = (x, nothing)
iterate(x::Number, ::Nothing) = nothing

# tuples: by index
iterate(t::Tuple) = iterate(t, 1)
function iterate(t::Tuple, i)
    i > length(t) && return nothing
    return (t[i], i + 1)
end

reverse(r::AbstractRange) = last(r):-step(r):first(r)
keys(A::AbstractVector) = eachindex(A)

# x in itr: some element == x (ranges of integers are built-in: a constant-time test)
function in(x, t::Tuple)
    for y in t
        y == x && return true
    end
    return false
end
function in(x, A::AbstractArray)
    for y in A
        y == x && return true
    end
    return false
end

# reductions over ranges (tuples are built-in): sum in closed form, as base/range.jl does
function sum(r::AbstractRange{<:Real})
    l = length(r)
    return l * first(r) + (iseven(l) ? (step(r) * (l - 1)) * (l >> 1) : (step(r) * l) * ((l - 1) >> 1))
end
# sum of an array (a view of a column, B[:, j]): in order, from zero of the element type
function sum(A::AbstractArray)
    s = zero(eltype(A))
    for i in 1:length(A)
        s += A[i]
    end
    return s
end
# Base.FastMath's functions by name (what `@fastmath` rewrites to; code calls them as FastMath.log_fast):
# the IEEE operations, which fast math permits but does not require to be approximated
add_fast(x::Number, y::Number) = x + y
sub_fast(x::Number, y::Number) = x - y
mul_fast(x::Number, y::Number) = x * y
div_fast(x::Number, y::Number) = x / y
pow_fast(x::Number, y::Number) = x^y
neg_float_fast(x::Number) = -x
inv_fast(x::Number) = inv(x)
sqrt_fast(x::Number) = sqrt(x)
log_fast(x::Number) = log(x)
log2_fast(x::Number) = log2(x)
log10_fast(x::Number) = log10(x)
exp_fast(x::Number) = exp(x)
exp2_fast(x::Number) = exp2(x)
exp10_fast(x::Number) = exp10(x)
sin_fast(x::Number) = sin(x)
cos_fast(x::Number) = cos(x)
tan_fast(x::Number) = tan(x)
abs_fast(x::Number) = abs(x)
abs2_fast(x::Number) = abs2(x)
conj_fast(x::Number) = conj(x)
sign_fast(x::Number) = sign(x)
max_fast(x::Number, y::Number) = max(x, y)
min_fast(x::Number, y::Number) = min(x, y)
minmax_fast(x::Number, y::Number) = minmax(x, y)
rem_fast(x::Number, y::Number) = rem(x, y)
cmp_fast(x::Number, y::Number) = cmp(x, y)
eq_fast(x::Number, y::Number) = x == y
ne_fast(x::Number, y::Number) = x != y
lt_fast(x::Number, y::Number) = x < y
le_fast(x::Number, y::Number) = x <= y
gt_fast(x::Number, y::Number) = x > y
ge_fast(x::Number, y::Number) = x >= y
acos_fast(x::Number) = acos(x)
asin_fast(x::Number) = asin(x)
atan_fast(x::Number) = atan(x)
atan_fast(y::Number, x::Number) = atan(y, x)
acosh_fast(x::Number) = acosh(x)
asinh_fast(x::Number) = asinh(x)
atanh_fast(x::Number) = atanh(x)
cbrt_fast(x::Number) = cbrt(x)
cosh_fast(x::Number) = cosh(x)
sinh_fast(x::Number) = sinh(x)
tanh_fast(x::Number) = tanh(x)
expm1_fast(x::Number) = expm1(x)
log1p_fast(x::Number) = log1p(x)
hypot_fast(x::Number, y::Number) = hypot(x, y)
sincos_fast(x::Number) = sincos(x)
cis_fast(x::Number) = cis(x)

# sinpi(x) = sin(πx), cospi(x) = cos(πx) and sincospi(x), by Base's algorithm (base/special/trig.jl) so that
# the answers are Julia's bit for bit: |x| mod 2 reduced exactly to a quadrant and rx in [-1/4, 1/4], then
# Base's minimax polynomials of sin(π rx) and cos(π rx) (Float32 evaluates them in Float64, Float16 in
# Float32). Base writes their Horner steps as muladd, which Julia fuses on every CPU with FMA: fma here
# gives that answer on every target (llvm.fmuladd would be left unfused by some, v_mad_f32 on gfx9).
function _evalpoly_fma(x, p)
    n = length(p)
    ex = p[n]
    for i in n-1:-1:1
        ex = fma(x, ex, p[i])
    end
    return ex
end
function _sinpi_kernel(x::Float64)
    x2 = x * x
    x4 = x2 * x2
    r = _evalpoly_fma(x2, (2.5501640398773415, -0.5992645293202981, 0.08214588658006512,
                           -7.370429884921779e-3, 4.662827319453555e-4, -2.1717412523382308e-5))
    return fma(3.141592653589793, x, x * fma(-5.16771278004997, x2, fma(x4, r, 1.2245907532225998e-16)))
end
function _cospi_kernel(x::Float64)
    x2 = x * x
    r = x2 * _evalpoly_fma(x2, (4.058712126416765, -1.3352627688537357, 0.23533063027900392,
                                -0.025806887811869204, 1.9294917136379183e-3, -1.0368935675474665e-4))
    a_x2 = 4.934802200544679 * x2
    a_x2lo = fma(3.109686485461973e-16, x2, fma(4.934802200544679, x2, -a_x2)) # the product's rounding error
    w = 1.0 - a_x2
    return w + fma(x2, r, ((1.0 - w) - a_x2) - a_x2lo)
end
# (the _wide kernels keep the wider type's answer, which tanpi divides before it rounds)
function _sinpi_kernel_wide(x::Float32)
    y = Float64(x)
    return y * _evalpoly_fma(y * y, (3.1415926535762266, -5.167712769188119, 2.5501626483206374,
                                     -0.5992021090314925, 0.08100185277841528))
end
function _cospi_kernel_wide(x::Float32)
    y = Float64(x)
    return _evalpoly_fma(y * y, (1.0, -4.934802200541122, 4.058712123568637, -1.3352624040152927,
                                 0.23531426791507182, -0.02550710082498761))
end
function _sinpi_kernel_wide(x::Float16)
    y = Float32(x)
    return y * _evalpoly_fma(y * y, (3.1415927f0, -5.1677127f0, 2.5501626f0, -0.5992021f0, 0.081001855f0))
end
function _cospi_kernel_wide(x::Float16)
    y = Float32(x)
    return _evalpoly_fma(y * y, (1.0f0, -4.934802f0, 4.058712f0, -1.3352624f0, 0.23531426f0, -0.0255071f0))
end
_sinpi_kernel_wide(x::Float64) = _sinpi_kernel(x)
_cospi_kernel_wide(x::Float64) = _cospi_kernel(x)
_sinpi_kernel(x::Float32) = Float32(_sinpi_kernel_wide(x))
_cospi_kernel(x::Float32) = Float32(_cospi_kernel_wide(x))
_sinpi_kernel(x::Float16) = Float16(_sinpi_kernel_wide(x))
_cospi_kernel(x::Float16) = Float16(_cospi_kernel_wide(x))
# maxintfloat(T): from here on every float is an even integer, so sinpi is ±0 and cospi 1
_maxintfloat(x::Float64) = 9.007199254740992e15
_maxintfloat(x::Float32) = 1.6777216f7
_maxintfloat(x::Float16) = Float16(2048)
# (sinpi(x), cospi(x)); f (1 sinpi, 2 cospi, 3 sincospi) names the caller in Base's DomainError for an infinite x
function _sincospi(x0::T, f) where {T<:AbstractFloat}
    x = abs(x0)
    if !isfinite(x)
        isnan(x) && return (x, x)
        f == 1 && throw(DomainError(x, "`sinpi(x)` is only defined for finite `x`."))
        f == 2 && throw(DomainError(x, "`cospi(x)` is only defined for finite `x`."))
        throw(DomainError(x, "`sincospi(x)` is only defined for finite `x`."))
    end
    x >= _maxintfloat(x) && return (copysign(zero(T), x0), one(T))
    n = round(2 * x)
    rx = muladd(T(-0.5), n, x) # exact: |x| - n/2
    q = Int64(n) & 3
    s, c = _sinpi_kernel(rx), _cospi_kernel(rx)
    sp = q == 0 ? s : q == 1 ? c : q == 2 ? zero(T) - s : zero(T) - c # (0 - s: +0.0 where Base has it)
    cp = q == 0 ? c : q == 1 ? zero(T) - s : q == 2 ? zero(T) - c : s
    return (ifelse(signbit(x0), -sp, sp), cp)
end
sinpi(x::AbstractFloat) = _sincospi(x, 1)[1]
cospi(x::AbstractFloat) = _sincospi(x, 2)[2]
sincospi(x::AbstractFloat) = _sincospi(x, 3)
# integers: exact, as Base's methods (sinpi(-3) == -0.0, cospi(3) == -1.0)
sinpi(x::Integer) = x >= 0 ? zero(float(x)) : -zero(float(x))
cospi(x::Integer) = isodd(x) ? -one(float(x)) : one(float(x))
sincospi(x::Integer) = (sinpi(x), cospi(x))
# tanpi(x) = tan(πx) as Base computes it (Julia 1.10): the reduction of sincospi, both kernels in the wider
# type (Float64 for a Float32), their quotient rounded once
function tanpi(x0::T) where {T<:AbstractFloat}
    x = abs(x0)
    if !isfinite(x)
        isnan(x) && return x
        throw(DomainError(x, "`x` cannot be infinite."))
    end
    x >= _maxintfloat(x) && return copysign(zero(T), x0)
    n = round(2 * x)
    rx = muladd(T(-0.5), n, x)
    q = Int64(n) & 3
    s, c = _sinpi_kernel_wide(rx), _cospi_kernel_wide(rx)
    z = zero(s)
    sp = q == 0 ? s : q == 1 ? c : q == 2 ? z - s : z - c
    cp = q == 0 ? c : q == 1 ? z - s : q == 2 ? z - c : s
    return T(ifelse(signbit(x0), -sp, sp) / cp)
end
tanpi(x::Integer) = tanpi(float(x))
# cispi(x) = exp(iπx) = cospi(x) + i sinpi(x) (base/complex.jl)
function cispi(x::Real)
    s, c = sincospi(x)
    return complex(c, s)
end

# strides of a dense, column-major array, as Base's size_to_strides computes them: (1, size(A, 1), ...)
strides(A::AbstractArray) = _size_to_strides(1, size(A))
_size_to_strides(s, d::Tuple{}) = ()
_size_to_strides(s, d::Tuple) = (s, _size_to_strides(s * d[1], tail(d))...)
stride(A::AbstractArray, k::Integer) = k <= ndims(A) ? strides(A)[k] : length(A)
# r[i] of a range: its i-th value, checked against its length as Base's getindex(::AbstractRange, ::Integer)
function getindex(r::AbstractRange, i::Integer)
    @boundscheck (1 <= i <= length(r)) || throw(BoundsError(r, i))
    return first(r) + (i - 1) * step(r)
end
# x[], x[1], x[1, 1], ... of a number: the number itself, as a number is a container of one element
# (base/number.jl); any other index is a BoundsError
getindex(x::Number) = x
function getindex(x::Number, I::Integer...)
    @boundscheck for i in I
        isone(i) || throw(BoundsError(x, i))
    end
    return x
end
# LinearAlgebra.diagind: the linear indices of the k-th diagonal of a matrix, a step range
function diagind(m::Integer, n::Integer, k::Integer = 0)
    s = k <= 0 ? 1 - k : k * m + 1
    l = k <= 0 ? min(m + k, n) : min(m, n - k)
    return s:(m + 1):(s + (l - 1) * (m + 1))
end
diagind(A::AbstractMatrix, k::Integer = 0) = diagind(size(A, 1), size(A, 2), k)
function prod(r::AbstractRange{<:Real})
    p = one(first(r))
    for x in r
        p *= x
    end
    return p
end

# ---- iterators (base/iterators.jl) ----

# enumerate(itr): (i, x) pairs, i counting from 1
struct Enumerate{I}
    itr::I
end
enumerate(itr) = Enumerate(itr)
function iterate(e::Enumerate)
    n = iterate(e.itr)
    n === nothing && return nothing
    return ((1, n[1]), (2, n[2]))
end
function iterate(e::Enumerate, state)
    n = iterate(e.itr, state[2])
    n === nothing && return nothing
    return ((state[1], n[1]), (state[1] + 1, n[2]))
end
length(e::Enumerate) = length(e.itr)

# zip(a, b[, c]): tuples of the iterators' elements, as long as the shortest
struct Zip{Is}
    is::Is
end
zip(a, b) = Zip((a, b))
zip(a, b, c) = Zip((a, b, c))
function iterate(z::Zip{Tuple{A, B}}) where {A, B}
    x = iterate(z.is[1])
    x === nothing && return nothing
    y = iterate(z.is[2])
    y === nothing && return nothing
    return ((x[1], y[1]), (x[2], y[2]))
end
function iterate(z::Zip{Tuple{A, B}}, s) where {A, B}
    x = iterate(z.is[1], s[1])
    x === nothing && return nothing
    y = iterate(z.is[2], s[2])
    y === nothing && return nothing
    return ((x[1], y[1]), (x[2], y[2]))
end
function iterate(z::Zip{Tuple{A, B, C}}) where {A, B, C}
    x = iterate(z.is[1])
    x === nothing && return nothing
    y = iterate(z.is[2])
    y === nothing && return nothing
    w = iterate(z.is[3])
    w === nothing && return nothing
    return ((x[1], y[1], w[1]), (x[2], y[2], w[2]))
end
function iterate(z::Zip{Tuple{A, B, C}}, s) where {A, B, C}
    x = iterate(z.is[1], s[1])
    x === nothing && return nothing
    y = iterate(z.is[2], s[2])
    y === nothing && return nothing
    w = iterate(z.is[3], s[3])
    w === nothing && return nothing
    return ((x[1], y[1], w[1]), (x[2], y[2], w[2]))
end

# pairs(A): (index, value) of an array or tuple; Julia yields Pair objects (i => v), juke
# yields the tuple (i, v), which `for (i, v) in pairs(A)` destructures alike
pairs(A::AbstractArray) = zip(eachindex(A), A)
pairs(t::Tuple) = zip(1:length(t), t)

# Base.OneTo(n): the range 1:n (base/range.jl), here a UnitRange{Int64}
OneTo(n::Integer) = 1:Int64(n)

# eachindex(t) of a tuple: its positions, Base.OneTo(length(t)) (base/tuple.jl; GeoParams' store! loops so)
eachindex(t::Tuple) = OneTo(length(t))

# eachindex(A, B): the indices of arrays that share them (base/abstractarray.jl)
function eachindex(A::AbstractArray, B::AbstractArray)
    length(A) == length(B) ||
        throw(DimensionMismatch("all inputs to eachindex must have the same indices, got Base.OneTo($(length(A))) and Base.OneTo($(length(B)))"))
    return eachindex(A)
end
function eachindex(A::AbstractArray, B::AbstractArray, C::AbstractArray)
    length(A) == length(B) == length(C) ||
        throw(DimensionMismatch("all inputs to eachindex must have the same indices, got Base.OneTo($(length(A))), Base.OneTo($(length(B))) and Base.OneTo($(length(C)))"))
    return eachindex(A)
end

# maximum and minimum of a range (base/range.jl)
maximum(r::AbstractRange) = isempty(r) ? throw(ArgumentError("range must be non-empty")) : max(first(r), last(r))
minimum(r::AbstractRange) = isempty(r) ? throw(ArgumentError("range must be non-empty")) : min(first(r), last(r))

# ---- numbers ----

# promote(x, y): both in the type arithmetic on them gives (Julia's promote_type for numbers)
function promote(x::Number, y::Number)
    z = x + y
    return (convert(typeof(z), x), convert(typeof(z), y))
end

# fld1 of mixed integer types: promoted first, as base/int.jl's fld1(x::Real, y::Real)
function fld1(x::Real, y::Real)
    a, b = promote(x, y)
    return fld1(a, b)
end
# fldmod1(x, y): (fld1(x, y), mod1(x, y)), as base/int.jl
fldmod1(x, y) = (fld1(x, y), mod1(x, y))

# Base.Checked: arithmetic that throws OverflowError instead of wrapping (messages as base/checked.jl)
throw_overflow_add(x::Int8, y::Int8) = throw(OverflowError("$x + $y overflowed for type Int8"))
throw_overflow_add(x::Int16, y::Int16) = throw(OverflowError("$x + $y overflowed for type Int16"))
throw_overflow_add(x::Int32, y::Int32) = throw(OverflowError("$x + $y overflowed for type Int32"))
throw_overflow_add(x::Int64, y::Int64) = throw(OverflowError("$x + $y overflowed for type Int64"))
throw_overflow_add(x::UInt8, y::UInt8) = throw(OverflowError("$x + $y overflowed for type UInt8"))
throw_overflow_add(x::UInt16, y::UInt16) = throw(OverflowError("$x + $y overflowed for type UInt16"))
throw_overflow_add(x::UInt32, y::UInt32) = throw(OverflowError("$x + $y overflowed for type UInt32"))
throw_overflow_add(x::UInt64, y::UInt64) = throw(OverflowError("$x + $y overflowed for type UInt64"))
throw_overflow_sub(x::Int8, y::Int8) = throw(OverflowError("$x - $y overflowed for type Int8"))
throw_overflow_sub(x::Int16, y::Int16) = throw(OverflowError("$x - $y overflowed for type Int16"))
throw_overflow_sub(x::Int32, y::Int32) = throw(OverflowError("$x - $y overflowed for type Int32"))
throw_overflow_sub(x::Int64, y::Int64) = throw(OverflowError("$x - $y overflowed for type Int64"))
throw_overflow_sub(x::UInt8, y::UInt8) = throw(OverflowError("$x - $y overflowed for type UInt8"))
throw_overflow_sub(x::UInt16, y::UInt16) = throw(OverflowError("$x - $y overflowed for type UInt16"))
throw_overflow_sub(x::UInt32, y::UInt32) = throw(OverflowError("$x - $y overflowed for type UInt32"))
throw_overflow_sub(x::UInt64, y::UInt64) = throw(OverflowError("$x - $y overflowed for type UInt64"))
function checked_add(x::T, y::T) where {T<:Signed}
    r = x + y
    ((x ⊻ r) & (y ⊻ r)) < 0 && throw_overflow_add(x, y)
    return r
end
function checked_add(x::T, y::T) where {T<:Unsigned}
    r = x + y
    r < x && throw_overflow_add(x, y)
    return r
end
function checked_sub(x::T, y::T) where {T<:Signed}
    r = x - y
    ((x ⊻ y) & (x ⊻ r)) < 0 && throw_overflow_sub(x, y)
    return r
end
function checked_sub(x::T, y::T) where {T<:Unsigned}
    x < y && throw_overflow_sub(x, y)
    return x - y
end

# Some(x): a value that may itself be nothing, wrapped (base/some.jl); something(x...) is the first argument
# that is not nothing, a Some unwrapped (AMDGPU.jl's scan kernels take their init as one)
struct Some{T}
    value::T
end
something() = throw(ArgumentError("No value arguments present"))
something(x::Nothing, y...) = something(y...)
something(x::Some, y...) = x.value
something(x::Any, y...) = x

# missing: the singleton of Missing (a kernel compares with it: seed === missing)
struct Missing end
const missing = Missing()
ismissing(x) = x === missing

# CartesianIndices and LinearIndices (base/multidimensional.jl, base/indices.jl) over 1 to 3
# dimensions, column-major. A CartesianIndex{N} is an NTuple{N,Int64} here (what KernelAbstractions'
# @index(Global, Cartesian) gives, compiler/ka.c): I[1], Tuple(I) and A[I] read as in Julia.
struct CartesianIndices{N}
    dims::NTuple{N,Int64}
end
CartesianIndices(A::AbstractArray) = CartesianIndices(size(A))
struct LinearIndices{N}
    dims::NTuple{N,Int64}
end
LinearIndices(A::AbstractArray) = LinearIndices(size(A))
CartesianIndex() = () # the one index of a zero-dimensional space (KernelAbstractions' foreach_index_zerodim_kernel)
CartesianIndex(i::Integer) = (Int64(i),)
CartesianIndex(i::Integer, j::Integer) = (Int64(i), Int64(j))
CartesianIndex(i::Integer, j::Integer, k::Integer) = (Int64(i), Int64(j), Int64(k))
CartesianIndex(t::Tuple) = map(Int64, t)
CartesianIndex(i::Integer, j::Integer, k::Integer, l::Integer, rest::Integer...) =
    (Int64(i), Int64(j), Int64(k), Int64(l), map(Int64, rest)...)
oneunit(a::NTuple{N,Int64}) where {N} = ntuple(_ci_one, Val(N))
oneunit(x::Number) = one(x)
oneunit(::Type{T}) where {T<:Number} = one(T)
_ci_one(d) = 1
Tuple(t::Tuple) = t
Tuple(x::Number) = (x,) # a number iterates as itself (NNlib's Tuple(idxs[i]) of an integer index)
size(C::CartesianIndices) = C.dims
size(L::LinearIndices) = L.dims
length(C::CartesianIndices) = prod(C.dims)
length(L::LinearIndices) = prod(L.dims)
getindex(C::CartesianIndices{1}, i::Integer) = (Int64(i),)
function getindex(C::CartesianIndices{2}, i::Integer)
    j = Int64(i) - 1
    return (j % C.dims[1] + 1, j ÷ C.dims[1] + 1)
end
function getindex(C::CartesianIndices{3}, i::Integer)
    j = Int64(i) - 1
    k = j ÷ C.dims[1]
    return (j % C.dims[1] + 1, k % C.dims[2] + 1, k ÷ C.dims[2] + 1)
end
# ... and any N: the column-major digits of i - 1
getindex(C::CartesianIndices, i::Integer) = _cartesian_of(Int64(i), C.dims)
_cartesian_of(i::Int64, ::Tuple{}) = ()
_cartesian_of(i::Int64, d::Tuple) = ((i - 1) % d[1] + 1, _cartesian_of((i - 1) ÷ d[1] + 1, tail(d))...)
_linear_of(::Tuple{}, ::Tuple{}) = 1
_linear_of(I::Tuple, d::Tuple) = I[1] + (_linear_of(tail(I), tail(d)) - 1) * d[1]
getindex(L::LinearIndices{N}, I::NTuple{N,Int64}) where {N} = _linear_of(I, L.dims)
getindex(C::CartesianIndices{2}, i::Integer, j::Integer) = (Int64(i), Int64(j))
getindex(C::CartesianIndices{3}, i::Integer, j::Integer, k::Integer) = (Int64(i), Int64(j), Int64(k))
getindex(L::LinearIndices, i::Integer) = Int64(i)
getindex(L::LinearIndices{1}, I::Tuple{Int64}) = I[1]
getindex(L::LinearIndices{2}, I::Tuple{Int64, Int64}) = I[1] + (I[2] - 1) * L.dims[1]
getindex(L::LinearIndices{3}, I::Tuple{Int64, Int64, Int64}) = I[1] + (I[2] - 1 + (I[3] - 1) * L.dims[2]) * L.dims[1]
getindex(L::LinearIndices{2}, i::Integer, j::Integer) = L[(Int64(i), Int64(j))]
getindex(L::LinearIndices{3}, i::Integer, j::Integer, k::Integer) = L[(Int64(i), Int64(j), Int64(k))]
iterate(C::CartesianIndices) = length(C) < 1 ? nothing : (C[1], 2)
iterate(C::CartesianIndices, s::Int64) = s > length(C) ? nothing : (C[s], s + 1)
iterate(L::LinearIndices) = length(L) < 1 ? nothing : (1, 2)
iterate(L::LinearIndices, s::Int64) = s > length(L) ? nothing : (s, s + 1)
# their first and last linear indices, and LinearIndices' first and last elements (base/cartesian.jl has
# CartesianIndices'): AcceleratedKernels' findall reads indices[firstindex(indices) + position - 1] of whatever
# index collection it is given
firstindex(C::Union{CartesianIndices, LinearIndices}) = 1
lastindex(C::Union{CartesianIndices, LinearIndices}) = length(C)
first(L::LinearIndices) = 1
last(L::LinearIndices) = length(L)

# Random.default_rng() in a kernel: the work-item's own Philox stream (builtins_random_emit.c) as a value, so
# that rand(rng, T), randn(rng, T), randexp(rng, T) and Random.seed!(rng, seed) read as in Julia
struct DeviceRNG end
default_rng() = DeviceRNG()
rand(::DeviceRNG) = rand()
rand(::DeviceRNG, ::Type{T}) where {T} = rand(T)
randn(::DeviceRNG) = randn()
randn(::DeviceRNG, ::Type{T}) where {T} = randn(T)
randexp(::DeviceRNG) = randexp()
randexp(::DeviceRNG, ::Type{T}) where {T} = randexp(T)
seed!(::DeviceRNG) = seed!()
seed!(::DeviceRNG, seed::Integer) = seed!(seed)
# rand(a:b): uniform over the range, rejecting the draws below 2^64 mod span so that no value is favoured
function rand(r::UnitRange{T}) where {T<:Integer}
    isempty(r) && throw(ArgumentError("collection must be non-empty"))
    span = (last(r) - first(r)) % UInt64 + one(UInt64)
    x = rand(UInt64)
    if span != zero(UInt64)
        t = (zero(UInt64) - span) % span
        while x < t
            x = rand(UInt64)
        end
        x = x % span
    end
    return first(r) + x % T
end
rand(::DeviceRNG, r::UnitRange) = rand(r)

# UnsafeAtomics' memory orderings and AMDGPU.jl's synchronisation scopes, as values whose types carry them:
# fence(order, scope) (builtins_atomic.c) reads both from the types. UnsafeAtomics.device is AMDGPU's agent.
struct AtomicOrdering{name} end
struct SyncScope{name} end
const unordered = AtomicOrdering{:unordered}()
const monotonic = AtomicOrdering{:monotonic}()
const acquire = AtomicOrdering{:acquire}()
const release = AtomicOrdering{:release}()
const acq_rel = AtomicOrdering{:acq_rel}()
const seq_cst = AtomicOrdering{:seq_cst}()
const syncscope_wavefront = SyncScope{:wavefront}()
const syncscope_workgroup = SyncScope{:workgroup}()
const syncscope_agent = SyncScope{:agent}()
const syncscope_system = SyncScope{:system}()
const singlethread = SyncScope{:singlethread}()
const none = SyncScope{:system}()
fence() = fence(seq_cst, syncscope_system)
fence(order::AtomicOrdering) = fence(order, syncscope_system)


# sqrt and log of complex numbers, principal branches (base/complex.jl): sqrt by Kahan's formula, which keeps
# the small part accurate; log with log1p where |z| is near 1, where log(abs(z)) would cancel
function sqrt(z::Complex{T}) where {T<:AbstractFloat}
    x = real(z)
    y = imag(z)
    if x == zero(T) && y == zero(T)
        return Complex{T}(zero(T), y)
    end
    ρ = sqrt((abs(x) + hypot(x, y)) / T(2))
    if x >= zero(T)
        return Complex{T}(ρ, y / ρ / T(2))
    end
    return Complex{T}(abs(y) / ρ / T(2), copysign(ρ, y))
end
function log(z::Complex{T}) where {T<:AbstractFloat}
    x = real(z)
    y = imag(z)
    ρ = hypot(x, y)
    re = log(ρ)
    if T(0.71) <= ρ && ρ <= T(1.73)
        re = log1p((x - one(T)) * (x + one(T)) + y * y) / T(2)
    end
    return Complex{T}(re, atan(y, x))
end
# sin, cos, tan and the hyperbolic ones of complex numbers (base/complex.jl): sin(x + iy) = sin x cosh y + i cos x
# sinh y with Base's cases for a zero or non-finite real part; sinh, cosh and tan through i z; tanh by Kahan's
# algorithm (sec² and cosh from tan and sinh), which keeps large arguments from overflowing
function sin(z::Complex{T}) where {T<:AbstractFloat}
    zr, zi = reim(z)
    zr == 0 && return Complex{T}(zr, sinh(zi))
    if !isfinite(zr)
        return zi == 0 || isinf(zi) ? Complex{T}(T(NaN), zi) : Complex{T}(T(NaN), T(NaN))
    end
    s, c = sincos(zr)
    return Complex{T}(s * cosh(zi), c * sinh(zi))
end
function cos(z::Complex{T}) where {T<:AbstractFloat}
    zr, zi = reim(z)
    zr == 0 && return Complex{T}(cosh(zi), isnan(zi) ? zr : -flipsign(zr, zi))
    if !isfinite(zr)
        zi == 0 && return Complex{T}(T(NaN), isnan(zr) ? zero(T) : -flipsign(zi, zr))
        return isinf(zi) ? Complex{T}(T(Inf), T(NaN)) : Complex{T}(T(NaN), T(NaN))
    end
    s, c = sincos(zr)
    return Complex{T}(c * cosh(zi), -s * sinh(zi))
end
function sinh(z::Complex{T}) where {T<:AbstractFloat}
    w = sin(Complex{T}(-imag(z), real(z)))
    return Complex{T}(imag(w), -real(w))
end
cosh(z::Complex{T}) where {T<:AbstractFloat} = cos(Complex{T}(-imag(z), real(z)))
function tanh(z::Complex{T}) where {T<:AbstractFloat}
    ξ, η = reim(z)
    isnan(ξ) && η == 0 && return z
    if 4 * abs(ξ) > asinh(prevfloat(typemax(T)))
        return Complex{T}(copysign(one(T), ξ), copysign(zero(T), η * (isfinite(η) ? sin(2 * abs(η)) : one(η))))
    end
    t = tan(η)
    β = 1 + t * t
    s = sinh(ξ)
    ρ = sqrt(1 + s * s)
    isinf(t) && return Complex{T}(ρ / s, 1 / t)
    return Complex{T}(β * ρ * s, t) / (1 + β * s * s)
end
function tan(z::Complex{T}) where {T<:AbstractFloat}
    w = tanh(Complex{T}(-imag(z), real(z)))
    return Complex{T}(imag(w), -real(w))
end

# ---- tuples (base/tuple.jl, base/ntuple.jl): recursion on the tail, each step a specialisation of its own
# (the length is part of the type), so that the recursion ends at compile time ----

tuple(xs...) = xs
tail(::Tuple{}) = throw(ArgumentError("Cannot call tail on an empty tuple."))
tail(t::Tuple) = _tail(t...)
_tail(x, rest...) = rest
front(::Tuple{}) = throw(ArgumentError("Cannot call front on an empty tuple."))
front(t::Tuple) = _front(t...)
_front(x) = ()
_front(x, rest...) = (x, _front(rest...)...)
first(t::Tuple) = t[1]
last(t::Tuple) = t[length(t)]
reverse(::Tuple{}) = ()
reverse(t::Tuple) = (reverse(tail(t))..., t[1])

# map(f, t...): f over the elements, as long as the shortest tuple
map(f, ::Tuple{}) = ()
map(f, t::Tuple) = (f(t[1]), map(f, tail(t))...)
map(f, ::Tuple{}, ::Tuple{}) = ()
map(f, ::Tuple, ::Tuple{}) = ()
map(f, ::Tuple{}, ::Tuple) = ()
map(f, t::Tuple, s::Tuple) = (f(t[1], s[1]), map(f, tail(t), tail(s))...)
map(f, ::Tuple{}, ::Tuple{}, ::Tuple{}) = ()
map(f, ::Tuple{}, ::Tuple, ::Tuple) = ()
map(f, ::Tuple, ::Tuple{}, ::Tuple) = ()
map(f, ::Tuple, ::Tuple, ::Tuple{}) = ()
map(f, ::Tuple{}, ::Tuple{}, ::Tuple) = ()
map(f, ::Tuple{}, ::Tuple, ::Tuple{}) = ()
map(f, ::Tuple, ::Tuple{}, ::Tuple{}) = ()
map(f, t::Tuple, s::Tuple, u::Tuple) = (f(t[1], s[1], u[1]), map(f, tail(t), tail(s), tail(u))...)

# ntuple(f, Val(N)) = (f(1), ..., f(N)); ntuple(f, n) with a constant n is the same (splat.c)
ntuple(f, ::Type{Val{N}}) where {N} = ntuple(f, Val(N)) # the form of Julia before 1.0, ntuple(Val{N}) do i ... end
ntuple(f, ::Val{0}) = ()
ntuple(f, ::Val{N}) where {N} = N < 0 ? throw(ArgumentError("tuple length should be ≥ 0, got $N")) : (ntuple(f, Val(N - 1))..., f(N))

# all / any of a tuple of Bools, short-circuiting as Julia's
all(t::Tuple{}) = true
all(t::Tuple) = t[1] && all(tail(t))
any(t::Tuple{}) = false
any(t::Tuple) = t[1] || any(tail(t))

# a .op b (the parser's broadcast(op, a, b)) over tuples and numbers: a tuple with a tuple elementwise, a
# tuple with a number each element with it (Base.Broadcast, for what kernels broadcast: index tuples)
broadcast(f, a::Number, b::Number) = f(a, b)
broadcast(f, a::Tuple, b::Tuple) = length(a) == length(b) ? map(f, a, b) :
    throw(DimensionMismatch("arrays could not be broadcast to a common size"))
broadcast(f, a::Tuple, b::Number) = _broadcast_l(f, a, b)
broadcast(f, a::Number, b::Tuple) = _broadcast_r(f, a, b)
# a type broadcasts as a scalar (unsafe_trunc.(Int32, t): DINCAE's interpolation kernel)
broadcast(f, a::Type{T}, b::Tuple) where {T} = _broadcast_r(f, a, b)
broadcast(f, a::Type{T}, b::Number) where {T} = f(a, b)
_broadcast_l(f, ::Tuple{}, b) = ()
_broadcast_l(f, a::Tuple, b) = (f(a[1], b), _broadcast_l(f, tail(a), b)...)
_broadcast_r(f, a, ::Tuple{}) = ()
_broadcast_r(f, a, b::Tuple) = (f(a, b[1]), _broadcast_r(f, a, tail(b))...)
# f.(x): f over a tuple's elements, or of a number
broadcast(f, a::Number) = f(a)
broadcast(f, a::Tuple) = map(f, a)
# f.(a, b, c) (AMDGPU.jl's reverse kernel: ifelse.(rev_dims, ref .- idx, idx)): the tuples elementwise, a number
# with each element
broadcast(f, a::Tuple, b::Tuple, c::Tuple) = length(a) == length(b) == length(c) ? map(f, a, b, c) :
    throw(DimensionMismatch("arrays could not be broadcast to a common size"))
broadcast(f, a::Number, b::Number, c::Number) = f(a, b, c)
broadcast(f, a::Tuple, b::Tuple, c::Number) = broadcast((x, y) -> f(x, y, c), a, b)
broadcast(f, a::Tuple, b::Number, c::Tuple) = broadcast((x, z) -> f(x, b, z), a, c)
broadcast(f, a::Number, b::Tuple, c::Tuple) = broadcast((y, z) -> f(a, y, z), b, c)
broadcast(f, a::Tuple, b::Number, c::Number) = broadcast(x -> f(x, b, c), a)
broadcast(f, a::Number, b::Tuple, c::Number) = broadcast(y -> f(a, y, c), b)
broadcast(f, a::Number, b::Number, c::Tuple) = broadcast(z -> f(a, b, z), c)
# of four or more numbers (FD_helpers' @maxloc: max.(a1, ..., a27)), the call itself, as Base's broadcast of
# scalars is
broadcast(f, a::Number, b::Number, c::Number, d::Number, xs::Number...) = f(a, b, c, d, xs...)

# widemul(x, y): the product in the next wider type (base/int.jl), Int64 * Int64 in Int128
widemul(x::Int64, y::Int64) = Int128(x) * Int128(y)
widemul(x::UInt64, y::UInt64) = UInt128(x) * UInt128(y)
widemul(x::Int32, y::Int32) = Int64(x) * Int64(y)
widemul(x::UInt32, y::UInt32) = UInt64(x) * UInt64(y)
# ---- higher-order functions over a tuple, range or array (base/reduce.jl, base/abstractarray.jl); f a
# function or a closure. Reductions fold left to right, as Base does below its pairwise block of 1024 ----
function all(f, itr)
    for x in itr
        f(x) || return false
    end
    return true
end
function any(f, itr)
    for x in itr
        f(x) && return true
    end
    return false
end
function foreach(f, itr)
    for x in itr
        f(x)
    end
    return nothing
end
function foreach(f, a, b)
    for (x, y) in zip(a, b)
        f(x, y)
    end
    return nothing
end
function count(f, itr; init = 0)
    n = init
    for x in itr
        n += f(x)::Bool
    end
    return n
end
count(itr) = count(identity, itr)
# findfirst(f, itr): the index of the first element where f is true, or nothing
function findfirst(f, t::Tuple)
    for i in 1:length(t)
        f(t[i]) && return i
    end
    return nothing
end
# of an array, a key of it as Julia's keys(A) has them: an Int of a vector, a CartesianIndex of more dims
_find_key(A::AbstractVector, k) = k
_find_key(A::AbstractArray, k) = CartesianIndices(size(A))[k]
function findfirst(f, A::AbstractArray)
    for k in 1:length(A)
        f(A[k]) && return _find_key(A, k)
    end
    return nothing
end
function findlast(f, t::Tuple)
    for i in length(t):-1:1
        f(t[i]) && return i
    end
    return nothing
end
function findlast(f, A::AbstractArray)
    for k in length(A):-1:1
        f(A[k]) && return _find_key(A, k)
    end
    return nothing
end
# findnext(f, v, i), findprev(f, v, i): from index i on (back); nothing when none is found
function findnext(f, v::Union{Tuple, AbstractVector}, i::Integer)
    for k in max(Int64(i), 1):length(v)
        f(v[k]) && return k
    end
    return nothing
end
function findprev(f, v::Union{Tuple, AbstractVector}, i::Integer)
    for k in min(Int64(i), length(v)):-1:1
        f(v[k]) && return k
    end
    return nothing
end
# findfirst(t), findlast(t) of Bools: the first or last true one's index (AMDGPU.jl's reverse! finds the
# last dimension it reverses so)
findfirst(t::Union{Tuple, AbstractArray}) = findfirst(identity, t)
findlast(t::Union{Tuple, AbstractArray}) = findlast(identity, t)
findnext(v::Union{Tuple, AbstractVector}, i::Integer) = findnext(identity, v, i)
findprev(v::Union{Tuple, AbstractVector}, i::Integer) = findprev(identity, v, i)
# Base.Fix1 and Fix2, the functions that one-argument comparisons make (==(x), <(x), isequal(x))
struct Fix1{F, T}
    f::F
    x::T
end
struct Fix2{F, T}
    f::F
    x::T
end
(f::Fix1)(y) = f.f(f.x, y)
(f::Fix2)(y) = f.f(y, f.x)
==(x::Any) = Fix2(==, x)
!=(x::Any) = Fix2(!=, x)
<(x::Any) = Fix2(<, x)
<=(x::Any) = Fix2(<=, x)
>(x::Any) = Fix2(>, x)
>=(x::Any) = Fix2(>=, x)
isequal(x) = Fix2(isequal, x)
# Base.add_sum and mul_prod: sums and products of small integers and Bools widen to Int64 (UInt64)
_add_sum(x, y) = x + y
_mul_prod(x, y) = x * y
_widen_small(x) = x
_widen_small(x::Bool) = Int64(x)
_widen_small(x::Int8) = Int64(x)
_widen_small(x::Int16) = Int64(x)
_widen_small(x::Int32) = Int64(x)
_widen_small(x::UInt8) = UInt64(x)
_widen_small(x::UInt16) = UInt64(x)
_widen_small(x::UInt32) = UInt64(x)
_reduce_first(op, x) = x
_reduce_first(::typeof(_add_sum), x) = _widen_small(x)
_reduce_first(::typeof(_mul_prod), x) = _widen_small(x)
struct _NoInit
end
mapreduce(f, op, itr; init = _NoInit()) = _mapreduce(f, op, itr, init)
mapreduce(f, op, a, b; init = _NoInit()) = _mapreduce(t -> f(t[1], t[2]), op, zip(a, b), init)
_mapreduce(f, op, t::Tuple, init) = _mapreduce_tuple(f, op, t, init)
_mapreduce(f, op, itr, init) = _mapreduce_iter(f, op, itr, init)
# a tuple unrolls, so its elements may differ in type
_mapreduce_tuple(f, op, ::Tuple{}, ::_NoInit) =
    throw(ArgumentError("reducing over an empty collection is not allowed; consider supplying `init` to the reducer"))
_mapreduce_tuple(f, op, t::Tuple, ::_NoInit) = _mapfold_t(f, op, _reduce_first(op, f(t[1])), tail(t))
_mapreduce_tuple(f, op, t::Tuple, init) = _mapfold_t(f, op, init, t)
_mapfold_t(f, op, v, ::Tuple{}) = v
_mapfold_t(f, op, v, t::Tuple) = _mapfold_t(f, op, op(v, f(t[1])), tail(t))
# the first element, or the error of an empty reduction
function _first_elem(itr)
    for x in itr
        return x
    end
    throw(ArgumentError("reducing over an empty collection is not allowed; consider supplying `init` to the reducer"))
end
function _mapreduce_iter(f, op, itr, ::_NoInit)
    v = _reduce_first(op, f(_first_elem(itr)))
    rest = false
    for x in itr
        if rest
            v = op(v, f(x))
        end
        rest = true
    end
    return v
end
function _mapreduce_iter(f, op, itr, init)
    v = init
    for x in itr
        v = op(v, f(x))
    end
    return v
end
reduce(op, itr; init = _NoInit()) = _mapreduce(identity, op, itr, init)
sum(f, itr; init = _NoInit()) = _mapreduce(f, _add_sum, itr, init)
prod(f, itr; init = _NoInit()) = _mapreduce(f, _mul_prod, itr, init)
maximum(f, itr; init = _NoInit()) = _mapreduce(f, max, itr, init)
minimum(f, itr; init = _NoInit()) = _mapreduce(f, min, itr, init)
# a number iterates as its one element: sum(x) is x (a small integer widened as add_sum widens it), and so
# on (AMDGPU.jl's degree-trigonometry test sums what sind or sincosd gives)
sum(x::Number) = _reduce_first(_add_sum, x)
prod(x::Number) = _reduce_first(_mul_prod, x)
maximum(x::Number) = x
minimum(x::Number) = x
foldl(op, itr; init = _NoInit()) = _mapreduce(identity, op, itr, init)
mapfoldl(f, op, itr; init = _NoInit()) = _mapreduce(f, op, itr, init)

# AMDGPU.jl's address spaces (AMDGPU.AS.Local, lowering reads AS.x as AS_x) and alloc_special(Val(id), T,
# Val(as), Val(len)): a Core.LLVMPtr{T,as} to len elements of static memory of the kernel, one allocation per
# (id, T, as, len). Local memory (LDS) is the only space it allocates; AMDGPU.jl itself leaves :region and
# :private unimplemented, so those have no method.
const AS_Generic = 0
const AS_Global = 1
const AS_Region = 2
const AS_Local = 3
const AS_Constant = 4
const AS_Private = 5
# C_NULL, what malloc returns when the device heap is full (p == C_NULL compares addresses)
const C_NULL = reinterpret(Ptr{Cvoid}, UInt64(0))
alloc_special(::Val{id}, ::Type{T}, ::Val{3}, ::Val{len}) where {id, T, len} =
    pointer(@ROCStaticLocalArray(T, len, false))
alloc_special(::Val{id}, ::Type{T}, ::Val{3}, ::Val{len}, ::Val{zeroinit}) where {id, T, len, zeroinit} =
    pointer(@ROCStaticLocalArray(T, len, zeroinit))
# a length of 0 is the launch's dynamic local memory (AMDGPU.jl declares a zero-length extern array: the
# memory `@roc shmem=` / `localmem=` gives, as @ROCDynamicLocalArray uses)
alloc_special(::Val{id}, ::Type{T}, ::Val{3}, ::Val{0}) where {id, T} = pointer(@ROCDynamicLocalArray(T, 0, false))
alloc_special(::Val{id}, ::Type{T}, ::Val{3}, ::Val{0}, ::Val{zeroinit}) where {id, T, zeroinit} =
    pointer(@ROCDynamicLocalArray(T, 0, false))

# @ROCDynamicLocalArray(T, dims, zeroinit, offset) (AMDGPU.jl 0.5, compiler/lower.c): the array at offset bytes
# into the launch's dynamic local memory, zeroed by the group (then a barrier) when zeroinit is true
__dynamic_local(::Type{T}, dims, ::Val{false}, offset::Integer) where {T} =
    ROCDeviceArray(dims, pointer(@ROCDynamicLocalArray(T, 0, false)) + offset)
function __dynamic_local(::Type{T}, dims, ::Val{true}, offset::Integer) where {T}
    A = ROCDeviceArray(dims, pointer(@ROCDynamicLocalArray(T, 0, false)) + offset)
    for i in 1:length(A)
        @inbounds A[i] = zero(T)
    end
    sync_workgroup()
    return A
end

# AMDGPUnative's (AMDGPU.jl's device half before 2020) indexing, one function per dimension:
# workitemIdx_x() is workitemIdx().x, workitemDim_x() the workgroup's size and workgroupDim_x() the
# grid's size in work-items (its test launches groupsize=(1,2,3) gridsize=(4,5,6) and reads 1:6).
workitemIdx_x() = workitemIdx().x
workitemIdx_y() = workitemIdx().y
workitemIdx_z() = workitemIdx().z
workgroupIdx_x() = workgroupIdx().x
workgroupIdx_y() = workgroupIdx().y
workgroupIdx_z() = workgroupIdx().z
workitemDim_x() = workgroupDim().x
workitemDim_y() = workgroupDim().y
workitemDim_z() = workgroupDim().z
workgroupDim_x() = gridDim().x
workgroupDim_y() = gridDim().y
workgroupDim_z() = gridDim().z

# ---- more of Base's numbers (base/math.jl, base/intfuncs.jl, base/float.jl, base/int.jl), as kernels call
# them (docs/api-coverage.md lists each name and its test) ----

divrem(x, y) = (div(x, y), rem(x, y))
fldmod(x, y) = (fld(x, y), mod(x, y))
cmp(x::Integer, y::Integer) = x < y ? -1 : (x > y ? 1 : 0)
# floats in isless order: -0.0 before 0.0, NaN after everything (and equal to itself)
function cmp(x::AbstractFloat, y::AbstractFloat)
    isnan(x) && return isnan(y) ? 0 : 1
    isnan(y) && return -1
    x < y && return -1
    x > y && return 1
    return signbit(y) - signbit(x)
end
nand(x, y) = !(x & y)
nor(x, y) = !(x | y)
isinteger(x::Integer) = true
isinteger(x::AbstractFloat) = x - trunc(x) == 0
isreal(x::Real) = true
isreal(z::Complex) = iszero(imag(z))
ispow2(x::Integer) = x > 0 && count_ones(x) == 1
trailing_ones(x::Integer) = trailing_zeros(~x)
leading_ones(x::Integer) = leading_zeros(~x)
# gcd by Euclid's algorithm on the magnitudes (Julia's binary algorithm gives the same value); lcm from it
function gcd(a::T, b::T) where {T<:Integer}
    while b != 0
        a, b = b, rem(a, b)
    end
    return abs(a)
end
gcd(a::Integer, b::Integer) = gcd(promote(a, b)...)
lcm(a::T, b::T) where {T<:Integer} = a == 0 ? a : abs(a * div(b, gcd(b, a)))
lcm(a::Integer, b::Integer) = lcm(promote(a, b)...)
# isqrt: the float square root, corrected by one Newton step (the float has too few bits for 64-bit x)
function isqrt(x::Integer)
    x < 0 && throw(DomainError(x, "isqrt(x) is not defined for negative x."))
    x == 0 && return x
    s = oftype(x, trunc(sqrt(Float64(x))))
    sizeof(x) < 8 && return s
    s = (s + div(x, s)) >> 1
    return s * s > x ? s - one(s) : s
end
# nextpow(a, x): the least a^n >= x; prevpow(a, x): the greatest a^n <= x (integers)
function nextpow(a::Integer, x::Integer)
    x <= 0 && throw(DomainError(x, "`x` must be positive."))
    a <= 1 && throw(DomainError(a, "`a` must be greater than 1."))
    p = one(x)
    while p < x
        p *= oftype(x, a)
    end
    return p
end
function prevpow(a::Integer, x::Integer)
    x < 1 && throw(DomainError(x, "`x` must be ≥ 1."))
    a <= 1 && throw(DomainError(a, "`a` must be greater than 1."))
    p = one(x)
    while div(x, oftype(x, a)) >= p
        p *= oftype(x, a)
    end
    return p
end
function ndigits(x::Integer; base::Integer = 10, pad::Integer = 1)
    n = 0
    while true
        n += 1
        x = div(x, base)
        x == 0 && break
    end
    return max(n, pad)
end
# bitreverse: the bits of each byte reversed (pairs, nibbles), then the bytes (bswap)
function bitreverse(x::Integer)
    u = unsigned(x)
    m = typemax(typeof(u)) ÷ oftype(u, 3)
    u = ((u >> 1) & m) | ((u & m) << 1)
    m = typemax(typeof(u)) ÷ oftype(u, 5)
    u = ((u >> 2) & m) | ((u & m) << 2)
    m = typemax(typeof(u)) ÷ oftype(u, 17)
    u = ((u >> 4) & m) | ((u & m) << 4)
    return bswap(u) % typeof(x)
end
function bitrotate(x::Integer, k::Integer)
    n = 8 * sizeof(x) - 1
    return (x << (n & k)) | (x >>> (n & -k))
end
widen(x::Int8) = Int16(x)
widen(x::Int16) = Int32(x)
widen(x::Int32) = Int64(x)
widen(x::Int64) = Int128(x)
widen(x::UInt8) = UInt16(x)
widen(x::UInt16) = UInt32(x)
widen(x::UInt32) = UInt64(x)
widen(x::UInt64) = UInt128(x)
widen(x::Float16) = Float32(x)
widen(x::Float32) = Float64(x)
widen(x::Float64) = x
widen(x::Bool) = Int64(x)
# signed(T) and unsigned(T) of an integer type: the type of that signedness (Base's; AcceleratedKernels writes
# signed(typeof(i))(i))
signed(::Type{T}) where {T<:Signed} = T
signed(::Type{UInt8}) = Int8
signed(::Type{UInt16}) = Int16
signed(::Type{UInt32}) = Int32
signed(::Type{UInt64}) = Int64
signed(::Type{UInt128}) = Int128
unsigned(::Type{T}) where {T<:Unsigned} = T
unsigned(::Type{Int8}) = UInt8
unsigned(::Type{Int16}) = UInt16
unsigned(::Type{Int32}) = UInt32
unsigned(::Type{Int64}) = UInt64
unsigned(::Type{Int128}) = UInt128
# clamp(x, T): x limited to T's range, in T
clamp(x::Integer, ::Type{T}) where {T<:Integer} = x < typemin(T) ? typemin(T) : (x > typemax(T) ? typemax(T) : x % T)

# the bits of a float: its unsigned integer, fraction bits, exponent bits, bias
_fbits(x::Float16) = reinterpret(UInt16, x)
_fbits(x::Float32) = reinterpret(UInt32, x)
_fbits(x::Float64) = reinterpret(UInt64, x)
_ffrombits(x::Float16, u) = reinterpret(Float16, u % UInt16)
_ffrombits(x::Float32, u) = reinterpret(Float32, u % UInt32)
_ffrombits(x::Float64, u) = reinterpret(Float64, u % UInt64)
_sigbits(x::Float16) = 10
_sigbits(x::Float32) = 23
_sigbits(x::Float64) = 52
_expbits(x::AbstractFloat) = 8 * sizeof(x) - 1 - _sigbits(x)
_bias(x::AbstractFloat) = (1 << (_expbits(x) - 1)) - 1
floatmin(::Type{Float16}) = reinterpret(Float16, 0x0400)
floatmin(::Type{Float32}) = reinterpret(Float32, 0x00800000)
floatmin(::Type{Float64}) = reinterpret(Float64, 0x0010000000000000)
floatmax(::Type{Float16}) = reinterpret(Float16, 0x7bff)
floatmax(::Type{Float32}) = reinterpret(Float32, 0x7f7fffff)
floatmax(::Type{Float64}) = reinterpret(Float64, 0x7fefffffffffffff)
floatmin(x::AbstractFloat) = floatmin(typeof(x))
floatmax(x::AbstractFloat) = floatmax(typeof(x))
maxintfloat(::Type{T}) where {T<:AbstractFloat} = _maxintfloat(zero(T))
maxintfloat(x::AbstractFloat) = _maxintfloat(x)
# by the bits, as Julia tests them (a comparison would see a flushed subnormal as zero)
function issubnormal(x::AbstractFloat)
    u = _fbits(abs(x))
    return u >> _sigbits(x) == 0 && u != 0
end
function isnormal(x::AbstractFloat)
    e = _fbits(abs(x)) >> _sigbits(x)
    return e != 0 && e != (one(e) << _expbits(x)) - one(e)
end
# exponent(x): the power of 2 of x's leading bit (subnormals too); ±0, Inf and NaN are Julia's DomainErrors
function exponent(x::AbstractFloat)
    u = _fbits(abs(x))
    e = Int64(u >> _sigbits(x))
    e == (1 << _expbits(x)) - 1 && throw(DomainError(x, "Cannot be NaN or Inf."))
    if e == 0
        u == 0 && throw(DomainError(x, "Cannot be ±0.0."))
        e = 1 - (leading_zeros(u) - _expbits(x))
    end
    return e - _bias(x)
end
# the fraction bits of a finite nonzero float, the leading bit made explicit by shifting subnormals up, and
# its exponent: (bits without sign and exponent, unbiased exponent)
function _fsplit(x::AbstractFloat)
    u = _fbits(abs(x))
    e = Int64(u >> _sigbits(x))
    if e == 0
        m = leading_zeros(u) - _expbits(x)
        return ((u << m) & ((one(u) << _sigbits(x)) - one(u)), 1 - m - _bias(x))
    end
    return (u & ((one(u) << _sigbits(x)) - one(u)), e - _bias(x))
end
# significand(x): x scaled into [1, 2), sign kept; ±0, Inf and NaN are themselves
function significand(x::AbstractFloat)
    (iszero(x) || !isfinite(x)) && return x
    f, e = _fsplit(x)
    return copysign(_ffrombits(x, f | (oftype(f, _bias(x)) << _sigbits(x))), x)
end
# frexp(x): (m, e) with x == m * 2^e and 0.5 <= |m| < 1; ±0, Inf and NaN give (x, 0)
function frexp(x::AbstractFloat)
    (iszero(x) || !isfinite(x)) && return (x, 0)
    f, e = _fsplit(x)
    return (copysign(_ffrombits(x, f | (oftype(f, _bias(x) - 1) << _sigbits(x))), x), e + 1)
end
# logb and ilogb (C's, AMDGPU.Device's ocml functions): the exponent as a float / an Int32
logb(x::AbstractFloat) = isnan(x) ? x : (isinf(x) ? abs(x) : (iszero(x) ? -oftype(x, Inf) : oftype(x, exponent(x))))
ilogb(x::AbstractFloat) = isnan(x) || iszero(x) ? typemin(Int32) : (isinf(x) ? typemax(Int32) : Int32(exponent(x)))
function modf(x::AbstractFloat)
    isinf(x) && return (copysign(zero(x), x), x)
    i = trunc(x)
    return (copysign(x - i, x), i)
end
# nextfloat(x, n) / prevfloat(x, n): n steps along the floats (saturating at ±Inf), as Base counts them
function nextfloat(x::AbstractFloat, d::Integer)
    isnan(x) && return x
    mag = _fbits(abs(x))
    inf = _fbits(oftype(x, Inf))
    U = typeof(mag)
    neg = signbit(x)
    du = d < 0 ? UInt64(0) - d % UInt64 : d % UInt64
    if du > inf
        neg = d < 0
        mag = inf
    elseif neg != (d < 0)
        if du % U > mag # past zero to the other side
            mag = min(inf, du % U - mag)
            neg = !neg
        else
            mag -= du % U
        end
    else
        mag = inf - mag < du % U ? inf : mag + du % U
    end
    return _ffrombits(x, neg ? mag | (one(U) << (8 * sizeof(U) - 1)) : mag)
end
prevfloat(x::AbstractFloat, d::Integer) = nextfloat(x, -d)
nextafter(x::AbstractFloat, y::AbstractFloat) = isnan(x) || isnan(y) ? x + y : (x < y ? nextfloat(x) : (x > y ? prevfloat(x) : y))

# trigonometry by definition (base/math.jl: sec(x) = inv(cos(x)), ...), degrees, powers
sec(x::Number) = inv(cos(x))
csc(x::Number) = inv(sin(x))
cot(x::Number) = inv(tan(x))
asec(y::Number) = acos(inv(y))
acsc(y::Number) = asin(inv(y))
acot(y::Number) = atan(inv(y))
sech(x::Number) = inv(cosh(x))
csch(x::Number) = inv(sinh(x))
coth(x::Number) = inv(tanh(x))
asech(y::Number) = acosh(inv(y))
acsch(y::Number) = asinh(inv(y))
acoth(y::Number) = atanh(inv(y))
deg2rad(z::AbstractFloat) = z * (oftype(z, pi) / oftype(z, 180))
rad2deg(z::AbstractFloat) = z * (oftype(z, 180) / oftype(z, pi))
deg2rad(z::Real) = deg2rad(float(z))
# sind, cosd, tand, sincosd: Base's exact reduction (rem(x, 360) and the quadrant by subtraction, so sind(180) is
# 0.0 and sind(90) is 1.0 exactly), then sin or cos of the degrees converted in two parts (x * π/180 and its
# rounding error, from fma and π/180's own tail): within an ulp of the exact value, where Julia's own kernels are
function _degrad(r::Float64)
    p = r * 0.017453292519943295
    return (p, fma(r, 0.017453292519943295, -p) + r * 2.9486522708701687e-19)
end
function _sind_kernel(r::Float64)
    p, lo = _degrad(r)
    return sin(p) + cos(p) * lo
end
function _cosd_kernel(r::Float64)
    p, lo = _degrad(r)
    return cos(p) - sin(p) * lo
end
function sind(x::Float64)
    isinf(x) && throw(DomainError(x, "`x` cannot be infinite."))
    isnan(x) && return x
    rx = copysign(rem(x, 360.0), x)
    arx = abs(rx)
    rx == 0.0 && return rx
    arx < 45.0 && return _sind_kernel(rx)
    arx <= 135.0 && return copysign(_cosd_kernel(90.0 - arx), rx)
    arx == 180.0 && return copysign(0.0, rx)
    arx < 225.0 && return _sind_kernel((180.0 - arx) * sign(rx))
    arx <= 315.0 && return -copysign(_cosd_kernel(270.0 - arx), rx)
    return _sind_kernel(rx - copysign(360.0, rx))
end
function cosd(x::Float64)
    isinf(x) && throw(DomainError(x, "`x` cannot be infinite."))
    isnan(x) && return x
    rx = abs(rem(x, 360.0))
    rx <= 45.0 && return _cosd_kernel(rx)
    rx < 135.0 && return _sind_kernel(90.0 - rx)
    rx <= 225.0 && return -_cosd_kernel(180.0 - rx)
    rx < 315.0 && return _sind_kernel(rx - 270.0)
    return _cosd_kernel(360.0 - rx)
end
sind(x::Union{Float16, Float32}) = oftype(x, sind(Float64(x)))
cosd(x::Union{Float16, Float32}) = oftype(x, cosd(Float64(x)))
sind(x::Integer) = sind(Float64(x))
cosd(x::Integer) = cosd(Float64(x))
tand(x::Real) = sind(x) / cosd(x)
sincosd(x::Real) = (sind(x), cosd(x))
secd(x::Real) = inv(cosd(x))
cscd(x::Real) = inv(sind(x))
cotd(x::Real) = inv(tand(x))
# the inverse functions in degrees, as Base defines them: rad2deg of the inverse in radians
asind(y::Number) = rad2deg(asin(y))
acosd(y::Number) = rad2deg(acos(y))
atand(y::Number) = rad2deg(atan(y))
atand(y::Real, x::Real) = rad2deg(atan(y, x))
asecd(y::Number) = rad2deg(asec(y))
acscd(y::Number) = rad2deg(acsc(y))
acotd(y::Number) = rad2deg(acot(y))
rad2deg(z::Real) = rad2deg(float(z))
fourthroot(x::Number) = sqrt(sqrt(x))
log(b::Number, x::Number) = log(float(x + zero(b))) / log(float(b + zero(x)))
function hypot(x::Number, y::Number, z::Number)
    a, b, c = float(abs(x)), float(abs(y)), float(abs(z))
    m = max(a, b, c)
    (isinf(a) || isinf(b) || isinf(c)) && return oftype(m, Inf)
    (isnan(m) || iszero(m)) && return m
    return m * sqrt(abs2(a / m) + abs2(b / m) + abs2(c / m))
end
# isapprox(x, y) (x ≈ y): equal, or within rtol = √eps of the larger magnitude (atol = 0), as Base's defaults
_rtoldefault(x::AbstractFloat, atol) = atol > 0 ? zero(x) : sqrt(eps(typeof(x)))
_rtoldefault(x::Integer, atol) = 0
function isapprox(x::Number, y::Number; atol::Real = 0, rtol::Real = _rtoldefault(real(x + y), atol))
    x == y && return true
    return isfinite(x) && isfinite(y) && abs(x - y) <= max(atol, rtol * max(abs(x), abs(y)))
end

# RoundingMode values and the rounding functions that take one
struct RoundingMode{name} end
const RoundNearest = RoundingMode{:Nearest}()
const RoundToZero = RoundingMode{:ToZero}()
const RoundUp = RoundingMode{:Up}()
const RoundDown = RoundingMode{:Down}()
const RoundNearestTiesAway = RoundingMode{:NearestTiesAway}()
const RoundFromZero = RoundingMode{:FromZero}()
round(x::AbstractFloat, ::RoundingMode{:Nearest}) = round(x)
round(x::AbstractFloat, ::RoundingMode{:ToZero}) = trunc(x)
round(x::AbstractFloat, ::RoundingMode{:Up}) = ceil(x)
round(x::AbstractFloat, ::RoundingMode{:Down}) = floor(x)
round(x::AbstractFloat, ::RoundingMode{:FromZero}) = signbit(x) ? floor(x) : ceil(x)
round(x::AbstractFloat, ::RoundingMode{:NearestTiesAway}) = trunc(x + copysign(prevfloat(oftype(x, 0.5)), x))
round(x::Integer, ::RoundingMode) = x
round(::Type{T}, x::Real, r::RoundingMode) where {T<:Integer} = convert(T, round(float(x), r))
div(x::Integer, y::Integer, ::RoundingMode{:ToZero}) = div(x, y)
div(x::Integer, y::Integer, ::RoundingMode{:Down}) = fld(x, y)
div(x::Integer, y::Integer, ::RoundingMode{:Up}) = cld(x, y)
rem(x::Integer, y::Integer, ::RoundingMode{:ToZero}) = rem(x, y)
rem(x::Integer, y::Integer, ::RoundingMode{:Down}) = mod(x, y)
rem(x::Integer, y::Integer, ::RoundingMode{:Up}) = x - cld(x, y) * y

# ---- tuples: extrema, arg- and find- max/min, accumulate, Base.setindex ----
extrema(t::Tuple) = (minimum(t), maximum(t))
extrema(f, t::Tuple) = extrema(map(f, t))
# the first greatest (least) element and its index; a NaN is the greatest and the least, as isless has it for
# findmax and Base's isgreater for findmin
# (one walk for both: `greatest` picks the comparison; a NaN, once met, is kept); of f(x) for each x, with
# the linear index of the x
function _findextreme(f, t, greatest)
    m = f(t[1])
    k = 1
    for i in 2:length(t)
        v = f(t[i])
        if !(m != m) && (v != v || (greatest ? m < v : v < m))
            m = v
            k = i
        end
    end
    return (m, k)
end
# findmax(A) and findmin(A) of an array give its key (a CartesianIndex of a matrix); argmax(f, itr) and
# argmin(f, itr) the element itself whose f is the extreme, as Julia's do
_find_key(t::Tuple, k) = k
function _findextreme_key(f, t, greatest)
    m, k = _findextreme(f, t, greatest)
    return (m, _find_key(t, k))
end
findmax(t::Union{Tuple, AbstractArray}) = _findextreme_key(identity, t, true)
findmin(t::Union{Tuple, AbstractArray}) = _findextreme_key(identity, t, false)
findmax(f, t::Union{Tuple, AbstractArray}) = _findextreme_key(f, t, true)
findmin(f, t::Union{Tuple, AbstractArray}) = _findextreme_key(f, t, false)
argmax(t::Union{Tuple, AbstractArray}) = findmax(t)[2]
argmin(t::Union{Tuple, AbstractArray}) = findmin(t)[2]
argmax(f, t::Union{Tuple, AbstractArray}) = t[_findextreme(f, t, true)[2]]
argmin(f, t::Union{Tuple, AbstractArray}) = t[_findextreme(f, t, false)[2]]
accumulate(op, ::Tuple{}) = ()
accumulate(op, t::Tuple) = _accumulate(op, (_reduce_first(op, t[1]),), tail(t))
_accumulate(op, acc, ::Tuple{}) = acc
_accumulate(op, acc, t::Tuple) = _accumulate(op, (acc..., op(acc[length(acc)], t[1])), tail(t))
cumsum(t::Tuple) = accumulate(_add_sum, t)
cumprod(t::Tuple) = accumulate(_mul_prod, t)
function setindex(t::Tuple, v, i::Integer)
    1 <= i <= length(t) || throw(BoundsError(t, i))
    return _tuple_set(v, i, 1, t...)
end
_tuple_set(v, i, k) = ()
_tuple_set(v, i, k, x, rest...) = (ifelse(k == i, convert(typeof(x), v), x), _tuple_set(v, i, k + 1, rest...)...)
promote_type(::Type{T}, ::Type{T}) where {T} = T
promote_type(::Type{T}, ::Type{S}) where {T, S} = typeof(zero(T) + zero(S))

# checkbounds(A, I...) throws Julia's BoundsError where A[I...] would; checkbounds(Bool, A, I...) says whether
checkbounds(::Type{Bool}, A::AbstractArray, i::Integer) = 1 <= i <= length(A)
checkbounds(::Type{Bool}, A::AbstractArray, i::Integer, j::Integer) = 1 <= i <= size(A, 1) && 1 <= j <= div(length(A), size(A, 1))
checkbounds(::Type{Bool}, A::AbstractArray, i::Integer, j::Integer, k::Integer) =
    1 <= i <= size(A, 1) && 1 <= j <= size(A, 2) && 1 <= k <= div(length(A), size(A, 1) * size(A, 2))
checkbounds(::Type{Bool}, A::AbstractArray, I::Tuple) = checkbounds(Bool, A, I...)
# (the checked read that A[I...] does raises the BoundsError, with the array's dims in its message)
function checkbounds(A::AbstractArray, i::Integer)
    A[i]
    return nothing
end
function checkbounds(A::AbstractArray, i::Integer, j::Integer)
    A[i, j]
    return nothing
end
function checkbounds(A::AbstractArray, i::Integer, j::Integer, k::Integer)
    A[i, j, k]
    return nothing
end
checkbounds(A::AbstractArray, I::Tuple) = checkbounds(A, I...)

# ---- AMDGPU.Device's math functions that Base does not name (src/device/gcn/math.jl: ocml's rsqrt, recip,
# pown, ...), called as AMDGPU.Device.f(x) ----
rsqrt(x::AbstractFloat) = inv(sqrt(x))
rcbrt(x::AbstractFloat) = inv(cbrt(x))
recip(x::AbstractFloat) = inv(x)
rsqrt_fast(x::AbstractFloat) = inv(sqrt(x))
recip_fast(x::AbstractFloat) = inv(x)
nearbyint(x::AbstractFloat) = round(x)
tgamma(x::AbstractFloat) = gamma(x)
# SpecialFunctions' erfinv, erfcinv and erfcx (also AMDGPU.Device's ocml wrappers), on every device alike: Giles'
# single-precision approximation of erfinv (w = -log((1 - x)(1 + x)), a polynomial in w or in sqrt(w)) as the start,
# then Halley steps on erf(z) = x in Float64 (on erfc(z) = 1 - |x| from |x| = 0.5 on, which keeps the tail's
# digits), Float32 and Float16 rounded from that
function _erfinv_guess(x::Float64, w::Float64)
    if w < 5.0
        w -= 2.5
        p = evalpoly(w, (1.50140941, 0.246640727, -0.00417768164, -0.00125372503, 0.00021858087,
                         -4.39150654e-6, -3.5233877e-6, 3.43273939e-7, 2.81022636e-8))
    else
        w = sqrt(w) - 3.0
        p = evalpoly(w, (2.83297682, 1.00167406, 0.00943887047, -0.0076224613, 0.00573950773,
                         -0.00367342844, 0.00134934322, 0.000100950558, -0.000200214257))
    end
    return p * x
end
# z with erfc(z) = y (tail) or erf(z) = y, refined from z by Halley's method: f'' = -2z f'
function _erf_solve(z::Float64, y::Float64, tail::Bool, steps)
    for k in 1:steps
        f = tail ? y - erfc(z) : erf(z) - y
        d = f / (1.1283791670955126 * exp(-z * z))
        z -= d / (1.0 + z * d)
    end
    return z
end
function erfinv(x::Float64)
    a = abs(x)
    if a >= 1.0
        x == 1.0 && return Inf
        x == -1.0 && return -Inf
        throw(DomainError(a, "`abs(x)` cannot be greater than 1."))
    end
    z = _erfinv_guess(a, -log((1.0 - a) * (1.0 + a)))
    z = a < 0.5 ? _erf_solve(z, a, false, 2) : _erf_solve(z, 1.0 - a, true, 2)
    return copysign(z, x)
end
# erfcinv(y) = erfinv(1 - y), solved on erfc itself so that a tiny y keeps its digits
function erfcinv(y::Float64)
    if y <= 0.0 || y >= 2.0
        y == 0.0 && return Inf
        y == 2.0 && return -Inf
        y < 0.0 && throw(DomainError(y, "`y` must be nonnegative."))
        throw(DomainError(abs(1.0 - y), "`abs(x)` cannot be greater than 1."))
    end
    isnan(y) && return y
    t = y > 1.0 ? 2.0 - y : y # erfc(-z) = 2 - erfc(z)
    z = _erfinv_guess(1.0 - t, -log(t * (2.0 - t)))
    z = _erf_solve(z, t, true, 2)
    return y > 1.0 ? -z : z
end
# erfcx(x) = exp(x^2) erfc(x): exp of x^2 split exactly in two (fma), and past x = 26 (where erfc underflows) the
# asymptotic series 1/(x√π) (1 - 1/(2x^2) + 3/(2x^2)^2 - 15/(2x^2)^3 + ...)
function erfcx(x::Float64)
    isnan(x) && return x
    if x < 26.0
        h = x * x
        l = fma(x, x, -h)
        return exp(h) * (erfc(x) + erfc(x) * l)
    end
    v = 1.0 / (2.0 * x * x)
    s = 1.0
    t = 1.0
    for k in 1:10
        t *= -(2k - 1) * v
        s += t
    end
    return s / (x * 1.7724538509055159)
end
erfinv(x::Float32) = Float32(erfinv(Float64(x)))
erfcinv(x::Float32) = Float32(erfcinv(Float64(x)))
erfcx(x::Float32) = Float32(erfcx(Float64(x)))
erfinv(x::Float16) = Float16(erfinv(Float64(x)))
erfcinv(x::Float16) = Float16(erfcinv(Float64(x)))
erfcx(x::Float16) = Float16(erfcx(Float64(x)))
erfinv(x::Integer) = erfinv(float(x))
erfcinv(x::Integer) = erfcinv(float(x))
erfcx(x::Integer) = erfcx(float(x))

# SpecialFunctions' loggamma(x): log(gamma(x)), a DomainError where gamma(x) < 0 (lgamma is log|gamma(x)|)
function loggamma(x::AbstractFloat)
    x < 0 && isodd(unsafe_trunc(Int64, floor(x))) && x > -maxintfloat(typeof(x)) &&
        throw(DomainError(x, "`gamma(x)` must be non-negative"))
    return lgamma(x)
end
loggamma(x::Integer) = loggamma(float(x))
atan2(y::AbstractFloat, x::AbstractFloat) = atan(y, x)
asinpi(x::AbstractFloat) = asin(x) / oftype(x, pi)
acospi(x::AbstractFloat) = acos(x) / oftype(x, pi)
atanpi(x::AbstractFloat) = atan(x) / oftype(x, pi)
atan2pi(y::AbstractFloat, x::AbstractFloat) = atan(y, x) / oftype(x, pi)
pow(x::AbstractFloat, y::AbstractFloat) = x^y
powr(x::AbstractFloat, y::AbstractFloat) = x^y
pown(x::AbstractFloat, n::Integer) = x^n
# AMDGPU.jl's per-dimension indexing (src/device/gcn/indexing.jl): threadIdx_x() is workitemIdx().x, gridDim_x()
# the grid's size in work-items, gridDimWG_x() in workgroups (AMDGPUnative's workitemDim_x/workgroupDim_x above)
threadIdx_x() = workitemIdx().x
threadIdx_y() = workitemIdx().y
threadIdx_z() = workitemIdx().z
blockIdx_x() = workgroupIdx().x
blockIdx_y() = workgroupIdx().y
blockIdx_z() = workgroupIdx().z
blockDim_x() = workgroupDim().x
blockDim_y() = workgroupDim().y
blockDim_z() = workgroupDim().z
gridDim_x() = gridItemDim().x
gridDim_y() = gridItemDim().y
gridDim_z() = gridItemDim().z
gridDimWG_x() = gridGroupDim().x
gridDimWG_y() = gridGroupDim().y
gridDimWG_z() = gridGroupDim().z
# AMDGPU.jl's wavefront functions by their ocml names (src/device/gcn/wavefront.jl): wfred_add(x) is
# wfred(+, x), wfscan_max(x, inclusive) wfscan(max, x, inclusive), wfbcast(x, i) lane i's x
wfred_add(x) = wfred(+, x)
wfred_max(x) = wfred(max, x)
wfred_min(x) = wfred(min, x)
wfred_and(x) = wfred(&, x)
wfred_or(x) = wfred(|, x)
wfred_xor(x) = wfred(⊻, x)
wfscan_add(x, inclusive::Bool) = wfscan(+, x, inclusive)
wfscan_max(x, inclusive::Bool) = wfscan(max, x, inclusive)
wfscan_min(x, inclusive::Bool) = wfscan(min, x, inclusive)
wfscan_and(x, inclusive::Bool) = wfscan(&, x, inclusive)
wfscan_or(x, inclusive::Bool) = wfscan(|, x, inclusive)
wfscan_xor(x, inclusive::Bool) = wfscan(⊻, x, inclusive)
wfbcast(x, i::Integer) = shfl(x, i % Int32)
# AMDGPU.jl's memfence!(Val(order)) (src/device/gcn/atomics.jl): a fence of that order at system scope
memfence!(::Val{:acq}) = fence(acquire)
memfence!(::Val{:rel}) = fence(release)
memfence!(::Val{:acq_rel}) = fence(acq_rel)
memfence!(::Val{:seq_cst}) = fence(seq_cst)
# the clocks under their other AMDGPU.jl names (src/device/gcn/hostcall_signal_helpers.jl)
device_time() = memtime()
device_realtime() = memrealtime()
readcyclecounter() = memtime()
# AMDGPU.jl's float atomics by compare-and-swap (src/device/gcn/atomics.jl): atomic_mul!(ptr, v) and
# atomic_div!(ptr, v) store old * v (old / v) and return the new value, as there
atomic_mul!(p, v) = __atomic_modify(p, *, v)
atomic_div!(p, v) = __atomic_modify(p, /, v)
function __atomic_modify(p, op, v)
    old = unsafe_load(p)
    while true
        new = convert(typeof(old), op(old, v))
        cur = atomic_cas!(p, old, new)
        cur === old && return new
        old = cur
    end
end

# Char: a character by its code point (base/char.jl keeps the UTF-8 bytes; kernels compare characters, as
# GPUArrays' `uplo == 'U'` and a GEMM's `tA == 'N'` do, and step through them). Int(c) is not here: a
# method named after a primitive type would shadow its conversions; codepoint(c) gives the number.
struct Char
    code::UInt32
end
codepoint(c::Char) = c.code
# an integer of a character is its code point (Int('a') == 97); UInt8 and Int8 of one past their range throw
Int64(c::Char) = Int64(c.code)
Int32(c::Char) = Int32(c.code)
UInt32(c::Char) = c.code
UInt64(c::Char) = UInt64(c.code)
Int16(c::Char) = Int16(c.code)
UInt16(c::Char) = UInt16(c.code)
Int8(c::Char) = Int8(c.code)
UInt8(c::Char) = UInt8(c.code)
==(a::Char, b::Char) = a.code == b.code
isless(a::Char, b::Char) = a.code < b.code
<(a::Char, b::Char) = a.code < b.code
<=(a::Char, b::Char) = a.code <= b.code
-(a::Char, b::Char) = Int64(a.code) - Int64(b.code)
+(c::Char, i::Integer) = Char(UInt32(Int64(c.code) + i))
-(c::Char, i::Integer) = Char(UInt32(Int64(c.code) - i))
isdigit(c::Char) = Char(0x30) <= c <= Char(0x39)
isuppercase(c::Char) = Char(0x41) <= c <= Char(0x5a)
islowercase(c::Char) = Char(0x61) <= c <= Char(0x7a)
isletter(c::Char) = isuppercase(c) || islowercase(c)
uppercase(c::Char) = islowercase(c) ? c - 32 : c
lowercase(c::Char) = isuppercase(c) ? c + 32 : c

# Rational{T}: Julia's type of rationals, for generic kernels that branch on it (NNlib's source_idx_and_λ:
# `if T <: Rational`); juke has no rational arithmetic (docs/api-coverage.md)
struct Rational{T<:Integer} <: Real
    num::T
    den::T
end

# adjoint and transpose of a number (LinearAlgebra: a number is its own transpose, its adjoint the conjugate;
# GPUArrays' adjoint_kernel! and rotate_kernel! apply them elementwise)
adjoint(x::Real) = x
adjoint(z::Complex) = conj(z)
transpose(x::Number) = x
# LinearAlgebra's UniformScaling (λI): GPUArrays' A + J adds J to the diagonal of a matrix in a kernel (a
# number plus J is a number plus J.λ there)
struct UniformScaling{T<:Number}
    λ::T
end
+(J::UniformScaling, x::Number) = J.λ + x
+(x::Number, J::UniformScaling) = x + J.λ
-(J::UniformScaling, x::Number) = J.λ - x
-(x::Number, J::UniformScaling) = x - J.λ
*(x::Number, J::UniformScaling) = UniformScaling(x * J.λ)
*(J::UniformScaling, x::Number) = UniformScaling(J.λ * x)

# ---- strided views (base/subarray.jl): view(A, I...) with a step, or with a range or integer before a later
# `:` or range, is a SubArray; the built-in `view` makes the contiguous ones (an array over part of A's
# memory). A SubArray holds the parent, the linear offset of its first element, and for each dimension it
# keeps (each index that is not an integer) its stride in the parent and its length.
struct SubArray{T, N, P} <: AbstractArray{T, N}
    parent::P
    offset::Int64
    strides::NTuple{N, Int64}
    dims::NTuple{N, Int64}
end
_subarray(p::AbstractArray{T}, off::Int64, s::NTuple{N, Int64}, d::NTuple{N, Int64}) where {T, N} =
    SubArray{T, N, typeof(p)}(p, off, s, d)
# per index of the parent's dimension of length n and stride ps: where it starts, whether it is within
# 1:n (as view's checkbounds), what it reaches (for the BoundsError), and the dimension it keeps: () for an
# integer, else ((stride, length),)
_view_first(i::Integer, n) = Int64(i)
_view_first(r::AbstractRange, n) = Int64(first(r))
_view_first(::Colon, n) = 1
_view_in(i::Integer, n) = 1 <= i <= n
_view_in(r::AbstractRange, n) = isempty(r) || (1 <= min(first(r), last(r)) && max(first(r), last(r)) <= n)
_view_in(::Colon, n) = true
_view_reach(i::Integer, n) = Int64(i)
_view_reach(r::AbstractRange, n) = Int64(isempty(r) || 1 <= min(first(r), last(r)) ? last(r) : min(first(r), last(r)))
_view_reach(::Colon, n) = Int64(n)
_view_keep(i::Integer, n, ps) = ()
_view_keep(r::StepRange, n, ps) = ((ps * Int64(step(r)), Int64(length(r))),)
_view_keep(r::UnitRange, n, ps) = ((ps, Int64(length(r))),)
_view_keep(::Colon, n, ps) = ((ps, Int64(n)),)
_view_oob(A, I::Tuple{Any}) = throw(BoundsError(A, I[1]))
_view_oob(A, I::Tuple{Any, Any}) = throw(BoundsError(A, I[1], I[2]))
_view_oob(A, I::Tuple{Any, Any, Any}) = throw(BoundsError(A, I[1], I[2], I[3]))
_view_cat() = ()
_view_cat(a, b...) = (a..., _view_cat(b...)...)
_view_strides(d::Tuple{Int64}) = (1,)
_view_strides(d::Tuple{Int64, Int64}) = (1, d[1])
_view_strides(d::Tuple{Int64, Int64, Int64}) = (1, d[1], d[1] * d[2])
_view_offset(i, n, ps) = (_view_first(i, n) - 1) * ps
function _strided_view(A, I...)
    d = size(A)
    all(map(_view_in, I, d)) || _view_oob(A, map(_view_reach, I, d))
    ps = _view_strides(d)
    kept = _view_cat(map(_view_keep, I, d, ps)...)
    return _subarray(A, sum(map(_view_offset, I, d, ps)), map(first, kept), map(last, kept))
end
# the strided patterns of 1 to 3 indices, disjoint (the others are the built-in's contiguous views)
view(A::AbstractVector, r::StepRange) = _strided_view(A, r)
view(A::AbstractMatrix, i::StepRange, j::Integer) = _strided_view(A, i, j)
view(A::AbstractMatrix, i::Colon, j::StepRange) = _strided_view(A, i, j)
view(A::AbstractMatrix, i::Union{Integer, AbstractRange}, j::Union{Colon, AbstractRange}) = _strided_view(A, i, j)
view(A::AbstractArray{T, 3}, i::StepRange, j::Integer, k::Integer) where {T} = _strided_view(A, i, j, k)
view(A::AbstractArray{T, 3}, i::Colon, j::StepRange, k::Integer) where {T} = _strided_view(A, i, j, k)
view(A::AbstractArray{T, 3}, i::Colon, j::Colon, k::StepRange) where {T} = _strided_view(A, i, j, k)
view(A::AbstractArray{T, 3}, i::Colon, j::Union{Integer, AbstractRange}, k::Union{Colon, AbstractRange}) where {T} =
    _strided_view(A, i, j, k)
view(A::AbstractArray{T, 3}, i::Union{Integer, AbstractRange}, j::Union{Colon, AbstractRange}, k) where {T} =
    _strided_view(A, i, j, k)
view(A::AbstractArray{T, 3}, i::Union{Integer, AbstractRange}, j::Integer, k::Union{Colon, AbstractRange}) where {T} =
    _strided_view(A, i, j, k)
parent(V::SubArray) = V.parent
size(V::SubArray) = V.dims
size(V::SubArray, d::Integer) = d <= length(V.dims) ? V.dims[d] : 1
length(V::SubArray) = prod(V.dims)
ndims(V::SubArray{T, N, P}) where {T, N, P} = N
eltype(V::SubArray{T, N, P}) where {T, N, P} = T
strides(V::SubArray) = V.strides
stride(V::SubArray, k::Integer) = V.strides[k]
firstindex(V::SubArray) = 1
lastindex(V::SubArray) = length(V)
lastindex(V::SubArray, d::Integer) = size(V, d)
eachindex(V::SubArray) = 1:length(V)
# the parent's linear index of V[I...], I checked against V's dims (a BoundsError names V and I)
function _sub_index(V::SubArray, I::Tuple)
    @boundscheck all(map(_view_in, I, V.dims)) || _view_oob(V, I)
    return V.offset + sum(map(_view_offset, I, V.dims, V.strides)) + 1
end
# linear indexing: i checked against the length, then its column-major place in V's dims
function getindex(V::SubArray, i::Integer)
    @boundscheck 1 <= i <= length(V) || throw(BoundsError(V, i))
    return @inbounds V.parent[_sub_index(V, _cartesian_of(Int64(i), V.dims))]
end
getindex(V::SubArray{T, 2, P}, i::Integer, j::Integer) where {T, P} = @inbounds V.parent[_sub_index(V, (i, j))]
getindex(V::SubArray{T, 3, P}, i::Integer, j::Integer, k::Integer) where {T, P} = @inbounds V.parent[_sub_index(V, (i, j, k))]
function setindex!(V::SubArray, x, i::Integer)
    @boundscheck 1 <= i <= length(V) || throw(BoundsError(V, i))
    @inbounds V.parent[_sub_index(V, _cartesian_of(Int64(i), V.dims))] = x
    return V
end
setindex!(V::SubArray{T, 2, P}, x, i::Integer, j::Integer) where {T, P} = (@inbounds V.parent[_sub_index(V, (i, j))] = x)
setindex!(V::SubArray{T, 3, P}, x, i::Integer, j::Integer, k::Integer) where {T, P} =
    (@inbounds V.parent[_sub_index(V, (i, j, k))] = x)
# @views A[I...] (compiler/lower.c): a view of an array when an index is a range or `:`, as Base's maybeview;
# an element, a tuple's or another object's index as A[I...] is
__maybeview(A, I...) = A[I...]
__maybeview(A::AbstractArray, I...) = view(A, I...)
__maybeview(A::AbstractArray, I::Integer...) = A[I...]
# dest .= src (the parser's __dotassign!(dest, src); an indexed dest is its view): Base's materialize! of a
# broadcast that copies, element by element in the work-item that runs it: src's elements (of the same dims,
# else Julia's DimensionMismatch), or src itself when it is a number
function __dotassign!(dest::AbstractArray, src::AbstractArray)
    size(dest) == size(src) || throw(DimensionMismatch("array could not be broadcast to match destination"))
    for k in 1:length(dest)
        @inbounds dest[k] = src[k]
    end
    return dest
end
function __dotassign!(dest::AbstractArray, x::Number)
    for k in 1:length(dest)
        @inbounds dest[k] = x
    end
    return dest
end
__maybeview(A::AbstractArray, I::Tuple) = A[I]

# LLVM.Interop.assume(cond) (GPUArrays' permutedims!): a promise that cond holds, which lets LLVM drop checks;
# keeping no promise computes the same
assume(cond::Bool) = nothing

# CartesianIndex arithmetic (base/multidimensional.jl), elementwise on the NTuple{N,Int64} that is a CartesianIndex{N}
# here. The built-ins that take an operator (wfred(+, x)) read + as theirs on numbers whatever methods these add
# (infer_dispatch_generic). Comparisons other than == and != are the tuples' (lexicographic), not Julia's
# CartesianIndex order, so juke leaves < and isless of two indices to the tuples.
+(a::NTuple{N,Int64}, b::NTuple{N,Int64}) where {N} = map(+, a, b)
-(a::NTuple{N,Int64}, b::NTuple{N,Int64}) where {N} = map(-, a, b)
-(a::NTuple{N,Int64}) where {N} = map(-, a)
*(a::Integer, b::NTuple{N,Int64}) where {N} = _ci_scale(Int64(a), b)
*(a::NTuple{N,Int64}, b::Integer) where {N} = Int64(b) * a
min(a::NTuple{N,Int64}, b::NTuple{N,Int64}) where {N} = map(min, a, b)
max(a::NTuple{N,Int64}, b::NTuple{N,Int64}) where {N} = map(max, a, b)
zero(a::NTuple{N,Int64}) where {N} = ntuple(_ci_zero, Val(N))
_ci_scale(a::Int64, ::Tuple{}) = ()
_ci_scale(a::Int64, t::Tuple) = (a * t[1], _ci_scale(a, tail(t))...)
_ci_zero(d) = 0
# CartesianIndices over ranges, as a stencil writes its offsets (CartesianIndices((-1:1, -1:1)),
# base/multidimensional.jl) or a strided walk its steps (JACC's grid reduction: CartesianIndices((i:16:M, j:16:N))):
# the first index, the steps and the lengths, column-major as CartesianIndices of dims are
struct CartesianRanges{N}
    start::NTuple{N,Int64}
    step::NTuple{N,Int64}
    dims::NTuple{N,Int64}
end
CartesianIndices(r::Tuple{AbstractRange{Int64}}) = _ci_ranges(r)
CartesianIndices(r::Tuple{AbstractRange{Int64}, AbstractRange{Int64}}) = _ci_ranges(r)
CartesianIndices(r::Tuple{AbstractRange{Int64}, AbstractRange{Int64}, AbstractRange{Int64}}) = _ci_ranges(r)
_ci_ranges(r) = CartesianRanges(map(first, r), map(step, r), map(length, r))
size(C::CartesianRanges) = C.dims
length(C::CartesianRanges) = prod(C.dims)
getindex(C::CartesianRanges, i::Integer) = map(_ci_offset, C.start, C.step, CartesianIndices(C.dims)[i])
_ci_offset(s, st, k) = s + (k - 1) * st
iterate(C::CartesianRanges) = length(C) < 1 ? nothing : (C[1], 2)
iterate(C::CartesianRanges, s::Int64) = s > length(C) ? nothing : (C[s], s + 1)
first(C::CartesianRanges) = C.start
firstindex(C::CartesianRanges) = 1
lastindex(C::CartesianRanges) = length(C)
last(C::CartesianRanges) = map(_ci_offset, C.start, C.step, C.dims)
first(C::CartesianIndices{N}) where {N} = ntuple(_ci_one, Val(N))
last(C::CartesianIndices) = C.dims
# I in C: every coordinate within its range (one of its steps from the start)
function in(I::NTuple{N,Int64}, C::CartesianIndices{N}) where {N}
    return all(map(_ci_within, I, ntuple(_ci_one, Val(N)), C.dims))
end
function in(I::NTuple{N,Int64}, C::CartesianRanges{N}) where {N}
    return length(C) > 0 && all(map(_ci_on_step, I, C.start, C.step)) && all(map(_ci_between, I, C.start, last(C)))
end
_ci_within(i, lo, hi) = lo <= i <= hi
_ci_on_step(i, s, st) = rem(i - s, st) == 0
_ci_between(i, a, b) = min(a, b) <= i <= max(a, b)
# a CartesianIndex{1} stored into an array of numbers is its one coordinate, as Base's
# convert(::Type{T}, ::CartesianIndex{1}) where {T<:Number} has it (AMDGPU.jl's findall kernel stores the
# keys CartesianIndices(bools)[i] of a vector into a Vector{Int})
setindex!(A::AbstractArray{T}, i::Tuple{Int64}, I::Integer...) where {T<:Number} = setindex!(A, i[1], I...)

# ---- orderings (base/ordering.jl: Base.Order, whose names Base.Order.x and Base.x reach) and the sorted
# searches and sort! of base/sort.jl that take them ----
abstract type Ordering end
struct ForwardOrdering <: Ordering end
struct ReverseOrdering{Fwd<:Ordering} <: Ordering
    fwd::Fwd
end
const Forward = ForwardOrdering()
const Reverse = ReverseOrdering(Forward)
# order by by(x), then by order
struct By{T, O} <: Ordering
    by::T
    order::O
end
By(by) = By(by, Forward)
# order by the less-than function lt
struct Lt{T} <: Ordering
    lt::T
end
# order indices into data by data's values, ties by index
struct Perm{O<:Ordering, V<:AbstractVector} <: Ordering
    order::O
    data::V
end
ReverseOrdering() = Reverse
ReverseOrdering(r::ReverseOrdering) = r.fwd
ReverseOrdering(b::By) = By(b.by, ReverseOrdering(b.order))
ReverseOrdering(p::Perm) = Perm(ReverseOrdering(p.order), p.data)
lt(o::ForwardOrdering, a, b) = isless(a, b)
lt(o::ReverseOrdering, a, b) = lt(o.fwd, b, a)
lt(o::By, a, b) = lt(o.order, o.by(a), o.by(b))
lt(o::Lt, a, b) = o.lt(a, b)
function lt(p::Perm, a::Integer, b::Integer)
    x = p.data[a]
    y = p.data[b]
    return lt(p.order, x, y) | (!lt(p.order, y, x) & (a < b))
end
# the ordering that sort!'s keywords (lt, by, rev, order) describe; rev === nothing leaves order as it is
ord(lt, by, rev::Nothing, order::Ordering = Forward) = _ord(lt, by, order)
ord(lt, by, rev::Bool, order::Ordering = Forward) = rev ? ReverseOrdering(_ord(lt, by, order)) : _ord(lt, by, order)
_ord(lt::typeof(isless), by, order::Ordering) = _by(by, order)
_ord(lt::typeof(isless), by, order::ForwardOrdering) = _by(by, order)
_ord(lt::typeof(isless), by, order::ReverseOrdering{ForwardOrdering}) = _by(by, order)
_ord(lt, by, order::ForwardOrdering) = _by(by, Lt(lt))
_ord(lt, by, order::ReverseOrdering{ForwardOrdering}) = ReverseOrdering(_by(by, Lt(lt)))
_ord(lt, by, order::Ordering) =
    error("Passing both lt= and order= arguments is ambiguous; please pass order=Forward or order=Reverse (or leave default)")
_by(by, order::Ordering) = By(by, order)
_by(by::typeof(identity), order::Ordering) = order

# binary searches of a sorted v: the first index whose element is not below x (length(v) + 1 if none), the
# last index whose element is not above x (0 if none)
function searchsortedfirst(v, x, lo::T, hi::T, o::Ordering) where {T<:Integer}
    lo = lo - one(T)
    hi = hi + one(T)
    @inbounds while lo < hi - one(T)
        m = lo + ((hi - lo) >>> 0x01)
        if lt(o, v[m], x)
            lo = m
        else
            hi = m
        end
    end
    return hi
end
function searchsortedlast(v, x, lo::T, hi::T, o::Ordering) where {T<:Integer}
    lo = lo - one(T)
    hi = hi + one(T)
    @inbounds while lo < hi - one(T)
        m = lo + ((hi - lo) >>> 0x01)
        if lt(o, x, v[m])
            hi = m
        else
            lo = m
        end
    end
    return lo
end
searchsortedfirst(v, x, o::Ordering) = searchsortedfirst(v, x, firstindex(v), lastindex(v), o)
searchsortedlast(v, x, o::Ordering) = searchsortedlast(v, x, firstindex(v), lastindex(v), o)
searchsorted(v, x, o::Ordering) = searchsortedfirst(v, x, o):searchsortedlast(v, x, o)
searchsortedfirst(v, x; lt = isless, by = identity, rev = nothing, order = Forward) =
    searchsortedfirst(v, x, ord(lt, by, rev, order))
searchsortedlast(v, x; lt = isless, by = identity, rev = nothing, order = Forward) =
    searchsortedlast(v, x, ord(lt, by, rev, order))
searchsorted(v, x; lt = isless, by = identity, rev = nothing, order = Forward) =
    searchsorted(v, x, ord(lt, by, rev, order))
insorted(x, v; lt = isless, by = identity, rev = nothing, order = Forward) =
    !isempty(searchsorted(v, x, ord(lt, by, rev, order)))

# sort! of a kernel's small vector (an MVector, a local array, a view of one work-item's column): insertion sort,
# stable as Julia's sort! of a short vector is
sort!(v; lt = isless, by = identity, rev = nothing, order = Forward) = _sort!(v, ord(lt, by, rev, order))
function _sort!(v, o::Ordering)
    lo = firstindex(v)
    for i in lo+1:lastindex(v)
        x = v[i]
        j = i
        while j > lo && lt(o, x, v[j-1])
            v[j] = v[j-1]
            j -= 1
        end
        v[j] = x
    end
    return v
end
# sort of a tuple (Julia's sort(::NTuple)), a new tuple: an odd-even transposition network of t's length in
# passes, each a compare-exchange of neighbours that swaps only a pair strictly out of order, so that equal
# elements keep their order (stable, as Base's sort) and there is no branch on a value (a GPU thread's sort)
sort(t::NTuple{N, T}; lt = isless, by = identity, rev = nothing, order = Forward) where {N, T} =
    _sort_tuple(t, ord(lt, by, rev, order), Val((N + 1) ÷ 2))
_sort_tuple(t, o::Ordering, ::Val{0}) = t
_sort_tuple(t, o::Ordering, ::Val{K}) where {K} = _sort_tuple(_oe_odd(_oe_pass(t, o), o), o, Val(K - 1))
_cswap(a, b, o::Ordering) = lt(o, b, a) ? (b, a) : (a, b)
# the compare-exchanges of pairs (1, 2), (3, 4), ... and of pairs (2, 3), (4, 5), ...
_oe_pass(t::Tuple{}, o::Ordering) = ()
_oe_pass(t::Tuple{Any}, o::Ordering) = t
_oe_pass(t::Tuple, o::Ordering) = (_cswap(t[1], t[2], o)..., _oe_pass(tail(tail(t)), o)...)
_oe_odd(t::Tuple{}, o::Ordering) = ()
_oe_odd(t::Tuple, o::Ordering) = (t[1], _oe_pass(tail(t), o)...)
issorted(v; lt = isless, by = identity, rev = nothing, order = Forward) = _issorted(v, ord(lt, by, rev, order))
function _issorted(v, o::Ordering)
    for i in firstindex(v)+1:lastindex(v)
        lt(o, v[i], v[i-1]) && return false
    end
    return true
end
