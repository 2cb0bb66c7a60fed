# Device random numbers as AMDGPU.jl's test/device/random.jl writes them: rand(T), randn(T), randexp(T) inside a
# kernel; Random.seed! in the kernel; the launch's seed. The generator is Philox4x32-10 keyed by the seed, its
# counter the work-item's global id and draw count, so the values below are the same on every device.
# test_random.c checks the distributions.
using Random

# Random123's known answer: Philox4x32-10 of counter 0, key 0 is 6627e8d5 e169c58d bc57ac4c 9b00dbd8.
function known_answer!(A, B)
    Random.seed!(0)
    A[1] = rand(UInt32)
    Random.seed!(0)
    B[1] = rand(UInt64)
    return
end
# run: known_answer!(A = zeros(UInt32, 1), B = zeros(UInt64, 1))
# expect A: [0x6627e8d5]
# expect B: [0xe169c58d6627e8d5]

function kernel(A::AbstractArray{T}) where {T}
    tid = workitemIdx().x
    A[tid] = rand(T)
    return nothing
end
# The launch's seed keys every work-item's stream: the same seed, the same numbers.
# run: kernel(A = zeros(UInt32, 4)) groupsize 4 seed 1234
# expect A: [0x2090b348, 0xd115a128, 0x8b438957, 0xa8faf0a4]
# run: kernel(A = zeros(UInt32, 4)) groupsize 4 seed 1234
# expect A: [0x2090b348, 0xd115a128, 0x8b438957, 0xa8faf0a4]
# run: kernel(A = zeros(Float32, 4)) groupsize 4 seed 1234
# expect A: [0.1272079348564148, 0.8167362809181213, 0.5439992547035217, 0.6600790023803711]
# run: kernel(A = zeros(Float64, 4)) groupsize 4 seed 1234
# expect A: [0.853468934802154, 0.3241651332510487, 0.9234963635783641, 0.7472288118815233]
# expect typed: rand(T)::Float64

# Across calls: the second draw of a work-item is the next counter.
function two_draws(A::AbstractArray{T}, B::AbstractArray{T}) where {T}
    tid = workitemIdx().x
    A[tid] = rand(T)
    B[tid] = Random.rand(T)
    return
end
# run: two_draws(A = zeros(Float32, 4), B = zeros(Float32, 4)) groupsize 4 seed 1234
# expect A: [0.1272079348564148, 0.8167362809181213, 0.5439992547035217, 0.6600790023803711]
# expect B: [0.6208323240280151, 0.02762782573699951, 0.3255383372306824, 0.1114342212677002]

# Random.seed!(seed) in the kernel overrides the launch's seed; rand() is a Float64.
function seeded(A, seed)
    Random.seed!(seed)
    A[workitemIdx().x] = rand()
    return
end
# run: seeded(A = zeros(Float64, 4), seed = 1234) groupsize 4 seed 99
# expect A: [0.853468934802154, 0.3241651332510487, 0.9234963635783641, 0.7472288118815233]

# randn and randexp of each float type, drawn in a helper function: the stream is the work-item's wherever it
# draws. Their values depend on the device's log and cos, so only their ranges are checked here.
sample(::Type{T}) where {T} = (randn(T), randexp(T))
function normal_exp(N::AbstractArray{T}, E::AbstractArray{T}, ok) where {T}
    i = workitemIdx().x
    n, e = sample(T)
    N[i] = n
    E[i] = e
    ok[i] = abs(n) < 10 && e >= 0 && e < 40
    return
end
# run: normal_exp(N = zeros(Float16, 4), E = zeros(Float16, 4), ok = zeros(Bool, 4)) groupsize 4
# expect ok: [true, true, true, true]
# expect typed: randn(T)::Float16
# run: normal_exp(N = zeros(Float32, 4), E = zeros(Float32, 4), ok = zeros(Bool, 4)) groupsize 4
# expect ok: [true, true, true, true]
# run: normal_exp(N = zeros(Float64, 4), E = zeros(Float64, 4), ok = zeros(Bool, 4)) groupsize 4
# expect ok: [true, true, true, true]
# expect typed: randexp(T)::Float64

# Different work-items, in any dimension of the group or the grid, get different numbers.
function across_threads(A::AbstractArray{T}) where {T}
    id = workitemIdx().x * workitemIdx().y * workitemIdx().z * workgroupIdx().x * workgroupIdx().y * workgroupIdx().z
    if 1 <= id <= length(A)
        A[id] = rand(T)
    end
    return
end
# run: across_threads(A = zeros(UInt64, 3)) groupsize 1,3,1 seed 5
# expect A: [0x11d85194c417681d, 0x53dfd05763319a34, 0x3732c27dbb01e3ab]
# expect typed: rand(T)::UInt64
# The same numbers when the three work-items are three workgroups: the global id is what counts.
# run: across_threads(A = zeros(UInt64, 3)) groupsize 1 gridsize 1,3,1 seed 5
# expect A: [0x11d85194c417681d, 0x53dfd05763319a34, 0x3732c27dbb01e3ab]
