#sig dyn! Vector{Float64}; Vector{Float64}; Int64
function dyn!(y, x, k)
    s = @ROCDynamicLocalArray(Float64, workgroupDim().x)
    i = workitemIdx().x
    g = (workgroupIdx().x - 1) * workgroupDim().x + i
    s[i] = g <= length(x) ? x[g] : 0.0
    sync_workgroup()
    v = sqrt(abs(s[workgroupDim().x - i + 1])) + exp(-1.0) * sin(Float64(k)) / cos(0.5) ^ 2
    if g <= length(y)
        y[g] = muladd(v, 2.0, fma(v, v, 1.0)) + (isnan(v) ? 1.0 : 0.0)
    end
    return
end
