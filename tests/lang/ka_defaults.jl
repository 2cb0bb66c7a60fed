# KernelAbstractions kernels with default arguments (KA's examples/performance.jl writes
# `::Val{BANK}=Val(1)`): a launch that leaves the argument out takes its default; keyword helpers inside.
using KernelAbstractions

@kernel function copy_banked!(output, @Const(input), ::Val{BANK} = Val(1)) where {BANK}
    I = @index(Global, Linear)
    @inbounds output[I] = input[I] * BANK
end
# run: copy_banked!(dst = zeros(Float32, 6), input = Float32[1, 2, 3, 4, 5, 6]) groupsize 4 ndrange 6
# expect dst: [1, 2, 3, 4, 5, 6]

offset(i; by = 10) = i + by

@kernel function fill_offset!(A, base = 100)
    i = @index(Global)
    A[i] = base + offset(i) + offset(i; by = 1000)
end
# run: fill_offset!(A = zeros(Int64, 5)) groupsize 2 ndrange 5
# expect A: [1112, 1114, 1116, 1118, 1120]
# run: fill_offset!(A = zeros(Int64, 5), base = 0) groupsize 2 ndrange 5
# expect A: [1012, 1014, 1016, 1018, 1020]
