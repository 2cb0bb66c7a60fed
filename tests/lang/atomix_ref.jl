# Atomix's references, as NNlib's scatter kernels use them: Atomix.modify!(Atomix.IndexableRef(A, I), op, x)
# applies op to the element at the index tuple I atomically and returns old => new; swap! and replace! exchange
# the element.
using KernelAbstractions, Atomix

@kernel function scatter_op!(op, dst, @Const(src), @Const(idx), delta)
    i = @index(Global)
    p = Atomix.modify!(Atomix.IndexableRef(dst, Tuple(idx[i])), op, src[i])
    delta[i] = p.second - op(p.first, src[i])
end
# run: scatter_op!(op = +, dst = zeros(Int64, 4), src = Int64[-20, 10, -13, 5, -11, -18, -12, -13, 14, -6, -12, -11], idx = Int32[1, 1, 2, 2, 4, 4, 2, 1, 1, 1, 4, 3], delta = Int64[9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9]) groupsize 4 ndrange 12
# expect dst: [-15, -20, -11, -41]
# expect delta: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
# run: scatter_op!(op = max, dst = Int64[-100, -100, -100, -100], src = Int64[-20, 10, -13, 5, -11, -18, -12, -13, 14, -6, -12, -11], idx = Int64[1, 1, 2, 2, 4, 4, 2, 1, 1, 1, 4, 3], delta = Int64[9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9]) ndrange 12
# expect dst: [14, 5, -11, -11]
# expect delta: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]

# a two-dimensional reference
@kernel function scatter2!(grid, @Const(m), @Const(n), @Const(v))
    i = @index(Global)
    Atomix.modify!(Atomix.IndexableRef(grid, (m[i], n[i])), +, v[i])
end
# run: scatter2!(grid = zeros(Float64, 3, 2), m = Int64[1, 1, 2, 2, 2, 3], n = Int64[1, 1, 1, 2, 1, 1], v = Float64[2.03, -0.87, -1.78, 2.02, 2.93, -2.82]) ndrange 6
# expect grid ≈ [1.1599999999999997, 1.1500000000000001, -2.82, 0.0, 2.02, 0.0] rtol 1e-14

# swap! gives the old value (every work-item stores 7: the first sees 0, the others 7); replace! succeeds for
# the one work-item that sees the expected 0
@kernel function exchange!(A, olds, wins)
    i = @index(Global)
    o = Atomix.swap!(Atomix.IndexableRef(A, (1,)), 7)
    Atomix.modify!(Atomix.IndexableRef(olds, (1,)), +, o)
    r = Atomix.replace!(Atomix.IndexableRef(A, (2,)), 0, i)
    Atomix.modify!(Atomix.IndexableRef(wins, (1,)), +, r.success ? 1 : 0)
end
# run: exchange!(A = Int64[0, 0], olds = zeros(Int64, 1), wins = zeros(Int64, 1)) groupsize 4 ndrange 8
# expect olds: [49]
# expect wins: [1]
