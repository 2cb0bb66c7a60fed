# Complex numbers are not ordered; z^n needs a literal n; arrays hold reals.
function complex_misuse!(f, n::Int64)
    z = ComplexF64(1.0, 2.0)
    if z < 1.0
        f[1] = 1.0
    end
    w = z^n
    f[2] = z
    return nothing
end
# run: complex_misuse!(f = zeros(Float64, 2), n = 2)
# expect error: MethodError: no method matching <(::ComplexF64, ::Float64)
# expect error at: 4:10
# expect error: z^n of a complex number is supported for a literal n from -2 to 3 (z^2 is z*z)
# expect error at: 7:10
# expect error: cannot store a ComplexF64 into memory of Float64: arrays of complex numbers are not supported in kernels (store real(z) and imag(z))
# expect error at: 8:5
