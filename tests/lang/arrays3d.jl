# 3-D arrays: column-major indexing with three indices and linear indexing.
function arrays3d!(A, L)
    n1, n2, n3 = size(A)
    for k in 1:n3, j in 1:n2, i in 1:n1
        A[i, j, k] = 100i + 10j + k
    end
    for l in 1:length(A)
        L[l] = A[l]              # linear index: column-major order
    end
    return nothing
end
# run: arrays3d!(A = zeros(Int32, 2, 3, 2), L = zeros(Int32, 12))
# expect L: [111, 211, 121, 221, 131, 231, 112, 212, 122, 222, 132, 232]
# expect A: [111, 211, 121, 221, 131, 231, 112, 212, 122, 222, 132, 232]
