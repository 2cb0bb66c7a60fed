apply_scale!(y::ROCDeviceArray{Int32, 1, 1}, x::ROCDeviceArray{Int32, 1, 1}) @ dispatch.jl:6
     %1 = workitemIdx()::@NamedTuple{x::Int64, y::Int64, z::Int64} # line 7
     %2 = %1.x::Int64
     %3 = workgroupIdx()::@NamedTuple{x::Int64, y::Int64, z::Int64}
     %4 = %3.x::Int64
     %5 = -(%4, 1)::Int64
     %6 = workgroupDim()::@NamedTuple{x::Int64, y::Int64, z::Int64}
     %7 = %6.x::Int64
     %8 = *(%5, %7)::Int64
     %9 = +(%2, %8)::Int64
          i = %9
    %10 = length(x)::Int64                  # line 8
    %11 = <=(i, %10)::Bool
          goto L1 if not %11
    %12 = @inbounds getindex(x, i)::Int32   # line 9
    %13 = @inbounds invoke scale(%12)::Int32
    %14 = @inbounds setindex!(y, %13, i)::Nothing
          goto L1                           # line 8
  L1:
          return nothing                    # line 11
  => Nothing

scale(x::Int32) @ dispatch.jl:4
     %1 = one(x)::Int32                     # line 4
     %2 = +(x, %1)::Int32
          return %2
  => Int32
