# An array literal in a kernel: Julia allocates a Vector on the heap, which GPUCompiler rejects in a kernel
# (AMDGPU.jl reports the allocation); juke says so at the literal. Comprehensions and matrices are not parsed.
function weights!(out, x)
    w = [0.25f0, 0.5f0, 0.25f0]
    out[1] = w[1] * x[1] + w[2] * x[2] + w[3] * x[3]
    return nothing
end
# run: weights!(out = zeros(Float32, 1), x = Float32[1, 2, 3])
# expect error: an array literal [a, b, ...] allocates a Vector, which a kernel cannot do; use a tuple (a, b, ...), or an array argument
# expect error at: 4:9
