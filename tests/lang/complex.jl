# Complex numbers inside kernels, as base/complex.jl computes them: ComplexF64,
# ComplexF32, Complex{Int64} (2 + 3im), im, promotion with reals, abs, abs2,
# conj, z^2, /, inv, exp, zero, ==, dispatch on Complex.
cabs(z::Complex) = abs(z)
sq(z::ComplexF64) = z * z
kind(::Complex{Float32}) = 32
kind(::Complex{T}) where {T} = 1
function complex_basic!(f, d, o)
    z = ComplexF64(3.0, 4.0)
    w = complex(1.0, -2.0)
    f[1] = real(z)
    f[2] = imag(z)
    f[3] = abs(z)
    f[4] = abs2(z)
    p = z * w                      # 11 - 2im
    f[5] = real(p)
    f[6] = imag(p)
    s = z + w
    f[7] = real(s)
    f[8] = imag(s)
    q = z / w                      # -1 + 2im
    f[9] = real(q)
    f[10] = imag(q)
    f[11] = imag(conj(z))
    t = 2 * z + 1
    f[12] = real(t)
    f[13] = imag(t)
    u = 1.5 + 2.0im
    f[14] = real(u) + imag(u)
    v = z^2                        # -7 + 24im
    f[15] = real(v)
    f[16] = imag(v)
    f[17] = cabs(sq(u))            # |u|^2
    r = 1 / w                      # 0.2 + 0.4im
    f[18] = real(r)
    f[19] = imag(r)
    f[20] = real(exp(complex(0.0, 0.0)))
    f[21] = imag(Inf * im)         # Inf * im is 0.0 + Inf*im: Bool's strong zero
    f[22] = real(Inf * im)
    zz = zero(z)
    f[23] = real(zz) + imag(zz)
    f[24] = z == ComplexF64(3, 4) ? 1.0 : 0.0
    f[25] = complex(2.0) == 2 ? 1.0 : 0.0
    a32 = ComplexF32(1f0, 2f0)
    b32 = a32 * 2f0 + im
    d[1] = real(b32)
    d[2] = imag(b32)
    h = a32 + 1.0                  # Complex{Float32} + Float64 is a ComplexF64
    f[26] = imag(h)
    q32 = ComplexF32(1, 1) / ComplexF32(0, 2)
    d[3] = real(q32)
    d[4] = imag(q32)
    n = 2 + 3im                    # Complex{Int64}
    m = n * n
    o[1] = real(m)
    o[2] = imag(m)
    o[3] = abs2(n)
    k = n / (1 + 1im)              # integer parts divide in Float64: 2.5 + 0.5im
    f[27] = real(k)
    f[28] = imag(k)
    o[4] = kind(a32)
    o[5] = kind(z)
    o[6] = kind(im)
    x = Complex{Float32}(0.5, -1)
    d[5] = imag(x)
    c = -z + im * 2                # -3 - 2im
    f[29] = real(c)
    f[30] = imag(c)
    e = exp(complex(0.0, π))       # -1 + 1.2246467991473532e-16im
    f[31] = real(e)
    y = 1.0 - im                   # Complex(1.0 - false, -true)
    f[32] = imag(y)
    g = 2.0 - ComplexF64(0.0, -0.0)   # the imaginary part -(-0.0) is 0.0
    f[33] = imag(g)
    re, ii = reim(w)
    f[34] = re - ii
    f[35] = imag(inv(w))           # 0.4
    return nothing
end
# run: complex_basic!(f = zeros(Float64, 35), d = zeros(Float32, 5), o = zeros(Int64, 6))
# expect f: [3.0, 4.0, 5.0, 25.0, 11.0, -2.0, 4.0, 2.0, -1.0, 2.0, -4.0, 7.0, 8.0, 3.5, -7.0, 24.0, 6.25, 0.2, 0.4, 1.0, Inf, 0.0, 0.0, 1.0, 1.0, 2.0, 2.5, 0.5, -3.0, -2.0, -1.0, -1.0, 0.0, 3.0, 0.4]
# expect d: [2.0, 5.0, 0.5, -0.5, -1.0]
# expect o: [-5, 12, 13, 32, 1, 1]

# The escape-time loop users write for the Mandelbrot set, in ComplexF32.
function mandel!(out, maxit::Int64)
    i = workitemIdx().x
    c = ComplexF32(-2f0 + 0.5f0 * (i - 1), 0.5f0)
    z = zero(c)
    n = 0
    while n < maxit && abs2(z) <= 4f0
        z = z * z + c
        n += 1
    end
    out[i] = n
    return nothing
end
# run: mandel!(out = zeros(Int32, 6), maxit = 50) groupsize 6
# expect out: [1, 3, 5, 50, 50, 5]

# Constructors and conversions: Complex(a, b) promotes, typed locals convert,
# zero/one of a type, cis, angle, isnan/isfinite, ifelse, a complex loop variable.
function complex_more!(f, b)
    z = Complex(1, 2.5)                # ComplexF64
    f[1] = real(z)
    y::ComplexF32 = 3                  # converts: 3 + 0im
    f[2] = real(y) + imag(y)
    c = convert(ComplexF64, 1.5)
    f[3] = real(c)
    f[4] = real(one(ComplexF64)) + imag(zero(ComplexF32))
    e = cis(0.0)
    f[5] = real(e)
    f[6] = imag(e)
    f[7] = angle(complex(-1.0, 0.0))   # π
    f[8] = angle(-2.0)                 # π
    b[1] = isnan(complex(1.0, NaN))
    b[2] = isfinite(complex(1.0, Inf))
    b[3] = isinf(complex(-Inf, 0.0))
    w = ifelse(real(z) > 0, z, -z)
    f[9] = real(w)
    acc = zero(ComplexF64)
    for k in 1:4
        acc += complex(k, -k)          # 10 - 10im
    end
    f[10] = imag(acc)
    p = ComplexF32(2, 0)^-1            # inv: 0.5 + 0im (imag -0.0: -r*t with r = 0/2)
    f[11] = real(p)
    f[12] = real(sincos(0.5)[1] * im)  # 0.0: a real times im has a zero real part
    return nothing
end
# run: complex_more!(f = zeros(Float64, 12), b = zeros(Bool, 3))
# expect f: [1.0, 3.0, 1.5, 1.0, 1.0, 0.0, 3.141592653589793, 3.141592653589793, 1.0, -10.0, 0.5, 0.0]
# expect b: [true, false, true]
