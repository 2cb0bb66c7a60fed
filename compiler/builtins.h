/* builtins.h: every built-in function and device intrinsic, one row each in builtins.def.
 * Inference finds a row by a call's name and runs its typing rule, which sets IrInst.builtin (the row, or
 * the row it resolves to) and IrInst.optype; code generation runs the emit rule of IrInst.builtin's row.
 * The typing rules live in builtins_<family>.c (front end, no LLVM), the emit rules in
 * builtins_<family>_emit.c (LLVM build only, declared in codegen_impl.h). */
#ifndef JUKE_BUILTINS_H
#define JUKE_BUILTINS_H

#include <stdbool.h>

typedef enum BuiltinId {
#define B(id, printed, names, type, type_cx, flags, math, arity, emit, emit_cx) id,
#include "builtins.def"
#undef B
    BI__COUNT
} BuiltinId;

enum {
    BF_OPTYPE = 1 << 0,     /* a typed call carries an operand type (IrInst.optype) */
    BF_CONVERGENT = 1 << 1, /* every work-item of a workgroup reaches it together */
    BF_FRONT = 1 << 2,      /* its typing rule always resolves to another row */
    BF_BY_ID = 1 << 3,      /* lowering calls it by id: no Julia name reaches it */
    BF_UNION = 1 << 4,      /* takes a Union{Nothing, T} as it is (its rule reads the tag): a call of it is not
                               split on the union (splat.c) */
};

struct Infer;
struct IrInst;
struct Type;
typedef struct BuiltinRow BuiltinRow;

/* A typing rule: the type of a call of `row` by the Julia name `name` with argument types a[0..n), or NULL
 * after a diagnostic; sets in->builtin and in->optype. */
typedef const struct Type *BuiltinTypeRule(struct Infer *I, struct IrInst *in, const BuiltinRow *row, const char *name,
                                           const struct Type **a, int n);

struct BuiltinRow {
    BuiltinId id;
    const char *printed;
    const char *const *names; /* NULL-terminated; NULL when no Julia name calls it directly */
    BuiltinTypeRule *type, *type_complex;
    unsigned flags;
    const char *math; /* the library math function, or NULL */
    int math_arity;
};

#define B(id, printed, names, type, type_cx, flags, math, arity, emit, emit_cx) BuiltinTypeRule type, type_cx;
#include "builtins.def"
#undef B

extern const BuiltinRow builtin_rows[BI__COUNT];

const char *builtin_name(BuiltinId id);

/* The :name of a prelude AtomicOrdering{:name} or SyncScope{:name} value's type t (kind is the struct's name),
 * without the colon; NULL when t is not one (builtins_atomic.c). */
const char *atomic_tag(const struct Type *t, const char *kind);

/* Row id's BF_ flags (0 for an id out of range). */
unsigned builtin_flags(BuiltinId id);

/* The row a Julia name calls, or NULL. */
const BuiltinRow *builtin_lookup(const char *name);

/* The arity of the library math function `name` some row computes (sin: 1, atan2: 2), or 0. */
int builtin_math_arity(const char *name);

/* Why a name of AMDGPU.jl's, KernelAbstractions' or Base's device API is not available in kernels, and what to
 * write instead (compiler/apicover.c); NULL for any other name. */
const char *api_unsupported(const char *name);

#endif
