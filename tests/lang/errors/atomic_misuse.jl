# AMDGPU.@atomic needs an indexed array on the left.
function atomic_misuse!(o)
    AMDGPU.@atomic o += 1
    AMDGPU.@atomic o[1] *= 2
    return nothing
end
# run: atomic_misuse!(o = zeros(Int64, 1))
# expect error: AMDGPU.@atomic expects `A[i] op= x` (op one of + - & | ⊻), `A[i] = x`, or `max(A[i], x)` / `min(A[i], x)`
# expect error at: 3:5
# expect error: AMDGPU.@atomic expects `A[i] op= x` (op one of + - & | ⊻), `A[i] = x`, or `max(A[i], x)` / `min(A[i], x)`
# expect error at: 4:5
