"""DLPack: juke arrays to and from PyTorch, CuPy, JAX and NumPy without a copy.

A juke array is exported with its Julia dims as the shape and column-major strides. A tensor is
imported when it is 1-D or column-major (Fortran order): the kernel sees the same shape and indices, as
it does for NumPy arrays. A row-major tensor of two or more dimensions is refused; its transpose (t.T,
t.mT) is column-major and passes, with the dims reversed. Devices: kDLCPU on the cpu device, kDLCUDA on
cuda:N, kDLROCM on hip:N."""

from . import _juke
from . import ArgumentError, Array, _BY_DTYPE, _ctx, device
import numpy as np

KDL_CPU, KDL_CUDA, KDL_CUDA_HOST, KDL_ROCM = 1, 2, 3, 10
_KIND_TO_DL = {"cpu": KDL_CPU, "cuda": KDL_CUDA, "hip": KDL_ROCM}
# DLDataType code (kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBool 6) and bits -> NumPy dtype
_DL_DTYPES = {(0, 8): np.int8, (0, 16): np.int16, (0, 32): np.int32, (0, 64): np.int64,
              (1, 8): np.uint8, (1, 16): np.uint16, (1, 32): np.uint32, (1, 64): np.uint64,
              (2, 16): np.float16, (2, 32): np.float32, (2, 64): np.float64, (6, 8): np.bool_}
_DTYPE_TO_DL = {np.dtype(v): k for k, v in _DL_DTYPES.items()}


def _device_index(dev):
    spec = dev.name.split()[0]
    return int(spec.split(":")[1]) if ":" in spec else 0


def __dlpack_device__(self):
    """(device type, device id) as DLPack numbers them."""
    return (_KIND_TO_DL[self.device.kind], _device_index(self.device))


def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
    """A DLPack capsule over the array's memory: no copy. The array stays alive while the consumer holds it.
    Work launched on the array is complete when this returns (the device is synchronised)."""
    if self.device.kind != "cpu":
        self.device.synchronize()
    code, bits = _DTYPE_TO_DL[self.dtype]
    dt, did = __dlpack_device__(self)
    return _juke.dlpack_export(self._cap, self, dt, did, code, bits)


Array.__dlpack__ = __dlpack__
Array.__dlpack_device__ = __dlpack_device__


def _device_for(dl_type, dl_id):
    if dl_type in (KDL_CPU, KDL_CUDA_HOST):
        return device("cpu")
    if dl_type == KDL_CUDA:
        return device(f"cuda:{dl_id}")
    if dl_type == KDL_ROCM:
        return device(f"hip:{dl_id}")
    raise ArgumentError(f"juke has no device for DLPack device type {dl_type}")


def from_dlpack(x):
    """A juke array over a DLPack tensor's memory (PyTorch, CuPy, JAX, NumPy): no copy."""
    if isinstance(x, Array):
        return x
    if not hasattr(x, "__dlpack__"):
        raise ArgumentError(f"{type(x).__name__} has no __dlpack__")
    keeper, ptr, dl_type, dl_id, code, bits, lanes, shape, strides = _juke.dlpack_import(x.__dlpack__())
    if lanes != 1 or (code, bits) not in _DL_DTYPES:
        raise ArgumentError(f"DLPack element type (code {code}, {bits} bits, {lanes} lanes) is no Julia number type")
    dtype = np.dtype(_DL_DTYPES[(code, bits)])
    shape = tuple(shape) if shape else (1,)
    if strides is not None and len(shape) > 1:
        want, s = [], 1
        for d in shape:
            want.append(s)
            s *= d
        col_major = all(st == w or d == 1 for st, w, d in zip(strides, want, shape))
        if not col_major:
            raise ArgumentError(f"a tensor of shape {shape} and strides {tuple(strides)} is not column-major: "
                                "juke arrays are Julia's (pass its transpose, t.T, or a contiguous 1-D tensor)")
    elif strides is None and len([d for d in shape if d != 1]) > 1:
        raise ArgumentError(f"a row-major tensor of shape {shape}: juke arrays are column-major (pass its "
                            "transpose, t.T)")
    elif strides is not None and len(shape) == 1 and strides[0] != 1 and shape[0] > 1:
        raise ArgumentError("a 1-D tensor with a stride: juke arrays are contiguous")
    dev = _device_for(dl_type, dl_id)
    n = 1
    for d in shape:
        n *= d
    cap = _juke.array_wrap(_ctx, dev._cap, ptr if n else 16, _BY_DTYPE[dtype][0], shape)
    return Array(cap, dev, dtype, shape, owner=(keeper, x))
