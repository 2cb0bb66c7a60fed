# Index intrinsics are Int64 and 1-based (wavefrontsize() a UInt32, AMDGPU.jl's Cuint); a 2-D launch writes
# its global index.
code(::Int64) = 1
code(::UInt32) = 10
function index_values!(I, J, t)
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    j = (blockIdx().y - 1) * blockDim().y + threadIdx().y
    I[i, j] = i
    J[i, j] = j
    if i == 1 && j == 1
        t[1] = code(workitemIdx().x) + code(gridItemDim().y) + code(wavefrontsize())
        t[2] = wavefrontsize() > 0
    end
    return nothing
end
# run: index_values!(I = zeros(Int32, 4, 2), J = zeros(Int32, 4, 2), t = zeros(Int64, 2)) groupsize 2,1 gridsize 2,2
# expect I: [1, 2, 3, 4, 1, 2, 3, 4]
# expect J: [1, 1, 1, 1, 2, 2, 2, 2]
# expect t: [12, 1]
