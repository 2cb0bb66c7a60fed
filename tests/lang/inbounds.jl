# @inbounds on an expression, a statement and a block; outside it every access is checked.
function inbounds!(y, x, n)
    i = workitemIdx().x
    @inbounds y[i] = x[i] * 2
    v = @inbounds x[i]
    @inbounds begin
        y[i] += v
        y[i] += 1
    end
    @inbounds for k in 1:2
        y[i] += k
    end
    if i == 4
        y[n] = 0                 # outside @inbounds: checked
    end
    return nothing
end
# run: inbounds!(y = zeros(Float32, 4), x = Float32[1, 2, 3, 4], n = 4) groupsize 4
# expect y: [7, 10, 13, 0]
# expect typed: @inbounds
# run: inbounds!(y = zeros(Float32, 4), x = Float32[1, 2, 3, 4], n = 5) groupsize 4
# expect exception: BoundsError: attempt to access 4-element ROCDeviceVector{Float32, 1} at index [5]
# expect exception at: 14:9
