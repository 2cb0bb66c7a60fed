# Checks that codegen merges (checkopt.c: one branch for the checks of a
# straight run, the guard's own check dropped) report exactly what each
# check alone would: the first failing access in program order, its index,
# its array and its place.
function vadd_checked!(c, a, b)
    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
    if i <= length(c)
        c[i] = a[i] + b[i]
    end
    return
end
# run: vadd_checked!(c = zeros(Float32, 4), a = Float32[1, 2, 3, 4], b = Float32[10, 20, 30, 40]) groupsize 4
# expect c: [11, 22, 33, 44]
# the guard covers c; a and b are checked, a first
# run: vadd_checked!(c = zeros(Float32, 4), a = Float32[1, 2, 3, 4], b = Float32[10, 20, 30]) groupsize 4
# expect exception: BoundsError: attempt to access 3-element ROCDeviceVector{Float32, 1} at index [4]
# expect exception at: 8:23
# run: vadd_checked!(c = zeros(Float32, 4), a = Float32[1, 2, 3], b = Float32[10, 20, 30]) groupsize 4
# expect exception: BoundsError: attempt to access 3-element ROCDeviceVector{Float32, 1} at index [4]
# expect exception at: 8:16
# a grid larger than c: the guard stops the extra work-items
# run: vadd_checked!(c = zeros(Float32, 3), a = Float32[1, 2, 3], b = Float32[10, 20, 30]) groupsize 4 gridsize 2
# expect c: [11, 22, 33]
function stencil!(B, A)
    ix = workitemIdx().x
    iy = workitemIdx().y
    if ix ∈ axes(B, 1) && iy ∈ axes(B, 2)
        B[ix, iy] = A[ix+1, iy] + 2 * A[ix, iy+1]
    end
    return
end
# run: stencil!(B = zeros(Float64, 2, 1), A = reshape(Float64[1, 2, 3, 4, 5, 6], 3, 2)) groupsize 3, 2
# expect B: [10, 13]
# the first access fails (ix = 3 reads A[4, 1])
# run: stencil!(B = zeros(Float64, 3, 1), A = reshape(Float64[1, 2, 3, 4, 5, 6], 3, 2)) groupsize 3
# expect exception: BoundsError: attempt to access 3×2 ROCDeviceMatrix{Float64, 1} at index [4, 1]
# expect exception at: 28:21
# only the second fails (A has one column: A[ix, 2])
# run: stencil!(B = zeros(Float64, 2, 1), A = reshape(Float64[1, 2, 3], 3, 1)) groupsize 2
# expect exception: BoundsError: attempt to access 3×1 ROCDeviceMatrix{Float64, 1} at index [
# expect exception at: 28:39
