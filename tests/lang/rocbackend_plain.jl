# ROCBackend, which AMDGPU.jl exports, in a file of plain AMDGPU.jl kernels (no KernelAbstractions macros): an
# alias of it, methods that dispatch on it, a value of it built in the kernel or passed in (JACC's
# `const AMDGPUBackend = ROCBackend` and `JACC.shared(::AMDGPUBackend, x)`).
using AMDGPU

const AMDGPUBackend = ROCBackend

scale(::AMDGPUBackend, x) = 2x
scale(::CPU, x) = 3x

function by_backend!(out, b)
    i = workitemIdx().x
    out[i] = scale(ROCBackend(), i) + 10 * scale(b, i)
    return
end
# run: by_backend!(out = zeros(Int64, 3), b = CPU()) groupsize 3
# expect out: [32, 64, 96]
# run: by_backend!(out = zeros(Int64, 3), b = ROCBackend()) groupsize 3
# expect out: [22, 44, 66]
