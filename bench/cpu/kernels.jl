# The CPU device benchmark's kernels (bench/cpu_device.c), written as AMDGPU.jl users write them. memcopy! and
# diffusion2d! are the acceptance kernels; block_sum! reduces a group's slice in local memory between
# barriers; matmul_tiled! multiplies through 16×16 tiles of A and B in local memory, two barriers per tile.
function memcopy!(dst, src)
    ix = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    if ix <= length(dst)
        @inbounds dst[ix] = src[ix]
    end
    return
end

function diffusion2d!(A_new, A, h)
    ix = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    iy = (workgroupIdx().y - 1) * workgroupDim().y + workitemIdx().y
    if ix ∈ axes(A_new, 1) && iy ∈ axes(A_new, 2)
        @inbounds A_new[ix, iy] = A[ix+1, iy+1] + h * (A[ix, iy+1] + A[ix+2, iy+1] +
                                  A[ix+1, iy] + A[ix+1, iy+2] - 4.0 * A[ix+1, iy+1])
    end
    return
end

function block_sum!(out, x)
    item = workitemIdx().x
    group = workgroupIdx().x
    n = workgroupDim().x
    shared = @ROCStaticLocalArray(Float32, 256, false)
    i = (group - 1) * n + item
    @inbounds shared[item] = i <= length(x) ? x[i] : 0f0
    d = n ÷ 2
    while d > 0
        sync_workgroup()
        if item <= d
            @inbounds shared[item] += shared[item + d]
        end
        d ÷= 2
    end
    sync_workgroup()
    if item == 1
        @inbounds out[group] = shared[1]
    end
    return
end

function matmul_tiled!(C, A, B)
    tx = workitemIdx().x
    ty = workitemIdx().y
    i = (workgroupIdx().x - 1) * 16 + tx
    j = (workgroupIdx().y - 1) * 16 + ty
    As = @ROCStaticLocalArray(Float32, (16, 16), false)
    Bs = @ROCStaticLocalArray(Float32, (16, 16), false)
    acc = 0f0
    for t in 0:cld(size(A, 2), 16)-1
        k = t * 16
        @inbounds As[tx, ty] = i <= size(A, 1) && k + ty <= size(A, 2) ? A[i, k+ty] : 0f0
        @inbounds Bs[tx, ty] = k + tx <= size(B, 1) && j <= size(B, 2) ? B[k+tx, j] : 0f0
        sync_workgroup()
        for kk in 1:16
            @inbounds acc += As[tx, kk] * Bs[kk, ty]
        end
        sync_workgroup()
    end
    if i <= size(C, 1) && j <= size(C, 2)
        @inbounds C[i, j] = acc
    end
    return
end
