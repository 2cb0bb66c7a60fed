# Variables whose type changes: `tmp = 0` then `tmp += a[i] * b[i]` (Float64) makes tmp a Union{Int64,
# Float64}, as Julia types it; each use is split on the type it holds, and a store converts to the array's
# element type. A loop that does not run leaves the Int64.
function dot_union!(c, a, b, n)
    tmp = 0
    for i = 1:n
        tmp += a[i] * b[i]
    end
    c[1] = tmp
    c[2] = tmp * 2
    return
end
# run: dot_union!(c = zeros(Float64, 2), a = Float64[1.5, 2, 3], b = Float64[2, 0.25, 4], n = 3)
# expect c: [15.5, 31.0]
# run: dot_union!(c = zeros(Float64, 2), a = Float64[1.5, 2, 3], b = Float64[2, 0.25, 4], n = 0)
# expect c: [0.0, 0.0]

# three member types, a branch on the union, and a conversion of each member on store
function three!(o, k)
    x = 1
    if k == 2
        x = 2.5f0
    elseif k == 3
        x = 0.75
    end
    if x > 1
        o[1] = x * 2
    else
        o[1] = x - 3
    end
    o[2] = typeof(x) === Float32 ? 1 : 0
    return
end
# run: three!(o = zeros(Float64, 2), k = 1)
# expect o: [-2.0, 0.0]
# run: three!(o = zeros(Float64, 2), k = 2)
# expect o: [5.0, 1.0]
# run: three!(o = zeros(Float64, 2), k = 3)
# expect o: [-2.25, 0.0]

# a KernelAbstractions matmul in the style of its examples: the accumulator starts as the integer 0
@kernel function matmul_union!(a, b, c)
    cI = CartesianIndices(c)[@index(Global)]
    tmp = 0
    for i = 1:size(a)[2]
        tmp += a[cI[1], i] * b[i, cI[2]]
    end
    c[cI] = tmp
end
# run: matmul_union!(a = reshape(Float64[1, 2, 3, 4, 5, 6], 2, 3), b = reshape(Float64[1, 0.5, 2, -1, 0, 0.25], 3, 2), c = zeros(Float64, 2, 2)) groupsize 4 ndrange 4
# expect c: [12.5, 16.0, 0.25, -0.5]

# Int64 on one branch, Float64 on the other, used after the merge; and a type that changes across loop
# iterations (both were compile errors before juke kept such variables as Julia's unions)
function unstable_branch!(o, n)
    if n > 0
        x = 1
    else
        x = 2.5
    end
    o[1] = x
    return nothing
end
# run: unstable_branch!(o = zeros(Float64, 1), n = 1)
# expect o: [1.0]
# run: unstable_branch!(o = zeros(Float64, 1), n = 0)
# expect o: [2.5]
function unstable_loop!(o, n)
    s = 0
    for i in 1:n
        s += 0.5
    end
    o[1] = s
    return nothing
end
# run: unstable_loop!(o = zeros(Float64, 1), n = 3)
# expect o: [1.5]
