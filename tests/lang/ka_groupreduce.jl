# KernelAbstractions' @groupreduce(op, val[, groupsize]) and @warp_groupreduce(op, val, neutral[, groupsize])
# (src/reduce.jl): the group's values reduced with op, the result on the group's first work-item.
using KernelAbstractions

@kernel cpu=false function group_sum!(y, @Const(x), op, neutral)
    i = @index(Global)
    val = i > length(x) ? neutral : x[i]
    res = @groupreduce(op, val)
    if @index(Local) == 1
        y[@index(Group)] = res
    end
end
# run: group_sum!(y = zeros(Float32, 2), x = Float32[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13.5], op = +, neutral = 0f0) groupsize 8 ndrange 16
# expect y: [36, 55.5]
# run: group_sum!(y = zeros(Int64, 2), x = Int64[3, -7, 12, 5, 9, 1, -2, 8, 4, 6, 30, 2, 11], op = max, neutral = typemin(Int64)) groupsize 8 ndrange 16
# expect y: [12, 30]

# the groupsize given: a reduction over the group's first work-items (here 4 of 8)
@kernel function first_four!(y, @Const(x))
    i = @index(Global)
    res = @groupreduce(*, x[i], 4)
    if @index(Local) == 1
        y[@index(Group)] = res
    end
end
# run: first_four!(y = zeros(Int32, 2), x = Int32[1, 2, 3, 4, 5, 6, 7, 8, 2, 3, 1, 5, 7, 7, 7, 7]) groupsize 8 ndrange 16
# expect y: [24, 30]

# ... from a `where` parameter, with the launch's groupsize left to the library (test/groupreduce.jl)
@kernel function sum_val!(y, @Const(x), ::Val{G}) where {G}
    i = @index(Global)
    res = @groupreduce(+, x[i], G)
    i == 1 && (y[1] = res)
end
# run: sum_val!(y = zeros(Float64, 1), x = collect(Float64, 1:64), g = Val(64)) ndrange 64
# expect y: [2080]

# over warps of 32 lanes (shfl_down), then the warps' results
@kernel function warp_sum!(y, @Const(x), neutral)
    i = @index(Global)
    val = i > length(x) ? neutral : x[i]
    res = @warp_groupreduce(+, val, neutral)
    if @index(Local) == 1
        y[@index(Group)] = res
    end
end
# run: warp_sum!(y = zeros(Int32, 2), x = collect(Int32, 1:100), neutral = Int32(0)) groupsize 64 ndrange 128
# expect y: [2080, 2970]
# run: warp_sum!(y = zeros(Int32, 2), x = collect(Int32, 1:100), neutral = Int32(0)) groupsize 64 ndrange 128 wavefrontsize 32
# expect y: [2080, 2970]

@kernel function warp_sum_val!(y, @Const(x), neutral, ::Val{G}) where {G}
    i = @index(Global)
    res = @warp_groupreduce(+, x[i], neutral, G)
    i == 1 && (y[1] = res)
end
# run: warp_sum_val!(y = zeros(Int16, 1), x = collect(Int16, 1:128), neutral = Int16(0), g = Val(128)) groupsize 128 ndrange 128
# expect y: [8256]
