#sig matmul! Matrix{Float32}; Matrix{Float32}; Matrix{Float32}
# Naive matrix product, one work-item per element of C.
function matmul!(C, A, B)
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    j = (workgroupIdx().y - 1) * workgroupDim().y + workitemIdx().y
    if i <= size(C, 1) && j <= size(C, 2)
        acc = zero(eltype(C))
        for k in 1:size(A, 2)
            @inbounds acc += A[i, k] * B[k, j]
        end
        @inbounds C[i, j] = acc
    end
    return
end
