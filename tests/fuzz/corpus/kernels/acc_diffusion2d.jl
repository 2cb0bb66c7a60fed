#sig diffusion2d! Matrix{Float64}; Matrix{Float64}; Float64
#sig diffusion2d! Matrix{Float32}; Matrix{Float32}; Float32
# One explicit step of 2-D diffusion on the interior of A (A is two cells larger than A_new in each dimension).
function diffusion2d!(A_new, A, h)
    ix = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    iy = (workgroupIdx().y - 1) * workgroupDim().y + workitemIdx().y
    if ix ∈ axes(A_new, 1) && iy ∈ axes(A_new, 2)
        @inbounds A_new[ix, iy] = A[ix+1, iy+1] + h * (A[ix, iy+1] + A[ix+2, iy+1] +
                                  A[ix+1, iy] + A[ix+1, iy+2] - 4.0 * A[ix+1, iy+1])
    end
    return
end
