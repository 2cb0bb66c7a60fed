mandelbrot!(iters::ROCDeviceArray{Int32, 2, 1}, xmin::Float32, xmax::Float32, ymin::Float32, ymax::Float32, maxiter::Int32) @ mandelbrot.jl:2
     %1 = workgroupIdx()::@NamedTuple{x::Int64, y::Int64, z::Int64} # line 3
     %2 = %1.x::Int64
     %3 = -(%2, 1)::Int64
     %4 = workgroupDim()::@NamedTuple{x::Int64, y::Int64, z::Int64}
     %5 = %4.x::Int64
     %6 = *(%3, %5)::Int64
     %7 = workitemIdx()::@NamedTuple{x::Int64, y::Int64, z::Int64}
     %8 = %7.x::Int64
     %9 = +(%6, %8)::Int64
          i = %9
    %10 = workgroupIdx()::@NamedTuple{x::Int64, y::Int64, z::Int64} # line 4
    %11 = %10.y::Int64
    %12 = -(%11, 1)::Int64
    %13 = workgroupDim()::@NamedTuple{x::Int64, y::Int64, z::Int64}
    %14 = %13.y::Int64
    %15 = *(%12, %14)::Int64
    %16 = workitemIdx()::@NamedTuple{x::Int64, y::Int64, z::Int64}
    %17 = %16.y::Int64
    %18 = +(%15, %17)::Int64
          j = %18
    %19 = size(iters)::Tuple{Int64, Int64}  # line 5
    %20 = getindex(%19, 1)::Int64
          w = %20
    %21 = getindex(%19, 2)::Int64
          h = %21
    %22 = >(i, w)::Bool                     # line 6
          goto L1 if not %22
          #or1 = true
          goto L2
  L1:
    %23 = >(j, h)::Bool
          #or1 = %23
  L2:
          goto L3 if not #or1
          return nothing                    # line 7
  L3:
    %24 = -(xmax, xmin)::Float32            # line 9
    %25 = -(i, 1)::Int64
    %26 = *(%24, %25)::Float32
    %27 = -(w, 1)::Int64
    %28 = /(%26, %27)::Float32
    %29 = +(xmin, %28)::Float32
          cr = %29
    %30 = -(ymax, ymin)::Float32            # line 10
    %31 = -(j, 1)::Int64
    %32 = *(%30, %31)::Float32
    %33 = -(h, 1)::Int64
    %34 = /(%32, %33)::Float32
    %35 = +(ymin, %34)::Float32
          ci = %35
    %36 = zero(cr)::Float32                 # line 11
          zr = %36
    %37 = zero(ci)::Float32
          zi = %37
          n = 0                             # line 12
  L4:
    %38 = <(n, maxiter)::Bool               # line 13
          goto L6 if not %38
    %39 = *(zr, zr)::Float32                # line 14
          zr2 = %39
    %40 = *(zi, zi)::Float32
          zi2 = %40
    %41 = +(zr2, zi2)::Float32              # line 15
    %42 = >(%41, 4)::Bool
          goto L5 if not %42
          goto L6                           # line 16
  L5:
    %43 = *(2, zr)::Float32                 # line 18
    %44 = *(%43, zi)::Float32
    %45 = +(%44, ci)::Float32
          zi = %45
    %46 = -(zr2, zi2)::Float32              # line 19
    %47 = +(%46, cr)::Float32
          zr = %47
    %48 = +(n, 1)::Int64                    # line 20
          n = %48
          goto L4                           # line 13
  L6:
    %49 = @inbounds setindex!(iters, n, i, j)::Nothing # line 22
          return nothing                    # line 23
  => Nothing
