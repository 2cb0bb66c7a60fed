# vadd! of ../../../shared/acceptance/vadd.jl without @inbounds: every access is bounds-checked.
function vadd!(c, a, b)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if i <= length(c)
        c[i] = a[i] + b[i]
    end
    return
end
