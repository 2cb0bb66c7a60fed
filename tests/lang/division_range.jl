# Division at the ends of the exponent range, from run-time operands (so the
# AMD code divides with v_div_scale / v_div_fmas / v_div_fixup at every
# optimisation level): quotients that land among the denormals or underflow
# to zero, huge denominators, quotients that overflow, denormal operands.
function quotients!(q, a, b)
    i = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    if i <= length(q)
        q[i] = a[i] / b[i]
    end
    return
end
# run: quotients!(q = zeros(Float64, 12), a = Float64[1.0, 1.7e308, 1.7e308, 7.0, 8.5e307, 1e-310, 3.0, 1e308, 1e-300, 5e-324, 1.7e308, 1e300], b = Float64[1.7e308, 1.7e308, -1.7e308, 3.0, 1.7e308, 3e-310, 1e-310, 1e-10, 1e300, 3.0, 0.5, -1e-300]) groupsize 16
# expect q: [5.88235294117647e-309, 1.0, -1.0, 2.3333333333333335, 0.5, 0.3333333333333333, Inf, Inf, 0.0, 0.0, Inf, -Inf]
# run: quotients!(q = zeros(Float32, 10), a = Float32[1.0, 3.0e38, 3.0e38, 7.0, 1.0e-40, 3.0, 1.0e38, 1.0e-30, 2.0e-45, 2.5e38], b = Float32[3.0e38, 3.0e38, -3.0e38, 3.0, 3.0e-40, 1.0e-40, 1.0e-10, 1.0e30, 3.0, 0.5]) groupsize 16
# expect q: [3.3333333e-39, 1.0, -1.0, 2.3333333, 0.33333176374435425, Inf, Inf, 0.0, 0.0, Inf]
