# Int8, UInt16 and Float16 arrays: element-typed loads and stores.
function small_types!(a::AbstractVector{Int8}, b::AbstractVector{UInt16}, h::AbstractVector{Float16})
    for i in 1:length(a)
        a[i] = a[i] * Int8(2)    # wraps in Int8
    end
    b[1] = b[1] + 0x0001
    b[2] = b[2] ⊻ 0xffff
    b[3] = b[3] >> 4
    h[1] = h[1] + h[2]
    h[2] = h[2] * 2
    h[3] = h[3] / Float16(3)
    return nothing
end
# run: small_types!(a = Int8[1, -3, 100, -100], b = UInt16[65535, 0x00ff, 0x1234], h = Float16[1.5, 0.25, 1])
# expect a: [2, -6, -56, 56]
# expect b: [0, 0xff00, 0x0123]
# expect h: [1.75, 0.5, 0.333251953125]
