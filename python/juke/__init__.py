"""juke from Python: kernels in a Julia subset, launched on NumPy arrays and device arrays.

    import juke, numpy as np
    k = juke.kernel(open("vadd.jl").read(), "vadd!")
    k(c, a, b, groupsize=256, gridsize=juke.cld(n, 256))

Arrays are Julia's, column-major: a NumPy array of shape (m, n) is the Julia m×n
matrix with A[i, j] == a[i-1, j-1], as the juke command reads a .npy file. A 1-D
or Fortran-ordered (order="F") array passes without a copy; a C-ordered array
of two or more dimensions is copied into Fortran order for the launch and back
after it. See python/README.md.
"""

import ctypes
import os
import re

import numpy as np

from . import _juke

__all__ = [
    "Array", "ArgumentError", "CompileError", "Device", "DeviceError", "JukeError", "Kernel",
    "KernelException", "Sym", "UnsupportedError", "Val", "broadcast", "cld", "device", "from_dlpack",
    "broadcast_kernel", "broadcast_source", "kernel", "mapreduce", "mapreduce_kernels", "matmul_kernel", "matmul", "maximum", "minimum", "ones", "fill", "rand", "randn", "sum",
    "to_device", "zeros",
]


class JukeError(Exception):
    """A failed juke call; the message is juke_errmsg's."""


class CompileError(JukeError):
    """The source has an error; the message has file:line:col, the source line and a caret."""


class KernelException(JukeError):
    """A kernel raised an exception (BoundsError, DivideError, InexactError, ...).

    Attributes: kernel (its name), kind ("BoundsError"), index (the index tuple of a
    BoundsError, else None), workgroup and workitem (1-based (x, y, z)), file, line, column.
    """

    _head = re.compile(r"^(?P<kernel>[^:\n]+): (?P<kind>[A-Za-z_][A-Za-z0-9_ -]*?)(?::|\b)")
    _index = re.compile(r"at index \[([^\]]*)\]")
    _where = re.compile(r"\n  at (?P<file>[^\n]+):(?P<line>\d+):(?P<col>\d+)\n  in workgroup \((?P<g>[^)]*)\), "
                        r"work-item \((?P<i>[^)]*)\)")

    def __init__(self, message):
        super().__init__(message)
        head = self._head.match(message)
        self.kernel = head.group("kernel") if head else None
        self.kind = head.group("kind").split()[0] if head else None
        idx = self._index.search(message)
        self.index = tuple(int(x) for x in idx.group(1).split(",")) if idx else None
        where = self._where.search(message)
        if where:
            self.file = where.group("file")
            self.line, self.column = int(where.group("line")), int(where.group("col"))
            self.workgroup = tuple(int(x) for x in where.group("g").split(","))
            self.workitem = tuple(int(x) for x in where.group("i").split(","))
        else:
            self.file = self.line = self.column = self.workgroup = self.workitem = None


class ArgumentError(JukeError, ValueError):
    """Bad use: wrong argument count or type, bad launch size, mismatched shapes."""


class DeviceError(JukeError):
    """No such device, a driver or library missing, a device failure."""


class UnsupportedError(JukeError):
    """This build lacks the feature (a runtime-only build compiling a kernel not in its cache)."""


class InternalError(JukeError):
    """A juke bug: an internal compiler error or IR a verifier rejected."""


# juke_status (include/juke.h) -> class
_juke._set_errors({1: CompileError, 2: InternalError, 3: InternalError, 4: ArgumentError, 5: DeviceError,
                   6: KernelException, 7: MemoryError, 8: OSError, 9: UnsupportedError})

# juke_type codes, Julia names and NumPy dtypes
_TYPES = [
    (1, "Bool", np.bool_), (2, "Int8", np.int8), (3, "Int16", np.int16), (4, "Int32", np.int32),
    (5, "Int64", np.int64), (6, "UInt8", np.uint8), (7, "UInt16", np.uint16), (8, "UInt32", np.uint32),
    (9, "UInt64", np.uint64), (10, "Float16", np.float16), (11, "Float32", np.float32), (12, "Float64", np.float64),
]
_BY_DTYPE = {np.dtype(d): (code, name) for code, name, d in _TYPES}
_BY_CODE = {code: (name, np.dtype(d)) for code, name, d in _TYPES}
_BY_NAME = {name: np.dtype(d) for code, name, d in _TYPES}

_ctx = _juke.context_create()
_devices = {}


def cld(a, b):
    """Julia's cld: a ÷ b rounded up (the number of groups that cover a items)."""
    return -(-a // b)


def _type_info(dtype):
    dt = np.dtype(dtype)
    if dt not in _BY_DTYPE:
        raise ArgumentError(f"juke arrays hold Julia's primitive numbers, not {dt}")
    return _BY_DTYPE[dt]


class Device:
    """A place to run kernels: "cpu", "hip[:N]", "cuda[:N]" or "auto"."""

    def __init__(self, spec):
        self._cap, self.name = _juke.device_open(_ctx, spec)
        self.spec = spec
        words = self.name.split()
        self.kind = words[0].split(":")[0]
        self.target = "cpu" if self.kind == "cpu" else words[1]

    def synchronize(self):
        _juke.device_synchronize(_ctx, self._cap)

    def __repr__(self):
        return f"juke.Device({self.name!r})"


def device(spec=None):
    """The device named spec (default: $JUKE_DEVICE, else "cpu"), opened once per process."""
    spec = spec or os.environ.get("JUKE_DEVICE", "cpu")
    if isinstance(spec, Device):
        return spec
    if spec in ("cuda", "hip"):  # the first GPU, as a DLPack tensor on it names it ("cuda:0")
        spec += ":0"
    if spec not in _devices:
        _devices[spec] = Device(spec)
    return _devices[spec]


class Val:
    """Julia's Val{x}: a compile-time constant argument."""

    def __init__(self, x):
        self.x = x

    def julia_type(self):
        return f"Val{{{self.x}}}"


class Sym:
    """A Julia Symbol argument (:name)."""

    def __init__(self, name):
        self.name = name

    def julia_type(self):
        return f":{self.name}"


def _julia_array_type(name, ndims):
    return f"Vector{{{name}}}" if ndims == 1 else f"Matrix{{{name}}}" if ndims == 2 else f"Array{{{name}, {ndims}}}"


def julia_type(value):
    """The Julia type of a kernel argument (as juke_compile takes types)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (Array, np.ndarray)):
        return _julia_array_type(_type_info(value.dtype)[1], max(value.ndim, 1))
    if isinstance(value, (bool, np.bool_)):
        return "Bool"
    if isinstance(value, np.generic):
        return _type_info(value.dtype)[1]
    if isinstance(value, int):
        return "Int64"
    if isinstance(value, float):
        return "Float64"
    if isinstance(value, tuple):
        return "Tuple{" + ", ".join(julia_type(v) for v in value) + "}"
    if isinstance(value, (Val, Sym)):
        return value.julia_type()
    if isinstance(value, type) and issubclass(value, np.generic):
        return f"Type{{{_type_info(value)[1]}}}"
    if hasattr(value, "__dlpack__"):
        return julia_type(from_dlpack(value))
    raise ArgumentError(f"no Julia type for a kernel argument of Python type {type(value).__name__}")


def _scalar(value):
    """("s", juke_type, number) for a number, as the C extension takes it."""
    if isinstance(value, (bool, np.bool_)):
        return ("s", 1, int(bool(value)))
    if isinstance(value, np.generic):
        code, _ = _type_info(value.dtype)
        if code == 10:
            return ("s", code, int(np.asarray(value, dtype=np.float16).view(np.uint16)))
        return ("s", code, float(value) if code in (11, 12) else int(value))
    if isinstance(value, int):
        return ("s", 5, value)
    if isinstance(value, float):
        return ("s", 12, value)
    return None


class Array:
    """A juke array on a device: Julia's Array{T,N}, column-major, shape as Julia's size(A).

    Made by juke.zeros/ones/fill/rand/randn, juke.to_device, juke.from_dlpack.
    On the CPU device numpy() is a view without a copy; elsewhere it downloads.
    """

    def __init__(self, cap, device, dtype, shape, owner=None):
        self._cap = cap
        self.device = device
        self.dtype = np.dtype(dtype)
        self.shape = tuple(int(s) for s in shape)
        self._owner = owner  # what keeps wrapped memory alive (a NumPy array, a DLPack capsule)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def pointer(self):
        return _juke.array_pointer(self._cap)

    def numpy(self):
        """The elements as a NumPy array of this shape in Fortran order (a view on the CPU device)."""
        if self.device.kind == "cpu":
            if self.nbytes == 0:
                return np.zeros(self.shape, self.dtype, order="F")
            buf = (ctypes.c_char * self.nbytes).from_address(self.pointer)
            view = np.frombuffer(buf, dtype=self.dtype).reshape(self.shape, order="F")
            view_base = _Keep(view, self)
            return np.asarray(view_base)
        out = np.empty(self.shape, self.dtype, order="F")
        _juke.array_copy(_ctx, self._cap, out.ctypes.data, self.nbytes, True)
        return out

    def __array__(self, dtype=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def copy_from(self, host):
        """Upload a NumPy array of this shape and dtype."""
        h = np.asfortranarray(np.asarray(host, dtype=self.dtype).reshape(self.shape, order="F"))
        _juke.array_copy(_ctx, self._cap, h.ctypes.data, self.nbytes, False)

    def __matmul__(self, other):
        return matmul(self, other)

    def __rmatmul__(self, other):
        return matmul(other, self)

    def __repr__(self):
        return f"juke.Array({self.dtype}, {self.shape}, {self.device.name!r})"


class _Keep:
    """Keeps a juke Array alive as long as a NumPy view of its memory."""

    def __init__(self, view, owner):
        self.__array_interface__ = view.__array_interface__
        self._view, self._owner = view, owner


def _wrap_numpy(dev, a, post):
    """A juke array over a NumPy array's memory on the CPU device (a copy in Fortran order for a C-ordered
    array of two or more dimensions, written back after the launch through post)."""
    if dev.kind != "cpu":
        raise ArgumentError(f"a NumPy array is host memory: on {dev.name} pass juke.to_device(a) or a DLPack "
                            "tensor of that device")
    code, _ = _type_info(a.dtype)
    src = a
    if a.ndim > 1 and not a.flags.f_contiguous:
        a = np.asfortranarray(a)
        if src.flags.writeable:
            post.append(lambda src=src, a=a: np.copyto(src, a))
    elif not (a.flags.f_contiguous or a.flags.c_contiguous):
        a = np.ascontiguousarray(a)
        if src.flags.writeable:
            post.append(lambda src=src, a=a: np.copyto(src, a))
    shape = a.shape if a.ndim else (1,)
    cap = _juke.array_wrap(_ctx, dev._cap, a.ctypes.data if a.size else 16, code, shape)
    return Array(cap, dev, a.dtype, shape, owner=a)


def _as_juke_array(dev, value, post):
    if isinstance(value, Array):
        return value
    if isinstance(value, np.ndarray):
        return _wrap_numpy(dev, value, post)
    if hasattr(value, "__dlpack__"):
        return from_dlpack(value)
    return None


def _arg(dev, value, keep, post):
    """The C extension's description of one kernel argument."""
    arr = _as_juke_array(dev, value, post)
    if arr is not None:
        keep.append(arr)
        return ("a", arr._cap)
    s = _scalar(value)
    if s is not None:
        return s
    if isinstance(value, tuple):
        return ("t", julia_type(value), [_arg(dev, v, keep, post) for v in value])
    if isinstance(value, (Val, Sym)) or (isinstance(value, type) and issubclass(value, np.generic)):
        return ("v", julia_type(value))
    raise ArgumentError(f"no Julia type for a kernel argument of Python type {type(value).__name__}")


def _triple(x, what):
    t = (x,) if isinstance(x, int) else tuple(x)
    if not 1 <= len(t) <= 3:
        raise ArgumentError(f"{what} has 1 to 3 dimensions")
    return t + (1,) * (3 - len(t))


class Module:
    """Loaded source: its functions, compiled and cached per argument types and device."""

    def __init__(self, source, name="kernel.jl"):
        self.name = name
        self._cap, self.functions = _juke.module_load(_ctx, name, source)


# juke_dump (include/juke.h) of a compiled kernel
_DUMPS = {"llvm_raw": 2, "llvm": 3, "llvm_module": 4, "asm": 5, "resources": 6}


class Kernel:
    """A function of a module, launched like AMDGPU.jl's @roc: k(args..., groupsize=, gridsize=).

    It is specialised on its arguments' types at the first call with them (as juke_launch does)
    and the compiled kernel is cached for later calls.
    """

    def __init__(self, source, name, device=None, filename=None, module=None):
        self.module = module or Module(source, filename or "kernel.jl")
        self.name = name
        self.device = device
        _juke.dump(_ctx, self.module._cap, name, None, 0, None, 3)  # no such function: juke's message now

    def __call__(self, *args, groupsize=1, gridsize=1, shmem=0, ndrange=None, seed=None, cooperative=False,
                 device=None):
        dev = globals()["device"](device or self.device)
        keep, post = [], []
        descs = [_arg(dev, a, keep, post) for a in args]
        if ndrange is None:
            nd = (0,) * 9
            if gridsize is None:
                raise ArgumentError("gridsize= is needed without an ndrange")
        else:
            r = (ndrange,) if isinstance(ndrange, int) else tuple(ndrange)
            if not 1 <= len(r) <= 8:
                raise ArgumentError("ndrange has 1 to 8 dimensions (more than 3 launch linearly)")
            nd = (len(r),) + r + (1,) * (8 - len(r))
            gridsize = 0
            if groupsize == 1:
                groupsize = 0
        gs = _triple(groupsize, "groupsize")
        gr = (0, 0, 0) if gridsize == 0 else _triple(gridsize, "gridsize")
        _juke.launch(_ctx, dev._cap, self.module._cap, self.name, descs, gs, gr, shmem, nd, seed, cooperative)
        for p in post:
            p()

    def _types(self, args):
        return [julia_type(a) for a in args]

    def lowered(self, *args):
        """@code_lowered: every method, or with arguments (or Julia type strings) the one dispatch picks."""
        return _juke.dump(_ctx, self.module._cap, self.name, self._types(args) if args else None, 0, None, 3)

    def typed(self, *args):
        """@code_typed of the specialisation on these arguments or Julia type strings."""
        return _juke.dump(_ctx, self.module._cap, self.name, self._types(args), 1, None, 3)

    def _target(self, target):
        if target:
            return target
        return globals()["device"](self.device).target

    def dump(self, which, *args, target=None, opt_level=3, index_bits=0):
        """One of juke_kernel_dump's dumps: "llvm_raw", "llvm", "llvm_module", "asm", "resources".
        index_bits=32 compiles the variant for arrays under 2^31 elements (the one launches pick for them).
        With $JUKE_CACHE_DIR set, the kernel is saved in that disk cache too."""
        return _juke.dump(_ctx, self.module._cap, self.name, self._types(args), _DUMPS[which],
                          self._target(target), opt_level, index_bits)

    def llvm(self, *args, target=None, raw=False):
        """@device_code_llvm: the optimised kernel function (raw=True: the module before optimisation),
        for target (default: the kernel's device's)."""
        return self.dump("llvm_raw" if raw else "llvm", *args, target=target)

    def gcn(self, *args, target="gfx90a"):
        """@device_code_gcn: the AMDGPU assembly for a gfx processor."""
        return self.dump("asm", *args, target=target)

    def ptx(self, *args, target="sm_90"):
        """The PTX for an NVIDIA sm_ target."""
        return self.dump("asm", *args, target=target)

    def asm(self, *args, target=None):
        """The assembly of target (default: the kernel's device's)."""
        return self.dump("asm", *args, target=target)


def kernel(source, name, device=None, filename=None):
    """The function `name` of Julia source text, to launch on device (default juke.device())."""
    return Kernel(source, name, device=device, filename=filename)


def synchronize(dev=None):
    device(dev).synchronize()


from ._arrays import (zeros, ones, fill, rand, randn, to_device, broadcast, broadcast_source,  # noqa: E402
                      broadcast_kernel, sum, maximum, minimum, mapreduce, mapreduce_kernels, matmul,
                      matmul_kernel)
from ._dlpack import from_dlpack  # noqa: E402
