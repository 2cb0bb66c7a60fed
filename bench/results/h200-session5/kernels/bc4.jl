# c .= a .* b .+ c
function juke_broadcast!(c, a, b)
    juke_g = workgroupDim().x
    juke_i1 = workitemIdx().x + (workgroupIdx().x - 1) * juke_g * 4
    juke_i2 = juke_i1 + juke_g
    juke_i3 = juke_i2 + juke_g
    juke_i4 = juke_i3 + juke_g
    juke_n = length(c)
    if juke_i4 <= juke_n
        @inbounds bc1_c = c[juke_i1]
        @inbounds bc1_a = a[juke_i1]
        @inbounds bc1_b = b[juke_i1]
        @inbounds bc2_c = c[juke_i2]
        @inbounds bc2_a = a[juke_i2]
        @inbounds bc2_b = b[juke_i2]
        @inbounds bc3_c = c[juke_i3]
        @inbounds bc3_a = a[juke_i3]
        @inbounds bc3_b = b[juke_i3]
        @inbounds bc4_c = c[juke_i4]
        @inbounds bc4_a = a[juke_i4]
        @inbounds bc4_b = b[juke_i4]
        @inbounds c[juke_i1] = bc1_a * bc1_b + bc1_c
        @inbounds c[juke_i2] = bc2_a * bc2_b + bc2_c
        @inbounds c[juke_i3] = bc3_a * bc3_b + bc3_c
        @inbounds c[juke_i4] = bc4_a * bc4_b + bc4_c
    else
        if juke_i1 <= juke_n
            @inbounds bc1_c = c[juke_i1]
            @inbounds bc1_a = a[juke_i1]
            @inbounds bc1_b = b[juke_i1]
            @inbounds c[juke_i1] = bc1_a * bc1_b + bc1_c
        end
        if juke_i2 <= juke_n
            @inbounds bc2_c = c[juke_i2]
            @inbounds bc2_a = a[juke_i2]
            @inbounds bc2_b = b[juke_i2]
            @inbounds c[juke_i2] = bc2_a * bc2_b + bc2_c
        end
        if juke_i3 <= juke_n
            @inbounds bc3_c = c[juke_i3]
            @inbounds bc3_a = a[juke_i3]
            @inbounds bc3_b = b[juke_i3]
            @inbounds c[juke_i3] = bc3_a * bc3_b + bc3_c
        end
        if juke_i4 <= juke_n
            @inbounds bc4_c = c[juke_i4]
            @inbounds bc4_a = a[juke_i4]
            @inbounds bc4_b = b[juke_i4]
            @inbounds c[juke_i4] = bc4_a * bc4_b + bc4_c
        end
    end
    return
end
