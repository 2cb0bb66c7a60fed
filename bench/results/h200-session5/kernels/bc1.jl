# c .= a .* b .+ c
function juke_broadcast!(c, a, b)
    juke_i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if juke_i <= length(c)
        @inbounds bc_c = c[juke_i]
        @inbounds bc_a = a[juke_i]
        @inbounds bc_b = b[juke_i]
        @inbounds c[juke_i] = bc_a * bc_b + bc_c
    end
    return
end
