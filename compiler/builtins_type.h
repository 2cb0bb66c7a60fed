/* builtins_type.h: what the typing rules (builtins_<family>.c) share with inference (infer.c). Front end
 * only: no LLVM. */
#ifndef JUKE_BUILTINS_TYPE_H
#define JUKE_BUILTINS_TYPE_H

#include "frontend.h"

/* One inference of one specialisation (infer.c). */
typedef struct Infer {
    FeCompilation *c;
    Spec *spec;
    IrFunc *f;
    bool *reach;   /* per instruction of f: does a path the types leave open reach it */
    bool *decided; /* per instruction of f: a branch the types decided, its reach computed again */
    bool report;   /* the final pass: emit diagnostics */
    bool changed;
    bool failed;
    bool widened; /* a compiler temporary became Union{Nothing, T} in this pass */
    /* a variable assigned a value of another type (union_split.c): its slot in the IR inferred (a member
       slot of a union already split: union_first, the first member's), the new type; -1 none */
    int union_slot;
    const Type *union_type, *union_had; /* the new type, and the one the slot had */
    bool allow_union;                   /* may ask for a split; else the conflict is an error */
    /* while typing a call of IRF_NOTHING_MEMBER: infer_err keeps its message here instead of reporting it */
    bool capture;
    const char *captured;
} Infer;

/* A user error at loc; only reported in inference's final pass. */
void infer_err(Infer *I, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *infer_tname(Infer *I, const Type *t);
/* "MethodError: no method matching name(::A, ::B)"; returns NULL. */
const Type *infer_no_method(Infer *I, IrInst *in, const char *name, const Type **a, int n);

/* The function a call or a function value of this name is for these argument types: the module's generic
 * function, or NULL when the built-in of that name answers (there is no generic function, or its methods are
 * the prelude's or extend Base's (Base.:+(a::V, b::V)) and none takes these arguments, as Julia's dispatch
 * picks Base's method for numbers whatever methods a file adds). */
GenericFunc *infer_dispatch_generic(FeCompilation *c, const char *name, const Type **a, int n);

/* Complex{T}(...) / complex(...) / convert(Complex{T}, x) with target part type `target` (NULL: promote the
 * arguments'); NULL if there is no such method (no diagnostic). */
const Type *builtin_type_complex_ctor(Infer *I, IrInst *in, const Type *target, const Type **a, int n);

/* The default constructor S(args...) (S a struct or its UnionAll, builtins_struct.c): the struct, with
 * in->builtin BI_NEW; NULL after a MethodError. */
const Type *builtin_type_construct(Infer *I, IrInst *in, const Type *S, const Type **a, int n);
/* (a = x, b = y) of these field types: the NamedTuple, names from in->name ("a,b"). */
const Type *builtin_type_namedtuple(Infer *I, IrInst *in, const Type **fields, int n);

/* splat.c: rewrites of the call (or tuple) at insts[idx] once its argument types are known; each returns
 * 0 when there is nothing to do, -1 when it failed (reported), else a positive count: the IR changed (the
 * instruction may have moved), and it is typed on the next pass. */
/* Replace the #splat(x) arguments by x's fields. */
int splat_expand(Infer *I, int idx);
/* The call dispatched to s, of a varargs method: pass the rest of the arguments as one tuple. */
int splat_pack_varargs(Infer *I, int idx, Spec *s);
/* ntuple(f, n) with a constant integer n: ntuple(f, Val(n)). */
int splat_ntuple_val(Infer *I, int idx);
/* The call's argument k (an index into its args) is a Union{Nothing, T}: the call becomes one call per member
 * behind a test of the tag, its value a temporary's (Julia dispatches on the value's type at run time). */
int splat_union_call(Infer *I, int idx, int k);
/* The call at idx (IRF_NOTHING_MEMBER) that no method takes: a throw of a MethodError with this message. */
int splat_member_throw(Infer *I, int idx, const char *msg);

static inline TypeTable *T(Infer *I)
{
    return I->c->types;
}
static inline const Type *prim(Infer *I, TypeKind k)
{
    return ty_prim(I->c->types, k);
}
static inline bool is_const_int(Infer *I, int v, int64_t *out)
{
    return infer_const_int(I->f, v, out, 0);
}

static inline const Type *unify_prim_args(Infer *I, const Type **a, int n)
{
    const Type *p = a[0];
    for (int i = 1; i < n && p; i++)
        p = ty_promote(T(I), p, a[i]);
    return p;
}

static inline bool all_prim(const Type **a, int n)
{
    for (int i = 0; i < n; i++)
        if (!ty_is_prim(a[i]))
            return false;
    return true;
}

static inline bool all_int(const Type **a, int n)
{
    for (int i = 0; i < n; i++)
        if (!ty_is_int(a[i]))
            return false;
    return true;
}

static inline const Type *float_of(Infer *I, const Type *t)
{
    return ty_is_float(t) ? t : prim(I, TY_FLOAT64);
}
static inline const Type *complex_of(Infer *I, const Type *e)
{
    return ty_complex(T(I), e);
}

#endif
