# CartesianIndex values as Julia computes them: +, -, scalar *, min, max, zero, oneunit (of numbers too), ==, Tuple(I),
# I[k], built from integers or from a tuple, and passed from the host (CartesianIndex(2, 3)).
function cartesian_arith!(o, lo)
    I = CartesianIndex(3, 5)
    J = I + lo
    K = max(I, lo)
    t = Tuple(J - lo)
    o[1] = J[1] * 10 + J[2]
    o[2] = K[1] * 10 + K[2]
    o[3] = t[1] * 10 + t[2]
    o[4] = (zero(I) + oneunit(I))[2] + oneunit(Int32(7)) + oneunit(Int64)
    o[5] = (I == I) + 2 * (I != J)
    o[6] = CartesianIndex((2, 7))[2]
    M = min(I, CartesianIndex(4, 1))
    o[7] = M[1] * 10 + M[2]
    N = 2 * I - lo
    o[8] = N[1] * 10 + N[2]
    P = -I * 3
    o[9] = P[1] + P[2]
    Q = CartesianIndex(1, 2, 3, 4) + oneunit(CartesianIndex(9, 9, 9, 9))
    o[10] = 1000 * Q[1] + 100 * Q[2] + 10 * Q[3] + Q[4]
    return
end
# run: cartesian_arith!(o = zeros(Int64, 10), lo = CartesianIndex(2, 3))
# expect o: [58, 35, 35, 3, 3, 7, 31, 47, -24, 2345]

# a KernelAbstractions kernel writing at an offset CartesianIndex from the host, as offsets.jl does
@kernel function fill_from!(out, lo)
    I = @index(Global, Cartesian)
    @inbounds out[I + lo - oneunit(I)] = 10 * I[1] + I[2]
end
# run: fill_from!(out = zeros(Int64, 4, 5), lo = CartesianIndex(2, 3)) groupsize 2,2 ndrange 3,3
# expect out: [0, 0, 0, 0, 0, 0, 0, 0, 0, 11, 21, 31, 0, 12, 22, 32, 0, 13, 23, 33]

# a CartesianIndex argument typed CartesianIndex{N} in a method signature
corner(I::CartesianIndex{N}, A) where {N} = A[I] + N
function corner!(A, lo)
    A[1, 1] = corner(lo, A)
    return
end
# run: corner!(A = reshape(Int64[1, 2, 3, 4, 5, 6], 2, 3), lo = CartesianIndex(2, 3))
# expect A: [8, 2, 3, 4, 5, 6]
