# A run-time index into a tuple of two array types and nothing: Julia's Union{Nothing, A, B} has three
# members, more than juke keeps for a value (one type, or one type and nothing).
function mixed!(out, fields, k)
    f = fields[k]
    out[1] = f === nothing ? 0f0 : f[1]
    return
end
# run: mixed!(out = zeros(Float32, 1), fields = (Float32[1, 2], nothing, Float64[3, 4]), k = 2)
# expect error: indexing the heterogeneous Tuple{ROCDeviceArray{Float32, 1, 1}, Nothing, ROCDeviceArray{Float64, 1, 1}} needs a constant index (a run-time one works when the fields are of one type, or of one type and nothing)
# expect error at: 4:9
