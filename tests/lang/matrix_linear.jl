# Matrices: 2 indices, linear indexing, writing through both.
function matrix_linear!(M)
    for j in 1:size(M, 2), i in 1:size(M, 1)
        M[i, j] = i * 10 + j
    end
    M[5] = -M[5]                 # linear index 5 of a 2×3 matrix is (1, 3)
    M[2, 1] += M[1]
    return nothing
end
# run: matrix_linear!(M = zeros(Float64, 2, 3))
# expect M: [11, 32, 12, 22, -13, 23]
