;  @ vadd.jl:2 within `vadd!`
; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(readwrite, inaccessiblemem: none)
define protected amdgpu_kernel void @vadd_21({ ptr addrspace(1), [1 x i64], i64 } %c, { ptr addrspace(1), [1 x i64], i64 } %a, { ptr addrspace(1), [1 x i64], i64 } %b, ptr addrspace(1) nocapture readnone %__juke_exception) local_unnamed_addr #0 {
top:
  %c.fca.2.extract = extractvalue { ptr addrspace(1), [1 x i64], i64 } %c, 2
;  @ vadd.jl:3 within `vadd!`
  %0 = tail call i32 @llvm.amdgcn.workitem.id.x()
  %1 = zext i32 %0 to i64
  %2 = tail call i32 @llvm.amdgcn.workgroup.id.x()
  %3 = zext i32 %2 to i64
  %4 = tail call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()
  %5 = getelementptr inbounds i8, ptr addrspace(4) %4, i64 12
  %6 = load i16, ptr addrspace(4) %5, align 4, !range !12, !invariant.load !7, !noundef !7
  %7 = zext nneg i16 %6 to i64
  %8 = mul nuw nsw i64 %7, %3
  %9 = add nuw nsw i64 %8, %1
;  @ vadd.jl:4 within `vadd!`
  %.not.not = icmp slt i64 %9, %c.fca.2.extract
  br i1 %.not.not, label %10, label %L1

L1:                                               ; preds = %top, %10
;  @ vadd.jl:7 within `vadd!`
  ret void

10:                                               ; preds = %top
  %c.fca.0.extract = extractvalue { ptr addrspace(1), [1 x i64], i64 } %c, 0
  %11 = getelementptr inbounds float, ptr addrspace(1) %c.fca.0.extract, i64 %9
  %b.fca.0.extract = extractvalue { ptr addrspace(1), [1 x i64], i64 } %b, 0
  %12 = getelementptr inbounds float, ptr addrspace(1) %b.fca.0.extract, i64 %9
  %a.fca.0.extract = extractvalue { ptr addrspace(1), [1 x i64], i64 } %a, 0
  %13 = getelementptr inbounds float, ptr addrspace(1) %a.fca.0.extract, i64 %9
;  @ vadd.jl:5 within `vadd!`
  %14 = load float, ptr addrspace(1) %13, align 4
  %15 = load float, ptr addrspace(1) %12, align 4
  %16 = fadd float %14, %15
  store float %16, ptr addrspace(1) %11, align 4
;  @ vadd.jl:4 within `vadd!`
  br label %L1
}
