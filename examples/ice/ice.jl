# Kernels of the pseudo-transient shallow-ice solver (examples/ice/ice_mpi.c),
# written as ParallelStencil users write theirs: one work-item per cell of a
# rank's local block, cells 1 and n of each dimension being halo (or the
# global boundary, where H is held at its Dirichlet value).
#
# Per physical time step dt, the implicit equation
#     (H - Hold)/dt = -div(q) + M,   q = -D grad(B + H),   D = d0 + a*H^3
# (the shallow-ice approximation with Glen's n = 1 over a bed B, surface mass
# balance M) is solved by damped pseudo-transient iterations:
#     R = -(H - Hold)/dt - div(q) + M   (0 where H = 0 and R < 0: ice-free)
#     dHdtau = R + damp*dHdtau
#     H = max(0, H + dtau*dHdtau),  dtau = cfl / (4.1*Dmax/min(dx,dy)^2 + 1/dt)
# with Dmax the largest D of the cell and its four neighbours.

@inline function cell()
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    j = (workgroupIdx().y - 1) * workgroupDim().y + workitemIdx().y
    return i, j
end

# D at every cell, halo included (H's halo is fresh after the exchange).
function diffusivity!(D, H, a, d0)
    i, j = cell()
    if i <= size(D, 1) && j <= size(D, 2)
        @inbounds begin
            h = H[i, j]
            D[i, j] = d0 + a * h * h * h
        end
    end
    return
end

# The residual and the damped rate at inner cells.
function residual!(R, dHdtau, H, Hold, B, D, M, dx, dy, inv_dt, damp)
    i, j = cell()
    nx = size(H, 1)
    ny = size(H, 2)
    if i >= 2 && i <= nx - 1 && j >= 2 && j <= ny - 1
        @inbounds begin
            s = B[i, j] + H[i, j]
            qw = -0.5 * (D[i-1, j] + D[i, j]) * (s - (B[i-1, j] + H[i-1, j])) / dx
            qe = -0.5 * (D[i, j] + D[i+1, j]) * ((B[i+1, j] + H[i+1, j]) - s) / dx
            qs = -0.5 * (D[i, j-1] + D[i, j]) * (s - (B[i, j-1] + H[i, j-1])) / dy
            qn = -0.5 * (D[i, j] + D[i, j+1]) * ((B[i, j+1] + H[i, j+1]) - s) / dy
            r = -(H[i, j] - Hold[i, j]) * inv_dt - ((qe - qw) / dx + (qn - qs) / dy) + M[i, j]
            # Where there is no ice and melt wins, H = 0 solves the problem.
            if H[i, j] <= 0.0 && r < 0.0
                r = 0.0
            end
            R[i, j] = r
            dHdtau[i, j] = r + damp * dHdtau[i, j]
        end
    end
    return
end

# The pseudo-time step at inner cells.
function update!(H, dHdtau, D, dx, dy, inv_dt, cfl)
    i, j = cell()
    nx = size(H, 1)
    ny = size(H, 2)
    if i >= 2 && i <= nx - 1 && j >= 2 && j <= ny - 1
        @inbounds begin
            dmax = max(D[i, j], max(max(D[i-1, j], D[i+1, j]), max(D[i, j-1], D[i, j+1])))
            h2 = min(dx, dy)^2
            dtau = cfl / (4.1 * dmax / h2 + inv_dt)
            H[i, j] = max(0.0, H[i, j] + dtau * dHdtau[i, j])
        end
    end
    return
end

# The x faces of the halo exchange are strided in column-major storage:
# gather column i of every row into a contiguous buffer, and back.
function pack_x!(buf, H, i)
    j = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    if j <= size(H, 2)
        @inbounds buf[j] = H[i, j]
    end
    return
end

function unpack_x!(H, buf, i)
    j = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    if j <= size(H, 2)
        @inbounds H[i, j] = buf[j]
    end
    return
end

# The largest |R| of each row i over the inner cells (0 on the halo rows): the
# host takes the maximum of these nx values. Work-items of consecutive i read
# consecutive addresses.
function rowmax!(out, R)
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    nx = size(R, 1)
    if i <= nx
        m = 0.0
        if i >= 2 && i <= nx - 1
            for j in 2:size(R, 2)-1
                @inbounds m = max(m, abs(R[i, j]))
            end
        end
        @inbounds out[i] = m
    end
    return
end
