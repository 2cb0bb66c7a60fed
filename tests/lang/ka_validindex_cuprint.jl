# KernelAbstractions.__validindex(__ctx__), with which an unsafe_indices kernel guards itself, and CUDA.jl's
# @cuprint / @cuprintln (Julia's print of each value, from every work-item), as ported CUDA kernels call them.
using KernelAbstractions

@kernel unsafe_indices = true function guarded_double!(y, @Const(x))
    i = @index(Global, Linear)
    if KernelAbstractions.__validindex(__ctx__)
        y[i] = 2 * x[i]
    end
end
# run: guarded_double!(y = zeros(Float32, 5), x = Float32[1, 2, 3, 4, 5]) ndrange 5 groupsize 4
# expect y: [2, 4, 6, 8, 10]

function hello!(x)
    i = workitemIdx().x
    @cuprintln("item $i of ", workgroupDim().x, ": x = $(x[i])")
    @cuprint("done $i\n")
    return nothing
end
# run: hello!(x = Float32[1.5, -2]) groupsize 2
# expect output: item 1 of 2: x = 1.5\ndone 1\nitem 2 of 2: x = -2.0\ndone 2\n
