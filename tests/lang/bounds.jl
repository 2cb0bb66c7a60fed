# Bounds checks on 1-, 2- and 3-dimensional arrays, reads and writes.
function read1!(y, x, i)
    y[1] = x[i]
    return nothing
end
function read2!(y, M, i, j)
    y[1] = M[i, j]
    return nothing
end
function write3!(A, i, j, k)
    A[i, j, k] = 1
    return nothing
end
# run: read1!(y = zeros(Float64, 1), x = Float64[1, 2, 3], i = 0)
# expect exception: BoundsError: attempt to access 3-element ROCDeviceVector{Float64, 1} at index [0]
# expect exception at: 3:12
# run: read2!(y = zeros(Float64, 1), M = zeros(Float64, 2, 3), i = 3, j = 1)
# expect exception: BoundsError: attempt to access 2×3 ROCDeviceMatrix{Float64, 1} at index [3, 1]
# run: read2!(y = zeros(Float64, 1), M = zeros(Float64, 2, 3), i = 2, j = 3)
# expect y: [0]
# run: read2!(y = zeros(Float64, 1), M = zeros(Float64, 2, 3), i = 7, j = 0)
# expect exception: BoundsError
# run: write3!(A = zeros(Int64, 2, 2, 2), i = 1, j = 1, k = 3)
# expect exception: BoundsError: attempt to access 2×2×2 ROCDeviceArray{Int64, 3, 1} at index [1, 1, 3]
# expect exception at: 11:5
# run: read1!(y = zeros(Float64, 1), x = Float64[1, 2, 3], i = 3)
# expect y: [3]
# A linear index into a matrix reports the matrix, as Julia does; so does local memory.
function linear2!(y, M, i)
    y[1] = M[i]
    return nothing
end
function local_oob!(y, i)
    t = @ROCStaticLocalArray(Int32, (2, 4))
    t[i] = Int32(1)
    y[1] = t[1]
    return nothing
end
# run: linear2!(y = zeros(Float64, 1), M = zeros(Float64, 2, 3), i = 7)
# expect exception: BoundsError: attempt to access 2×3 ROCDeviceMatrix{Float64, 1} at index [7]
# run: local_oob!(y = zeros(Int32, 1), i = 9)
# expect exception: BoundsError: attempt to access 2×4 ROCDeviceMatrix{Int32, 3} at index [9]
