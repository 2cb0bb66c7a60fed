# A macro the file defines whose body juke cannot read (`try` is not kernel syntax: the body is skipped at
# load), and a macro juke does not have: each use names the macro and what to write instead.
macro twice(x)
    try
        :(2 * $x)
    catch
    end
end
function user_macro!(a)
    a[1] = @twice 3
    @cushow(a[1])
    return
end
# run: user_macro!(a = zeros(Int64, 1))
# expect error: unsupported macro @twice: it is a macro this file defines whose body juke cannot read (juke expands macros that build their result from `quote ... end` and `:(...)` templates); write a function instead
# expect error at: 10:12
# expect error: unsupported macro @cushow: juke prints with AMDGPU.jl's @rocprintf, @rocprint and @rocprintln (and CUDA's @cuprintf, @cuprint and @cuprintln)
# expect error at: 11:5
