# c .= a .* b .+ c
function juke_broadcast!(c, a, b)
    juke_g = workgroupDim().x
    juke_i1 = workitemIdx().x + (workgroupIdx().x - 1) * juke_g * 8
    juke_i2 = juke_i1 + juke_g
    juke_i3 = juke_i2 + juke_g
    juke_i4 = juke_i3 + juke_g
    juke_i5 = juke_i4 + juke_g
    juke_i6 = juke_i5 + juke_g
    juke_i7 = juke_i6 + juke_g
    juke_i8 = juke_i7 + juke_g
    juke_n = length(c)
    if juke_i8 <= juke_n
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
        @inbounds bc5_c = c[juke_i5]
        @inbounds bc5_a = a[juke_i5]
        @inbounds bc5_b = b[juke_i5]
        @inbounds bc6_c = c[juke_i6]
        @inbounds bc6_a = a[juke_i6]
        @inbounds bc6_b = b[juke_i6]
        @inbounds bc7_c = c[juke_i7]
        @inbounds bc7_a = a[juke_i7]
        @inbounds bc7_b = b[juke_i7]
        @inbounds bc8_c = c[juke_i8]
        @inbounds bc8_a = a[juke_i8]
        @inbounds bc8_b = b[juke_i8]
        @inbounds c[juke_i1] = bc1_a * bc1_b + bc1_c
        @inbounds c[juke_i2] = bc2_a * bc2_b + bc2_c
        @inbounds c[juke_i3] = bc3_a * bc3_b + bc3_c
        @inbounds c[juke_i4] = bc4_a * bc4_b + bc4_c
        @inbounds c[juke_i5] = bc5_a * bc5_b + bc5_c
        @inbounds c[juke_i6] = bc6_a * bc6_b + bc6_c
        @inbounds c[juke_i7] = bc7_a * bc7_b + bc7_c
        @inbounds c[juke_i8] = bc8_a * bc8_b + bc8_c
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
        if juke_i5 <= juke_n
            @inbounds bc5_c = c[juke_i5]
            @inbounds bc5_a = a[juke_i5]
            @inbounds bc5_b = b[juke_i5]
            @inbounds c[juke_i5] = bc5_a * bc5_b + bc5_c
        end
        if juke_i6 <= juke_n
            @inbounds bc6_c = c[juke_i6]
            @inbounds bc6_a = a[juke_i6]
            @inbounds bc6_b = b[juke_i6]
            @inbounds c[juke_i6] = bc6_a * bc6_b + bc6_c
        end
        if juke_i7 <= juke_n
            @inbounds bc7_c = c[juke_i7]
            @inbounds bc7_a = a[juke_i7]
            @inbounds bc7_b = b[juke_i7]
            @inbounds c[juke_i7] = bc7_a * bc7_b + bc7_c
        end
        if juke_i8 <= juke_n
            @inbounds bc8_c = c[juke_i8]
            @inbounds bc8_a = a[juke_i8]
            @inbounds bc8_b = b[juke_i8]
            @inbounds c[juke_i8] = bc8_a * bc8_b + bc8_c
        end
    end
    return
end
