# @MMatrix zeros(T, 2, 1500): StaticArrays holds 3000 elements; juke's static arrays are tuples of at most 1024
# along a dimension, which it says at the dimension.
using StaticArrays

function too_large!(C, A)
    Ctmp = @MMatrix zeros(Float64, 2, 1500)
    idx = workitemIdx().x
    Ctmp[1, idx] = A[idx]
    C[idx] = Ctmp[1, idx]
    return
end
# run: too_large!(C = zeros(Float64, 2), A = Float64[1, 2]) groupsize 2
# expect error: @MMatrix of 1500 elements along a dimension: juke's static arrays are tuples of up to 1024
# expect error at: 6:39
