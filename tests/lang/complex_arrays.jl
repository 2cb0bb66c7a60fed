# Arrays of complex numbers as AMDGPU.jl's test/device/regression.jl passes them (ComplexF32 and ComplexF64
# elements, Julia's layout: the real part, then the imaginary part), with the functions Julia computes on them.
# The test lists a complex array's values part by part: ComplexF32[1.5, 0.5, -2, 1] is [1.5+0.5im, -2+1im].
# References: Julia's definitions (sqrt, exp, log: principal branches; z^2 is z*z, z^-1 inv(z)).
function cx_math!(s, e, l, c, p, z)
    i = workitemIdx().x
    w = z[i]
    s[i] = sqrt(w)
    e[i] = exp(w)
    l[i] = log(w)
    c[i] = conj(w) + cis(real(w))
    p[i] = w^2 + w^-1
    return
end
# run: cx_math!(s = zeros(ComplexF32, 3), e = zeros(ComplexF32, 3), l = zeros(ComplexF32, 3), c = zeros(ComplexF32, 3), p = zeros(ComplexF32, 3), z = ComplexF32[1.5, 0.5, -2, 1, 0.25, -3]) groupsize 3
# expect s ≈ [1.2411967515945435, 0.20141850411891937, 0.34356075525283813, 1.455346703529358, 1.2767926454544067, -1.1748188734054565] rtol 1e-5
# expect e ≈ [3.9330520629882812, 2.1486361026763916, 0.07312196493148804, 0.1138807162642479, -1.271175503730774, -0.18120168149471283] rtol 1e-5
# expect l ≈ [0.4581453800201416, 0.32175055146217346, 0.8047189712524414, 2.677945137023926, 1.1020724773406982, -1.4876550436019897] rtol 1e-5
# expect c ≈ [1.5707372426986694, 0.49749499559402466, -2.416146755218506, -1.9092974662780762, 1.2189123630523682, 3.247403860092163] rtol 1e-5
# expect p ≈ [2.5999999046325684, 1.2999999523162842, 2.5999999046325684, -4.199999809265137, -8.909914016723633, -1.168965458869934] rtol 1e-5
# run: cx_math!(s = zeros(ComplexF64, 3), e = zeros(ComplexF64, 3), l = zeros(ComplexF64, 3), c = zeros(ComplexF64, 3), p = zeros(ComplexF64, 3), z = ComplexF64[1.5, 0.5, -2, 1, 0.25, -3]) groupsize 3
# expect s ≈ [1.2411967672541269, 0.20141850719855617, 0.34356074972251244, 1.455346690225355, 1.2767925917505305, -1.1748188466095686] rtol 1e-12
# expect e ≈ [3.9330521759433617, 2.1486361964033964, 0.07312196559805964, 0.1138807140643681, -1.2711755279651242, -0.18120167715204843] rtol 1e-12
# expect l ≈ [0.45814536593707755, 0.3217505543966422, 0.8047189562170503, 2.677945044588987, 1.1020725100903965, -1.4876550949064553] rtol 1e-12
# expect c ≈ [1.5707372016677028, 0.49749498660405445, -2.4161468365471426, -1.9092974268256817, 1.2189124217106446, 3.2474039592545227] rtol 1e-12
# expect p ≈ [2.6, 1.3, 2.6, -4.2, -8.909913793103449, -1.1689655172413793] rtol 1e-12

# abs, angle, abs2, real and imag are real numbers.
function cx_parts!(r, z)
    i = workitemIdx().x
    w = z[i]
    r[5i - 4] = abs(w)
    r[5i - 3] = angle(w)
    r[5i - 2] = abs2(w)
    r[5i - 1] = real(w)
    r[5i] = imag(w)
    return
end
# run: cx_parts!(r = zeros(Float32, 15), z = ComplexF32[1.5, 0.5, -2, 1, 0.25, -3]) groupsize 3
# expect r ≈ [1.5811388492584229, 0.32175055146217346, 2.5, 1.5, 0.5, 2.2360680103302, 2.677945137023926, 5.0, -2.0, 1.0, 3.0103986263275146, -1.4876550436019897, 9.0625, 0.25, -3.0] rtol 1e-6
# run: cx_parts!(r = zeros(Float64, 15), z = ComplexF64[1.5, 0.5, -2, 1, 0.25, -3]) groupsize 3
# expect r ≈ [1.5811388300841898, 0.3217505543966422, 2.5, 1.5, 0.5, 2.23606797749979, 2.677945044588987, 5.0, -2.0, 1.0, 3.010398644698074, -1.4876550949064553, 9.0625, 0.25, -3.0] rtol 1e-14

# Storing converts as Julia's convert: a real number gets a zero imaginary part, a ComplexF64 rounds to ComplexF32.
function cx_store!(a, b)
    i = workitemIdx().x
    a[i] = 1.5f0 * i
    b[i] = ComplexF64(i, -i) / 3
    return
end
# run: cx_store!(a = zeros(ComplexF32, 2), b = zeros(ComplexF32, 2)) groupsize 2
# expect a: [1.5, 0, 3, 0]
# expect b: [0.33333334f0, -0.33333334f0, 0.6666667f0, -0.6666667f0]

# The triangular kernel of regression.jl: a real matrix times a complex one.
function triangular!(out, A, R, n)
    lm = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if lm <= size(out, 1)
        @inbounds for k in 1:n
            v = zero(eltype(out))
            for r in k:n
                v += R[k, r] * A[lm, r]
            end
            out[lm, k] = v
        end
    end
    return
end
# run: triangular!(out = zeros(ComplexF32, 2, 2), A = reshape(ComplexF32[1, 2, 3, 4, 5, 6, 7, 8], 2, 2), R = reshape(Float32[1, 0, 2, 3], 2, 2), n = 2) groupsize 4
# expect out: [11, 14, 17, 20, 15, 18, 21, 24]
