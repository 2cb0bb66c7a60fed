# A call on findfirst's Union{Nothing, Int64} result is split on its type, as Julia dispatches at run time:
# storing the index into an Int64 array, or passing it to a function of Int64 only, compiles, and is a
# MethodError at run time only in a work-item whose search finds nothing (Julia's convert(Int64, nothing)).
double(k::Int64) = 2k

function first_above!(out, a, t)
    i = workitemIdx().x
    out[i] = findfirst(x -> x > t * i, a)
    return
end

function first_above_doubled!(out, a, t)
    i = workitemIdx().x
    out[i] = double(findfirst(x -> x > t * i, a)) + 1
    return
end
# work-item i finds the first element above 10 i
# run: first_above!(out = Int64[-7, 3, 9], a = Int64[12, 5, 25, 31, 40, 2], t = 10) groupsize 3
# expect out: [1, 3, 4]
# run: first_above_doubled!(out = Int64[-7, 3, 9], a = Int64[12, 5, 25, 31, 40, 2], t = 10) groupsize 3
# expect out: [3, 7, 9]
# work-item 3 looks for an element above 45: there is none
# run: first_above!(out = Int64[-7, 3, 9], a = Int64[12, 5, 25, 31, 40, 2], t = 15) groupsize 3
# expect exception: MethodError: cannot convert a value of type Nothing to Int64
# expect exception at: 8:5
# run: first_above_doubled!(out = Int64[-7, 3, 9], a = Int64[12, 5, 25, 31, 40, 2], t = 15) groupsize 3
# expect exception: MethodError: no method matching double(::Nothing)
# expect exception at: 14:14
