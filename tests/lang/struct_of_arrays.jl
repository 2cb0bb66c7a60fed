# A struct or named tuple whose fields are device arrays, passed as one kernel argument (AMDGPU.jl's Adapt
# turns a struct of ROCArrays into a struct of device arrays): the struct's parameters come from its fields
# (Bundle(u, M, acc, 1.5f0) is a Bundle{ROCDeviceArray{Float32, 1, 1}, ROCDeviceArray{Float32, 2, 1}}); a
# field array is read and written in place, as an argument array is; the 2-D one is indexed (j, i).
struct Bundle{V, M}
    u::V
    M::M
    acc::V
    s::Float32
end

function soa!(out, b)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if i <= length(out)
        b.acc[i] += b.u[i] * b.s
        for j in 1:size(b.M, 1)
            b.acc[i] += b.M[j, i]
        end
        out[i] = 2 * b.acc[i]
    end
    return
end

function nt!(out, p)
    i = workitemIdx().x
    out[i] = (p.x[i] + p.y[length(p.y) - i + 1]) * p.k
    return
end
# run: soa!(out = zeros(Float32, 6), b = Bundle(Float32[1.078125, 0.953125, 0.484375, 0.3125, -1.25, -0.546875], reshape(Float32[-1.3125, 0.515625, 1.390625, -1.453125, 1.03125, -0.671875, 1.546875, 0.171875, 1.3125, -1.65625, 1.875, -1.953125, -0.609375, 1.140625, -1.671875, 0.390625, 0.015625, 1.734375], 3, 6), Float32[-0.5, 0.265625, 1.4375, 1.015625, -0.625, 1.734375], 1.5f0)) groupsize 4 gridsize 2
# expect out: [3.421875, 1.203125, 10.390625, -0.5, -7.28125, 6.109375]
# expect typed: Bundle{ROCDeviceArray{Float32, 1, 1}, ROCDeviceArray{Float32, 2, 1}}
# run: soa!(out = zeros(Float32, 9), b = Bundle(Float32[-0.71875, -1.46875, -0.34375, 1.8125, -1.375, -0.890625, -0.640625, 0.515625, 0.484375], reshape(Float32[-1.53125, -0.0625, -1.09375, -1.625, -0.9375, 0.15625, -1.53125, 0.0625, -0.34375, -0.3125, 0.953125, -0.28125, -1.640625, -0.21875, -0.125, -1.46875, -1.59375, 0.671875], 2, 9), Float32[1.984375, -0.484375, -0.015625, 1.8125, 0.15625, -0.140625, 0.171875, -0.0625, 1.546875], -0.25f0)) groupsize 3 gridsize 3
# expect out: [1.140625, -5.671875, -1.421875, -0.21875, -0.3125, 1.5078125, -3.0546875, -3.5703125, 1.0078125]
# run: nt!(out = zeros(Float64, 5), p = (x = Int32[-19, 50, 49, 38, -28], y = Float64[0.2275390625, -0.962890625, 0.8369140625, -0.0322265625, 1.380859375], k = Int32(3))) groupsize 5
# expect out: [-52.857421875, 149.9033203125, 149.5107421875, 111.111328125, -83.3173828125]
# run: nt!(out = zeros(Float64, 8), p = (x = Int32[-29, 1, -15, -42, -41, 32, -32, -5], y = Float64[1.8642578125, 0.5888671875, 0.2734375, 1.5693359375, -0.6875, 0.5224609375, 1.8408203125, 1.4541015625], k = Int32(3))) groupsize 8
# expect out: [-82.6376953125, 8.5224609375, -43.4326171875, -128.0625, -118.2919921875, 96.8203125, -94.2333984375, -9.4072265625]
