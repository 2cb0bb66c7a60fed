# A run-time index into a tuple whose fields are of one type or nothing (Oceananigans keeps optional fields
# so: (u, nothing, w)): Julia infers Union{Nothing, T} for t[k], and the kernel tests it with isnothing,
# === nothing / !== nothing, dispatch or something() before using the value.
using KernelAbstractions

@kernel function sum_present!(out, fields, nf)
    i = @index(Global)
    acc = 0.0
    missing_count = 0
    for k in 1:nf
        f = fields[k]
        if isnothing(f)
            missing_count += 1
        else
            acc += f[i]
        end
    end
    g = fields[nf]
    if g !== nothing
        acc += 0.5
    end
    out[i] = acc + 1000 * missing_count
end
# run: sum_present!(out = zeros(Float64, 4), fields = (Float64[1.5, -2, 3, 4.25], nothing, Float64[10, 20, -30, 0.5], nothing), nf = 4) groupsize 4 ndrange 4
# expect out: [2011.5, 2018.0, 1973.0, 2004.75]
# the last field present: the 0.5 is added
# run: sum_present!(out = zeros(Float64, 2), fields = (nothing, Float64[7, -1]), nf = 2) groupsize 2 ndrange 2
# expect out: [1007.5, 999.5]

# the union passed on: each method takes one side
value_at(::Nothing, i) = -1f0
value_at(A::AbstractArray, i) = 2 * A[i]

@kernel function pick_field!(out, fields, @Const(which))
    i = @index(Global)
    out[i] = value_at(fields[which[i]], i)
end
# run: pick_field!(out = zeros(Float32, 5), fields = (nothing, Float32[1, 2, 3, 4, 5], Float32[-3, 0.25, 8, 6, 1]), which = Int64[2, 1, 3, 3, 2]) groupsize 2 ndrange 5
# expect out: [2.0, -1.0, 16.0, 12.0, 10.0]

# numbers and nothing: something() and an early `=== nothing && continue`
function first_set(t, from)
    for k in from:length(t)
        x = t[k]
        x === nothing && continue
        return k * 100 + Int(x)
    end
    return 0
end

function scan_tuple!(out, t)
    for j in 1:length(out)
        out[j] = something(t[j], -7) + first_set(t, j)
    end
    return
end
# run: scan_tuple!(out = zeros(Int64, 4), t = (nothing, 3, nothing, 9))
# expect out: [196, 206, 402, 418]

# an index past the end is Julia's BoundsError
function nth_or_zero!(out, t, k)
    x = t[k]
    out[1] = x === nothing ? 0 : x
    return
end
# run: nth_or_zero!(out = zeros(Int64, 1), t = (4, nothing), k = 1)
# expect out: [4]
# run: nth_or_zero!(out = zeros(Int64, 1), t = (4, nothing), k = 2)
# expect out: [0]
# run: nth_or_zero!(out = zeros(Int64, 1), t = (4, nothing), k = 3)
# expect exception: BoundsError
