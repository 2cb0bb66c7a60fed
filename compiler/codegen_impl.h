/* codegen_impl.h: what code generation (codegen.c) shares with the built-ins' emit rules
 * (builtins_<family>_emit.c). LLVM build only. */
#ifndef JUKE_CODEGEN_IMPL_H
#define JUKE_CODEGEN_IMPL_H

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <math.h>

#include "frontend.h"
#include "target.h"
#include "abi.h"
#include "prelude.h"

typedef struct CG {
    TargetCtx *tc;
    const TargetOps *ops;
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    TypeTable *types;
    Diags *d;
    Spec **specs;
    int nspecs;
    LLVMValueRef *fns; /* per spec */
    /* the function being emitted */
    Spec *spec;
    IrFunc *f;
    LLVMValueRef fn;
    LLVMValueRef *vals;  /* per instruction */
    LLVMValueRef *slots; /* allocas */
    LLVMBasicBlockRef *labels;
    LLVMBasicBlockRef entry;
    /* the cold exception block that takes the next checks (NULL until one that can fail needs it), the block
     * it is laid out after, its phis, and how many checks count towards it */
    LLVMBasicBlockRef throw_bb, throw_after;
    LLVMValueRef throw_phi[4 + 2 * JUKE_EXC_MAXDIMS + 1];
    int throw_fanin;
    /* line information (TargetOptions.debug_lines): NULL dib when off */
    LLVMDIBuilderRef dib;
    LLVMMetadataRef di_cu, di_sp; /* the compile unit; the function being emitted */
    LLVMMetadataRef di_file[JUKE_MAX_DEBUG_FILES];
    /* device random numbers (builtins_random_emit.c): some function draws them, so the kernel takes the
     * __juke_seed argument and every other function a pointer to the work-item's stream state */
    bool uses_rng;
    LLVMValueRef rng_state; /* the function being emitted: [3 x i64] in the kernel's frame */
    bool failed;
} CG;

enum {
    PHI_KIND,
    PHI_LINE,
    PHI_COL,
    PHI_NDIMS,
    PHI_IDX0 = 4,
    PHI_DIM0 = 4 + JUKE_EXC_MAXDIMS,
    PHI_AUX = 4 + 2 * JUKE_EXC_MAXDIMS,
    PHI_COUNT
};

/* An emit rule: the LLVM value of built-in call `in` (builtins.def's emit columns). */
typedef LLVMValueRef BuiltinEmitRule(CG *g, IrInst *in);
#define B(id, printed, names, type, type_cx, flags, math, arity, emit, emit_cx) BuiltinEmitRule emit, emit_cx;
#include "builtins.def"
#undef B

/* ---- codegen.c's helpers (their contracts are above their definitions) ---- */
LLVMTypeRef i1(CG *g);
LLVMTypeRef i8(CG *g);
LLVMTypeRef i32(CG *g);
LLVMTypeRef i64(CG *g);
LLVMTypeRef unit_t(CG *g);
LLVMValueRef unit_v(CG *g);
LLVMValueRef ci64(CG *g, int64_t v);
LLVMValueRef ci32(CG *g, int64_t v);
LLVMValueRef exc_line(CG *g, SrcLoc loc);
bool is_unit(const Type *t);
LLVMTypeRef prim_t(CG *g, const Type *t);
LLVMTypeRef lt(CG *g, const Type *t);
LLVMTypeRef array_t(CG *g, const Type *t);
LLVMTypeRef lt(CG *g, const Type *t);
LLVMTypeRef mem_t(CG *g, const Type *t);
LLVMValueRef to_mem(CG *g, LLVMValueRef v, const Type *t);
LLVMValueRef from_mem(CG *g, LLVMValueRef v, const Type *t);
LLVMValueRef intrinsic(CG *g, const char *name, LLVMTypeRef *over, int nover, LLVMValueRef *args, int nargs);
LLVMValueRef intr1(CG *g, const char *name, LLVMValueRef x);
LLVMValueRef intr2(CG *g, const char *name, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef fconst(CG *g, const Type *t, double v);
LLVMValueRef iconst(CG *g, const Type *t, int64_t v);
LLVMValueRef conv_wrap(CG *g, LLVMValueRef v, const Type *from, const Type *to);
LLVMValueRef val(CG *g, int v);
const Type *vty(CG *g, int v);
LLVMValueRef arg(CG *g, IrInst *in, int k);
const Type *aty(CG *g, IrInst *in, int k);
LLVMValueRef arg_as(CG *g, IrInst *in, int k, const Type *t);
LLVMTypeRef exc_record_t(CG *g);
void build_throw_block(CG *g);
LLVMBasicBlockRef exc_claim(CG *g);
void exc_fill_and_exit(CG *g, LLVMBasicBlockRef done, LLVMValueRef head[5], LLVMValueRef *index, LLVMValueRef *dims);
void mark_unlikely(CG *g, LLVMValueRef br);
void check(CG *g, LLVMValueRef fail, int kind, SrcLoc loc, int nidx, LLVMValueRef *idx, int ndim, LLVMValueRef *dims,
           int aux);
int type_code(const Type *t);
int bounds_aux(const Type *at);
LLVMValueRef bits64(CG *g, LLVMValueRef v, const Type *t);
LLVMValueRef conv_checked(CG *g, LLVMValueRef v, const Type *from, const Type *to, SrcLoc loc);
LLVMValueRef arr_ptr(CG *g, LLVMValueRef a);
LLVMValueRef arr_len(CG *g, LLVMValueRef a);
LLVMValueRef arr_cap(CG *g, LLVMValueRef a);
LLVMValueRef arr_dim(CG *g, LLVMValueRef a, int d);
LLVMValueRef no_wrap(LLVMValueRef v);
/* the ids of work-item d as workgroupIdx and workitemIdx read them (0-based), with the class's ranges (builtins_index_emit.c) */
LLVMValueRef class_group_id(CG *g, int d);
LLVMValueRef class_item_id(CG *g, int d);
void check_allocated(CG *g, IrInst *in, const Type *at, LLVMValueRef a, LLVMValueRef lin);
LLVMValueRef elem_ptr(CG *g, IrInst *in, const Type *at, LLVMValueRef a, int first, int nidx, bool inbounds);
void addr32_raw_pointer(CG *g);
unsigned elem_align(const Type *elem);
LLVMValueRef make_array(CG *g, const Type *at, LLVMValueRef ptr, LLVMValueRef *dims, int nd, LLVMValueRef cap);
unsigned ptr_as(CG *g, const Type *pt);
/* builtins_atomic_emit.c: the syncscope clause of a device-wide atomic here ("" on the CPU); the function
 * `name` of the module, parsed from LLVM IR text and linked in once (NULL after an internal error). */
void atomic_scope(CG *g, char *buf, size_t n);
LLVMValueRef atomic_helper(CG *g, const char *name, const char *text);
LLVMValueRef ptr_offset(CG *g, const Type *elem, LLVMValueRef p, LLVMValueRef i, const Type *it);
LLVMValueRef call_math(CG *g, const char *name, const Type *t, LLVMValueRef *args, int n);
LLVMValueRef signbit_of(CG *g, LLVMValueRef x, const Type *xt);
LLVMValueRef float_min_max(CG *g, bool is_max, const Type *t, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef emit_minmax(CG *g, bool is_max, const Type *t, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef emit_cmp(CG *g, BuiltinId op, const Type *t, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef emit_compare(CG *g, IrInst *in);
LLVMValueRef make_range(CG *g, LLVMValueRef start, LLVMValueRef step, LLVMValueRef stop);
LLVMValueRef unit_range(CG *g, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef range_nonempty(CG *g, LLVMValueRef r);
LLVMValueRef iconst_or_f(CG *g, const Type *t, int v);
const Type *part_type_cg(const Type *t);
LLVMValueRef zero_of(CG *g, const Type *t);
LLVMValueRef cx_re(CG *g, LLVMValueRef z);
LLVMValueRef cx_im(CG *g, LLVMValueRef z);
LLVMValueRef cx_make(CG *g, const Type *ct, LLVMValueRef re, LLVMValueRef im);
LLVMValueRef cx_conv(CG *g, LLVMValueRef z, const Type *from, const Type *e);
LLVMValueRef part_add(CG *g, const Type *e, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef part_sub(CG *g, const Type *e, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef part_neg(CG *g, const Type *e, LLVMValueRef x);
LLVMValueRef part_div(CG *g, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef part_mul(CG *g, const Type *e, LLVMValueRef x, const Type *xt, LLVMValueRef y, const Type *yt);
LLVMValueRef cx_mul(CG *g, const Type *e, LLVMValueRef z, const Type *zt, LLVMValueRef w, const Type *wt);
LLVMValueRef f64c(CG *g, double v);
LLVMValueRef fabs_(CG *g, LLVMValueRef x);
LLVMValueRef sel(CG *g, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef fcmp(CG *g, LLVMRealPredicate p, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef cfmul(CG *g, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef cx_inv_f64(CG *g, LLVMValueRef w);
LLVMValueRef robust_cdiv2(CG *g, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c, LLVMValueRef d, LLVMValueRef r,
                          LLVMValueRef t);
LLVMValueRef cx_div_f64(CG *g, LLVMValueRef z, LLVMValueRef w);
/* builtins_iter_emit.c: a value into a Union{Nothing, T} variable or result (its tag set) */
LLVMValueRef union_coerce(CG *g, LLVMValueRef v, const Type *from, const Type *to);
LLVMValueRef cx_inv(CG *g, LLVMValueRef z, const Type *e);
LLVMValueRef cx_div(CG *g, LLVMValueRef z, LLVMValueRef w, const Type *e);
LLVMValueRef cx_div_smith(CG *g, LLVMValueRef z, LLVMValueRef w, const Type *e);
LLVMValueRef cx_exp(CG *g, LLVMValueRef z, const Type *e);
void rng_init(CG *g, LLVMValueRef seed);
LLVMValueRef cx_arg_parts(CG *g, IrInst *in, int k, LLVMValueRef *im, const Type **pt);

#endif
