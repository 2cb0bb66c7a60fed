# Every field of a @NamedTuple{...} type names its type.
const Point = @NamedTuple{x::Float32, y}
function k!(r)
    r[1] = (x = 1f0, y = 2f0) isa Point
    return
end
# expect error: syntax: expected name::Type in @NamedTuple{...}
# expect error at: 2:39
