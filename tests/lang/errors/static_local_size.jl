# A static local array larger than a workgroup's local memory.
function static_local_size!(o)
    big = @ROCStaticLocalArray(Float64, (128, 128))
    big[1] = 1
    o[1] = big[1]
    return nothing
end
# run: static_local_size!(o = zeros(Float64, 1))
# expect error: @ROCStaticLocalArray of 131072 bytes exceeds the 65536 bytes of local memory a workgroup can have
# expect error at: 3:11
