# @rocprint and @rocprintln with Julia's string interpolation: values print as Julia's print shows them.
function plain()
    @rocprint "Hello World!"
    @rocprintln "Goodbye World!"
    return
end
# run: plain()
# expect output: Hello World!Goodbye World!\n

function interp(x, y, n, b, u)
    @rocprintln "x = $x, y = $y, n = $n, b = $b, u = $u, sum = $(x + y), $(n * 2)"
    return
end
# run: interp(x = 1.5f0, y = 0.1, n = -7, b = true, u = UInt8(10))
# expect output: x = 1.5, y = 0.1, n = -7, b = true, u = 0x0a, sum = 1.6, -14\n

# floats as Base.Ryu writes them: shortest digits, plain from 1e-4 to 1e6 (Float16: 1e3), else exponent
function floats(a, b, c)
    @rocprintln "$a $b $c $(1.0e6) $(123456.0) $(1.0e-5) $(0.0001) $(-0.0) $(a / 0f0) $(-a / 0f0)"
    @rocprintln "$(Float16(1000)) $(Float16(0.1)) $(1.0f0 / 3.0f0) $(1 / 3) $(2.0^70) $(100.0) $(1.0f7) $(0.1f0)"
    @rocprintln "$(Int8(-5)) $(UInt16(300)) $(typemax(UInt64)) $(typemin(Int64)) $(c > 5) $(0.0 / 0.0)"
    return
end
# run: floats(a = 2.5f0, b = 1e300, c = Int32(3))
# expect output: 2.5 1.0e300 3 1.0e6 123456.0 1.0e-5 0.0001 -0.0 Inf -Inf\n
# expect output: 1.0e3 0.1 0.33333334 0.3333333333333333 1.1805916207174113e21 100.0 1.0e7 0.1\n
# expect output: -5 0x012c 0xffffffffffffffff -9223372036854775808 false NaN\n

# modes as for @rocprintf; \$ and % are literal
function lanes(A)
    i = workitemIdx().x
    @rocprintln :lane "item $i: $(A[i]) costs \$5 (100%)"
    return
end
# run: lanes(A = Float32[0.5, 1.25, 3]) groupsize 3
# expect output: item 1: 0.5 costs $5 (100%)\nitem 2: 1.25 costs $5 (100%)\nitem 3: 3.0 costs $5 (100%)\n
function first_of_group()
    @rocprintln "group $(workgroupIdx().x) of $(gridGroupDim().x)"
    return
end
# run: first_of_group() groupsize 4 gridsize 2
# expect output: group 1 of 2\ngroup 2 of 2\n
