# Local memory whose dims a constant condition picks: `@localmem T W ? 32 : N` with W a where-parameter's
# Bool and N the static groupsize (KomaMRI's precession kernel), and through a variable an if/else on the
# condition assigns; only the branch the condition takes counts.
using KernelAbstractions

@kernel function pick_lm!(out, ::Val{W}) where {W}
    @uniform N = @groupsize()[1]
    i = @index(Local, Linear)
    s = @localmem Float32 W ? 32 : N
    if !W
        M = 2 * N
    else
        M = N
    end
    t = @localmem Int32 (M,)
    s[i] = i
    t[i] = length(t)
    @synchronize
    out[@index(Global, Linear)] = s[N - i + 1] + length(s) + t[N - i + 1]
end
# run: pick_lm!(out = zeros(Float32, 8), w = Val(false)) groupsize 4 ndrange 8
# expect out: [16, 15, 14, 13, 16, 15, 14, 13]
# run: pick_lm!(out = zeros(Float32, 8), w = Val(true)) groupsize 4 ndrange 8
# expect out: [40, 39, 38, 37, 40, 39, 38, 37]
