# error("msg"), throw(E("msg")) and @assert raise a kernel exception: the host reports the message as
# Julia shows it, the source location, the workgroup and the work-item.
function checked!(A, x)
    i = workitemIdx().x
    if i == 3
        error("bad value $x in item $i")
    end
    A[i] = x
    return
end
# run: checked!(A = zeros(Float32, 4), x = 2.5f0) groupsize 4
# expect exception: checked!: bad value 2.5 in item 3
# expect exception: in workgroup (1, 1, 1), work-item (3, 1, 1)
# expect exception at: 6:9
# run: checked!(A = zeros(Float32, 2), x = 1.5f0) groupsize 2
# expect A: [1.5, 1.5]

function positive!(A, x)
    x > 0 || throw(ArgumentError("x must be positive"))
    A[1] = sqrt(x)
    return
end
# run: positive!(A = zeros(Float64, 1), x = -4.0)
# expect exception: ArgumentError: x must be positive
# expect exception at: 19:14
# run: positive!(A = zeros(Float64, 1), x = 4.0)
# expect A: [2.0]

function asserts!(A, n)
    @assert n > 0
    @assert n < 10 "n is too large: $n"
    A[1] = n
    return
end
# run: asserts!(A = zeros(Int64, 1), n = 0)
# expect exception: AssertionError: n > 0
# expect exception at: 30:5
# run: asserts!(A = zeros(Int64, 1), n = 12)
# expect exception: AssertionError: n is too large: 12
# expect exception at: 31:5
# run: asserts!(A = zeros(Int64, 1), n = 7)
# expect A: [7]

# AMDGPU.jl's @rocassert is @assert
function rocassert!(A, x)
    AMDGPU.@rocassert x != 0 "division by zero ahead"
    A[1] = 1 / x
    return
end
# run: rocassert!(A = zeros(Float64, 1), x = 0.0)
# expect exception: AssertionError: division by zero ahead

# the other exception types users throw
function others!(A, k)
    k == 1 && throw(DomainError(-1.5, "sqrt of a negative number"))
    k == 2 && throw(DomainError(k))
    k == 3 && throw(OverflowError("too big"))
    k == 4 && throw(DivideError())
    k == 5 && throw(InexactError(:trunc, Int32, 2.5))
    k == 6 && throw(BoundsError(A, k))
    k == 7 && throw(KeyError(k))
    k == 8 && throw(ErrorException("plain"))
    k == 9 && throw(DimensionMismatch("sizes differ"))
    A[1] = k
    return
end
# run: others!(A = zeros(Int64, 1), k = 1)
# expect exception: DomainError with -1.5:
# expect exception: sqrt of a negative number
# run: others!(A = zeros(Int64, 1), k = 2)
# expect exception: DomainError with 2
# run: others!(A = zeros(Int64, 1), k = 3)
# expect exception: OverflowError: too big
# run: others!(A = zeros(Int64, 1), k = 4)
# expect exception: DivideError: integer division error
# run: others!(A = zeros(Int64, 1), k = 5)
# expect exception: InexactError: trunc(Int32, 2.5)
# run: others!(A = zeros(Int64, 1), k = 6)
# expect exception: BoundsError: attempt to access an array at index [6]
# run: others!(A = zeros(Int64, 1), k = 7)
# expect exception: KeyError: key 7 not found
# run: others!(A = zeros(Int64, 1), k = 8)
# expect exception: others!: plain
# run: others!(A = zeros(Int64, 1), k = 9)
# expect exception: DimensionMismatch: sizes differ
# run: others!(A = zeros(Int64, 1), k = 10)
# expect A: [10]

# output printed before the exception is delivered
function print_then_fail(x)
    @rocprintln "about to fail with $x"
    error("failed")
end
# run: print_then_fail(x = 3)
# expect exception: print_then_fail: failed
# expect output: about to fail with 3\n
