# @rocprintf with C's formats, as AMDGPU.jl's test/device/output.jl writes it. The records go through the
# device's print buffer; the CPU device prints them in work-item order.
function hello()
    @rocprintf "Hello World!\n"
    return
end
# run: hello()
# expect output: Hello World!\n

value(x) = @rocprintf "Value: %d\n" x
# run: value(x = 42)
# expect output: Value: 42\n

function multiple(x)
    y = 0.123401
    @rocprintf "Value: %d | %.4f\n" x y
end
# run: multiple(x = 42)
# expect output: Value: 42 | 0.1234\n

# flags, widths, precision, every conversion; length modifiers are accepted and the value's own type decides
function formats(i, u, f, d)
    @rocprintf "%5d|%-5d|%05d|%+d|%x|%X|%o|%i|%u\n" i i i i u u u i u
    @rocprintf "%.3f|%10.2e|%g|%G|%e\n" f d d f d
    @rocprintf "%s and %-6s|%c%c|100%%\n" "const" "str" 74 75
    AMDGPU.@rocprintf("%ld %lld %hd %5.1f\n", i, i, i, i)
    return nothing
end
# run: formats(i = Int32(-42), u = UInt32(255), f = 2.5f0, d = 1234.5678)
# expect output: \s -42|-42  |-0042|-42|ff|FF|377|-42|255\n
# expect output: 2.500|  1.23e+03|1234.57|2.5|1.234568e+03\n
# expect output: const and str   |JK|100%\n
# expect output: -42 -42 -42 -42.0\n

# as in Julia's Printf, a negative value to %u / %x / %o is "-" and its magnitude; %s of numbers
function signs(b, s)
    @rocprintf "%u %x %d %s %s|%5x|%-5x|%05o|\n" b b s s (s > 0) b b b
    return
end
# run: signs(b = Int8(-1), s = UInt16(300))
# expect output: -1 -1 300 0x012c true|   -1|-1   |-0001|\n

# The modes, as AMDGPU.jl's execution gate decides them (x dimension only): every lane; the first item
# of each group; the first item of the first group. :group is the default, as in AMDGPU.jl.
lanes() = @rocprintf :lane "[%d] " workitemIdx().x
# run: lanes() groupsize 8
# expect output: [1] [2] [3] [4] [5] [6] [7] [8]\s
# run: lanes() groupsize 4 gridsize 3
# expect output: [1] [2] [3] [4] [1] [2] [3] [4] [1] [2] [3] [4]\s
groups() = @rocprintf :group "[%d] " workitemIdx().x
# run: groups() groupsize 8
# expect output: [1]\s
# run: groups() groupsize 4 gridsize 3
# expect output: [1] [1] [1]\s
grid() = @rocprintf :grid "[%d] " workitemIdx().x
# run: grid() groupsize 4 gridsize 3
# expect output: [1]\s
waves() = @rocprintf :wave "[%d] " workitemIdx().x
# run: waves() groupsize 1
# expect output: [1]\s
# run: waves() groupsize 128 gridsize 2 wavefrontsize 64
# expect output: [1] [65] [1] [65]\s
# run: waves() groupsize 128 wavefrontsize 32
# expect output: [1] [33] [65] [97]\s
default_mode() = @rocprintf "group %d\n" workgroupIdx().x
# run: default_mode() groupsize 4 gridsize 2
# expect output: group 1\ngroup 2\n

# each work-item's records stay in the order it printed them
function twice(A)
    i = workitemIdx().x
    @rocprintf :lane "a%d " i
    A[i] = i
    @rocprintf :lane "b%d " i
    return
end
# run: twice(A = zeros(Int64, 3)) groupsize 3
# expect output: a1 b1 a2 b2 a3 b3\s
# expect A: [1, 2, 3]
