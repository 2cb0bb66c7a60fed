# @ROCStaticLocalArray needs dims known at compile time.
function static_local_dims!(o, n)
    tmp = @ROCStaticLocalArray(Float32, n)
    tmp[1] = 1
    o[1] = tmp[1]
    return nothing
end
# run: static_local_dims!(o = zeros(Float32, 1), n = 8)
# expect error: @ROCStaticLocalArray needs constant dims (an integer or a tuple of integers known at compile time); use @ROCDynamicLocalArray for sizes known at launch
# expect error at: 3:11
