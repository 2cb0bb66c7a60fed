# Index intrinsics have fields x, y and z only; other values have none.
function unknown_field!(o)
    o[1] = workitemIdx().w
    o[2] = o.x
    return nothing
end
# run: unknown_field!(o = zeros(Int64, 2))
# expect error: type @NamedTuple{x::Int64, y::Int64, z::Int64} has no field w
# expect error at: 3:12
# expect error: type ROCDeviceArray{Int64, 1, 1} has no field x
# expect error at: 4:12
