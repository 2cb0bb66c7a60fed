# Device memory as AMDGPU.jl's test/device/memory.jl and array.jl use it: pointers and their arithmetic (in
# bytes, as Julia's Ptr and Core.LLVMPtr), unsafe_load / unsafe_store!, A.ptr and A.len, sizeof, memcpy! and
# memset! on device pointers, reshape, view / @view, and @ROCStaticLocalArray with dims from local constants.

function ptrs!(A, B)
    i = workitemIdx().x
    p = pointer(A)
    q = p + sizeof(Float32) * (i - 1)
    B[i] = unsafe_load(q) + unsafe_load(A.ptr, i) + Float32(A.len)
    unsafe_store!(B.ptr + 4 * (i - 1), unsafe_load(B.ptr, i) * 2f0)
    return
end
# run: ptrs!(A = Float32[1, 2, 3, 4], B = Float32[10, 20, 30, 40]) groupsize 4
# expect B: [12, 16, 20, 24]
# expect typed: +(p, %6)::Core.LLVMPtr{Float32, 1}

# Pointer arithmetic back and forth, and n + p.
function walk!(A)
    p = pointer(A, 4)
    A[1] = unsafe_load(p - 8) + unsafe_load(8 + pointer(A))
    return
end
# run: walk!(A = Float32[1, 2, 3, 4])
# expect A: [5, 2, 3, 4]

function memcpy_kernel(X, Y)
    AMDGPU.memcpy!(Y.ptr, X.ptr, sizeof(Float32) * length(X))
    nothing
end
# run: memcpy_kernel(X = Float32[1.5, 2.5, 3.5, 4.5], Y = zeros(Float32, 4))
# expect Y: [1.5, 2.5, 3.5, 4.5]

function memset_kernel(X, y)
    AMDGPU.memset!(X.ptr, y, div(length(X), 2))
    nothing
end
# run: memset_kernel(X = zeros(UInt8, 4), y = 0x3)
# expect X: [3, 3, 0, 0]

function sizes!(S, A)
    S[1] = sizeof(Float32)
    S[2] = sizeof(Int16)
    S[3] = sizeof(A)
    S[4] = sizeof(A[1])
    S[5] = sizeof(ComplexF64)
    S[6] = sizeof(Cint) + sizeof(Csize_t)
    return
end
# run: sizes!(S = zeros(Int64, 6), A = Float64[1, 2, 3])
# expect S: [4, 2, 24, 8, 16, 12]

# AMDGPU.jl's test/device/array.jl "reshape" test, unchanged.
function kernel(array)
    i = (workgroupIdx().x-1) * workgroupDim().x + workitemIdx().x
    j = (workgroupIdx().y-1) * workgroupDim().y + workitemIdx().y

    _array2d = reshape(array, 10, 10)
    _array2d[i,j] = i + (j-1)*size(_array2d,1)

    return
end
# run: kernel(array = zeros(Int64, 100)) groupsize 10,10
# expect array: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100]

# reshape with a tuple of dims, and into three dimensions; the new array is bounds-checked by its own dims.
function reshape3!(A, out)
    B = reshape(A, (2, 3))
    C = reshape(A, 1, 2, 3)
    out[1] = B[2, 3] + C[1, 1, 2]
    out[2] = size(C, 3)
    return
end
# run: reshape3!(A = Float32[1, 2, 3, 4, 5, 6], out = zeros(Float32, 2))
# expect out: [9, 3]

function bad_reshape!(A)
    B = reshape(A, 3, 3)
    B[1, 1] = 1f0
    return
end
# run: bad_reshape!(A = zeros(Float32, 4))
# expect exception: DimensionMismatch: new dimensions (3, 3) must be consistent with array length 4
# expect exception at: 77:9

function views!(A, v)
    c = view(A, :, 2)
    c[1] = 10f0
    s = @view A[:, 2:3]
    s[2, 2] = 20f0
    w = view(v, 2:3)
    w[2] = length(w) + 0f0
    return
end
# run: views!(A = reshape(Float32[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 3, 4), v = Float32[1, 2, 3, 4])
# expect A: [1, 2, 3, 10, 5, 6, 7, 20, 9, 10, 11, 12]
# expect v: [1, 2, 2, 4]

# A view is checked when it is made, and indexing it checks its own dims.
function view_past_end!(v)
    w = view(v, 2:5)
    w[1] = 1f0
    return
end
# run: view_past_end!(v = zeros(Float32, 4))
# expect exception: BoundsError
# expect exception at: 100:9
function index_past_view!(v)
    w = @view v[2:3]
    w[3] = 1f0
    return
end
# run: index_past_view!(v = zeros(Float32, 4))
# expect exception: BoundsError
# expect exception at: 109:5

# @ROCStaticLocalArray dims from local constant bindings and expressions of them.
function static_dims!(A)
    N = 4
    M = 2N
    s = @ROCStaticLocalArray(Float32, (N, M))
    t = @ROCStaticLocalArray(Int32, N * N)
    s[N, M] = 3f0
    t[16] = Int32(5)
    A[1] = s[N, M] + length(s) + t[16] + length(t)
    return
end
# run: static_dims!(A = zeros(Float32, 1))
# expect A: [56]
