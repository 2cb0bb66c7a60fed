# alloc_local's length must be a constant where it is called (AMDGPU.jl passes it as Val{len}()).
function dyn_local!(x, n)
    p = alloc_local(:buf, Float32, n)
    unsafe_store!(p, x[1])
    x[2] = unsafe_load(p)
    return
end
# run: dyn_local!(x = zeros(Float32, 2), n = 4)
# expect error: Val(x) needs a constant x (an integer, Bool, Char, Symbol or type) in a kernel
# expect error at: 3:36

