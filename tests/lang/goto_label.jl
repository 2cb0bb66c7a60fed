# Julia's symbolic goto in kernels: @goto name jumps to the function's @label name, forward (an early exit past
# the rest of the body, as ImplicitGlobalGrid users skip a region) or back (a loop written with labels).
function skip_band!(out, x, lo, hi)
    i = workitemIdx().x
    if i >= lo && i <= hi; @goto done end
    out[i] = 2 * x[i]
    @label done
    return
end

function collatz_steps!(steps, x)
    i = workitemIdx().x
    n = x[i]
    k = 0
    @label again
    if n != 1
        n = iseven(n) ? n ÷ 2 : 3n + 1
        k += 1
        @goto again
    end
    steps[i] = k
    return
end
# work-items 2..4 jump past the store
# run: skip_band!(out = Int64[-1, -1, -1, -1, -1, -1], x = Int64[3, 5, 7, 9, 11, 13], lo = 2, hi = 4) groupsize 6
# expect out: [6, -1, -1, -1, 22, 26]
# run: collatz_steps!(steps = zeros(Int64, 5), x = Int64[1, 6, 7, 27, 16]) groupsize 5
# expect steps: [0, 8, 16, 111, 4]
