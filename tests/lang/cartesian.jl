# CartesianIndices and LinearIndices, column-major: indexing by a linear index, by a CartesianIndex
# (an NTuple here) and by separate indices, and iteration; CartesianIndex(i, j) indexes arrays.
function cartesian!(A, o)
    C = CartesianIndices(A)
    L = LinearIndices(A)
    I = C[5]
    o[1] = I[1]
    o[2] = I[2]
    o[3] = L[I]
    o[4] = L[3, 2]
    o[5] = length(C)
    o[6] = A[CartesianIndex(3, 2)]
    J = Tuple(C[6])
    o[7] = 10 * J[1] + J[2]
    s = 0
    for K in CartesianIndices(A)
        s += A[K] * K[2]
    end
    o[8] = s
    n = 0
    for l in LinearIndices(A)
        n += l
    end
    o[9] = n
    c3 = CartesianIndices((2, 3, 4))[17]
    o[10] = 100 * c3[1] + 10 * c3[2] + c3[3]
    return
end
# run: cartesian!(A = reshape(Int64[1, 2, 3, 4, 5, 6], 3, 2), o = zeros(Int64, 10))
# expect o: [2, 2, 5, 6, 6, 6, 32, 36, 21, 133]
