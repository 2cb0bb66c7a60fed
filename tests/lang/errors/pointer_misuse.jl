# Bitwise atomics need an integer pointer; reinterpret needs equal sizes.
function pointer_misuse!(f, o)
    AMDGPU.atomic_and!(pointer(f, 1), 1f0)
    o[1] = reinterpret(Float32, 1)
    o[2] = leading_zeros(1.5)
    return nothing
end
# run: pointer_misuse!(f = zeros(Float32, 2), o = zeros(Float32, 2))
# expect error: atomic_and!: bitwise operations need an integer pointer, not Core.LLVMPtr{Float32, 1}
# expect error at: 3:5
# expect error: bitcast: argument size does not match size of target type (reinterpret(Float32, ::Int64))
# expect error at: 4:12
# expect error: MethodError: no method matching leading_zeros(::Float64)
# expect error at: 5:12
