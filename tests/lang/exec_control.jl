# trap() stops the kernel with a kernel exception on every device (the CPU too), not a hung device;
# debugtrap() does nothing on the CPU (no debugger to stop for).
function trapped!(A, x)
    i = workitemIdx().x
    A[i] = x
    if i == 2
        trap()
    end
    return
end
# run: trapped!(A = zeros(Int64, 2), x = 5) groupsize 2
# expect exception: trapped!: trap() reached
# expect exception at: 7:9
# expect exception: work-item (2, 1, 1)
function debugtrapped!(A)
    AMDGPU.Device.debugtrap()
    A[1] = 1
    return
end
# run: debugtrapped!(A = zeros(Int64, 1))
# expect A: [1]

# AMDGPU.jl's test/device/execution_control.jl: the clocks advance across a device_sleep
function time_kernel(X)
    t1 = AMDGPU.Device.memtime()
    tr1 = AMDGPU.Device.memrealtime()
    AMDGPU.Device.device_sleep(Int32(2))
    t2 = AMDGPU.Device.memtime()
    tr2 = AMDGPU.Device.memrealtime()
    X[1] = t2 > t1
    X[2] = tr2 > tr1
    return
end
# run: time_kernel(X = zeros(Bool, 2))
# expect X: [true, true]
