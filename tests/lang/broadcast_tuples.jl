# Broadcasting operators over tuples and numbers, as kernels use them on index tuples:
# (I .- lo .+ 1), all(I .<= size(A)), out[(I .- 1)...].
function broadcast_tuples!(o, A)
    I = (2, 3)
    lo = (1, 1)
    J = I .- lo .+ 1
    o[1] = J[1] * 10 + J[2]
    o[2] = all(I .<= size(A)) ? 1 : 0
    o[3] = all((4, 1) .<= size(A)) ? 1 : 0
    K = 2 .* I
    o[4] = K[2]
    o[5] = A[(I .- 1)...]
    M = (1.5, 2.5) .* (2, 4)
    o[6] = M[1] + M[2]
    return nothing
end
# run: broadcast_tuples!(o = zeros(Float64, 6), A = reshape(Float64[1, 2, 3, 4, 5, 6, 7, 8, 9], 3, 3))
# expect o: [23.0, 1.0, 0.0, 6.0, 4.0, 13.0]
