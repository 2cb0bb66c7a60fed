#sig mandelbrot! Matrix{Int32}; Float32; Float32; Float32; Float32; Int32
# Escape-time iteration counts: early return, while with break, tuple results of size().
function mandelbrot!(iters, xmin, xmax, ymin, ymax, maxiter)
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    j = (workgroupIdx().y - 1) * workgroupDim().y + workitemIdx().y
    w, h = size(iters)
    if i > w || j > h
        return
    end
    cr = xmin + (xmax - xmin) * (i - 1) / (w - 1)
    ci = ymin + (ymax - ymin) * (j - 1) / (h - 1)
    zr = zero(cr); zi = zero(ci)
    n = 0
    while n < maxiter
        zr2 = zr * zr; zi2 = zi * zi
        if zr2 + zi2 > 4
            break
        end
        zi = 2 * zr * zi + ci
        zr = zr2 - zi2 + cr
        n += 1
    end
    @inbounds iters[i, j] = n
    return
end
