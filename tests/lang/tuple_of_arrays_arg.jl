# A tuple of arrays as a kernel argument (Oceananigans' tupled halo fills take `c::Tuple` of fields), looped
# over with a dynamic index into the homogeneous tuple; test_lang checks each array by its position, c.2
# (juke_value_field's numbered field, Julia's getfield(c, 2)).
using KernelAbstractions

@kernel function wrap_ends!(c::Tuple, H::Int, N)
    j = @index(Global, Linear)
    for n = 1:length(c)
        for i = 1:H
            @inbounds c[n][i, j] = c[n][N + i, j]
        end
    end
end
# run: wrap_ends!(c = (reshape(Float64[0, 1.5, 2.5, 0, 3.5, 4.5], 3, 2), reshape(Float64[0, -1, -2, 0, -3, -4], 3, 2)), H = 1, N = 2) groupsize 2 ndrange 2
# expect c.1: [2.5, 1.5, 2.5, 4.5, 3.5, 4.5]
# expect c.2: [-2, -1, -2, -4, -3, -4]
