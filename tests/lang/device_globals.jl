# Device globals as AMDGPU.jl's test/device/globals.jl and docs/src/globals.md use them:
# AMDGPU.get_global_pointer(Val(:name), T) is a pointer to a global of the kernel's code object, named `name`,
# zero when the code object is loaded; unsafe_load and unsafe_store! read and write it.
function kernel(X)
    ptr = AMDGPU.get_global_pointer(Val(:myglobal), Float32)
    Base.unsafe_store!(ptr, 3f0)
    X[1] = Base.unsafe_load(ptr) + 0.5f0
    nothing
end
# run: kernel(X = zeros(Float32, 1))
# expect X: [3.5]
# expect typed: get_global_pointer(

# A global read before anything writes it is zero.
function my_kernel(A)
    idx = workitemIdx().x
    ptr = AMDGPU.get_global_pointer(Val(:zeroed), Int64)
    A[idx] += Base.unsafe_load(ptr)
    nothing
end
# run: my_kernel(A = Float32[1.5, 2.5, 3.5, 4.5]) groupsize 4
# expect A: [1.5, 2.5, 3.5, 4.5]

# Two names are two globals, each of its own type.
function two!(out)
    a = AMDGPU.Device.get_global_pointer(Val(:ga), Int32)
    b = get_global_pointer(Val(:gb), Float64)
    unsafe_store!(a, Int32(7))
    unsafe_store!(b, 2.25)
    out[1] = unsafe_load(a) + unsafe_load(b)
    return
end
# run: two!(out = zeros(Float64, 1))
# expect out: [9.25]
