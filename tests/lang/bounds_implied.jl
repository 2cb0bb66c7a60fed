# A checked five-point update whose source is two cells larger than its result: the guard on `Bn` does not
# cover `B`, so B's six compares are merged into one check; on NVPTX's 32-bit class (narrow.c
# narrow_drop_implied) the merged check keeps only the compare of the largest offset in each dimension, and the
# store's, which the guard decides. The error is still the first failing access's, as each check alone reports it.
function smooth!(Bn, B, h)
    ix = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
    iy = (workgroupIdx().y - 1) * workgroupDim().y + workitemIdx().y
    if ix ∈ axes(Bn, 1) && iy ∈ axes(Bn, 2)
        Bn[ix, iy] = B[ix+1, iy+1] + h * (B[ix, iy+1] + B[ix+2, iy+1] + B[ix+1, iy] + B[ix+1, iy+2] -
                                          4 * B[ix+1, iy+1])
    end
    return
end
# run: smooth!(Bn = zeros(Float64, 2, 2), B = reshape(Float64[3, -1, 4, 1.5, -5, 9, 2, -6, 5, 3.5, -5, 8, 9.25, -7, 9, 3], 4, 4), h = 0.25) groupsize 2, 2
# expect Bn: [-0.125, 0.5, 0.5, 5.625]
# a grid larger than Bn: the guard stops the extra work-items
# run: smooth!(Bn = zeros(Float64, 2, 2), B = reshape(Float64[3, -1, 4, 1.5, -5, 9, 2, -6, 5, 3.5, -5, 8, 9.25, -7, 9, 3], 4, 4), h = 0.25) groupsize 2, 2 gridsize 2, 2
# expect Bn: [-0.125, 0.5, 0.5, 5.625]
# B one row short: ix = 2 reads B[4, 2] in its third access
# run: smooth!(Bn = zeros(Float64, 2, 1), B = reshape(Float64[3, -1, 4, 1.5, -5, 9, 2, -6, 5], 3, 3), h = 0.25) groupsize 2
# expect exception: BoundsError: attempt to access 3×3 ROCDeviceMatrix{Float64, 1} at index [4, 2]
# expect exception at: 9:57
# B one column short: iy = 2 reads B[2, 4] in its fifth access
# run: smooth!(Bn = zeros(Float64, 1, 2), B = reshape(Float64[3, -1, 4, 1.5, -5, 9, 2, -6, 5], 3, 3), h = 0.25) groupsize 1, 2
# expect exception: BoundsError: attempt to access 3×3 ROCDeviceMatrix{Float64, 1} at index [2, 4]
# expect exception at: 9:87
