/* consteval.c: the compile-time integers of typed IR, Julia's constant
 * propagation in miniature.
 *
 * A local array's dims, a private array's and a tuple's index must be known
 * when a kernel is compiled. They are integers or tuples of integers computed
 * from literals, `where` parameters (N of Val{N}, rewritten into constants by
 * inference) and the static workgroup size of a KernelAbstractions launch
 * (the Val{G} fields of the @kernel's hidden context, ka.c), through
 * arithmetic, integer conversions (Int(UInt32(256)), a global constant's
 * value), tuple indexing, `prod`, `length`, fields of structs built from
 * constants, and calls of small functions whose one return is such a value:
 * `N = @uniform prod(@groupsize())` reaches the groupsize through two prelude
 * calls. A function specialised on constant arguments (infer.c's
 * dispatch_call) reads them as literals.
 *
 * Requires: typed IR up to the value asked about (calls before it resolved to
 * their specialisations, IrInst.callee), slots split (split_slots.c), so that a
 * variable assigned once reads that assignment. */
#include <stdlib.h>
#include <string.h>

#include "builtins_type.h"

enum { CV_MAX = 8, CV_MAX_STEPS = 4096 };

/* A value: an integer (n == -1) or a tuple of n integers. */
typedef struct CVal {
    int n;
    int64_t v[CV_MAX];
} CVal;

/* Where a function's parameters come from: the call being evaluated and its caller. */
typedef struct Frame {
    const IrFunc *f;
    const IrInst *call; /* NULL at the outermost function: its parameters are unknown */
    const struct Frame *up;
} Frame;

typedef struct Eval {
    int steps;
    bool dynamic_groupsize; /* a @kernel's groupsize was asked for and is not static */
} Eval;

static bool eval(Eval *e, const Frame *fr, int v, CVal *out, int depth);

/* The value a read of a local variable (IR_SLOT) always has: the one assignment to its slot (after
 * split_slots, a web of its own), as in `N = 8; @ROCStaticLocalArray(Float32, (N, N))`; with by_reach, also the
 * one of its assignments that runs when constant conditions pick it (KomaMRI's `@localmem T USE_WARP_REDUCTION ?
 * 32 : N`, a where-parameter's Bool: infer_reach, whose conditions read characters through this function without
 * by_reach); else v itself. */
static int single_assignment(const IrFunc *f, int v, bool by_reach)
{
    if (v < 0 || v >= f->ninsts || f->insts[v].op != IR_SLOT)
        return v;
    int count = 0;
    for (int i = 0; i < f->ninsts; i++)
        count += f->insts[i].op == IR_ASSIGN && f->insts[i].slot == f->insts[v].slot;
    bool *reach = NULL;
    if (count > 1 && (!by_reach || !(reach = malloc((size_t)f->ninsts)) || !infer_reach(f, reach))) {
        free(reach);
        return v;
    }
    int found = -1;
    for (int i = 0; i < f->ninsts; i++)
        if (f->insts[i].op == IR_ASSIGN && f->insts[i].slot == f->insts[v].slot && (!reach || reach[i])) {
            if (found >= 0 || f->insts[i].nargs < 1) {
                found = -1;
                break;
            }
            found = f->insts[i].args[0];
        }
    free(reach);
    return found >= 0 && found < v ? found : v;
}

static bool eval_int(Eval *e, const Frame *fr, int v, int64_t *out, int depth)
{
    CVal c;
    if (!eval(e, fr, v, &c, depth) || c.n != -1)
        return false;
    *out = c.v[0];
    return true;
}

/* a op b on integers, as Julia computes them on Int64 (wrapping); false where Julia would throw */
static bool arith(const char *op, int64_t a, int64_t b, int64_t *out)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    if (strcmp(op, "+") == 0)
        *out = (int64_t)(ua + ub);
    else if (strcmp(op, "-") == 0)
        *out = (int64_t)(ua - ub);
    else if (strcmp(op, "*") == 0)
        *out = (int64_t)(ua * ub);
    else if ((strcmp(op, "÷") == 0 || strcmp(op, "div") == 0) && b != 0 && !(b == -1 && a == INT64_MIN))
        *out = a / b;
    else if ((strcmp(op, "%") == 0 || strcmp(op, "rem") == 0) && b != 0 && b != -1)
        *out = a % b;
    else if (strcmp(op, "cld") == 0 && b > 0 && a >= 0)
        *out = (a + b - 1) / b;
    else if (strcmp(op, "<<") == 0 && b >= 0 && b < 63)
        *out = (int64_t)(ua << b);
    else if (strcmp(op, ">>") == 0 && b >= 0 && b < 63)
        *out = a >> b;
    else if (strcmp(op, "max") == 0)
        *out = a > b ? a : b;
    else if (strcmp(op, "min") == 0)
        *out = a < b ? a : b;
    else
        return false;
    return true;
}

/* The one value a specialisation returns, or -1 (none, or several returns). */
int infer_only_return(const IrFunc *f)
{
    int found = -1;
    for (int i = 0; i < f->ninsts; i++) {
        const IrInst *in = &f->insts[i];
        if (in->op != IR_RETURN || (in->flags & IRF_DEAD))
            continue;
        if (found >= 0 || in->nargs != 1)
            return -1;
        found = in->args[0];
    }
    return found;
}

/* v as the result type t of the operation that made it: Julia's arithmetic on UInt8 or Int32 wraps at
 * their width (0xc8 + 0xc8 is 0x90). Always true, for the && that follows arith. */
static bool wrap(const Type *t, int64_t *v)
{
    if (t && ty_is_int(t) && t->bits < 64) {
        uint64_t m = ((uint64_t)1 << t->bits) - 1, u = (uint64_t)*v & m;
        if (ty_is_signed(t) && (u >> (t->bits - 1)))
            u |= ~m;
        *v = (int64_t)u;
    }
    return true;
}

/* T(x) of an integer type T: x where T holds it; where Julia throws an InexactError, not a constant. A UInt64
 * past typemax(Int64) reads as a negative Int64 here, so such an x is refused too. */
static bool int_convert(Eval *e, const Frame *fr, int x, const Type *T, CVal *out, int depth)
{
    const Type *xt = fr->f->insts[x].type;
    if (!eval(e, fr, x, out, depth + 1) || out->n != -1 || (xt && xt->kind == TY_UINT64 && out->v[0] < 0))
        return false;
    int64_t v = out->v[0];
    if (T->kind == TY_BOOL)
        return v == 0 || v == 1;
    if (ty_is_signed(T))
        return T->bits == 64 || (v >= -((int64_t)1 << (T->bits - 1)) && v < ((int64_t)1 << (T->bits - 1)));
    return v >= 0 && (T->bits == 64 || v < ((int64_t)1 << T->bits));
}

static bool eval_call(Eval *e, const Frame *fr, const IrInst *in, CVal *out, int depth)
{
    const IrFunc *f = fr->f;
    const IrInst *callee_name = &f->insts[in->args[0]];
    const char *op = callee_name->op == IR_NAME ? callee_name->name : NULL;
    int nargs = in->nargs - 1;
    if (op && nargs == 1 && strcmp(op, "-") == 0) {
        int64_t a;
        if (!eval_int(e, fr, in->args[1], &a, depth + 1))
            return false;
        *out = (CVal){ .n = -1, .v = { (int64_t)(0 - (uint64_t)a) } };
        return true;
    }
    if (op && nargs == 2) {
        CVal a, b;
        if (!eval(e, fr, in->args[1], &a, depth + 1) || !eval(e, fr, in->args[2], &b, depth + 1))
            return false;
        if (a.n == -1 && b.n == -1) {
            *out = (CVal){ .n = -1 };
            return arith(op, a.v[0], b.v[0], &out->v[0]) && wrap(in->type, &out->v[0]);
        }
        if (a.n >= 0 && b.n == -1 && strcmp(op, "getindex") == 0 && b.v[0] >= 1 && b.v[0] <= a.n) {
            *out = (CVal){ .n = -1, .v = { a.v[b.v[0] - 1] } };
            return true;
        }
        return false;
    }
    const Type *ct = callee_name->type;
    if (nargs == 1 && ct && ct->kind == TY_TYPE && ct->elem && ty_is_int(ct->elem) && ct->elem->bits <= 64)
        return int_convert(e, fr, in->args[1], ct->elem, out, depth);
    if (op && nargs == 1) {
        if (strcmp(op, "identity") == 0)
            return eval(e, fr, in->args[1], out, depth + 1);
        bool p = strcmp(op, "prod") == 0, s = strcmp(op, "sum") == 0, l = strcmp(op, "length") == 0;
        bool first = strcmp(op, "first") == 0, last = strcmp(op, "last") == 0;
        if (p || s || l || first || last) {
            CVal t;
            if (!eval(e, fr, in->args[1], &t, depth + 1) || t.n < 0 || ((first || last) && t.n == 0))
                return false;
            int64_t r = p ? 1 : 0;
            for (int i = 0; i < t.n; i++)
                r = p ? (int64_t)((uint64_t)r * (uint64_t)t.v[i]) : (int64_t)((uint64_t)r + (uint64_t)t.v[i]);
            *out = (CVal){ .n = -1, .v = { l ? t.n : first ? t.v[0] : last ? t.v[t.n - 1] : r } };
            return true;
        }
    }
    /* a call of a small function: its one return, its parameters read from this call */
    const Spec *s = in->callee;
    if (!s || !s->typed || s->state != SPEC_DONE || (in->flags & IRF_SELFCALL))
        return false;
    int r = infer_only_return(s->typed);
    Frame inner = { s->typed, in, fr };
    bool ok = r >= 0 && eval(e, &inner, r, out, depth + 1);
    if (!ok && strcmp(s->method->name, "__ka_groupsize") == 0)
        e->dynamic_groupsize = true;
    return ok;
}

static bool eval(Eval *e, const Frame *fr, int v, CVal *out, int depth)
{
    const IrFunc *f = fr->f;
    if (v < 0 || v >= f->ninsts || depth > 64 || ++e->steps > CV_MAX_STEPS)
        return false;
    int w = single_assignment(f, v, true);
    if (w != v) /* the value assigned may be another variable's (`#if1 = N`) */
        return eval(e, fr, w, out, depth + 1);
    const IrInst *in = &f->insts[v];
    switch (in->op) {
    case IR_CONST:
        if (in->lit == LIT_NONE || in->lit == LIT_FLOAT32 || in->lit == LIT_FLOAT64 || in->lit == LIT_FLOAT16)
            return false;
        *out = (CVal){ .n = -1, .v = { in->ival } };
        return true;
    case IR_SLOT: {
        /* a parameter never assigned: the argument of the call being evaluated */
        int p = in->slot;
        if (!fr->call || p >= f->nparams || p + 1 >= fr->call->nargs)
            return false;
        return eval(e, fr->up, fr->call->args[p + 1], out, depth + 1);
    }
    case IR_TUPLE:
        if (in->name || in->nargs > CV_MAX)
            return false;
        out->n = in->nargs;
        for (int i = 0; i < in->nargs; i++)
            if (!eval_int(e, fr, in->args[i], &out->v[i], depth + 1))
                return false;
        return true;
    case IR_CALL: return in->nargs >= 1 && eval_call(e, fr, in, out, depth);
    case IR_GETFIELD: {
        /* a field of a struct built here from constants (cfg = Cfg(2); t[cfg.k]) */
        const IrInst *x = &f->insts[single_assignment(f, in->args[0], true)];
        if (in->ival < 0 || x->op != IR_CALL || x->builtin != BI_NEW || !x->optype || x->optype->kind != TY_STRUCT ||
            x->nargs < 1)
            return false;
        int k0 = f->insts[x->args[0]].type && f->insts[x->args[0]].type->kind == TY_TYPE
                     ? 1
                     : 2; /* P(x...), #new(P, x...) */
        return k0 + in->ival < x->nargs && eval(e, fr, x->args[k0 + in->ival], out, depth + 1);
    }
    default: return false;
    }
}

bool infer_const_int(const IrFunc *f, int v, int64_t *out, int depth)
{
    Eval e = { 0 };
    Frame fr = { f, NULL, NULL };
    return eval_int(&e, &fr, v, out, depth);
}

bool infer_const_char(const IrFunc *f, int v, uint32_t *cp)
{
    if (v < 0 || v >= f->ninsts)
        return false;
    const IrInst *in = &f->insts[single_assignment(f, v, false)];
    int64_t k;
    if (in->op == IR_NAME && (in->flags & IRF_CHARVAL)) {
        *cp = (uint32_t)in->ival;
        return true;
    }
    if (in->op == IR_CALL && in->builtin == BI_NEW && in->nargs == 2 && in->optype && in->optype->kind == TY_STRUCT &&
        strcmp(in->optype->name, "Char") == 0 && infer_const_int(f, in->args[1], &k, 0)) {
        *cp = (uint32_t)k;
        return true;
    }
    return false;
}

bool infer_const_range(const IrFunc *f, int v, int64_t *lo, int64_t *hi)
{
    if (v < 0 || v >= f->ninsts)
        return false;
    const IrInst *in = &f->insts[single_assignment(f, v, false)];
    return in->op == IR_CALL && in->builtin == BI_RANGE && in->nargs == 3 && infer_const_int(f, in->args[1], lo, 0) &&
           infer_const_int(f, in->args[2], hi, 0);
}

int infer_const_dims_why(const IrFunc *f, int v, int64_t *dims, int max, bool *dynamic_groupsize)
{
    Eval e = { 0 };
    Frame fr = { f, NULL, NULL };
    CVal c;
    bool ok = eval(&e, &fr, v, &c, 0);
    if (dynamic_groupsize)
        *dynamic_groupsize = !ok && e.dynamic_groupsize;
    if (!ok || c.n > max)
        return -1;
    if (c.n == -1) {
        dims[0] = c.v[0];
        return 1;
    }
    for (int i = 0; i < c.n; i++)
        dims[i] = c.v[i];
    return c.n;
}

int infer_const_dims(const IrFunc *f, int v, int64_t *dims, int max)
{
    return infer_const_dims_why(f, v, dims, max, NULL);
}
