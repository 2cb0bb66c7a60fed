# AMDGPU.jl's device signal functions are part of its hostcalls (AMDGPU.jl 0.2-0.4 kernels wait on an HSA signal
# the host stores: AMDGPU.device_signal_wait(sig, val)): a clear error at the call, as hostcall! is.
function memcopy_wait!(A, B, sig, waitval)
    ix = workitemIdx().x
    AMDGPU.device_signal_wait(sig, waitval)
    A[ix] = B[ix]
    return
end
# run: memcopy_wait!(A = zeros(Float64, 2), B = Float64[1.5, 2.5], sig = 0, waitval = 1) groupsize 2
# expect error: `device_signal_wait` is not available in kernels: AMDGPU.jl's hostcalls run a host function while the kernel waits, a service juke's devices do not provide; return results through an array argument and print with @rocprintln
# expect error at: 5:5
