# Complex division as Julia computes it: ComplexF64 by the robust scaled
# algorithm (huge and tiny parts), ComplexF32 through ComplexF64 and back,
# inv with infinite and signed-zero parts.
function cdiv(f, k, a, b, c, d)
    q = complex(a, b) / complex(c, d)
    f[k] = real(q)
    f[k + 1] = imag(q)
    return nothing
end
function complex_division!(f, g)
    cdiv(f, 1, 1.0, 2.0, 3.0, 4.0)
    cdiv(f, 3, 1e300, 1e300, 1e-300, 1e-300)
    cdiv(f, 5, 1e-310, 2e-310, 3e-310, -1e-310)
    cdiv(f, 7, 1.7e308, 1.7e308, 1.7e308, -1.7e308)
    cdiv(f, 9, 0.1, 0.7, 0.3, -0.9)
    i1 = inv(complex(Inf, 0.0))
    f[11] = real(i1)
    f[12] = imag(i1)
    i2 = inv(complex(2.0, -0.0))
    f[13] = real(i2)
    f[14] = imag(i2)
    i3 = inv(complex(1e-310, 3e-310))
    f[15] = real(i3)
    f[16] = imag(i3)
    q = ComplexF32(1, 2) / ComplexF32(3, 4)
    g[1] = real(q)
    g[2] = imag(q)
    q = ComplexF32(0.1f0, 0.7f0) / ComplexF32(0.3f0, -0.9f0)
    g[3] = real(q)
    g[4] = imag(q)
    h = ComplexF32(1, 1) / 2f0
    g[5] = imag(h)
    return nothing
end
# run: complex_division!(f = zeros(Float64, 16), g = zeros(Float32, 5))
# expect f: [0.44, 0.08, Inf, 0.0, 0.1, 0.7, 0.0, 1.0000000000000002, -0.6666666666666666, 0.3333333333333333, 0.0, -0.0, 0.5, 0.0, Inf, -Inf]
# expect g: [0.4399999976158142, 0.07999999821186066, -0.6666666865348816, 0.3333333432674408, 0.5]
