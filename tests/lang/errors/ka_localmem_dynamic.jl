# Local memory sized by @groupsize() needs a static groupsize: a launch without one is an error at the
# @localmem (KernelAbstractions: "Ok iff groupsize is static").
using KernelAbstractions

@kernel function rev!(A)
    N = @uniform @groupsize()[1]
    I = @index(Global, Linear)
    i = @index(Local, Linear)
    lmem = @localmem Float32 (N,)
    lmem[i] = A[I]
    @synchronize
    A[I] = lmem[N - i + 1]
end
# run: rev!(A = zeros(Float32, 16)) ndrange 16
# expect error: the dims of this local array depend on @groupsize(), which this launch leaves dynamic: launch with a static groupsize (juke run --groupsize, juke_launch_config.groupsize), as KernelAbstractions needs a static workgroupsize here
# expect error at: 9:12
