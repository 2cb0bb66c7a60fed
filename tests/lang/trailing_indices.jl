# Indices past an array's dimensions index trailing dimensions of size 1, as Julia allows: R[i, j, 1] of a
# matrix (GPUArrays' mapreduce writes its 2-D output through a CartesianIndex with the group's index last),
# read and written, checked like the others: any index there but 1 is a BoundsError.
function trailing!(R, v, A, k)
    i = workitemIdx().x
    for j in 1:size(R, 2)
        R[CartesianIndex(i, j, 1)] = A[i, j, 1, 1] + 10 * v[i, 1]
    end
    v[i, 1, 1] = A[i, 1, 1] * 2
    if i == 1
        R[1, 1, k] = -1
    end
    return nothing
end
# run: trailing!(R = zeros(Float32, 2, 3), v = Float32[1.5, -2.25], A = reshape(Float32[1, 2, 3, 4, 5, 6], 2, 3), k = 1) groupsize 2
# expect R: [-1.0, -20.5, 18.0, -18.5, 20.0, -16.5]
# expect v: [2.0, 4.0]
# run: trailing!(R = zeros(Float32, 2, 3), v = Float32[1.5, -2.25], A = reshape(Float32[1, 2, 3, 4, 5, 6], 2, 3), k = 2) groupsize 2
# expect exception: BoundsError
