# A 3-D array indexed with two indices, a vector with a Float64 and a Bool.
function index_count!(M, v)
    M[1, 1] = 0
    v[1.0] = 0
    v[true] = 0
    return nothing
end
# run: index_count!(M = zeros(Float32, 2, 2, 2), v = zeros(Float32, 2))
# expect error: indexing a 3-dimensional array with 2 indices is not supported (use 1, or 3 and any trailing indices of 1)
# expect error at: 3:5
# expect error: MethodError: no method matching setindex!(::ROCDeviceArray{Float32, 1, 1}, ::Int64, ::Float64)
# expect error at: 4:5
# expect error: MethodError: no method matching setindex!(::ROCDeviceArray{Float32, 1, 1}, ::Int64, ::Bool)
# expect error at: 5:5
