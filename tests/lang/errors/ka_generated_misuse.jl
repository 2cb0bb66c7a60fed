# What a generated kernel cannot hold, and `$` outside one.
using KernelAbstractions

@kernel generated = true function with_closure!(a)
    I = @index(Global)
    a[I] = sum(x -> 2x, 1:$(3))
end
# expect error: a `@kernel generated = true` function cannot contain a closure (`x -> ...`, a `do` block, `function (x) ... end`): its body is a generated function's, which Julia does not allow closures in (KernelAbstractions' GeneratedKernelError); define a named function
# expect error at: 6:16

@kernel function not_generated!(a, ::Val{N}) where {N}
    I = @index(Global)
    a[I] = $N
end
# expect error: syntax: "$" expression outside quote (KernelAbstractions splices `$x` only into the body of a `@kernel generated = true function`)
# expect error at: 13:12

function helper(x)
    return $x + 1
end
# expect error: syntax: "$" expression outside quote (KernelAbstractions splices `$x` only into the body of a `@kernel generated = true function`)
# expect error at: 19:12

function per_copy_names(a, ::Val{N}) where {N}
    Base.Cartesian.@nexprs N j -> (v_j = a[j]; w_j = 2v_j)
    return nothing
end
# expect error: juke expands `@nexprs N j -> expr` with a count that is no integer literal as a loop over j in 1:N: names ending in _j (one per copy in Julia) need a literal N (up to 64); use a tuple (`@ntuple`) or an array instead
# expect error at: 25:5
