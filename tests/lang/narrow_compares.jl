# Compares of a work-item's global index against array sizes, signed and
# unsigned, with offsets on both sides of zero: in the 32-bit and small-grid
# classes (every tests/lang launch) narrow.c compares them in 32 bits, and
# each must decide exactly as Julia's 64-bit Int does. Guards that stop short
# of an array, reach past it, and a checked access that fails at the edge
# (its error as before).
function window!(out, flags, a, lo, hi)
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    if i - 3 >= lo && i + 2 <= hi && i <= length(out)
        out[i] = a[i] * 2 + Int32(i - length(a))
    end
    if i > length(out) - 2 && i < length(out) + 5 && i - length(out) != 0 && i <= length(flags)
        flags[i] = Int8(1)
    end
    return
end
# run: window!(out = zeros(Int32, 10), flags = zeros(Int8, 16), a = Int32[5, 6, 7, 8, 9, 10, 11, 12, 13, 14], lo = -1, hi = 9) groupsize 4 gridsize 4
# expect out: [0, 4, 7, 10, 13, 16, 19, 0, 0, 0]
# expect flags: [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 0, 0]
# lo above every index + offset: nothing passes the first guard
# run: window!(out = zeros(Int32, 6), flags = zeros(Int8, 8), a = Int32[1, 2, 3, 4, 5, 6], lo = 100, hi = 200) groupsize 8
# expect out: [0, 0, 0, 0, 0, 0]
# expect flags: [0, 0, 0, 0, 1, 0, 1, 1]
# a negative lo and a hi past the end: a[i] fails where a is shorter than out
# run: window!(out = zeros(Int32, 8), flags = zeros(Int8, 8), a = Int32[1, 2, 3, 4, 5, 6, 7], lo = -7, hi = 100) groupsize 8
# expect exception: BoundsError: attempt to access 7-element ROCDeviceVector{Int32, 1} at index [8]
# expect exception at: 10:18
function rows!(B, A)
    ix = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    iy = (workgroupIdx().y - 1) * workgroupDim().y + workitemIdx().y
    if ix ∈ axes(B, 1) && iy ∈ axes(B, 2)
        B[ix, iy] = A[ix+1, iy+1] - A[ix, iy] + (ix < size(A, 1) - 1 ? 1.0 : -1.0)
    end
    return
end
# run: rows!(B = zeros(Float64, 2, 2), A = reshape(Float64[1, 2, 3, 4, 5, 6, 7, 8, 9], 3, 3)) groupsize 2, 1 gridsize 2, 3
# expect B: [5, 3, 5, 3]
# A one column short: B[1, 2] reads A[2, 3]
# run: rows!(B = zeros(Float64, 1, 2), A = reshape(Float64[1, 2, 3, 4], 2, 2)) groupsize 1, 2
# expect exception: BoundsError: attempt to access 2×2 ROCDeviceMatrix{Float64, 1} at index [2, 3]
# expect exception at: 32:21
