# Top-level `for ... @eval ... end` loops define one method per element, as GPUArrays' and
# AcceleratedKernels' sources do: `$T` is the element, a symbol `:f` names f.
for T in (Int8, Int16, UInt8)
    @eval @inline narrow_to(::Type{$T}, x) = x % $T
end

for (name, op) in ((:plus_one, +), (:minus_one, -))
    @eval begin
        $name(x) = $op(x, one(x))
    end
end

@eval twice(x) = 2x

function eval_loops!(out, x)
    i = 1
    out[i] = narrow_to(Int8, x[1])          # 300 % Int8 == 44
    out[i+1] = narrow_to(UInt8, x[2])       # -1 % UInt8 == 255
    out[i+2] = sizeof(narrow_to(Int16, x[1])) * 100 + narrow_to(Int16, x[1])
    out[i+3] = plus_one(x[1]) + minus_one(x[2]) + twice(x[3])
    return nothing
end
# run: eval_loops!(out = zeros(Int64, 4), x = Int64[300, -1, 21])
# expect out: [44, 255, 500, 341]
