# AMDGPU.jl's test/device/execution_control.jl kernel: sendmsg, sendmsghalt, endpgm (and debugtrap).
function exec_ctl_kernel()
    Device.sendmsg(5)
    Device.sendmsghalt(6)
    AMDGPU.Device.debugtrap()
    Device.endpgm()
end
