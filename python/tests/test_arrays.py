# Device arrays, fused broadcasts, reductions, matmul and DLPack on the CPU device, against NumPy's
# answers (which are Julia's for these).
import numpy as np
import pytest

import juke


def test_zeros_ones_fill():
    z = juke.zeros(3, 4)
    assert z.shape == (3, 4) and z.dtype == np.float32
    np.testing.assert_array_equal(z.numpy(), np.zeros((3, 4), np.float32))
    np.testing.assert_array_equal(juke.ones((5,), dtype=np.int16).numpy(), np.ones(5, np.int16))
    np.testing.assert_array_equal(juke.ones(2, dtype=np.float16).numpy(), np.ones(2, np.float16))
    f = juke.fill(2.5, 2, 3)
    assert f.dtype == np.float64
    np.testing.assert_array_equal(f.numpy(), np.full((2, 3), 2.5))
    np.testing.assert_array_equal(juke.fill(np.int32(-7), 4).numpy(), np.full(4, -7, np.int32))


def test_to_device_and_back():
    h = np.arange(1, 13, dtype=np.float64).reshape(3, 4)
    d = juke.to_device(h)
    assert d.shape == (3, 4)
    np.testing.assert_array_equal(d.numpy(), h)
    np.testing.assert_array_equal(np.asarray(d), h)


def test_rand_is_seeded_and_uniform():
    a = juke.rand(100000, seed=42)
    b = juke.rand(100000, seed=42)
    c = juke.rand(100000, seed=43)
    x = a.numpy()
    np.testing.assert_array_equal(x, b.numpy())
    assert not np.array_equal(x, c.numpy())
    assert x.min() >= 0 and x.max() < 1
    assert abs(x.mean() - 0.5) < 0.01
    assert abs(x.var() - 1 / 12) < 0.005
    i = juke.rand(1000, dtype=np.uint8, seed=1).numpy()
    assert len(np.unique(i)) > 200


def test_randn():
    x = juke.randn(200, 500, dtype=np.float64, seed=7).numpy()
    assert x.shape == (200, 500)
    assert abs(x.mean()) < 0.01 and abs(x.std() - 1) < 0.01
    with pytest.raises(juke.ArgumentError, match="randn draws floats"):
        juke.randn(4, dtype=np.int32)


def test_broadcast_fused():
    rng = np.random.default_rng(3)
    a = rng.random(1000, dtype=np.float32) + 0.5
    b = rng.random(1000, dtype=np.float32) - 2
    c = np.zeros(1000, np.float32)
    juke.broadcast("c .= a .* b .+ 2f0", c=c, a=a, b=b)
    np.testing.assert_array_equal(c, a * b + np.float32(2))
    # device arrays, a scalar operand, calls with dots, @.
    A, B, C = juke.to_device(a), juke.to_device(b), juke.zeros(1000)
    juke.broadcast("C .= sqrt.(A) .* s .- abs.(B)", C=C, A=A, B=B, s=np.float32(3))
    np.testing.assert_allclose(C.numpy(), np.sqrt(a) * 3 - np.abs(b), rtol=1e-6)
    juke.broadcast("@. C = A * B + C", C=C, A=A, B=B)
    i = juke.zeros(1000)  # operands named like the generated kernel's own variables
    juke.broadcast("i .= r .+ n1", i=i, r=A, n1=np.float32(1))
    np.testing.assert_array_equal(i.numpy(), a + np.float32(1))
    np.testing.assert_allclose(C.numpy(), a * b + np.sqrt(a) * 3 - np.abs(b), rtol=1e-5)


def test_broadcast_linear_shares_and_tails():
    # operands of the destination's shape: each work-item does 4 elements (a workgroup's share strided by its
    # size), every operand loaded before the stores; lengths around a share's and a workgroup's edges
    rng = np.random.default_rng(6)
    for n in (1, 3, 4, 5, 255, 1023, 1024, 1025, 4099, 100003):
        a = rng.random(n, dtype=np.float32) + 0.5
        b = rng.random(n, dtype=np.float32) - 2
        c0 = rng.random(n, dtype=np.float32) + 1
        c = c0.copy()
        juke.broadcast("c .= a .* b .+ c", c=c, a=a, b=b)  # the destination is an operand too
        np.testing.assert_array_equal(c, a * b + c0)
    M = np.asfortranarray(rng.random((37, 29)))
    out = np.asfortranarray(rng.random((37, 29)))
    o0 = out.copy(order="F")
    juke.broadcast("out .= M ./ 3.0 .- out", out=out, M=M)
    np.testing.assert_array_equal(out, M / 3.0 - o0)
    src = juke.broadcast_source("c .= a .* b .+ c", c=c, a=a, b=b)
    assert "juke_i4" in src and "bc4_a * bc4_b + bc4_c" in src
    # an expanded operand keeps one element per work-item
    assert "juke_i4" not in juke.broadcast_source("out .= M .+ r", out=out, M=M, r=rng.random((1, 29)))


def test_broadcast_expands_singleton_dims():
    rng = np.random.default_rng(4)
    M = np.asfortranarray(rng.random((5, 7)))
    col = rng.random((5, 1))      # a column: expanded along dimension 2
    row = rng.random((1, 7))      # a row: expanded along dimension 1
    v = rng.random(5)             # a vector is a column in Julia (its dimension 2 is 1)
    out = np.zeros((5, 7), order="F")
    juke.broadcast("out .= M .* col .+ row .- v", out=out, M=M, col=col, row=row, v=v)
    np.testing.assert_allclose(out, M * col + row - v[:, None], rtol=1e-12)
    # C-ordered NumPy arrays keep their shape and indices too
    outc = np.zeros((5, 7))
    juke.broadcast("outc .= M .+ row", outc=outc, M=np.ascontiguousarray(M), row=row)
    np.testing.assert_allclose(outc, M + row)
    src = juke.broadcast_source("out .= M .* col", out=out, M=M, col=col)
    assert "col[juke_I1, 1]" in src and "M[juke_i]" in src


def test_broadcast_errors():
    a = np.zeros(4, np.float32)
    b = np.zeros(5, np.float32)
    with pytest.raises(juke.ArgumentError, match="DimensionMismatch: array could not be broadcast"):
        juke.broadcast("a .= b .+ 1f0", a=a, b=b)
    with pytest.raises(juke.ArgumentError, match=r"write \.\*"):
        juke.broadcast("a .= a * a", a=a)
    with pytest.raises(juke.ArgumentError, match="expected"):
        juke.broadcast("a + 1", a=a)
    with pytest.raises(juke.CompileError):
        juke.broadcast("a .= nosuchfunction.(a)", a=a)


def test_broadcast_dumps():
    a = juke.ones(16)
    bk = juke.broadcast_kernel("a .= a .* 2f0 .+ 1f0", a=a)
    assert "function juke_broadcast!(a)" in bk.source
    assert "Float32" in bk.typed()
    assert "fmul" in bk.llvm() or "fma" in bk.llvm()
    assert "v_" in bk.gcn(target="gfx942")


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.uint8])
def test_sum_maximum_minimum(dtype):
    rng = np.random.default_rng(5)
    for n in (1, 255, 256, 1000, 100000):
        x = (rng.random(n) * 100 - (0 if dtype == np.uint8 else 50)).astype(dtype)
        s = juke.sum(x)
        if np.issubdtype(dtype, np.floating):
            np.testing.assert_allclose(s, x.astype(np.float64).sum(), rtol=1e-5 if dtype == np.float32 else 1e-12)
            assert s.dtype == dtype
        else:
            assert s == x.astype(np.int64).sum()
            assert s.dtype == (np.uint64 if dtype == np.uint8 else np.int64)  # Julia's sum widens
        assert juke.maximum(x) == x.max() and juke.minimum(x) == x.min()
        assert juke.maximum(x).dtype == dtype


def test_mapreduce():
    rng = np.random.default_rng(6)
    x = rng.random(5000) - 0.5
    np.testing.assert_allclose(juke.mapreduce("abs", "+", x), np.abs(x).sum(), rtol=1e-12)
    np.testing.assert_allclose(juke.mapreduce("x -> x * x", "+", x), (x * x).sum(), rtol=1e-12)
    assert juke.mapreduce("x -> x * x", "max", x) == (x * x).max()
    # an op without a wavefront instruction, with init
    np.testing.assert_allclose(juke.mapreduce("identity", "(a, b) -> a + b", x, init=0.0), x.sum(), rtol=1e-12)
    assert juke.mapreduce("x -> x > 0", "+", x, init=0) == (x > 0).sum()
    d = juke.to_device(x)
    np.testing.assert_allclose(juke.sum(d), x.sum(), rtol=1e-12)
    with pytest.raises(juke.ArgumentError, match="pass init"):
        juke.mapreduce("identity", "(a, b) -> a - b", x)
    with pytest.raises(juke.ArgumentError, match="empty collection"):
        juke.maximum(np.zeros(0))
    assert juke.sum(np.zeros(0, np.float32)) == 0


@pytest.mark.parametrize("m,k,n", [(1, 1, 1), (17, 33, 9), (64, 64, 64), (100, 3, 50)])
def test_matmul(m, k, n):
    rng = np.random.default_rng(7)
    A = np.asfortranarray(rng.random((m, k), dtype=np.float32))
    B = np.asfortranarray(rng.random((k, n), dtype=np.float32))
    a, b = juke.to_device(A), juke.to_device(B)
    c = a @ b
    np.testing.assert_allclose(c.numpy(), A @ B, rtol=1e-5)
    assert c.matmul_impl  # which one ran: the system BLAS here, if it is installed
    ck = juke.matmul(a, b, kernel=True)
    assert ck.matmul_impl.startswith("juke tiled kernel")
    np.testing.assert_allclose(ck.numpy(), A @ B, rtol=1e-5)
    # other element types take the tiled kernel
    Ai, Bi = (A * 10).astype(np.int64), (B * 10).astype(np.int64)
    ci = juke.to_device(Ai) @ juke.to_device(Bi)
    assert ci.matmul_impl.startswith("juke tiled kernel")
    np.testing.assert_array_equal(ci.numpy(), Ai @ Bi)


def test_matmul_blas_on_cpu():
    a, b = juke.rand(8, 4, dtype=np.float64, seed=1), juke.rand(4, 3, dtype=np.float64, seed=2)
    c = a @ b
    np.testing.assert_allclose(c.numpy(), a.numpy() @ b.numpy(), rtol=1e-12)
    print(c.matmul_impl)
    with pytest.raises(juke.ArgumentError, match="DimensionMismatch"):
        a @ a


def test_dlpack_roundtrip_numpy():
    a = juke.rand(3, 4, dtype=np.float64, seed=3)
    assert a.__dlpack_device__() == (1, 0)
    h = np.from_dlpack(a)
    np.testing.assert_array_equal(h, a.numpy())
    juke.broadcast("a .= a .+ 1.0", a=a)  # no copy: the NumPy view sees the kernel's writes
    np.testing.assert_array_equal(h, a.numpy())
    assert h.min() >= 1.0
    f = np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    j = juke.from_dlpack(f)
    assert j.shape == (3, 4)
    juke.broadcast("j .= j .* 2f0", j=j)
    np.testing.assert_array_equal(f, np.arange(12, dtype=np.float32).reshape(3, 4) * 2)
    with pytest.raises(juke.ArgumentError, match="column-major"):
        juke.from_dlpack(np.zeros((3, 4)))
    v = np.arange(5, dtype=np.int32)
    k = juke.kernel("function inc!(x)\n    x[workitemIdx().x] += Int32(1)\n    return\nend\n", "inc!")
    k(juke.from_dlpack(v), groupsize=5)
    np.testing.assert_array_equal(v, np.arange(1, 6))
