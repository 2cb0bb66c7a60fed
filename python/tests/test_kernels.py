# Kernels launched on NumPy arrays on the CPU device: arguments of every kind, the column-major
# convention, every dump, and errors as Python exceptions. Julia's answers are the reference.
import numpy as np
import pytest

import juke

VADD = """
function vadd!(c, a, b)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if i <= length(c)
        @inbounds c[i] = a[i] + b[i]
    end
    return
end
"""


def test_vadd_numpy_zero_copy():
    n = 1000
    rng = np.random.default_rng(1)
    a = rng.random(n, dtype=np.float32) + 1
    b = rng.random(n, dtype=np.float32) + 2
    c = np.zeros(n, np.float32)
    k = juke.kernel(VADD, "vadd!")
    k(c, a, b, groupsize=256, gridsize=juke.cld(n, 256))
    np.testing.assert_array_equal(c, a + b)
    # a second call with the same types reuses the compiled kernel; other types specialise anew
    a64, b64, c64 = a.astype(np.float64), b.astype(np.float64), np.zeros(n)
    k(c64, a64, b64, groupsize=256, gridsize=juke.cld(n, 256))
    np.testing.assert_array_equal(c64, a64 + b64)


MAT = """
# A[i, j] = 10i + j + s: Julia's indices, column-major
function fill_ij!(A, s)
    i = workitemIdx().x
    j = workitemIdx().y
    if i <= size(A, 1) && j <= size(A, 2)
        A[i, j] = 10 * i + j + s
    end
    return
end
"""


@pytest.mark.parametrize("order", ["F", "C"])
def test_matrix_is_julias_column_major_view(order):
    A = np.zeros((3, 4), np.int64, order=order)
    k = juke.kernel(MAT, "fill_ij!")
    k(A, 7, groupsize=(3, 4))
    want = np.array([[10 * i + j + 7 for j in range(1, 5)] for i in range(1, 4)])
    np.testing.assert_array_equal(A, want)


SCALARS = """
function scal!(out, x::Float32, n::Int64, flag::Bool, t::Tuple{Float32, Int64}, h::Float16, u::UInt8)
    out[1] = x * 2f0
    out[2] = Float32(n) + 0.5f0
    out[3] = flag ? 1f0 : -1f0
    out[4] = t[1] + Float32(t[2])
    out[5] = Float32(h)
    out[6] = Float32(u)
    return
end

function typed_arg!(out, ::Type{T}, ::Val{N}) where {T, N}
    out[1] = T(N) / T(3)
    return
end
"""


def test_scalars_tuples_and_values():
    out = np.zeros(6, np.float32)
    k = juke.kernel(SCALARS, "scal!")
    k(out, np.float32(1.25), 41, True, (np.float32(0.5), 3), np.float16(1.5), np.uint8(200))
    np.testing.assert_array_equal(out, [2.5, 41.5, 1.0, 3.5, 1.5, 200.0])
    o64 = np.zeros(1)
    juke.kernel(SCALARS, "typed_arg!")(o64, np.float64, juke.Val(7))
    assert o64[0] == 7.0 / 3.0


KA = """
using KernelAbstractions
@kernel function saxpy!(y, a, @Const(x))
    i = @index(Global)
    y[i] = a * x[i] + y[i]
end
"""


def test_kernelabstractions_ndrange():
    x = np.arange(1, 11, dtype=np.float32)
    y = np.full(10, 0.5, np.float32)
    juke.kernel(KA, "saxpy!")(y, np.float32(3), x, groupsize=4, ndrange=10)
    np.testing.assert_array_equal(y, 3 * np.arange(1, 11, dtype=np.float32) + 0.5)


KA4 = """
using KernelAbstractions
@kernel function mark4!(A)
    I = @index(Global, Cartesian)
    A[@index(Global, Linear)] = 1000 * I[1] + 100 * I[2] + 10 * I[3] + I[4]
end
"""


def test_kernelabstractions_ndrange_4d():
    a = np.zeros(2 * 3 * 2 * 3, np.int64)
    juke.kernel(KA4, "mark4!")(a, groupsize=4, ndrange=(2, 3, 2, 3))
    want = [1000 * i + 100 * j + 10 * k + l for l in range(1, 4) for k in range(1, 3) for j in range(1, 4)
            for i in range(1, 3)]
    np.testing.assert_array_equal(a, want)


def test_dumps(has_compiler):
    k = juke.kernel(VADD, "vadd!")
    assert "function vadd!" in k.lowered() or "vadd!" in k.lowered()
    a = np.ones(4, np.float32)
    typed = k.typed(a, a, a)
    assert "Float32" in typed
    assert k.typed("Vector{Float32}", "Vector{Float32}", "Vector{Float32}") == typed
    if not has_compiler:
        return
    assert "define" in k.llvm(a, a, a)
    assert "fadd" in k.llvm(a, a, a, raw=True)
    for proc in ("gfx90a", "gfx942", "gfx1100"):
        gcn = k.gcn(a, a, a, target=proc)
        assert ".amdgcn_target" in gcn and proc in gcn
    assert ".entry" in k.ptx(a, a, a, target="sm_90")
    assert "VGPRs:" in k.dump("resources", a, a, a, target="gfx942")
    assert "define" in k.dump("llvm_module", a, a, a)
    assert k.asm(a, a, a)  # the host assembly of the CPU device


def test_compile_error_is_located():
    with pytest.raises(juke.CompileError) as e:
        juke.kernel("function f(x)\n    x[1] = (1f0 + 2f0\n    return\nend\n", "f", filename="bad.jl")
    msg = str(e.value)
    assert msg.startswith("bad.jl:3:5: error:")
    assert "^" in msg


def test_type_error_at_first_call():
    k = juke.kernel("function g(x)\n    x[1] = undefined_thing(1)\n    return\nend\n", "g", filename="g.jl")
    with pytest.raises(juke.CompileError) as e:
        k(np.zeros(2, np.float32), groupsize=1, gridsize=1)
    assert "g.jl:2:" in str(e.value)


def test_unknown_function():
    with pytest.raises(juke.JukeError):
        juke.kernel(VADD, "vsub!")


BOUNDS = """
function oob!(x)
    i = workitemIdx().x
    x[i] = 1f0
    return
end
"""


def test_bounds_error_is_kernel_exception():
    x = np.zeros(64, np.float32)
    k = juke.kernel(BOUNDS, "oob!", filename="oob.jl")
    with pytest.raises(juke.KernelException) as e:
        k(x, groupsize=65, gridsize=1)
    ex = e.value
    assert ex.kind == "BoundsError"
    assert ex.kernel == "oob!"
    assert ex.index == (65,)
    assert ex.workitem == (65, 1, 1)
    assert ex.workgroup == (1, 1, 1)
    assert (ex.file, ex.line) == ("oob.jl", 4)
    # the device stays usable
    k(x, groupsize=64, gridsize=1)
    assert x.sum() == 64


def test_divide_error():
    src = "function d!(x, y)\n    x[1] = div(x[1], y)\n    return\nend\n"
    with pytest.raises(juke.KernelException) as e:
        juke.kernel(src, "d!")(np.ones(1, np.int64), 0)
    assert e.value.kind == "DivideError"


def test_bad_argument():
    with pytest.raises(juke.ArgumentError):
        juke.kernel(VADD, "vadd!")(np.zeros(2, np.complex64), groupsize=1, gridsize=1)
