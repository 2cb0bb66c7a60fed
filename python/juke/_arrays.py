"""Device arrays and array operations, as AMDGPU.jl's arrays give them: zeros, ones, fill, rand, randn,
to_device; fused broadcasts; sum, maximum, minimum, mapreduce; matmul (a @ b). Each is a kernel juke
generates in Julia (include/juke.h, "array operations"), compiled and cached like any other."""

import os

import numpy as np

from . import _juke
from . import ArgumentError, Array, Kernel, _BY_CODE, _ctx, _scalar, _type_info, _wrap_numpy, device


def _shape(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    if not shape:
        raise ArgumentError("an array has 1 to 8 dimensions")
    return tuple(int(s) for s in shape)


def _make(kind, shape, dtype, dev, extra=None):
    dev = device(dev)
    code, _ = _type_info(dtype)
    shape = _shape(shape)
    return Array(_juke.array_make(_ctx, dev._cap, kind, code, shape, extra), dev, dtype, shape)


def zeros(*shape, dtype=np.float32, device=None):
    """An array of zeros on the device (AMDGPU.zeros(Float32, dims...)); shape as ints or a tuple."""
    return _make("zeros", shape, dtype, device)


def ones(*shape, dtype=np.float32, device=None):
    """An array of ones on the device."""
    return _make("ones", shape, dtype, device)


def fill(value, *shape, dtype=None, device=None):
    """An array filled with value (Julia's fill(x, dims...)): its type value's (1.5 Float64, 2 Int64,
    np.float32(1.5) Float32) unless dtype is given."""
    dt = np.dtype(dtype) if dtype is not None else np.asarray(value).dtype
    if dt == np.dtype(np.int32) and isinstance(value, int) and dtype is None:
        dt = np.dtype(np.int64)
    return _make("full", shape, dt, device, np.asarray(value, dtype=dt).tobytes())


def _seed(seed):
    return int.from_bytes(os.urandom(8), "little") if seed is None else int(seed) & (2**64 - 1)


def rand(*shape, dtype=np.float32, seed=None, device=None):
    """Uniform random numbers drawn on the device by the kernel language's rand(T) (Philox4x32-10): the
    same seed gives the same array on every device; seed=None draws a fresh one."""
    return _make("rand", shape, dtype, device, _seed(seed))


def randn(*shape, dtype=np.float32, seed=None, device=None):
    """Standard normal random numbers drawn on the device by randn(T)."""
    return _make("randn", shape, dtype, device, _seed(seed))


def to_device(host, device=None, dtype=None):
    """A copy of a NumPy array (or anything np.asarray takes) on the device, same shape and indices."""
    dev = globals()["device"](device)
    h = np.asarray(host, dtype=dtype)
    shape = h.shape if h.ndim else (1,)
    a = Array(_juke.array_create(_ctx, dev._cap, _type_info(h.dtype)[0], shape), dev, h.dtype, shape)
    if a.size:
        a.copy_from(h.reshape(shape))
    return a


def _operand_device(values, dev):
    if dev is not None:
        return device(dev)
    for v in values:
        if isinstance(v, Array):
            return v.device
        if hasattr(v, "__dlpack_device__") and not isinstance(v, np.ndarray):
            from ._dlpack import _device_for  # a tensor of PyTorch, CuPy, JAX: the device that holds it
            return _device_for(*v.__dlpack_device__())
    return device()


def _operand(dev, value, keep, post):
    """The C extension's description of a broadcast or reduction operand."""
    if isinstance(value, Array):
        keep.append(value)
        return ("a", value._cap)
    if isinstance(value, np.ndarray):
        a = _wrap_numpy(dev, value, post)
        keep.append(a)
        return ("a", a._cap)
    if hasattr(value, "__dlpack__"):
        from ._dlpack import from_dlpack
        a = from_dlpack(value)
        keep.append(a)
        return ("a", a._cap)
    s = _scalar(value)
    if s is None:
        raise ArgumentError(f"a broadcast operand is an array or a number, not {type(value).__name__}")
    return s


def broadcast(expr, device=None, **operands):
    """Run a fused broadcast in Julia's syntax over named operands, as one generated kernel:

        juke.broadcast("c .= a .* b .+ 2f0", c=c, a=a, b=b)

    Julia's broadcasting rules over the arrays' shapes (a dimension of 1 is expanded; NumPy arrays keep
    their shape, as kernels see them). Returns the destination."""
    dev = _operand_device(operands.values(), device)
    keep, post = [], []
    ops = [(name, _operand(dev, v, keep, post)) for name, v in operands.items()]
    _juke.broadcast(_ctx, dev._cap, expr, ops, False)
    for p in post:
        p()
    dest = expr.split("=")[0].replace("@.", "").replace(".", "").strip()
    return operands.get(dest)


def broadcast_source(expr, **operands):
    """The Julia source juke generates for the broadcast (it depends on which dimensions expand)."""
    dev = _operand_device(operands.values(), None)
    keep, post = [], []
    ops = [(name, _operand(dev, v, keep, post)) for name, v in operands.items()]
    return _juke.broadcast(_ctx, dev._cap, expr, ops, True)


class BroadcastKernel:
    """A broadcast's generated kernel, bound to its operands, for its dumps: source, lowered(), typed(),
    llvm(), gcn(), ptx(), asm()."""

    def __init__(self, expr, device=None, **operands):
        self.source = broadcast_source(expr, **operands)
        self.kernel = Kernel(self.source, "juke_broadcast!", device=device, filename="juke_broadcast.jl")
        self.args = list(operands.values())

    def lowered(self):
        return self.kernel.lowered()

    def typed(self):
        return self.kernel.typed(*self.args)

    def llvm(self, **kw):
        return self.kernel.llvm(*self.args, **kw)

    def gcn(self, **kw):
        return self.kernel.gcn(*self.args, **kw)

    def ptx(self, **kw):
        return self.kernel.ptx(*self.args, **kw)

    def asm(self, **kw):
        return self.kernel.asm(*self.args, **kw)


def broadcast_kernel(expr, device=None, **operands):
    """The broadcast's kernel for inspection (BroadcastKernel), without running it."""
    return BroadcastKernel(expr, device=device, **operands)


def _number(code, value):
    name, dt = _BY_CODE[code]
    if code == 10:
        return np.array([value[1]], np.uint16).view(np.float16)[0]
    return dt.type(value)


def mapreduce(f, op, a, init=None, device=None):
    """Julia's mapreduce(f, op, A; init) on the device: f and op are Julia functions as text ("abs",
    "x -> x * x"; "+", "max", "(a, b) -> a + b"). Returns a NumPy scalar of the accumulator's type."""
    dev = _operand_device([a], device)
    keep, post = [], []
    arr = _operand(dev, a, keep, post)
    if arr[0] != "a":
        raise ArgumentError("mapreduce reduces an array")
    ini = None if init is None else _scalar(init)
    if init is not None and ini is None:
        raise ArgumentError("init is a number")
    code, value = _juke.mapreduce(_ctx, dev._cap, f, op, arr[1], ini)
    return _number(code, value)


def mapreduce_kernels(f, op, device=None):
    """The two generated kernels of mapreduce(f, op, A), for their dumps: (juke_mapreduce!(out, A, init),
    juke_reduce!(out, partials, init)) as juke.Kernel objects."""
    src = _juke.op_source(_ctx, "mapreduce", f, op)
    k1 = Kernel(src, "juke_mapreduce!", device=device, filename="juke_mapreduce.jl")
    return k1, Kernel(None, "juke_reduce!", device=device, module=k1.module)


def matmul_kernel(device=None):
    """The tiled matmul kernel juke_matmul!(C, A, B, M, N, K), for its dumps."""
    return Kernel(_juke.op_source(_ctx, "matmul", None, None), "juke_matmul!", device=device,
                  filename="juke_matmul.jl")


def sum(a, device=None):
    """sum(A): Float32 stays Float32; Bool and integers narrower than 64 bits sum as Int64 / UInt64."""
    return mapreduce(None, "+", a, device=device)


def maximum(a, device=None):
    return mapreduce(None, "max", a, device=device)


def minimum(a, device=None):
    return mapreduce(None, "min", a, device=device)


def matmul(a, b, out=None, kernel=False, device=None):
    """C = A * B (Julia's *, column-major): the vendor BLAS where there is one (OpenBLAS or the system
    BLAS on the CPU, cuBLAS, rocBLAS), else juke's tiled kernel (kernel=True forces it). The result's
    matmul_impl says which ran."""
    dev = _operand_device([a, b, out], device)
    keep, post = [], []
    ad, bd = _operand(dev, a, keep, post), _operand(dev, b, keep, post)
    A, B = keep[0], keep[1]
    if out is None:
        if A.ndim > 2 or B.ndim > 2:
            raise ArgumentError("matmul multiplies matrices and vectors")
        shape = (A.shape[0],) if B.ndim == 1 else (A.shape[0], B.shape[1])
        out = Array(_juke.array_create(_ctx, dev._cap, _type_info(A.dtype)[0], shape), dev, A.dtype, shape)
    cd = _operand(dev, out, keep, post)
    which = _juke.matmul(_ctx, dev._cap, cd[1], ad[1], bd[1], 1 if kernel else 0)
    for p in post:
        p()
    try:
        out.matmul_impl = which
    except AttributeError:
        pass
    global last_matmul
    last_matmul = which
    return out


last_matmul = None
