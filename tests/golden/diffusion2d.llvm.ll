;  @ diffusion2d.jl:2 within `diffusion2d!`
; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none)
define protected amdgpu_kernel void @diffusion2d_21({ ptr addrspace(1), [2 x i64], i64 } %A_new, { ptr addrspace(1), [2 x i64], i64 } %A, double %h, ptr addrspace(1) nocapture readnone %__juke_exception) local_unnamed_addr #0 {
top:
;  @ diffusion2d.jl:3 within `diffusion2d!`
  %0 = tail call i32 @llvm.amdgcn.workgroup.id.x()
  %1 = zext i32 %0 to i64
  %2 = tail call i32 @llvm.amdgcn.workgroup.id.y()
  %3 = zext i32 %2 to i64
  %4 = tail call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %5 = getelementptr inbounds i8, ptr addrspace(4) %4, i64 12
  %6 = load i16, ptr addrspace(4) %5, align 4, !range !10, !invariant.load !7, !noundef !7
  %7 = zext nneg i16 %6 to i64
  %8 = getelementptr inbounds i8, ptr addrspace(4) %4, i64 14
  %9 = load i16, ptr addrspace(4) %8, align 2, !range !10, !invariant.load !7, !noundef !7
  %10 = zext nneg i16 %9 to i64
  %11 = mul nuw nsw i64 %7, %1
  %12 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %13 = zext i32 %12 to i64
  %14 = tail call i32 @llvm.amdgcn.workitem.id.y()
  %15 = zext i32 %14 to i64
  %16 = add nuw nsw i64 %11, %13
;  @ diffusion2d.jl:4 within `diffusion2d!`
  %17 = mul nuw nsw i64 %10, %3
;  @ diffusion2d.jl:3 within `diffusion2d!`
  %18 = add nuw nsw i64 %17, %15
;  @ diffusion2d.jl:5 within `diffusion2d!`
  %19 = extractvalue { ptr addrspace(1), [2 x i64], i64 } %A_new, 1
  %20 = extractvalue [2 x i64] %19, 0
  %.not = icmp sgt i64 %20, %16
  %21 = extractvalue [2 x i64] %19, 1
  %22 = icmp sgt i64 %21, %18
  %"#and1.0" = select i1 %.not, i1 %22, i1 false
  br i1 %"#and1.0", label %23, label %L1

L1:                                               ; preds = %top, %23
;  @ diffusion2d.jl:9 within `diffusion2d!`
  ret void

23:                                               ; preds = %top
;  @ diffusion2d.jl:4 within `diffusion2d!`
  %24 = add nuw nsw i64 %18, 1
;  @ diffusion2d.jl:3 within `diffusion2d!`
  %25 = add nuw nsw i64 %16, 1
;  @ diffusion2d.jl:2 within `diffusion2d!`
  %A.fca.0.extract = extractvalue { ptr addrspace(1), [2 x i64], i64 } %A, 0
  %A_new.fca.0.extract = extractvalue { ptr addrspace(1), [2 x i64], i64 } %A_new, 0
;  @ diffusion2d.jl:6 within `diffusion2d!`
  %26 = extractvalue { ptr addrspace(1), [2 x i64], i64 } %A, 1
  %27 = extractvalue [2 x i64] %26, 0
  %28 = mul nuw nsw i64 %27, %24
  %29 = getelementptr double, ptr addrspace(1) %A.fca.0.extract, i64 %28
  %30 = getelementptr double, ptr addrspace(1) %29, i64 %25
  %31 = load double, ptr addrspace(1) %30, align 8
  %32 = getelementptr double, ptr addrspace(1) %29, i64 %16
  %33 = load double, ptr addrspace(1) %32, align 8
  %34 = getelementptr i8, ptr addrspace(1) %30, i64 8
  %35 = load double, ptr addrspace(1) %34, align 8
  %36 = fadd double %33, %35
;  @ diffusion2d.jl:7 within `diffusion2d!`
  %37 = mul nuw nsw i64 %18, %27
  %38 = getelementptr double, ptr addrspace(1) %A.fca.0.extract, i64 %37
  %39 = getelementptr double, ptr addrspace(1) %38, i64 %25
  %40 = load double, ptr addrspace(1) %39, align 8
;  @ diffusion2d.jl:6 within `diffusion2d!`
  %41 = fadd double %36, %40
;  @ diffusion2d.jl:7 within `diffusion2d!`
  %42 = add nuw nsw i64 %18, 2
  %43 = mul nuw nsw i64 %27, %42
  %44 = getelementptr double, ptr addrspace(1) %A.fca.0.extract, i64 %43
  %45 = getelementptr double, ptr addrspace(1) %44, i64 %25
  %46 = load double, ptr addrspace(1) %45, align 8
  %47 = fadd double %41, %46
  %48 = fmul double %31, 4.000000e+00
  %49 = fsub double %47, %48
;  @ diffusion2d.jl:6 within `diffusion2d!`
  %50 = fmul double %49, %h
  %51 = fadd double %31, %50
  %52 = mul nuw nsw i64 %18, %20
  %53 = getelementptr double, ptr addrspace(1) %A_new.fca.0.extract, i64 %52
  %54 = getelementptr double, ptr addrspace(1) %53, i64 %16
  store double %51, ptr addrspace(1) %54, align 8
;  @ diffusion2d.jl:5 within `diffusion2d!`
  br label %L1
}
