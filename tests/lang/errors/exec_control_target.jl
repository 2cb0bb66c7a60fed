# sendmsg, sendmsghalt and endpgm are AMDGPU intrinsics: on the CPU they are a compile error naming the
# target (tests/dumps/print.expect checks what they become on gfx90a, gfx942 and gfx1100).
function exec_ctl_kernel()
    Device.sendmsg(5)
    Device.sendmsghalt(6)
    Device.endpgm()
end
# run: exec_ctl_kernel()
# expect error: sendmsg() is an AMDGPU intrinsic: target cpu has no sendmsg
# expect error at: 4:5
# errors on: cpu
