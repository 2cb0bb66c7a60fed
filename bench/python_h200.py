#!/usr/bin/env python3
"""The Python package on the H200 (bench/h200_run.sh runs it; bench/prepare_h200.sh prepares it):

  python3 bench/python_h200.py --prepare DIR   here (LLVM): save every kernel the run launches, compiled for
                                               sm_90, into the disk cache DIR (both index variants)
  python3 bench/python_h200.py                 there (runtime-only juke, PyTorch): JUKE_CACHE_DIR=DIR,
                                               PYTHONPATH=<the runtime-only build>/python

The run checks, on the cuda device with PyTorch tensors through DLPack, a kernel launch, a broadcast,
the reductions and matmul against PyTorch, then times
  - the fused broadcast c .= a .* b .+ c over 2^26 Float32 against PyTorch's eager c = a * b + c
    (two kernels and a temporary): the bar is juke >= 1.5x;
  - matmul 4096x4096 Float32: juke_matmul (cuBLAS by dlopen) against torch.matmul (cuBLAS): bar >= 0.95x.
It prints one line per check and per timing, and exits 1 if a check fails."""
import os
import sys
import time

N = 1 << 26
M = 4096
VADD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "vadd.jl")
BCAST = "c .= a .* b .+ c"
OOB = "function oob!(x)\n    x[workitemIdx().x] = 1f0\n    return\nend\n"


def prepare(cache):
    """Compile, for sm_90, each kernel the run launches, as the launch path names its argument types."""
    os.environ["JUKE_CACHE_DIR"] = cache
    os.makedirs(cache, mode=0o700, exist_ok=True)
    import numpy as np
    import juke
    v1, v2, f = "Array{Float32,1}", "Array{Float32,2}", "Float32"
    todo = []
    todo.append((juke.kernel(open(VADD).read(), "vadd!", filename="vadd.jl"), (v1, v1, v1)))
    todo.append((juke.kernel(OOB, "oob!", filename="oob.jl"), (v1,)))
    x = np.zeros(4, np.float32)
    bk = juke.broadcast_kernel(BCAST, c=x, a=x, b=x)
    todo.append((bk.kernel, (v1, v1, v1)))
    for op in ("+", "max", "min"):
        k1, k2 = juke.mapreduce_kernels("identity", op)
        todo += [(k1, (v1, v1, f)), (k2, (v1, v1, f))]
    todo.append((juke.matmul_kernel(), (v2, v2, v2, "Int64", "Int64", "Int64")))
    for k, types in todo:
        for bits in (0, 32):
            k.dump("asm", *types, target="sm_90", index_bits=bits)
        print(f"prepared {k.name}({', '.join(types)}) for sm_90")


def main():
    import numpy as np
    import torch
    import juke
    ok = True

    def check(name, cond, detail=""):
        nonlocal ok
        ok = ok and bool(cond)
        print(f"{'PASS' if cond else 'FAIL'} {name} {detail}", flush=True)

    dev = juke.device("cuda")
    print("device:", dev.name, "| torch", torch.__version__, torch.cuda.get_device_name(0))
    g = torch.Generator(device="cuda").manual_seed(1)
    n = 1 << 20
    a = torch.rand(n, device="cuda", generator=g)
    b = torch.rand(n, device="cuda", generator=g)
    c = torch.zeros(n, device="cuda")
    # a kernel launched on PyTorch tensors (DLPack, no copy)
    k = juke.kernel(open(VADD).read(), "vadd!", filename="vadd.jl", device=dev)
    k(c, a, b, groupsize=256, gridsize=juke.cld(n, 256))
    dev.synchronize()
    check("kernel on torch tensors", torch.equal(c, a + b))
    # juke arrays back to torch
    ja = juke.from_dlpack(a)
    t = torch.from_dlpack(ja)
    check("dlpack round trip", t.data_ptr() == a.data_ptr() and torch.equal(t, a))
    # a broadcast
    c0 = torch.rand(n, device="cuda", generator=g)
    c = c0.clone()
    juke.broadcast(BCAST, c=c, a=a, b=b)
    dev.synchronize()
    check("broadcast", torch.allclose(c, a * b + c0, rtol=1e-6, atol=0))
    # reductions
    s = juke.sum(a)
    check("sum", abs(float(s) - a.double().sum().item()) < 1e-3 * n, f"{float(s)} vs {a.double().sum().item()}")
    check("maximum", float(juke.maximum(a)) == a.max().item())
    check("minimum", float(juke.minimum(a)) == a.min().item())
    # matmul: torch's row-major matrices are the transposes of juke's column-major view
    A = torch.rand(512, 256, device="cuda", generator=g)
    B = torch.rand(384, 512, device="cuda", generator=g)
    torch.matmul(B, A)  # PyTorch loads its libcublas now: juke's dlopen by soname then finds that one
    Aj, Bj = juke.from_dlpack(A.T), juke.from_dlpack(B.T)  # 256x512 and 512x384
    Cj = juke.matmul(Aj, Bj)
    ref = (B @ A).T.contiguous()
    got = torch.from_dlpack(Cj)
    check("matmul (vendor)", torch.allclose(got, ref, rtol=1e-4, atol=1e-3), Cj.matmul_impl)
    Ck = juke.matmul(Aj, Bj, kernel=True)
    check("matmul (tiled kernel)", torch.allclose(torch.from_dlpack(Ck), ref, rtol=1e-4, atol=1e-3), Ck.matmul_impl)
    # an exception from the device
    try:
        juke.kernel(OOB, "oob!", filename="oob.jl", device=dev)(torch.zeros(4, device="cuda"), groupsize=8)
        dev.synchronize()
        check("BoundsError on the device", False, "no exception")
    except juke.KernelException as e:
        check("BoundsError on the device", e.kind == "BoundsError" and e.index == (5,) and e.workitem == (5, 1, 1),
              str(e).splitlines()[0])

    # ---- timings ----
    def timeit(fn, reps):
        fn()
        torch.cuda.synchronize()
        dev.synchronize()
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        torch.cuda.synchronize()
        dev.synchronize()
        return (time.perf_counter() - t0) / reps

    a = torch.rand(N, device="cuda", generator=g)
    b = torch.rand(N, device="cuda", generator=g)
    c = torch.rand(N, device="cuda", generator=g)
    ja, jb, jc = juke.from_dlpack(a), juke.from_dlpack(b), juke.from_dlpack(c)
    cref = [c.clone()]

    def torch_eager():
        cref[0] = a * b + cref[0]

    t_juke = timeit(lambda: juke.broadcast(BCAST, c=jc, a=ja, b=jb), 50)
    t_torch = timeit(torch_eager, 50)
    gbs = 4 * 4 * N / t_juke / 1e9
    print(f"broadcast {BCAST} 2^26 Float32: juke {t_juke * 1e3:.3f} ms ({gbs:.0f} GB/s), torch eager "
          f"{t_torch * 1e3:.3f} ms: juke {t_torch / t_juke:.2f}x (bar 1.5x)", flush=True)

    A = torch.rand(M, M, device="cuda", generator=g)
    B = torch.rand(M, M, device="cuda", generator=g)
    C = torch.empty(M, M, device="cuda")
    Aj, Bj = juke.from_dlpack(A.T), juke.from_dlpack(B.T)
    Cj = juke.from_dlpack(C.T)
    juke.matmul(Aj, Bj, out=Cj)
    t_jm = timeit(lambda: juke.matmul(Aj, Bj, out=Cj), 20)
    t_tm = timeit(lambda: torch.matmul(B, A, out=C), 20)
    tf = 2 * M ** 3 / t_jm / 1e12
    print(f"matmul {M}^2 Float32: juke {t_jm * 1e3:.3f} ms ({tf:.1f} TFLOP/s, {Cj.matmul_impl}), torch "
          f"{t_tm * 1e3:.3f} ms: juke {t_tm / t_jm:.2f}x (bar 0.95x)", flush=True)
    t_jk = timeit(lambda: juke.matmul(Aj, Bj, out=Cj, kernel=True), 3)
    print(f"matmul {M}^2 Float32, juke's tiled kernel: {t_jk * 1e3:.3f} ms ({2 * M ** 3 / t_jk / 1e12:.1f} TFLOP/s)")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--prepare":
        prepare(sys.argv[2])
        sys.exit(0)
    sys.exit(main())
