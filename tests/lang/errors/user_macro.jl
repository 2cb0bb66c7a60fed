# A macro the file defines (its body, `$x` and all, is skipped at load) and macros juke does not have:
# each use names the macro and what to write instead.
macro twice(x)
    :(2 * $x)
end
function user_macro!(a)
    a[1] = @twice 3
    @cushow(a[1])
    return
end
# run: user_macro!(a = zeros(Int64, 1))
# expect error: unsupported macro @twice: it is a macro this file defines, and juke does not expand user macros; write a function instead
# expect error at: 7:12
# expect error: unsupported macro @cushow: juke prints with AMDGPU.jl's @rocprintf, @rocprint and @rocprintln (and CUDA's @cuprintf, @cuprint and @cuprintln)
# expect error at: 8:5
