# KernelAbstractions' @print: Base.print of its items from every work-item (padding work-items outside
# the ndrange print nothing); the CPU device prints in work-item order.
using KernelAbstractions

@kernel function hello(A)
    I = @index(Global)
    A[I] = 2I
    @print("Hello from ", I, ": ", A[I] / 4, "\n")
end
# run: hello(A = zeros(Int64, 5)) groupsize 4 ndrange 5
# expect output: Hello from 1: 0.5\nHello from 2: 1.0\nHello from 3: 1.5\nHello from 4: 2.0\nHello from 5: 2.5\n
# expect A: [2, 4, 6, 8, 10]

@kernel function interpolated(x)
    i = @index(Local)
    KernelAbstractions.@print "local $i of $(@groupsize()[1]), x = $x\n"
end
# run: interpolated(x = 0.25f0) groupsize 2 ndrange 2
# expect output: local 1 of 2, x = 0.25\nlocal 2 of 2, x = 0.25\n
