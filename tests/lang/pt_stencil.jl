# One pseudo-transient step of nonlinear diffusion (D = D0*H^3, as in the shallow-ice
# solver of examples/ice) written as ParallelStencil users write it: a 2-D launch, one
# work-item per cell, fluxes on the four faces from averaged diffusivities, a damped rate
# and a clamped update at inner cells, the boundary copied. 5x4 cells, 8x4 work-items.
function pt_step!(Hn, dH, H, D0, dx, dy, damp, dtau)
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    j = (workgroupIdx().y - 1) * workgroupDim().y + workitemIdx().y
    nx = size(H, 1)
    ny = size(H, 2)
    if i > 1 && i < nx && j > 1 && j < ny
        @inbounds begin
            h = H[i, j]
            qxw = -0.5 * (H[i-1, j]^3 + h^3) * D0 * (h - H[i-1, j]) / dx
            qxe = -0.5 * (h^3 + H[i+1, j]^3) * D0 * (H[i+1, j] - h) / dx
            qys = -0.5 * (H[i, j-1]^3 + h^3) * D0 * (h - H[i, j-1]) / dy
            qyn = -0.5 * (h^3 + H[i, j+1]^3) * D0 * (H[i, j+1] - h) / dy
            r = -((qxe - qxw) / dx + (qyn - qys) / dy)
            dH[i, j] = r + damp * dH[i, j]
            Hn[i, j] = max(0.0, h + dtau * dH[i, j])
        end
    elseif i <= nx && j <= ny
        @inbounds Hn[i, j] = H[i, j]
    end
    return
end
# run: pt_step!(Hn = zeros(Float64, 5, 4), dH = reshape(Float64[-0.005, 0.005, 0.015, -0.005, 0.005, 0.015, -0.005, 0.005, 0.015, -0.005, 0.005, 0.015, -0.005, 0.005, 0.015, -0.005, 0.005, 0.015, -0.005, 0.005], 5, 4), H = reshape(Float64[0.3, 0.368, 0.432, 0.492, 0.548, 0.6, 0.648, 0.692, 0.732, 0.768, 0.8, 0.828, 0.852, 0.872, 0.888, 0.9, 0.908, 0.912, 0.912, 0.908], 5, 4), D0 = 1.5, dx = 0.25, dy = 0.2, damp = 0.8, dtau = 0.004) groupsize 4,2 gridsize 2,2
# expect dH ≈ [-0.005, 0.005, 0.015, -0.005, 0.005, 0.015, 1.1775306788479978, 0.8737479798400019, 0.49897410912000034, -0.005, 0.005, -0.8689396705919956, -1.3384244694399992, -1.7457166447999992, 0.015, -0.005, 0.005, 0.015, -0.005, 0.005]
# expect Hn ≈ [0.3, 0.368, 0.432, 0.492, 0.548, 0.6, 0.652710122715392, 0.6954949919193599, 0.73399589643648, 0.768, 0.8, 0.824524241317632, 0.84664630212224, 0.8650171334208, 0.888, 0.9, 0.908, 0.912, 0.912, 0.908]
