# diffusion2d! of ../../../shared/acceptance/diffusion2d.jl without @inbounds: every access is bounds-checked.
function diffusion2d!(A_new, A, h)
    ix = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    iy = (workgroupIdx().y - 1) * workgroupDim().y + workitemIdx().y
    if ix ∈ axes(A_new, 1) && iy ∈ axes(A_new, 2)
        A_new[ix, iy] = A[ix+1, iy+1] + h * (A[ix, iy+1] + A[ix+2, iy+1] +
                        A[ix+1, iy] + A[ix+1, iy+2] - 4.0 * A[ix+1, iy+1])
    end
    return
end
