# Kernels defined inside host functions, as AMDGPU.jl's tests write them (`function f() ... function
# kernel(x) ... end; @roc kernel(x) end`): a launch names the inner function, or outer/name where several
# host functions each define one of that name; each is its own kernel.
function setup_first(n)
    function kernel(x)
        i = workitemIdx().x
        x[i] = 10i + 1
        return
    end
    @roc groupsize=n kernel(x)
end

function setup_second()
    function kernel(x)
        i = workitemIdx().x
        x[i] = -i
        return
    end
    @roc groupsize=3 kernel(x)
end

# one of its name: the bare name launches it; `where` parameters of its own stay its method's
function host_fill(y::AbstractVector{T}) where {T}
    function fill_kernel!(y::AbstractVector{S}, v) where {S}
        i = workitemIdx().x
        y[i] = S(v) * i
        return
    end
    @roc groupsize=length(y) fill_kernel!(y, 1.5)
end

# a closure over the host function's variables (scale, shift): the launch passes their values first, in the
# order the body first uses them, then the kernel's own arguments (a vararg too)
function host_scaled(a_dev, scale, shift)
    function scaled!(a, i::Int, rest...)
        a[i] = scale * a[i] + shift + length(rest)
        return
    end
    @roc scaled!(a_dev, 2)
end
# run: setup_first/kernel(x = Int64[-4, 8, 3, 100]) groupsize 4
# expect x: [11, 21, 31, 41]
# run: setup_second/kernel(x = Int64[5, 6, 7]) groupsize 3
# expect x: [-1, -2, -3]
# run: fill_kernel!(y = Float32[9, 9, 9, 9], v = 1.5) groupsize 4
# expect y: [1.5, 3, 4.5, 6]
# run: host_fill/fill_kernel!(y = Float64[7, 7], v = 0.25f0) groupsize 2
# expect y: [0.25, 0.5]
# run: scaled!(scale = 3.0, shift = -1.5, a = Float64[4, 0.5, 2], i = 2, r1 = 7, r2 = Int8(1))
# expect a: [4, 2, 2]
# run: host_scaled/scaled!(scale = 0.5, shift = 4.0, a = Float64[6, 10], i = 1)
# expect a: [7, 10]

# two methods of one host function, each defining a `step!`: outer/step! is the first, outer/step!#2 the next
function host_step(a::AbstractVector)
    function step!(a)
        a[workitemIdx().x] += 1
        return
    end
    @roc groupsize=length(a) step!(a)
end
function host_step(a::AbstractMatrix)
    function step!(a)
        a[workitemIdx().x] *= 2
        return
    end
    @roc groupsize=length(a) step!(a)
end
# run: host_step/step!(a = Int32[3, -4, 5]) groupsize 3
# expect a: [4, -3, 6]
# run: host_step/step!#2(a = Int32[3, -4, 5]) groupsize 3
# expect a: [6, -8, 10]
