apply_scale!(y::ROCDeviceArray{Float32, 1, 1}, x::ROCDeviceArray{Float32, 1, 1}) @ dispatch.jl:6
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
    %12 = @inbounds getindex(x, i)::Float32 # line 9
    %13 = @inbounds invoke scale(%12)::Float32
    %14 = @inbounds setindex!(y, %13, i)::Nothing
          goto L1                           # line 8
  L1:
          return nothing                    # line 11
  => Nothing

scale(x::Float32) @ dispatch.jl:2
     %1 = *(2f0, x)::Float32                # line 2
          return %1
  => Float32
