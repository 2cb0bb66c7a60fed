mandelbrot!(iters, xmin, xmax, ymin, ymax, maxiter) @ mandelbrot.jl:2
     %1 = workgroupIdx()                    # line 3
     %2 = %1.x
     %3 = -(%2, 1)
     %4 = workgroupDim()
     %5 = %4.x
     %6 = *(%3, %5)
     %7 = workitemIdx()
     %8 = %7.x
     %9 = +(%6, %8)
          i = %9
    %10 = workgroupIdx()                    # line 4
    %11 = %10.y
    %12 = -(%11, 1)
    %13 = workgroupDim()
    %14 = %13.y
    %15 = *(%12, %14)
    %16 = workitemIdx()
    %17 = %16.y
    %18 = +(%15, %17)
          j = %18
    %19 = size(iters)                       # line 5
    %20 = getindex(%19, 1)
          w = %20
    %21 = getindex(%19, 2)
          h = %21
    %22 = >(i, w)                           # line 6
          goto L1 if not %22
          #or1 = true
          goto L2
  L1:
    %23 = >(j, h)
          #or1 = %23
  L2:
          goto L3 if not #or1
          return nothing                    # line 7
  L3:
    %24 = -(xmax, xmin)                     # line 9
    %25 = -(i, 1)
    %26 = *(%24, %25)
    %27 = -(w, 1)
    %28 = /(%26, %27)
    %29 = +(xmin, %28)
          cr = %29
    %30 = -(ymax, ymin)                     # line 10
    %31 = -(j, 1)
    %32 = *(%30, %31)
    %33 = -(h, 1)
    %34 = /(%32, %33)
    %35 = +(ymin, %34)
          ci = %35
    %36 = zero(cr)                          # line 11
          zr = %36
    %37 = zero(ci)
          zi = %37
          n = 0                             # line 12
  L4:
    %38 = <(n, maxiter)                     # line 13
          goto L6 if not %38
    %39 = *(zr, zr)                         # line 14
          zr2 = %39
    %40 = *(zi, zi)
          zi2 = %40
    %41 = +(zr2, zi2)                       # line 15
    %42 = >(%41, 4)
          goto L5 if not %42
          goto L6                           # line 16
  L5:
    %43 = *(2, zr)                          # line 18
    %44 = *(%43, zi)
    %45 = +(%44, ci)
          zi = %45
    %46 = -(zr2, zi2)                       # line 19
    %47 = +(%46, cr)
          zr = %47
    %48 = +(n, 1)                           # line 20
          n = %48
          goto L4                           # line 13
  L6:
    %49 = @inbounds setindex!(iters, n, i, j) # line 22
          return nothing                    # line 23
