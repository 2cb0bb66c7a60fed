# Searches over device arrays, as Julia's Base has them: findfirst/findlast with a predicate (an Int of a
# vector, a CartesianIndex of a matrix, nothing when none matches), of a Bool vector, findnext/findprev from
# an index, findmax/findmin (the value and its key), argmax/argmin, and findmin(f, A) / argmax(f, A) (the
# extreme of f, and the element that has it).
function search!(out, fout, v, M, B, t)
    if workitemIdx().x == 1
        r = findfirst(x -> x > t, v)
        out[1] = r === nothing ? 0 : r
        r = findlast(x -> x > t, v)
        out[2] = r === nothing ? 0 : r
        c = findfirst(x -> x < -t, M)
        if c !== nothing
            out[3] = c[1]
            out[4] = c[2]
        end
        c = findlast(x -> x < -t, M)
        if c !== nothing
            out[5] = c[1]
            out[6] = c[2]
        end
        out[7] = argmax(v)
        m, k = findmin(M)
        out[8] = k[1]
        out[9] = k[2]
        out[10] = something(findfirst(B), 0)
        out[11] = something(findlast(B), 0)
        out[12] = something(findnext(>(0), v, 3), 0)
        out[13] = something(findprev(<(0), v, 5), 0)
        out[14] = something(findfirst(==(v[5]), v), 0)
        out[15] = findmin(abs, v)[2]
        fout[1] = findmax(v)[1]
        fout[2] = m
        fout[3] = argmax(abs, v)
        fout[4] = findmin(abs, v)[1]
    end
    return
end

# a vector's keys as CartesianIndices has them (CartesianIndex{1}) stored into an Int array: the coordinate
function keys_of!(out, v)
    i = workitemIdx().x
    if v[i] > 0
        out[i] = CartesianIndices(v)[i]
    end
    return
end
# run: search!(out = zeros(Int64, 15), fout = zeros(Float32, 4), v = Float32[0.078125, 0.875, -1.4375, 0.875, -1.703125, -0.328125, 0.171875, 0.484375, 1.90625], M = reshape(Float32[1.46875, -1.53125, -0.890625, -0.546875, -1.046875, -0.984375, -0.9375, -1.953125, -0.171875, 0.671875, 0.859375, 0.734375], 3, 4), B = Bool[false, true, false, true, false, true, false, false, false], t = 1.25f0)
# expect out: [9, 9, 2, 1, 2, 3, 9, 2, 3, 2, 6, 4, 5, 5, 1]
# expect fout: [1.90625, -1.953125, 1.90625, 0.078125]
# run: search!(out = zeros(Int64, 15), fout = zeros(Float32, 4), v = Float32[0.265625, -0.109375, 1.96875, -1.109375, 1.890625, -1.78125, -1.734375, -0.46875, -0.203125, -0.140625, -1.671875, -1.546875], M = reshape(Float32[0.359375, 0.1875, -1.015625, 1.71875, 0.21875, -0.703125, 1.671875, -0.375], 4, 2), B = Bool[false, false, false, true, false, false, true, true, true, true, true, false], t = 3.5f0)
# expect out: [0, 0, 0, 0, 0, 0, 3, 3, 1, 4, 11, 3, 4, 5, 2]
# expect fout: [1.96875, -1.015625, 1.96875, 0.109375]
# run: keys_of!(out = zeros(Int32, 6), v = Float32[0.5, -1.25, 2.0, -0.75, 0.125, 3.5]) groupsize 6
# expect out: [1, 0, 3, 0, 5, 6]
