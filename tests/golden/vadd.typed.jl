vadd!(c::ROCDeviceArray{Float32, 1, 1}, a::ROCDeviceArray{Float32, 1, 1}, b::ROCDeviceArray{Float32, 1, 1}) @ vadd.jl:2
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
    %10 = length(c)::Int64                  # line 4
    %11 = <=(i, %10)::Bool
          goto L1 if not %11
    %12 = @inbounds getindex(a, i)::Float32 # line 5
    %13 = @inbounds getindex(b, i)::Float32
    %14 = @inbounds +(%12, %13)::Float32
    %15 = @inbounds setindex!(c, %14, i)::Nothing
          goto L1                           # line 4
  L1:
          return nothing                    # line 7
  => Nothing
