# base/statistics.jl: of the standard library Statistics, what one work-item computes on its own few values
# (median filters, order statistics): middle and median as Statistics defines them. Loaded with the Base
# prelude (compiler/prelude.h) when the kernel file says `using Statistics` (or imports from it).

# the middle of one number (of middle(x, x)'s type: an integer's is a Float64) and of two, x/2 + y/2
middle(x::Union{Bool, Int8, Int16, Int32, Int64, Int128, UInt8, UInt16, UInt32, UInt64, UInt128}) = Float64(x)
middle(x::AbstractFloat) = x
middle(x::Number) = (x + zero(x)) / 1
middle(x::Number, y::Number) = x / 2 + y / 2

# the median of a tuple, or of a static vector (its tuple): a NaN of the element type if an element is NaN,
# else the middle of the middle element (or of the middle two) of the sorted tuple (base/prelude.jl's sort,
# which puts NaNs last). Statistics collects into a Vector first; a kernel cannot, so arrays have no median.
median(t::NTuple{N, T}) where {N, T} = (s = sort(t); _median_sorted(s, s[N]))
median(t::Tuple{}) = throw(ArgumentError("median of an empty array is undefined, Any[]"))
median(v) = median(Tuple(v))
_median_sorted(s, last::AbstractFloat) = isnan(last) ? oftype(last, NaN) : _median_mid(s)
_median_sorted(s, last) = _median_mid(s)
_median_mid(s::NTuple{N}) where {N} = isodd(N) ? middle(s[(N + 1) ÷ 2]) : middle(s[N ÷ 2], s[N ÷ 2 + 1])
