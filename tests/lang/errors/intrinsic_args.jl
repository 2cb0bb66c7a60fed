# Device intrinsics take no arguments.
function intrinsic_args!(o)
    o[1] = workitemIdx(1).x
    sync_workgroup(2)
    o[2] = wavefrontsize(3)
    return nothing
end
# run: intrinsic_args!(o = zeros(Int64, 2))
# expect error: MethodError: no method matching workitemIdx(::Int64)
# expect error at: 3:12
# expect error: MethodError: no method matching sync_workgroup(::Int64)
# expect error at: 4:5
# expect error: MethodError: no method matching wavefrontsize(::Int64)
# expect error at: 5:12
