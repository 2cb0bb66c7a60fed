# Characters as type parameters: Val('T') from the host or the kernel, a where-parameter C of Val{C} that is a
# Char, C === 'N' decided by the types, and Val(C === 'S') of such a comparison, which needs the constant
# (LinearAlgebra's wrapper characters, GPUArrays' matmul).
scaled(x, ::Val{true}) = 2x
scaled(x, ::Val{false}) = x
function pick(x, ::Val{C}) where {C}
    if C === 'N'
        x
    elseif C === 'T'
        -x
    elseif C === 'S' || C === 's'
        scaled(x, Val(C === 'S')) + codepoint(C)
    elseif C === 'é'
        x * 1000
    else
        zero(x)
    end
end
function val_char!(out, a, ::Val{W}) where {W}
    i = workitemIdx().x
    out[1, i] = pick(a[i], Val(W))
    out[2, i] = pick(a[i], Val('N'))
    out[3, i] = pick(a[i], Val('S'))
    out[4, i] = pick(a[i], Val('s'))
    out[5, i] = pick(a[i], Val('é'))
    out[6, i] = W == 'T'
    return
end
# run: val_char!(out = zeros(Int64, 6, 3), a = Int64[7, -12, 40], w = Val('T')) groupsize 3
# expect out: [-7, 7, 97, 122, 7000, 1, 12, -12, 59, 103, -12000, 1, -40, 40, 163, 155, 40000, 1]
# run: val_char!(out = zeros(Int64, 6, 3), a = Int64[7, -12, 40], w = Val('N')) groupsize 3
# expect out: [7, 7, 97, 122, 7000, 0, -12, -12, 59, 103, -12000, 0, 40, 40, 163, 155, 40000, 0]
