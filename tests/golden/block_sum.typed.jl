block_sum!(out::ROCDeviceArray{Float32, 1, 1}, x::ROCDeviceArray{Float32, 1, 1}) @ block_sum.jl:15
     %1 = workitemIdx()::@NamedTuple{x::Int64, y::Int64, z::Int64} # line 16
     %2 = %1.x::Int64
          item = %2
     %3 = workgroupIdx()::@NamedTuple{x::Int64, y::Int64, z::Int64} # line 17
     %4 = %3.x::Int64
          group = %4
     %5 = workgroupDim()::@NamedTuple{x::Int64, y::Int64, z::Int64} # line 18
     %6 = %5.x::Int64
          n = %6
     %7 = ROCStaticLocalArray(Float32, 256, false)::ROCDeviceArray{Float32, 1, 3} # line 19
          shared = %7
     %8 = -(group, 1)::Int64                # line 20
     %9 = *(%8, n)::Int64
    %10 = +(%9, item)::Int64
          i = %10
    %11 = @inbounds length(x)::Int64        # line 21
    %12 = @inbounds <=(i, %11)::Bool
          goto L1 if not %12
    %13 = @inbounds getindex(x, i)::Float32
          #if1 = %13
          goto L2
  L1:
          #if1 = 0f0
  L2:
    %14 = @inbounds setindex!(shared, #if1, item)::Nothing
    %15 = invoke tree_reduce!(shared, item, n)::Nothing # line 22
    %16 = ==(item, 1)::Bool                 # line 23
          goto L3 if not %16
    %17 = @inbounds getindex(shared, 1)::Float32 # line 24
    %18 = @inbounds setindex!(out, %17, group)::Nothing
          goto L3                           # line 23
  L3:
          return nothing                    # line 26
  => Nothing

tree_reduce!(shared::ROCDeviceArray{Float32, 1, 3}, item::Int64, n::Int64) @ block_sum.jl:2
     %1 = ÷(n, 2)::Int64                    # line 3
          d = %1
  L1:
     %2 = >(d, 0)::Bool                     # line 4
          goto L3 if not %2
     %3 = sync_workgroup()::Nothing         # line 5
     %4 = <=(item, d)::Bool                 # line 6
          goto L2 if not %4
     %5 = @inbounds getindex(shared, item)::Float32 # line 7
     %6 = @inbounds +(item, d)::Int64
     %7 = @inbounds getindex(shared, %6)::Float32
     %8 = @inbounds +(%5, %7)::Float32
     %9 = @inbounds setindex!(shared, %8, item)::Nothing
          goto L2                           # line 6
  L2:
    %10 = ÷(d, 2)::Int64                    # line 9
          d = %10
          goto L1                           # line 4
  L3:
    %11 = sync_workgroup()::Nothing         # line 11
          return nothing                    # line 12
  => Nothing
