# Checks from helpers that the compiler inlines: each helper's check gets an
# exception block of its own that reads the helper's values directly (not
# through a phi). When the GPU targets merge such checks into one branch,
# those values must still reach the error record (the merged branch used to
# leave them behind: invalid IR on gfx90a at -O2 and -O3).
second(v) = v[2]
shifted(A, I) = getindex(A, ntuple(d -> I[d] + 1, Val(1))...)
function take_second!(out, v)
    out[1] = second(v)
    return nothing
end
# run: take_second!(out = zeros(Float32, 1), v = Float32[2.5, 7.25, 1]) groupsize 1
# expect out: [7.25]
# v has one element: the helper's access fails, with its own index and place
# run: take_second!(out = zeros(Float32, 1), v = Float32[2.5]) groupsize 1
# expect exception: BoundsError: attempt to access 1-element ROCDeviceVector{Float32, 1} at index [2]
# expect exception at: 6:13
# out is empty: the kernel's own store fails after the helper's read
# run: take_second!(out = zeros(Float32, 0), v = Float32[2.5, 7.25]) groupsize 1
# expect exception: BoundsError: attempt to access 0-element ROCDeviceVector{Float32, 1} at index [1]
# expect exception at: 9:5
function take_shifted!(out, v)
    i = workitemIdx().x
    out[i] = shifted(v, (i,)) * 3
    return nothing
end
# run: take_shifted!(out = zeros(Int32, 3), v = Int32[4, -5, 6, 9]) groupsize 3
# expect out: [-15, 18, 27]
# run: take_shifted!(out = zeros(Int32, 3), v = Int32[4, -5, 6]) groupsize 3
# expect exception: BoundsError: attempt to access 3-element ROCDeviceVector{Int32, 1} at index [4]
# expect exception at: 7:17
# run: take_shifted!(out = zeros(Int32, 2), v = Int32[4, -5, 6, 9]) groupsize 3
# expect exception: BoundsError: attempt to access 2-element ROCDeviceVector{Int32, 1} at index [3]
# expect exception at: 24:5
