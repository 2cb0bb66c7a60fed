# The kernels the array operations generate compile for every AMD processor the project targets and for
# NVPTX, and run on AMD code objects in juke's ISA emulator (amdemu) with the CPU's answers.
import numpy as np
import pytest

import juke

TARGETS = ["gfx90a", "gfx942", "gfx1100"]


@pytest.mark.parametrize("proc", TARGETS)
def test_generated_kernels_compile_for_amdgpu_and_nvptx(proc, has_compiler):
    if not has_compiler:
        pytest.skip("a runtime-only build")
    a = np.zeros((4, 5), np.float32, order="F")
    col = np.zeros((4, 1), np.float32)
    bk = juke.broadcast_kernel("a .= a .* col .+ 1f0", a=a, col=col)
    assert ".amdgcn_target" in bk.gcn(target=proc)
    assert ".entry" in bk.ptx(target="sm_90")
    for f, op in (("abs", "+"), ("x -> x * x", "max"), ("identity", "(a, b) -> a + b")):
        k1, k2 = juke.mapreduce_kernels(f, op)
        for k in (k1, k2):
            assert ".amdgcn_target" in k.gcn("Vector{Float32}", "Vector{Float32}", "Float32", target=proc)
            assert ".entry" in k.ptx("Vector{Float32}", "Vector{Float32}", "Float32")
    mk = juke.matmul_kernel()
    types = ("Matrix{Float32}",) * 3 + ("Int64",) * 3
    assert "ds_read" in mk.gcn(*types, target=proc) or "ds_load" in mk.gcn(*types, target=proc)
    assert ".shared" in mk.ptx(*types)


@pytest.mark.parametrize("proc", ["gfx90a", "gfx942"])
def test_array_operations_on_the_amd_emulator(proc, has_compiler):
    if not has_compiler:
        pytest.skip("a runtime-only build")
    d = juke.device(f"amdemu:{proc}")
    rng = np.random.default_rng(11)
    x = rng.random(3000, dtype=np.float32)
    a = juke.to_device(x, device=d)
    b = juke.rand(3000, seed=5, device=d)
    np.testing.assert_array_equal(b.numpy(), juke.rand(3000, seed=5).numpy())  # the CPU's numbers
    c = juke.zeros(3000, device=d)
    juke.broadcast("c .= a .* b .+ c .+ 1f0", c=c, a=a, b=b)
    np.testing.assert_allclose(c.numpy(), x * b.numpy() + 1, rtol=1e-6)
    np.testing.assert_allclose(juke.sum(a), x.astype(np.float64).sum(), rtol=1e-5)
    assert juke.maximum(a) == x.max() and juke.minimum(a) == x.min()
    np.testing.assert_allclose(juke.mapreduce("x -> x * x", "(p, q) -> p + q", a, init=np.float32(0)),
                               (x.astype(np.float64) ** 2).sum(), rtol=1e-5)
    A, B = juke.rand(33, 17, seed=1, device=d), juke.rand(17, 20, seed=2, device=d)
    C = A @ B
    np.testing.assert_allclose(C.numpy(), A.numpy() @ B.numpy(), rtol=1e-5)
