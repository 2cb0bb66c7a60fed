"""h200_bcast.py: the fused broadcast's generated kernels, launched raw (libcuda through ctypes) on
PyTorch's tensors, against PyTorch's eager c = a * b + c, on the H200. No juke library is needed there:
the kernels are juke's PTX made here (juke compile --target sm_90), for comparing kernel shapes apart
from the Python package's launch path (bench/python_h200.py measures that one).

  usage: python3 bench/h200_bcast.py N name=file.ptx[:elems_per_item] ...

Each kernel is juke_broadcast!(c, a, b) over Vector{Float32} (1-d array argument: {ptr, dim, length},
24 bytes; then the exception record's pointer). It checks c against a * b + c bitwise (the same
Float32 multiply and add; no contraction on either side), then reports the median over rounds of the
time per launch (CUDA events around 20 launches), with torch eager's in the same rounds."""
import ctypes
import statistics
import sys

import torch

cu = ctypes.CDLL("libcuda.so.1")


def ck(r, what):
    if r != 0:
        raise RuntimeError(f"{what}: CUresult {r}")


def load(path):
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    data = open(path, "rb").read() + b"\0"
    ck(cu.cuModuleLoadData(ctypes.byref(mod), data), f"cuModuleLoadData {path}")
    name = [ln.split()[2].split("(")[0] for ln in data.decode().splitlines() if ".entry" in ln][0]
    ck(cu.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), "cuModuleGetFunction")
    return fn


def launcher(fn, arrays, exc, per_item, group=256):
    n = arrays[0].numel()
    structs = [(ctypes.c_uint64 * 3)(t.data_ptr(), n, n) for t in arrays]
    excp = ctypes.c_uint64(exc.data_ptr())
    params = (ctypes.c_void_p * (len(structs) + 1))(*[ctypes.cast(ctypes.byref(s), ctypes.c_void_p) for s in structs],
                                                    ctypes.cast(ctypes.byref(excp), ctypes.c_void_p))
    items = (n + per_item - 1) // per_item
    grid = (items + group - 1) // group
    keep = (structs, excp, params)

    def go():
        _ = keep
        ck(cu.cuLaunchKernel(fn, grid, 1, 1, group, 1, 1, 0, None, params, None), "cuLaunchKernel")
    return go


def timed(fn, reps=20):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(reps):
        fn()
    e.record()
    torch.cuda.synchronize()
    return s.elapsed_time(e) / reps


def main():
    n = int(sys.argv[1])
    torch.cuda.init()
    g = torch.Generator(device="cuda").manual_seed(1)
    a, b = torch.rand(n, device="cuda", generator=g) + 0.5, torch.rand(n, device="cuda", generator=g) + 0.5
    c0 = torch.rand(n, device="cuda", generator=g) + 0.5
    exc = torch.zeros(64, dtype=torch.int64, device="cuda")
    kernels = []
    for spec in sys.argv[2:]:
        name, rest = spec.split("=", 1)
        path, _, per = rest.partition(":")
        kernels.append((name, load(path), int(per or 1)))
    ok = True
    for name, fn, per in kernels:  # one launch each on fresh c: bitwise a * b + c
        c = c0.clone()
        launcher(fn, [c, a, b], exc, per)()
        torch.cuda.synchronize()
        good = torch.equal(c, a * b + c0) and int(exc.abs().sum()) == 0
        ok &= good
        print(f"check {name}: {'ok' if good else 'WRONG'}", flush=True)
    c = c0.clone()
    cref = [c0.clone()]

    def eager():
        cref[0] = a * b + cref[0]
    runs = {name: launcher(fn, [c, a, b], exc, per) for name, fn, per in kernels}
    runs["torch_eager"] = eager
    times = {k: [] for k in runs}
    for _ in range(15):
        for k, f in runs.items():
            times[k].append(timed(f))
    bytes_juke, bytes_torch = 4 * 4 * n, 6 * 4 * n
    t_torch = statistics.median(times["torch_eager"])
    print(f"N = {n} Float32; median of 15 rounds of 20 launches (CUDA events)")
    print(f"{'kernel':<14}{'ms':>9}{'GB/s':>9}{'vs eager':>10}   all rounds (ms)")
    for k, ts in times.items():
        t = statistics.median(ts)
        gb = (bytes_torch if k == "torch_eager" else bytes_juke) / t / 1e6
        print(f"{k:<14}{t:9.4f}{gb:9.0f}{t_torch / t:10.3f}   " + " ".join(f"{x:.4f}" for x in ts))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
