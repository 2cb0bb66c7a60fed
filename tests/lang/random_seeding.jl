# The seeding forms of AMDGPU.jl's test/device/random.jl: a helper that branches on the seed's type (Julia
# infers only the branch the type takes, so `Random.seed!()` of the `missing` branch is not compiled for a
# `nothing` seed), Random.seed!() from the device's clock, Random.default_rng() and rand(rng, T), rand(a:b),
# and a non-constant global at the top of the file, which no kernel reads.
using Random

n = 256

function apply_seed(seed)
    if seed === missing
        Random.seed!()
    elseif seed !== nothing
        Random.seed!(seed)
    elseif seed === nothing
    end
end

function draw!(A::AbstractArray{T}, seed) where {T}
    apply_seed(seed)
    A[workitemIdx().x] = rand(T)
    return
end
# With an integer seed the helper seeds: the numbers are those of Random.seed!(1234) (random.jl's values).
# run: draw!(A = zeros(UInt32, 4), seed = 1234) groupsize 4
# expect A: [0x2090b348, 0xd115a128, 0x8b438957, 0xa8faf0a4]
# With nothing the launch's seed stays: seed 1234 gives the same numbers.
# run: draw!(A = zeros(UInt32, 4), seed = nothing) groupsize 4 seed 1234
# expect A: [0x2090b348, 0xd115a128, 0x8b438957, 0xa8faf0a4]
# expect typed: goto
# With missing, Random.seed!() keys the stream with the clock: only the typed code is checked.
# run: draw!(A = zeros(UInt32, 4), seed = missing) groupsize 4 seed 1234
# expect typed: seed!()::Nothing

# Random.default_rng() is the work-item's stream: rand(rng, T) draws from it as rand(T) does.
function with_rng!(A, B, seed)
    rng = Random.default_rng()
    Random.seed!(rng, seed)
    i = workitemIdx().x
    A[i] = rand(rng, UInt32)
    Random.seed!(rng, seed)
    B[i] = rand(UInt32)
    return
end
# run: with_rng!(A = zeros(UInt32, 4), B = zeros(UInt32, 4), seed = 1234) groupsize 4
# expect A: [0x2090b348, 0xd115a128, 0x8b438957, 0xa8faf0a4]
# expect B: [0x2090b348, 0xd115a128, 0x8b438957, 0xa8faf0a4]

# rand(a:b) is uniform over the range; every value lies in it.
function in_range!(A::AbstractArray{T}) where {T}
    i = workitemIdx().x
    A[i] = rand(T(10):T(12))
    return
end
# run: in_range!(A = zeros(Int64, 8)) groupsize 8 seed 7
# expect typed: rand(%
function range_check!(ok, lo, hi)
    i = workitemIdx().x
    v = rand(lo:hi)
    ok[i] = lo <= v <= hi
    return
end
# run: range_check!(ok = zeros(Bool, 64), lo = Int32(-3), hi = Int32(3)) groupsize 64 seed 99
# expect ok: [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]
# An empty range has nothing to draw: Julia's ArgumentError.
# run: range_check!(ok = zeros(Bool, 1), lo = Int32(3), hi = Int32(2)) seed 99
# expect exception: collection must be non-empty
