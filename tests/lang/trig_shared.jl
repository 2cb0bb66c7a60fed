# sin and cos of one value: on AMD GPUs the two calls share ocml's argument reduction (llvm_pipeline.c inlines
# the library's entry points first and merges their common pure calls; tests/dumps/trig_shared.expect counts
# the reductions). The values must be bit for bit those of separate calls, large arguments (Payne-Hanek
# reduction) included: the @noinline helpers compute each alone.
@noinline sin_alone(v) = sin(v)
@noinline cos_alone(v) = cos(v)

function trig_shared!(same, s, c, x)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if i <= length(x)
        @inbounds v = x[i]
        a = sin(v)
        b = cos(v)
        @inbounds s[i] = a
        @inbounds c[i] = b
        @inbounds same[i] = (a === sin_alone(v)) & (b === cos_alone(v))
    end
    return
end
# run: trig_shared!(same = zeros(Bool, 12), s = zeros(Float32, 12), c = zeros(Float32, 12), x = Float32[0.5, -1.25, 3.0, 100.5, -7500.0, 100000.0, 30000000.0, -1.0000000150474662e+30, 2.500000072189495e+38, 0.001500000013038516, -0.75, 42.0]) groupsize 4 gridsize 3
# expect same: [true, true, true, true, true, true, true, true, true, true, true, true]
# expect s ≈ [0.4794255495071411, -0.9489846229553223, 0.14112000167369843, -0.030959967523813248, 0.8512359261512756, 0.03574879840016365, 0.9641302824020386, 0.791163444519043, 0.26444247364997864, 0.001499999430961907, -0.681638777256012, -0.9165215492248535] rtol 1e-6
# expect c ≈ [0.8775825500488281, 0.3153223693370819, -0.9899924993515015, 0.9995205998420715, -0.5247832536697388, -0.9993607997894287, -0.26542940735816956, -0.6116048097610474, 0.9644014835357666, 0.9999988675117493, 0.7316888570785522, -0.39998531341552734] rtol 1e-6
# run: trig_shared!(same = zeros(Bool, 12), s = zeros(Float64, 12), c = zeros(Float64, 12), x = Float64[0.5, -1.25, 3.0, 100.5, -7500.0, 100000.0, 30000000.0, -1e+30, 1e+300, 0.0015, -0.75, 42.0]) groupsize 4 gridsize 3
# expect same: [true, true, true, true, true, true, true, true, true, true, true, true]
# expect s ≈ [0.479425538604203, -0.9489846193555862, 0.1411200080598672, -0.030959966783271346, 0.8512358993460261, 0.03574879797201651, 0.9641302978985832, -0.009331468931175825, -0.8178819121159085, 0.0014999994375000632, -0.6816387600233341, -0.9165215479156338] rtol 1e-14
# expect c ≈ [0.8775825618903728, 0.3153223623952687, -0.9899924966004454, 0.9995206253283515, -0.524783234930921, -0.9993608074382124, -0.2654294043130664, -0.9999564608959665, -0.5753861119575491, 0.9999988750002109, 0.7316888688738209, -0.39998531498835127] rtol 1e-14

# The form the dumps count: one reduction for both.
function rotate!(p, q, x, y, θ)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if i <= length(x)
        @inbounds t = θ[i]
        s = sin(t)
        c = cos(t)
        @inbounds p[i] = c * x[i] - s * y[i]
        @inbounds q[i] = s * x[i] + c * y[i]
    end
    return
end
# run: rotate!(p = zeros(Float32, 3), q = zeros(Float32, 3), x = Float32[1, 2, 0.5], y = Float32[0, -1, 4], θ = Float32[0.25, 3.5, -2]) groupsize 3
# expect p ≈ [0.9689124226570129, -2.223696708679199, 3.4291162490844727] rtol 1e-6
# expect q ≈ [0.24740396440029144, 0.23489022254943848, -2.1192359924316406] rtol 1e-6
