#sig rev! Vector{Float32}
function rev!(a)
    t = @ROCStaticLocalArray(Float32, 16)
    i = workitemIdx().x
    n = workgroupDim().x
    t[i] = a[i]
    sync_workgroup()
    a[i] = t[n + 1 - i]
    return
end
