intops!(out::ROCDeviceArray{Int32, 1, 1}, a::ROCDeviceArray{Int32, 1, 1}, b::ROCDeviceArray{Int32, 1, 1}) @ intops.jl:2
     %1 = workitemIdx()::@NamedTuple{x::Int64, y::Int64, z::Int64} # line 3
     %2 = %1.x::Int64
     %3 = workgroupIdx()::@NamedTuple{x::Int64, y::Int64, z::Int64}
     %4 = %3.x::Int64
     %5 = -(%4, 1)::Int64
     %6 = workgroupDim()::@NamedTuple{x::Int64, y::Int64, z::Int64}
     %7 = %6.x::Int64
     %8 = *(%5, %7)::Int64
     %9 = +(%2, %8)::Int64
          i = %9
    %10 = length(a)::Int64                  # line 4
    %11 = <=(i, %10)::Bool
          goto L3 if not %11
    %12 = @inbounds getindex(a, i)::Int32   # line 5
          x = %12
    %13 = @inbounds getindex(b, i)::Int32   # line 6
          y = %13
    %14 = div(x, y)::Int32                  # line 7
    %15 = rem(x, y)::Int32
    %16 = +(%14, %15)::Int32
    %17 = mod(x, y)::Int32
    %18 = +(%16, %17)::Int32
    %19 = fld(x, y)::Int32
    %20 = +(%18, %19)::Int32
    %21 = cld(x, y)::Int32
    %22 = +(%20, %21)::Int32
          r = %22
    %23 = &(x, y)::Int32                    # line 8
    %24 = ⊻(x, y)::Int32
    %25 = |(%23, %24)::Int32
    %26 = +(r, %25)::Int32
          r@_9 = %26
    %27 = <<(x, 2)::Int32                   # line 9
    %28 = >>(x, 1)::Int32
    %29 = +(%27, %28)::Int32
    %30 = >>>(x, 3)::Int32
    %31 = +(%29, %30)::Int32
    %32 = +(r@_9, %31)::Int32
          r@_10 = %32
    %33 = >(x, y)::Bool                     # line 10
    %34 = ifelse(%33, x, y)::Int32
    %35 = ==(x, y)::Bool
          goto L1 if not %35
    %36 = one(x)::Int32
          #if1 = %36
          goto L2
  L1:
    %37 = zero(x)::Int32
          #if1 = %37
  L2:
    %38 = +(%34, #if1)::Int32
    %39 = +(r@_10, %38)::Int32
          r@_11 = %39
    %40 = @inbounds setindex!(out, r@_11, i)::Nothing # line 11
          goto L3                           # line 4
  L3:
          return nothing                    # line 13
  => Nothing
