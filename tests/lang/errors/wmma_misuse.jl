# WMMA fragments hold Float16 in A and B (RDNA 3's v_wmma_f32_16x16x16_f16): a Float32 tile fails in the
# module's Julia code (base/wmma.jl; a note points at the kernel's call). docs/errors.md E1503: mma of three C
# fragments.
using AMDGPU.Device: WMMA
function load_float32!(D, A)
    a = WMMA.load_a(pointer(A), Int32(16), WMMA.ColMajor())
    WMMA.store_d(pointer(D), WMMA.mma(a, a, WMMA.fill_c(Float32, 0f0)), Int32(16))
    return
end
# run: load_float32!(D = zeros(Float32, 256), A = zeros(Float32, 256)) groupsize 32
# expect error: MethodError: no method matching __wmma_needs_Float16(::Tuple{Float32, Float32, Float32, Float32, Float32, Float32, Float32, Float32, Float32, Float32, Float32, Float32, Float32, Float32, Float32, Float32})
