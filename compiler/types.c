/* types.c: interning, printing, subtyping and promotion of Julia-like types. */
#include "types.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct TypeTable {
    Arena *arena;
    Type *prims[TY__COUNT];
    Type **all;
    int n, cap;
    TyResolveFn resolve; /* struct names of host type strings (ty_parse) */
    void *resolve_ud;
};

void ty_set_resolver(TypeTable *t, TyResolveFn fn, void *ud)
{
    t->resolve = fn;
    t->resolve_ud = ud;
}

static const struct {
    const char *name;
    int bits, flags;
} prim_info[] = {
#define X(k, n, b, f) [k] = { n, b, f },
    JK_PRIMS(X)
#undef X
};

static Type *types_add(TypeTable *t, Type proto)
{
    Type *ty = arena_alloc(t->arena, sizeof(Type));
    if (!ty)
        return NULL;
    *ty = proto;
    Type **all = arena_grow(t->arena, t->all, t->n, &t->cap, sizeof(Type *), 64);
    if (!all)
        return NULL;
    t->all = all;
    ty->id = t->n;
    t->all[t->n++] = ty;
    return ty;
}

TypeTable *types_new(Arena *a)
{
    TypeTable *t = arena_alloc(a, sizeof(TypeTable));
    if (!t)
        return NULL;
    t->arena = a;
    for (int k = 0; k < TY__COUNT; k++) {
        Type proto = { .kind = (TypeKind)k };
        if (k <= TY_UINT128) {
            proto.bits = prim_info[k].bits;
            proto.flags = prim_info[k].flags;
        }
        if (k == TY_ABSTRACTARRAY)
            proto.ndims = -1;
        if (k == TY_TUPLE || k == TY_STRUCT) {
            /* the empty tuple (which ty_tuple of no fields interns to) measures as tuple_measure would have
             * it: a field of type () must not align at 0 (CartesianIndices(()) is a struct of one) */
            proto.align = 1;
            proto.depth = 1;
        }
        t->prims[k] = types_add(t, proto);
        if (!t->prims[k])
            return NULL;
    }
    return t;
}

const Type *ty_prim(TypeTable *t, TypeKind k)
{
    return t->prims[k];
}

static bool same_shape(const Type *a, const Type *b)
{
    if (a->kind != b->kind || a->ndims != b->ndims || a->step != b->step || a->elem != b->elem ||
        a->nfields != b->nfields || a->nparams != b->nparams || a->ival != b->ival ||
        (a->kind == TY_STRUCT && a->flags != b->flags))
        return false;
    if ((a->name == NULL) != (b->name == NULL) || (a->name && strcmp(a->name, b->name) != 0))
        return false;
    for (int i = 0; i < a->nfields; i++)
        if (a->fields[i] != b->fields[i] || (a->fnames && b->fnames && strcmp(a->fnames[i], b->fnames[i]) != 0))
            return false;
    for (int i = 0; i < a->nparams; i++)
        if (a->params[i] != b->params[i])
            return false;
    return true;
}

static const Type *intern(TypeTable *t, Type proto)
{
    for (int i = 0; i < t->n; i++)
        if (same_shape(t->all[i], &proto))
            return t->all[i];
    if (proto.nfields) {
        const Type **f = arena_alloc(t->arena, sizeof(Type *) * (size_t)proto.nfields);
        if (!f)
            return NULL;
        memcpy(f, proto.fields, sizeof(Type *) * (size_t)proto.nfields);
        proto.fields = f;
        if (proto.fnames) {
            const char **fn = arena_alloc(t->arena, sizeof(char *) * (size_t)proto.nfields);
            if (!fn)
                return NULL;
            for (int i = 0; i < proto.nfields; i++)
                if (!(fn[i] = arena_strdup(t->arena, proto.fnames[i])))
                    return NULL;
            proto.fnames = fn;
        }
    }
    if (proto.nparams) {
        const Type **pp = arena_alloc(t->arena, sizeof(Type *) * (size_t)proto.nparams);
        if (!pp)
            return NULL;
        memcpy(pp, proto.params, sizeof(Type *) * (size_t)proto.nparams);
        proto.params = pp;
    }
    if (proto.name && !(proto.name = arena_strdup(t->arena, proto.name)))
        return NULL; /* out of memory: no type with a NULL name */
    return types_add(t, proto);
}

/* The cached measures of a tuple of these fields, saturating so that no sum overflows. */
static void tuple_measure(const Type *const *fields, int n, int *depth, int64_t *leaves, int64_t *size, int *align)
{
    int64_t off = 0, nl = 0;
    int d = 0, al = 1;
    for (int i = 0; i < n; i++) {
        const Type *f = fields[i];
        int fal = ty_arg_align(f);
        int64_t fsz = ty_arg_size(f);
        off = (off + fal - 1) / fal * fal + fsz;
        if (off > INT_MAX)
            off = INT_MAX;
        nl += f->kind == TY_TUPLE || f->kind == TY_STRUCT ? f->leaves : 1;
        if (nl > INT_MAX)
            nl = INT_MAX;
        if ((f->kind == TY_TUPLE || f->kind == TY_STRUCT) && f->depth > d)
            d = f->depth;
        if (fal > al)
            al = fal;
    }
    *depth = d + 1;
    *leaves = nl;
    *size = (off + al - 1) / al * al;
    if (*size > INT_MAX)
        *size = INT_MAX;
    *align = al;
}

bool ty_tuple_fits(const Type *const *fields, int n, StrBuf *why)
{
    int depth, align;
    int64_t leaves, size;
    if (n > TY_MAX_FIELDS) {
        sb_printf(why, "tuple type too large (%d fields, limit %d)", n, TY_MAX_FIELDS);
        return false;
    }
    tuple_measure(fields, n, &depth, &leaves, &size, &align);
    if (depth > TY_MAX_DEPTH)
        sb_printf(why, "tuple type too deeply nested (depth %d, limit %d)", depth, TY_MAX_DEPTH);
    else if (leaves > TY_MAX_LEAVES)
        sb_printf(why, "tuple type too large (%lld scalar values, limit %d)", (long long)leaves, TY_MAX_LEAVES);
    else if (size > TY_MAX_BYTES)
        sb_printf(why, "tuple type too large (%lld bytes, limit %d)", (long long)size, TY_MAX_BYTES);
    else
        return true;
    return false;
}

const Type *ty_tuple(TypeTable *t, const Type **fields, int n)
{
    int depth, align;
    int64_t leaves, size;
    tuple_measure(fields, n, &depth, &leaves, &size, &align);
    return intern(t, (Type){ .kind = TY_TUPLE,
                             .fields = fields,
                             .nfields = n,
                             .depth = depth,
                             .leaves = (int)leaves,
                             .size = (int)size,
                             .align = align });
}
const Type *ty_array(TypeTable *t, const Type *elem, int ndims)
{
    return intern(t, (Type){ .kind = TY_ARRAY, .elem = elem, .ndims = ndims });
}
const Type *ty_localarray(TypeTable *t, const Type *elem, int ndims)
{
    return intern(t, (Type){ .kind = TY_LOCALARRAY, .elem = elem, .ndims = ndims });
}
const Type *ty_privatearray(TypeTable *t, const Type *elem, int ndims)
{
    return intern(t, (Type){ .kind = TY_LOCALARRAY, .elem = elem, .ndims = ndims, .step = 1 });
}
const Type *ty_array_like(TypeTable *t, const Type *a, const Type *elem, int ndims)
{
    return a->kind == TY_ARRAY ? ty_array(t, elem, ndims)
           : a->step           ? ty_privatearray(t, elem, ndims)
                               : ty_localarray(t, elem, ndims);
}
const Type *ty_abstractarray(TypeTable *t, const Type *elem, int ndims)
{
    return intern(t, (Type){ .kind = TY_ABSTRACTARRAY, .elem = elem, .ndims = ndims });
}
const Type *ty_range(TypeTable *t, int step)
{
    return intern(t, (Type){ .kind = TY_RANGE, .elem = t->prims[TY_INT64], .step = step });
}
const Type *ty_range_of(TypeTable *t, const Type *elem, int step)
{
    return intern(t, (Type){ .kind = TY_RANGE, .elem = elem, .step = step });
}
const Type *ty_function(TypeTable *t, const char *name)
{
    return intern(t, (Type){ .kind = TY_FUNCTION, .name = name });
}
const Type *ty_typeof_type(TypeTable *t, const Type *ty)
{
    return intern(t, (Type){ .kind = TY_TYPE, .elem = ty });
}
const Type *ty_typevar(TypeTable *t, const char *name, const Type *bound)
{
    return intern(t, (Type){ .kind = TY_TYPEVAR, .name = name, .elem = bound });
}
const Type *ty_ptr(TypeTable *t, const Type *elem, bool local)
{
    return intern(t, (Type){ .kind = TY_PTR, .elem = elem, .step = local });
}
const Type *ty_union_nothing(TypeTable *t, const Type *elem)
{
    return intern(t, (Type){ .kind = TY_UNION, .elem = elem });
}
const Type *ty_join(TypeTable *t, const Type *a, const Type *b)
{
    if (a == b)
        return a;
    if (b->kind == TY_NOTHING || b->kind == TY_UNION) { /* Nothing or the union first */
        const Type *x = a;
        a = b;
        b = x;
    }
    const Type *some = a->kind == TY_UNION ? a->elem : NULL;
    if (b->kind == TY_UNION && (!some || some == b->elem))
        return b;
    if (b->kind == TY_UNION || b->kind == TY_NOTHING || !ty_is_concrete(b) || (some && some != b))
        return NULL;
    return a->kind == TY_NOTHING || a->kind == TY_UNION ? ty_union_nothing(t, b) : NULL;
}
const Type *ty_complex(TypeTable *t, const Type *elem)
{
    return intern(t, (Type){ .kind = TY_COMPLEX, .elem = elem });
}

const Type *ty_struct(TypeTable *t, const char *name, const Type **params, int nparams, const Type **fields,
                      const char **fnames, int nfields, int flags, const Type *super)
{
    int depth, align;
    int64_t leaves, size;
    tuple_measure(fields, nfields, &depth, &leaves, &size, &align);
    return intern(t, (Type){ .kind = TY_STRUCT,
                             .name = name,
                             .params = params,
                             .nparams = nparams,
                             .fields = fields,
                             .fnames = fnames,
                             .nfields = nfields,
                             .flags = flags,
                             .elem = super,
                             .depth = depth,
                             .leaves = (int)leaves,
                             .size = (int)size,
                             .align = align });
}

const Type *ty_namedtuple(TypeTable *t, const char **fnames, const Type **fields, int n)
{
    return ty_struct(t, "NamedTuple", NULL, 0, fields, fnames, n, TF_NAMEDTUPLE, NULL);
}

const Type *ty_val(TypeTable *t, const Type *type, int64_t ival, const char *text)
{
    return intern(t, (Type){ .kind = TY_VAL, .elem = type, .ival = ival, .name = text });
}

const Type *ty_val_char(TypeTable *t, const Type *char_type, uint32_t cp)
{
    char text[16];
    if (cp >= 0x20 && cp < 0x7f && cp != '\'' && cp != '\\')
        snprintf(text, sizeof text, "'%c'", (char)cp);
    else
        snprintf(text, sizeof text, "'\\U%08x'", (unsigned)cp);
    return ty_val(t, char_type, cp, text);
}

const Type *ty_symbol(TypeTable *t, const char *name)
{
    return intern(t, (Type){ .kind = TY_SYMBOL, .name = name });
}

int ty_field_index(const Type *t, const char *name)
{
    if (t->kind != TY_STRUCT || !t->fnames)
        return -1;
    for (int i = 0; i < t->nfields; i++)
        if (strcmp(t->fnames[i], name) == 0)
            return i;
    return -1;
}

bool ty_bits_only(const Type *t)
{
    if (ty_is_prim(t) || ty_is_ghost(t))
        return true;
    if (t->kind == TY_COMPLEX)
        return t->elem && ty_is_prim(t->elem);
    if (t->kind != TY_TUPLE && t->kind != TY_STRUCT)
        return false;
    for (int i = 0; i < t->nfields; i++)
        if (!ty_bits_only(t->fields[i]))
            return false;
    return true;
}

bool ty_is_ghost(const Type *t)
{
    switch (t->kind) {
    case TY_NOTHING:
    case TY_FUNCTION:
    case TY_TYPE:
    case TY_SYMBOL:
    case TY_VAL: return true;
    case TY_TUPLE:
    case TY_STRUCT:
        for (int i = 0; i < t->nfields; i++)
            if (!ty_is_ghost(t->fields[i]))
                return false;
        return true;
    default: return false;
    }
}

static const char *abstract_names[TY__COUNT] = {
    [TY_NOTHING] = "Nothing",
    [TY_DIM3] = "@NamedTuple{x::Int64, y::Int64, z::Int64}",
    [TY_ANY] = "Any",
    [TY_NUMBER] = "Number",
    [TY_REAL] = "Real",
    [TY_INTEGER] = "Integer",
    [TY_SIGNED] = "Signed",
    [TY_UNSIGNED] = "Unsigned",
    [TY_ABSTRACTFLOAT] = "AbstractFloat",
};

void ty_print(StrBuf *sb, const Type *ty)
{
    if (!ty) {
        sb_puts(sb, "?");
        return;
    }
    if (ty_is_prim(ty)) {
        sb_puts(sb, prim_info[ty->kind].name);
        return;
    }
    switch (ty->kind) {
    case TY_TUPLE:
        sb_puts(sb, "Tuple{");
        for (int i = 0; i < ty->nfields; i++) {
            if (i)
                sb_puts(sb, ", ");
            ty_print(sb, ty->fields[i]);
        }
        sb_puts(sb, "}");
        return;
    case TY_ARRAY:
    case TY_LOCALARRAY:
        sb_puts(sb, "ROCDeviceArray{");
        ty_print(sb, ty->elem);
        sb_printf(sb, ", %d, %d}", ty->ndims, ty->kind == TY_ARRAY ? 1 : ty->step ? 5 : 3);
        return;
    case TY_RANGE:
        if (ty->step < 0 || !ty->elem) {
            /* the abstract ranges of method signatures */
            sb_puts(sb, ty->step < 0 ? "AbstractRange" : ty->step ? "StepRange" : "UnitRange");
            return;
        }
        sb_puts(sb, ty->step ? "StepRange{" : "UnitRange{");
        ty_print(sb, ty->elem);
        if (ty->step) {
            sb_puts(sb, ", ");
            ty_print(sb, ty->elem);
        }
        sb_puts(sb, "}");
        return;
    case TY_FUNCTION: sb_printf(sb, "typeof(%s)", ty->name); return;
    case TY_TYPE:
        sb_puts(sb, "Type{");
        ty_print(sb, ty->elem);
        sb_puts(sb, "}");
        return;
    case TY_ABSTRACTARRAY:
        sb_puts(sb, "AbstractArray");
        if (ty->elem || ty->ndims >= 0) {
            sb_puts(sb, "{");
            if (ty->elem)
                ty_print(sb, ty->elem);
            else
                sb_puts(sb, "T");
            if (ty->ndims >= 0)
                sb_printf(sb, ", %d", ty->ndims);
            sb_puts(sb, "}");
        }
        return;
    case TY_TYPEVAR: sb_puts(sb, ty->name); return;
    case TY_STRUCT:
        if (ty->flags & TF_NAMEDTUPLE) {
            sb_puts(sb, "@NamedTuple{");
            for (int i = 0; i < ty->nfields; i++) {
                sb_printf(sb, "%s%s::", i ? ", " : "", ty->fnames[i]);
                ty_print(sb, ty->fields[i]);
            }
            sb_puts(sb, "}");
            return;
        }
        sb_puts(sb, ty->name);
        if (ty->nparams) {
            sb_puts(sb, "{");
            for (int i = 0; i < ty->nparams; i++) {
                if (i)
                    sb_puts(sb, ", ");
                ty_print(sb, ty->params[i]);
            }
            sb_puts(sb, "}");
        }
        return;
    case TY_VAL: sb_puts(sb, ty->name); return;
    case TY_SYMBOL: sb_puts(sb, "Symbol"); return;
    case TY_PTR:
        if (ty->elem->kind == TY_NOTHING && !ty->step) { /* what malloc returns */
            sb_puts(sb, "Ptr{Cvoid}");
            return;
        }
        sb_puts(sb, "Core.LLVMPtr{");
        ty_print(sb, ty->elem);
        sb_printf(sb, ", %d}", ty->step ? 3 : 1);
        return;
    case TY_UNION:
        sb_puts(sb, "Union{Nothing, ");
        ty_print(sb, ty->elem);
        sb_puts(sb, "}");
        return;
    case TY_COMPLEX:
        if (ty->elem && ty_is_float(ty->elem)) { /* Julia prints the aliases */
            sb_printf(sb, "ComplexF%d", ty->elem->bits);
            return;
        }
        sb_puts(sb, ty->elem ? "Complex{" : "Complex");
        if (!ty->elem)
            return;
        ty_print(sb, ty->elem);
        sb_puts(sb, "}");
        return;
    default: sb_puts(sb, abstract_names[ty->kind] ? abstract_names[ty->kind] : "?");
    }
}

const char *ty_name(Arena *a, const Type *ty)
{
    StrBuf sb = { 0 };
    ty_print(&sb, ty);
    char *s = arena_strdup(a, sb.data ? sb.data : "?");
    sb_free(&sb);
    return s;
}

bool ty_is_concrete(const Type *t)
{
    switch (t->kind) {
    case TY_ANY:
    case TY_NUMBER:
    case TY_REAL:
    case TY_INTEGER:
    case TY_SIGNED:
    case TY_UNSIGNED:
    case TY_ABSTRACTFLOAT:
    case TY_ABSTRACTARRAY:
    case TY_TYPEVAR: return false;
    case TY_COMPLEX: return t->elem && ty_is_concrete(t->elem);
    case TY_RANGE: return t->step >= 0 && t->elem && ty_is_concrete(t->elem);
    case TY_UNION: return ty_is_concrete(t->elem);
    case TY_SYMBOL: return t->name != NULL;
    case TY_STRUCT:
        if (t->flags & (TF_UNIONALL | TF_ABSTRACT))
            return false;
        for (int i = 0; i < t->nparams; i++)
            if (t->params[i]->kind != TY_VAL && t->params[i]->kind != TY_TYPE && !ty_is_concrete(t->params[i]))
                return false;
        return true;
    case TY_TUPLE:
        for (int i = 0; i < t->nfields; i++)
            if (!ty_is_concrete(t->fields[i]))
                return false;
        return true;
    default: return true;
    }
}

/* Is t the NamedTuple @NamedTuple{x::Int64, y::Int64, z::Int64} that TY_DIM3 (workitemIdx() and the
 * other ids) is? */
static bool is_dim3_namedtuple(const Type *t)
{
    static const char *const xyz[] = { "x", "y", "z" };
    if (t->kind != TY_STRUCT || !(t->flags & TF_NAMEDTUPLE) || t->nfields != 3)
        return false;
    for (int i = 0; i < 3; i++)
        if (t->fields[i]->kind != TY_INT64 || strcmp(t->fnames[i], xyz[i]) != 0)
            return false;
    return true;
}

bool ty_subtype(const Type *a, const Type *b)
{
    if (a == b || b->kind == TY_ANY)
        return true;
    if ((a->kind == TY_DIM3 && is_dim3_namedtuple(b)) || (b->kind == TY_DIM3 && is_dim3_namedtuple(a)))
        return true;
    /* a struct below a built-in abstract type (struct Dual <: Number) */
    if (a->kind == TY_STRUCT && a->elem && b->kind != TY_STRUCT && ty_subtype(a->elem, b))
        return true;
    switch (b->kind) {
    case TY_NUMBER:
        return ty_is_prim(a) || a->kind == TY_COMPLEX || a->kind == TY_NUMBER || a->kind == TY_REAL ||
               a->kind == TY_INTEGER || a->kind == TY_SIGNED || a->kind == TY_UNSIGNED || a->kind == TY_ABSTRACTFLOAT;
    case TY_REAL:
        return ty_is_prim(a) || a->kind == TY_REAL || a->kind == TY_INTEGER || a->kind == TY_SIGNED ||
               a->kind == TY_UNSIGNED || a->kind == TY_ABSTRACTFLOAT;
    case TY_INTEGER: return ty_is_int(a) || a->kind == TY_SIGNED || a->kind == TY_UNSIGNED;
    case TY_SIGNED: return ty_is_int(a) && ty_is_signed(a);
    case TY_UNSIGNED: return ty_is_int(a) && !ty_is_signed(a) && a->kind != TY_BOOL;
    case TY_ABSTRACTFLOAT: return ty_is_float(a);
    case TY_ABSTRACTARRAY:
        if (a->kind != TY_ARRAY && a->kind != TY_LOCALARRAY && a->kind != TY_ABSTRACTARRAY)
            return false;
        if (b->ndims >= 0 && a->ndims != b->ndims)
            return false;
        if (b->elem && b->elem->kind != TY_TYPEVAR && a->elem != b->elem)
            return false;
        if (b->elem && b->elem->kind == TY_TYPEVAR && b->elem->elem && a->elem && !ty_subtype(a->elem, b->elem->elem))
            return false;
        return true;
    case TY_TYPEVAR: return !b->elem || ty_subtype(a, b->elem);
    case TY_RANGE: /* step -1: AbstractRange{T}; elem NULL: any element type */
        return a->kind == TY_RANGE && (b->step < 0 || a->step == b->step) &&
               (!b->elem || (a->elem && ty_subtype(a->elem, b->elem)));
    case TY_TUPLE:
        if (a->kind != TY_TUPLE || a->nfields != b->nfields)
            return false;
        for (int i = 0; i < a->nfields; i++)
            if (!ty_subtype(a->fields[i], b->fields[i]))
                return false;
        return true;
    case TY_COMPLEX: /* Complex (elem NULL) is every Complex{T} */
        return a->kind == TY_COMPLEX &&
               (!b->elem || (a->elem && ty_subtype(a->elem, b->elem) && b->elem->kind == TY_TYPEVAR));
    case TY_TYPE:
        return a->kind == TY_TYPE && (b->elem->kind == TY_TYPEVAR ? ty_subtype(a->elem, b->elem) : a->elem == b->elem);
    case TY_SYMBOL: return a->kind == TY_SYMBOL && !b->name; /* every :name is a Symbol */
    case TY_STRUCT:
        if (b->flags & TF_UNIONALL) {
            /* P, or SVector{3} (its leading parameters given): every P whose parameters start so */
            if (a->kind != TY_STRUCT || (a->flags & TF_ABSTRACT) || strcmp(a->name, b->name) != 0 ||
                a->nparams < b->nparams)
                return false;
            for (int i = 0; i < b->nparams; i++)
                if (a->params[i] != b->params[i])
                    return false;
            return true;
        } else if (b->flags & TF_ABSTRACT) {
            for (const Type *s = a->kind == TY_STRUCT ? a->elem : NULL; s && s->kind == TY_STRUCT; s = s->elem)
                if (s == b ||
                    (!b->nparams && strcmp(s->name, b->name) == 0)) /* AbstractDimension{2} <: AbstractDimension */
                    return true;
            return false;
        }
        return false;
    default: return false;
    }
}

/* Julia's promotion of primitive numbers (promote_type): floats win over
 * integers (the float type is kept); between floats the wider wins; between
 * integers of one signedness the wider wins. Mixed signedness follows
 * base/int.jl's promote_rule: UInt8/UInt16 with a signed type narrower than
 * Int give Int64, else the signed type; UInt32 with Int8..Int32 gives Int64
 * (UInt on a 32-bit host), with Int64 Int64; UInt64 with any signed type
 * gives UInt64. Bool promotes to the other type. */
const Type *ty_promote(TypeTable *t, const Type *a, const Type *b)
{
    if (a == b)
        return a;
    if (!ty_is_prim(a) || !ty_is_prim(b))
        return NULL;
    if (a->kind == TY_BOOL)
        return b;
    if (b->kind == TY_BOOL)
        return a;
    if (ty_is_float(a) && ty_is_float(b))
        return a->bits >= b->bits ? a : b;
    if (ty_is_float(a))
        return a;
    if (ty_is_float(b))
        return b;
    if (ty_is_signed(a) == ty_is_signed(b))
        return a->bits >= b->bits ? a : b;
    const Type *s = ty_is_signed(a) ? a : b, *u = ty_is_signed(a) ? b : a;
    if (u->bits == 128 || s->bits == 128) /* Int128 with a narrower unsigned is Int128; UInt128 wins */
        return u->bits == 128 ? u : s;
    if (u->bits == 64)
        return u;
    if (u->bits <= 16)
        return s->bits < 64 ? t->prims[TY_INT64] : s;
    return t->prims[TY_INT64]; /* UInt32 with Int8..Int64 */
}

int ty_arg_size(const Type *t)
{
    if (ty_is_prim(t))
        return t->bits / 8;
    if (ty_is_array(t))
        return 16 + 8 * t->ndims;
    if (t->kind == TY_TUPLE || t->kind == TY_STRUCT)
        return t->size;
    if (t->kind == TY_COMPLEX)
        return 2 * t->elem->bits / 8;
    if (t->kind == TY_RANGE)
        return 24; /* start, step, stop: Int64s whatever the element type (codegen.c's lt) */
    return 0;
}

int ty_arg_align(const Type *t)
{
    if (ty_is_prim(t))
        return t->bits / 8;
    if (ty_is_array(t))
        return 8;
    if (t->kind == TY_TUPLE || t->kind == TY_STRUCT)
        return t->align;
    if (t->kind == TY_COMPLEX)
        return t->elem->bits / 8;
    if (t->kind == TY_RANGE)
        return 8;
    return 1;
}

/* ---- parsing host types ("Vector{Float32}") ---- */

typedef struct TyParser {
    TypeTable *t;
    const char *p;
    StrBuf *err;
} TyParser;

static void tp_space(TyParser *tp)
{
    while (*tp->p == ' ' || *tp->p == '\t')
        tp->p++;
}

static bool tp_ident(TyParser *tp, char *buf, size_t n)
{
    tp_space(tp);
    size_t i = 0;
    for (;;) {
        while ((*tp->p >= 'a' && *tp->p <= 'z') || (*tp->p >= 'A' && *tp->p <= 'Z') ||
               (*tp->p >= '0' && *tp->p <= '9') || *tp->p == '_') {
            if (i + 1 < n)
                buf[i++] = *tp->p;
            tp->p++;
        }
        buf[i] = 0;
        /* a module path: AMDGPU.Device.x is x; WMMA.x (and WMMA_RDNA3.x) is base/wmma.jl's WMMA_x */
        bool wmma = strcmp(buf, "WMMA") == 0 || strcmp(buf, "WMMA_RDNA3") == 0;
        if (tp->p[0] != '.' || !isalpha((unsigned char)tp->p[1]) ||
            !(wmma || strcmp(buf, "AMDGPU") == 0 || strcmp(buf, "Device") == 0))
            return i > 0;
        tp->p++;
        i = wmma && n > 5 ? 5 : 0;
        memcpy(buf, "WMMA_", i);
    }
}

static const Type *tp_type(TyParser *tp, int depth);

static bool tp_int(TyParser *tp, long *out)
{
    tp_space(tp);
    char *end;
    long v = strtol(tp->p, &end, 10);
    if (end == tp->p)
        return false;
    tp->p = end;
    *out = v;
    return true;
}

static bool tp_expect(TyParser *tp, char c)
{
    tp_space(tp);
    if (*tp->p != c)
        return false;
    tp->p++;
    return true;
}

/* The primitive or abstract type named `name`, or NULL. */
const Type *ty_lookup_name(TypeTable *t, const char *name)
{
    for (int k = 0; k <= TY_UINT128; k++)
        if (strcmp(prim_info[k].name, name) == 0)
            return t->prims[k];
    static const struct {
        const char *n;
        TypeKind k;
    } more[] = {
        { "Nothing", TY_NOTHING },
        { "Cvoid", TY_NOTHING },
        { "Any", TY_ANY },
        { "Number", TY_NUMBER },
        { "Real", TY_REAL },
        { "Integer", TY_INTEGER },
        { "Signed", TY_SIGNED },
        { "Unsigned", TY_UNSIGNED },
        { "AbstractFloat", TY_ABSTRACTFLOAT },
        { "Int", TY_INT64 },
        { "UInt", TY_UINT64 },
        /* Julia's C aliases on the 64-bit Linux hosts juke runs on (Base.Cchar is Int8 there) */
        { "Cint", TY_INT32 },
        { "Cuint", TY_UINT32 },
        { "Clong", TY_INT64 },
        { "Culong", TY_UINT64 },
        { "Csize_t", TY_UINT64 },
        { "Cssize_t", TY_INT64 },
        { "Cfloat", TY_FLOAT32 },
        { "Cdouble", TY_FLOAT64 },
        { "Cchar", TY_INT8 },
        { "Cshort", TY_INT16 },
        { "Cushort", TY_UINT16 },
        { "Clonglong", TY_INT64 },
        { "Culonglong", TY_UINT64 },
        { "Cuchar", TY_UINT8 },
    };
    for (int i = 0; i < JK_ARRAY_LEN(more); i++)
        if (strcmp(more[i].n, name) == 0)
            return t->prims[more[i].k];
    return NULL;
}

static const Type *tp_param(TyParser *tp, int depth);

static const Type *tp_type(TyParser *tp, int depth)
{
    char name[64];
    tp_space(tp);
    if (*tp->p == ':' && depth < 16) { /* a Symbol argument is its value: :add */
        const Type *v = tp_param(tp, depth);
        return v ? v->elem : NULL;
    }
    bool tp_named = *tp->p == '@';
    if (tp_named)
        tp->p++;
    if (depth > 16 || !tp_ident(tp, name, sizeof name)) {
        sb_printf(tp->err, "expected a type name at \"%s\"", tp->p);
        return NULL;
    }
    const Type *prim = ty_lookup_name(tp->t, name);
    if (prim) {
        if (!ty_is_concrete(prim)) {
            sb_printf(tp->err, "%s is an abstract type; a host argument needs a concrete type", name);
            return NULL;
        }
        return prim;
    }
    bool vec = strcmp(name, "Vector") == 0, mat = strcmp(name, "Matrix") == 0;
    /* ROCDeviceArray{T,N,1}: the device-side name ty_print gives (juke_value_type's Model{ROCDeviceArray{...}}) */
    bool dev = strcmp(name, "ROCDeviceArray") == 0;
    if (vec || mat || dev || strcmp(name, "Array") == 0 || strcmp(name, "ROCArray") == 0 ||
        strcmp(name, "ROCVector") == 0 || strcmp(name, "ROCMatrix") == 0) {
        vec = vec || strcmp(name, "ROCVector") == 0;
        mat = mat || strcmp(name, "ROCMatrix") == 0;
        if (!tp_expect(tp, '{')) {
            sb_printf(tp->err, "%s needs an element type: %s{Float32}", name, name);
            return NULL;
        }
        const Type *elem = tp_type(tp, depth + 1);
        if (!elem)
            return NULL;
        if (!ty_is_prim(elem) && !(elem->kind == TY_COMPLEX && elem->elem && ty_is_float(elem->elem)) &&
            !((elem->kind == TY_TUPLE || elem->kind == TY_STRUCT) && ty_bits_only(elem) && !ty_is_ghost(elem))) {
            sb_printf(tp->err, "array elements must be a primitive number type (Bool, Int8..UInt64, Float16..Float64), "
                               "or a tuple or struct of them");
            return NULL;
        }
        long nd = vec ? 1 : mat ? 2 : -1, as = 0;
        if (tp_expect(tp, ',')) {
            long v;
            if (!tp_int(tp, &v) || v < 1 || v > 8 || (nd > 0 && v != nd)) {
                sb_printf(tp->err, "bad number of dimensions in %s (1 to 8)", name);
                return NULL;
            }
            nd = v;
        }
        if (dev && (!tp_expect(tp, ',') || !tp_int(tp, &as) || as != 1)) {
            sb_printf(tp->err, "a host argument's ROCDeviceArray is in global memory: ROCDeviceArray{T,N,1}");
            return NULL;
        }
        if (nd < 0) {
            sb_printf(tp->err, "Array needs its number of dimensions: Array{T,N}");
            return NULL;
        }
        if (!tp_expect(tp, '}')) {
            sb_printf(tp->err, "expected '}' in %s type", name);
            return NULL;
        }
        return ty_array(tp->t, elem, (int)nd);
    }
    if (strcmp(name, "Tuple") == 0) {
        const Type *fields[16];
        int n = 0;
        if (!tp_expect(tp, '{')) {
            sb_printf(tp->err, "Tuple needs its field types: Tuple{Int64, Float32}");
            return NULL;
        }
        tp_space(tp);
        if (*tp->p != '}') {
            do {
                if (n == 16) {
                    sb_printf(tp->err, "too many tuple fields");
                    return NULL;
                }
                if (!(fields[n++] = tp_type(tp, depth + 1)))
                    return NULL;
            } while (tp_expect(tp, ','));
        }
        if (!tp_expect(tp, '}')) {
            sb_printf(tp->err, "expected '}' in Tuple type");
            return NULL;
        }
        if (!ty_tuple_fits(fields, n, tp->err))
            return NULL;
        return ty_tuple(tp->t, fields, n);
    }
    /* ComplexF32 is Complex{Float32}: two of a float type, real part first (docs/abi.md) */
    if (strcmp(name, "ComplexF16") == 0 || strcmp(name, "ComplexF32") == 0 || strcmp(name, "ComplexF64") == 0)
        return ty_complex(tp->t, ty_prim(tp->t, name[8] == '1'   ? TY_FLOAT16
                                                : name[8] == '3' ? TY_FLOAT32
                                                                 : TY_FLOAT64));
    if (strcmp(name, "Complex") == 0) {
        const Type *part = tp_expect(tp, '{') ? tp_type(tp, depth + 1) : NULL;
        if (!part || !tp_expect(tp, '}') || !ty_is_prim(part) || part->kind == TY_BOOL) {
            if (!tp->err->len)
                sb_printf(tp->err, "Complex needs a number type: Complex{Float32}");
            return NULL;
        }
        return ty_complex(tp->t, part);
    }
    if (strcmp(name, "NTuple") == 0) {
        long nt;
        if (!tp_expect(tp, '{') || !tp_int(tp, &nt) || nt < 0 || nt > TY_MAX_FIELDS || !tp_expect(tp, ',')) {
            sb_printf(tp->err, "NTuple needs a length (0 to %d) and an element type: NTuple{3, Float32}",
                      TY_MAX_FIELDS);
            return NULL;
        }
        const Type *elem = tp_type(tp, depth + 1);
        if (!elem)
            return NULL;
        if (!tp_expect(tp, '}')) {
            sb_printf(tp->err, "expected '}' in NTuple type");
            return NULL;
        }
        const Type **fields = arena_alloc(tp->t->arena, sizeof(Type *) * (size_t)(nt + 1));
        if (!fields)
            return NULL;
        for (long i = 0; i < nt; i++)
            fields[i] = elem;
        if (!ty_tuple_fits(fields, (int)nt, tp->err))
            return NULL;
        return ty_tuple(tp->t, fields, (int)nt);
    }
    if (strcmp(name, "Type") == 0) {
        const Type *inner = tp_expect(tp, '{') ? tp_type(tp, depth + 1) : NULL;
        if (!inner || !tp_expect(tp, '}')) {
            if (!inner && !tp->err->len)
                sb_printf(tp->err, "Type needs its type: Type{UInt8}");
            else if (inner)
                sb_printf(tp->err, "expected '}' in Type{...}");
            return NULL;
        }
        return ty_typeof_type(tp->t, inner);
    }
    if (strcmp(name, "typeof") == 0) {
        /* typeof(f) / typeof(+): the type of a function, a ghost argument */
        if (!tp_expect(tp, '(')) {
            sb_printf(tp->err, "typeof needs a function name: typeof(+)");
            return NULL;
        }
        tp_space(tp);
        const char *start = tp->p;
        while (*tp->p && *tp->p != ')' && *tp->p != ' ')
            tp->p++;
        size_t len = (size_t)(tp->p - start);
        if (!len || len >= 64 || !tp_expect(tp, ')')) {
            sb_printf(tp->err, "typeof needs a function name: typeof(+)");
            return NULL;
        }
        char fname[64];
        memcpy(fname, start, len);
        fname[len] = 0;
        return ty_function(tp->t, fname);
    }
    if (strcmp(name, "NamedTuple") == 0 && tp_named) {
        /* @NamedTuple{a::Int64, b::Float32} */
        enum { MAX_NAMED = 64 }; /* fields a kernel argument's type string names, each name up to 63 bytes */
        const Type *fields[MAX_NAMED];
        char names[MAX_NAMED][64];
        const char *fnames[MAX_NAMED];
        int n = 0;
        if (!tp_expect(tp, '{')) {
            sb_printf(tp->err, "@NamedTuple needs its fields: @NamedTuple{a::Int64, b::Float32}");
            return NULL;
        }
        tp_space(tp);
        if (*tp->p != '}') {
            do {
                if (n == MAX_NAMED || !tp_ident(tp, names[n], sizeof names[n]) || !tp_expect(tp, ':') ||
                    !tp_expect(tp, ':')) {
                    sb_printf(tp->err, "expected name::Type in @NamedTuple{...}");
                    return NULL;
                }
                fnames[n] = names[n];
                if (!(fields[n++] = tp_type(tp, depth + 1)))
                    return NULL;
            } while (tp_expect(tp, ','));
        }
        if (!tp_expect(tp, '}')) {
            sb_printf(tp->err, "expected '}' in @NamedTuple type");
            return NULL;
        }
        if (!ty_tuple_fits(fields, n, tp->err))
            return NULL;
        return ty_namedtuple(tp->t, fnames, fields, n);
    }
    /* Val{4}, Val{:add}, or a struct the resolver knows (Params, P{Float32}) */
    const Type *params[16];
    int np = 0;
    if (tp_expect(tp, '{')) {
        do {
            if (np == 16) {
                sb_printf(tp->err, "too many type parameters");
                return NULL;
            }
            if (!(params[np++] = tp_param(tp, depth + 1)))
                return NULL;
        } while (tp_expect(tp, ','));
        if (!tp_expect(tp, '}')) {
            sb_printf(tp->err, "expected '}' in %s{...}", name);
            return NULL;
        }
    }
    if (strcmp(name, "CartesianIndex") == 0 && np == 1 && params[0]->kind == TY_VAL &&
        params[0]->elem->kind == TY_INT64 && params[0]->ival >= 0 && params[0]->ival <= 16) {
        /* KernelAbstractions' CartesianIndex{N} is an NTuple{N,Int64} (ka.c) */
        const Type *fields[16];
        for (int i = 0; i < (int)params[0]->ival; i++)
            fields[i] = tp->t->prims[TY_INT64];
        return ty_tuple(tp->t, fields, (int)params[0]->ival);
    }
    /* UnitRange{T} and StepRange{T,T} of an integer T: ranges as a kernel's argument (IGG's halo kernels,
     * `for i in r` over a range the host passes), three Int64s in memory (docs/abi.md) */
    if (strcmp(name, "UnitRange") == 0 || strcmp(name, "StepRange") == 0) {
        int step = name[0] == 'S';
        if (np != 1 + step || !ty_is_int(params[0]) || params[0]->bits > 64 || (step && params[1] != params[0])) {
            sb_printf(tp->err, "%s needs an integer type of 8 to 64 bits: %s", name,
                      step ? "StepRange{Int64, Int64}" : "UnitRange{Int64}");
            return NULL;
        }
        return ty_range_of(tp->t, params[0], step);
    }
    if (strcmp(name, "Val") == 0) {
        if (np != 1) {
            sb_printf(tp->err, "Val needs one parameter: Val{4}");
            return NULL;
        }
        return ty_struct(tp->t, "Val", params, 1, NULL, NULL, 0, 0, NULL);
    }
    if (tp->t->resolve) {
        size_t before = tp->err->len;
        const Type *r = tp->t->resolve(tp->t->resolve_ud, tp->t, name, np ? params : NULL, np, tp->err);
        if (r || tp->err->len != before)
            return r;
    }
    if (strncmp(name, "WMMA_", 5) == 0) /* as the user wrote it (tp_ident) */
        sb_printf(tp->err, "unknown type \"WMMA.%s\"", name + 5);
    else
        sb_printf(tp->err, "unknown type \"%s\"", name);
    return NULL;
}

/* A type parameter: a type, or a value (4, -1, true, :add) as TY_VAL. */
static const Type *tp_param(TyParser *tp, int depth)
{
    tp_space(tp);
    char text[80];
    if (*tp->p == ':') {
        tp->p++;
        char sym[64];
        if (!tp_ident(tp, sym, sizeof sym)) {
            sb_printf(tp->err, "expected a symbol after ':'");
            return NULL;
        }
        snprintf(text, sizeof text, ":%s", sym);
        return ty_val(tp->t, ty_symbol(tp->t, sym), 0, text);
    }
    long v;
    if ((*tp->p >= '0' && *tp->p <= '9') || *tp->p == '-') {
        if (!tp_int(tp, &v)) {
            sb_printf(tp->err, "expected a number at \"%s\"", tp->p);
            return NULL;
        }
        snprintf(text, sizeof text, "%ld", v);
        return ty_val(tp->t, tp->t->prims[TY_INT64], v, text);
    }
    if (*tp->p == '\'') { /* a Char: 'N', or '\U000000e9' as ty_val_char names the others */
        const char *q = tp->p + 1;
        uint32_t cp = 0;
        if (q[0] == '\\' && q[1] == 'U') {
            for (q += 2; isxdigit((unsigned char)*q) && q < tp->p + 11; q++)
                cp = cp * 16 + (uint32_t)(isdigit((unsigned char)*q) ? *q - '0' : (*q | 0x20) - 'a' + 10);
            q = q == tp->p + 11 && cp <= 0x10FFFF ? q : NULL;
        } else if (*q >= 0x20 && *q < 0x7f && *q != '\\' && *q != '\'') {
            cp = (uint32_t)*q++;
        } else {
            q = NULL;
        }
        const Type *ct = q && *q == '\'' && tp->t->resolve
                             ? tp->t->resolve(tp->t->resolve_ud, tp->t, "Char", NULL, 0, tp->err)
                             : NULL;
        if (!ct) {
            if (!tp->err->len)
                sb_printf(tp->err, "expected a character ('N', '\\U000000e9') at \"%s\"", tp->p);
            return NULL;
        }
        tp->p = q + 1;
        return ty_val_char(tp->t, ct, cp);
    }
    if (strncmp(tp->p, "true", 4) == 0 || strncmp(tp->p, "false", 5) == 0) {
        bool t = tp->p[0] == 't';
        tp->p += t ? 4 : 5;
        return ty_val(tp->t, tp->t->prims[TY_BOOL], t, t ? "true" : "false");
    }
    return tp_type(tp, depth);
}

const Type *ty_parse(TypeTable *t, const char *text, StrBuf *err)
{
    StrBuf local = { 0 };
    TyParser tp = { t, text, err ? err : &local };
    const Type *ty = tp_type(&tp, 0);
    if (ty) {
        tp_space(&tp);
        if (*tp.p) {
            sb_printf(tp.err, "unexpected \"%s\" after the type", tp.p);
            ty = NULL;
        }
    }
    sb_free(&local);
    return ty;
}
