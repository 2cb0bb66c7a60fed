/* api_value.c: include/juke.h's values of any Julia type as kernel arguments (juke_arg_value): their
 * layout (juke_value_layout), packing them from fields (juke_value_pack), and what a launch checks of
 * them. The layout is docs/abi.md's: C's layout of the fields with Julia's alignment, as ty_arg_size
 * and ty_arg_align compute it. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_impl.h"

/* The type named by text in a fresh compilation of m (freed by the caller), or NULL after api_fail. */
static const Type *value_type(juke_module *m, const char *who, const char *text, Diags *d, FeCompilation **c)
{
    *c = NULL;
    if (!m || !text) {
        api_fail(m ? m->ctx : NULL, JUKE_ERR_ARGUMENT, "%s: NULL %s", who, m ? "type" : "module");
        return NULL;
    }
    *c = fe_compilation_new(m->fe, d);
    if (!*c) {
        api_fail(m->ctx, JUKE_ERR_NOMEM, "out of memory");
        return NULL;
    }
    StrBuf err = { 0 };
    const Type *t = ty_parse((*c)->types, text, &err);
    if (!t)
        api_fail(m->ctx, JUKE_ERR_ARGUMENT, "%s: bad type \"%s\": %s", who, text, err.data ? err.data : "?");
    sb_free(&err);
    return t;
}

/* The byte offset of field i of a tuple or struct type: each at the next multiple of its alignment. */
static size_t field_offset(const Type *t, int i)
{
    size_t off = 0;
    for (int k = 0; k <= i; k++) {
        size_t al = (size_t)ty_arg_align(t->fields[k]);
        off = (off + al - 1) / al * al;
        if (k < i)
            off += (size_t)ty_arg_size(t->fields[k]);
    }
    return off;
}

juke_status juke_value_layout(juke_module *m, const char *type, size_t *size, size_t *align, int *nfields,
                              size_t *offsets, int max)
{
    Diags d = { 0 };
    FeCompilation *c;
    const Type *t = value_type(m, "juke_value_layout", type, &d, &c);
    juke_status st = t ? JUKE_OK : JUKE_ERR_ARGUMENT;
    if (t) {
        bool agg = t->kind == TY_TUPLE || t->kind == TY_STRUCT;
        if (size)
            *size = (size_t)ty_arg_size(t);
        if (align)
            *align = (size_t)ty_arg_align(t);
        if (nfields)
            *nfields = agg ? t->nfields : 0;
        for (int i = 0; agg && offsets && i < t->nfields && i < max; i++)
            offsets[i] = field_offset(t, i);
    }
    fe_compilation_free(c);
    diag_reset(&d);
    return st;
}

/* Scalar a converted to the primitive type ft (not Float16) as Julia's convert does: floats round,
 * anything to an integer must be exact. Writes the bytes at p; false for an InexactError. */
static bool convert_scalar(const juke_arg *a, const Type *ft, unsigned char *p)
{
    bool fl = a->type == JUKE_FLOAT32 || a->type == JUKE_FLOAT64;
    bool un = a->type >= JUKE_UINT8 && a->type <= JUKE_UINT64;
    double f = a->type == JUKE_FLOAT32   ? a->v.f32
               : a->type == JUKE_FLOAT64 ? a->v.f64
               : un                      ? (double)a->v.u
                                         : (double)a->v.i;
    if (a->type == JUKE_FLOAT16 || ft->kind == TY_FLOAT16)
        return false;
    if (ft->kind == TY_FLOAT32 || ft->kind == TY_FLOAT64) {
        if (ft->kind == TY_FLOAT32) {
            float x = (float)f;
            memcpy(p, &x, 4);
        } else {
            memcpy(p, &f, 8);
        }
        return true;
    }
    /* an integer (or Bool) target: the value must be an integer that fits */
    int bits = ft->kind == TY_BOOL ? 1 : ft->bits;
    if (fl && (f != floor(f) || !isfinite(f)))
        return false;
    if (ty_is_signed(ft)) {
        double lo = -ldexp(1, bits - 1), hi = ldexp(1, bits - 1);
        int64_t v = fl ? (int64_t)f : (int64_t)a->v.i;
        if ((fl && (f < lo || f >= hi)) || (!fl && un && a->v.u > (uint64_t)INT64_MAX) ||
            (!fl && (v < (int64_t)lo || (bits < 64 && v >= (int64_t)hi))))
            return false;
        memcpy(p, &v, (size_t)bits / 8); /* little-endian: the low bytes */
        return true;
    }
    uint64_t v = fl ? (uint64_t)f : un ? a->v.u : (uint64_t)a->v.i;
    if ((fl && (f < 0 || f >= ldexp(1, bits))) || (!fl && !un && a->v.i < 0) || (bits < 64 && v >> bits))
        return false;
    if (ft->kind == TY_BOOL)
        p[0] = (unsigned char)v;
    else
        memcpy(p, &v, (size_t)bits / 8);
    return true;
}

/* Write scalar argument a as a value of primitive type ft at p; false if a is no scalar or does not
 * convert exactly. */
static bool put_scalar(const juke_arg *a, const Type *ft, const char *ftname, unsigned char *p)
{
    if (a->is_array || a->type < JUKE_BOOL || a->type > JUKE_FLOAT64)
        return false;
    if (strcmp(api_type_name(a->type), ftname) != 0)
        return convert_scalar(a, ft, p);
    size_t sz = (size_t)ty_arg_size(ft);
    if (a->type == JUKE_FLOAT32)
        memcpy(p, &a->v.f32, 4);
    else if (a->type == JUKE_FLOAT64)
        memcpy(p, &a->v.f64, 8);
    else if (a->type == JUKE_FLOAT16)
        memcpy(p, &a->v.f16, 2);
    else if (a->type == JUKE_BOOL)
        p[0] = a->v.i != 0;
    else
        memcpy(p, &a->v.u, sz); /* little-endian: the low bytes */
    return true;
}

/* The fields juke_value_pack fills: a tuple's or struct's, or a Complex{T}'s re and im (two T, Julia's
 * layout). */
static int pack_nfields(const Type *t)
{
    return t->kind == TY_COMPLEX ? 2 : t->nfields;
}

static const Type *pack_field(const Type *t, int i)
{
    return t->kind == TY_COMPLEX ? t->elem : t->fields[i];
}

static size_t pack_offset(const Type *t, int i)
{
    return t->kind == TY_COMPLEX ? (size_t)i * (size_t)ty_arg_size(t->elem) : field_offset(t, i);
}

/* The type of argument a in compilation c (an array's as a kernel takes it), or NULL. */
static const Type *arg_type(FeCompilation *c, const juke_arg *a)
{
    StrBuf err = { 0 };
    const Type *t = NULL;
    if (a->is_array && a->v.array) {
        const juke_array *arr = a->v.array;
        const Type *e = ty_parse(c->types, arr->elem == JUKE_VALUE ? arr->eltype : api_type_name(arr->elem), &err);
        t = e ? ty_array(c->types, e, arr->ndims) : NULL;
    } else if (!a->is_array && a->type == JUKE_VALUE && a->v.value.type) {
        t = ty_parse(c->types, a->v.value.type, &err);
    } else if (!a->is_array && a->type >= JUKE_BOOL && a->type <= JUKE_FLOAT64) {
        t = ty_parse(c->types, api_type_name(a->type), &err);
    }
    sb_free(&err);
    return t;
}

/* A device array a as a field of array type ft at p: its descriptor (docs/abi.md), as a launch passes an
 * array argument. The array must have ft's element type and rank. */
static bool put_array(FeCompilation *c, const juke_arg *a, const Type *ft, unsigned char *p)
{
    const juke_array *arr = a->is_array ? a->v.array : NULL;
    if (!arr || arg_type(c, a) != ft)
        return false;
    memcpy(p, &arr->ptr, 8);
    memcpy(p + 8, arr->dims, 8 * (size_t)arr->ndims);
    memcpy(p + 8 + 8 * (size_t)arr->ndims, &arr->length, 8);
    return true;
}

/* Field a of a range of element type elem (named ename), converted exactly, as an Int64. */
static bool range_field(const juke_arg *a, const Type *elem, const char *ename, int64_t *v)
{
    unsigned char b[8] = { 0 };
    if (!put_scalar(a, elem, ename, b))
        return false;
    uint64_t u;
    memcpy(&u, b, 8);
    if (elem->bits < 64 && ty_is_signed(elem) && (u >> (elem->bits - 1) & 1))
        u |= ~0ull << elem->bits;
    *v = (int64_t)u;
    return true;
}

/* A range from Julia's fields (UnitRange: start, stop; StepRange: start, step, stop) as juke holds it: start,
 * step and the last element reached, three Int64s (codegen.c's make_range); the last is Julia's, of
 * UnitRange's and steprange_last's constructors (an empty range's is start - step). */
static juke_status pack_range(juke_module *m, FeCompilation *c, const char *type, const Type *t, const juke_arg *fields,
                              int nfields, void *out, size_t size)
{
    int n = t->step ? 3 : 2;
    if (nfields != n || !fields || !out || size < 24)
        return api_fail(m->ctx, JUKE_ERR_ARGUMENT,
                        "juke_value_pack: %s takes %d fields (%s) and 24 bytes (got %d, %zu)", type, n,
                        t->step ? "start, step, stop" : "start, stop", nfields, out ? size : 0);
    const char *ename = ty_name(&c->arena, t->elem);
    int64_t v[3];
    for (int i = 0; i < n; i++)
        if (!range_field(&fields[i], t->elem, ename, &v[i]))
            return api_fail(m->ctx, JUKE_ERR_ARGUMENT,
                            "juke_value_pack: field %d of %s has type %s; give a number that converts to it exactly "
                            "(InexactError)",
                            i + 1, type, ename);
    int64_t start = v[0], step = t->step ? v[1] : 1, stop = v[n - 1], last;
    if (step == 0)
        return api_fail(m->ctx, JUKE_ERR_ARGUMENT, "juke_value_pack: %s: ArgumentError: step cannot be zero", type);
    if (stop == start)
        last = stop;
    else if ((step > 0) != (stop > start))
        last = start - step;
    else
        last = stop - (stop - start) % step;
    int64_t r[3] = { start, step, last };
    memset(out, 0, size);
    memcpy(out, r, sizeof r);
    return JUKE_OK;
}

juke_status juke_value_pack(juke_module *m, const char *type, const juke_arg *fields, int nfields, void *out,
                            size_t size)
{
    Diags d = { 0 };
    FeCompilation *c;
    const Type *t = value_type(m, "juke_value_pack", type, &d, &c);
    juke_status st = JUKE_ERR_ARGUMENT;
    if (!t)
        goto done;
    if (t->kind == TY_RANGE && t->elem && t->step >= 0) {
        st = pack_range(m, c, type, t, fields, nfields, out, size);
        goto done;
    }
    if (t->kind != TY_TUPLE && t->kind != TY_STRUCT && t->kind != TY_COMPLEX) {
        api_fail(m->ctx, JUKE_ERR_ARGUMENT, "juke_value_pack: %s is not a tuple, struct, complex or range type", type);
        goto done;
    }
    if (nfields != pack_nfields(t) || (nfields && !fields) || !out || size < (size_t)ty_arg_size(t)) {
        api_fail(m->ctx, JUKE_ERR_ARGUMENT, "juke_value_pack: %s takes %d field%s and %d bytes (got %d, %zu)", type,
                 pack_nfields(t), pack_nfields(t) == 1 ? "" : "s", ty_arg_size(t), nfields, out ? size : 0);
        goto done;
    }
    memset(out, 0, size);
    for (int i = 0; i < nfields; i++) {
        const Type *ft = pack_field(t, i);
        unsigned char *p = (unsigned char *)out + pack_offset(t, i);
        const juke_arg *a = &fields[i];
        const char *ftname = ty_name(&c->arena, ft);
        bool ok;
        if (ty_is_prim(ft)) {
            ok = put_scalar(a, ft, ftname, p);
        } else if (ft->kind == TY_ARRAY) {
            ok = put_array(c, a, ft, p);
        } else {
            const Type *at = !a->is_array && a->type == JUKE_VALUE ? arg_type(c, a) : NULL;
            ok = at == ft && a->v.value.size == (size_t)ty_arg_size(ft) && (a->v.value.bytes || !a->v.value.size);
            if (ok && a->v.value.size)
                memcpy(p, a->v.value.bytes, a->v.value.size);
        }
        if (!ok) {
            api_fail(m->ctx, JUKE_ERR_ARGUMENT, "juke_value_pack: field %d of %s has type %s; give a %s", i + 1, type,
                     ftname,
                     ty_is_prim(ft)         ? "number that converts to it exactly (InexactError)"
                     : ft->kind == TY_ARRAY ? "device array of that element type and rank (juke_arg_array)"
                                            : "JUKE_VALUE of that type and size");
            goto done;
        }
    }
    st = JUKE_OK;
done:
    fe_compilation_free(c);
    diag_reset(&d);
    return st;
}

juke_status juke_value_field(juke_module *m, const char *type, const char *field, int *index)
{
    static const char who[] = "juke_value_field";
    if (!field || !index)
        return api_fail(m ? m->ctx : NULL, JUKE_ERR_ARGUMENT, "%s: NULL argument", who);
    Diags d = { 0 };
    FeCompilation *c;
    const Type *t = value_type(m, who, type, &d, &c);
    juke_status st = JUKE_ERR_ARGUMENT; /* without t, value_type said why */
    char *end;
    long n = strtol(field, &end, 10);
    if (t && field[0] >= '1' && field[0] <= '9' && !*end && n <= t->nfields) { /* getfield(x, n) */
        *index = (int)n - 1;
        st = JUKE_OK;
    }
    for (int i = 0; t && t->fnames && i < t->nfields && st != JUKE_OK; i++)
        if (t->fnames[i] && strcmp(t->fnames[i], field) == 0) {
            *index = i;
            st = JUKE_OK;
        }
    if (t && st != JUKE_OK)
        api_fail(m->ctx, JUKE_ERR_ARGUMENT, "%s: %s has no field %s", who, type, field);
    fe_compilation_free(c);
    diag_reset(&d);
    return st;
}

juke_status juke_value_type(juke_module *m, const char *name, const juke_arg *fields, int nfields, char *out,
                            size_t size)
{
    static const char who[] = "juke_value_type";
    if (!m || !name || (nfields && !fields) || nfields < 0 || nfields > 64 || !out || !size)
        return api_fail(m ? m->ctx : NULL, JUKE_ERR_ARGUMENT, "%s: NULL or bad argument", who);
    out[0] = 0;
    Diags d = { 0 };
    FeCompilation *c = fe_compilation_new(m->fe, &d);
    if (!c)
        return api_fail(m->ctx, JUKE_ERR_NOMEM, "out of memory");
    juke_status st = JUKE_OK;
    StructDef *sd = strchr(name, '{') ? NULL : fe_find_struct(c->mod, name);
    const Type *S = sd && sd->ntvars ? struct_type(c, sd, NULL, 0, sd->loc, true) : NULL;
    if (S && (S->flags & TF_UNIONALL)) {
        /* Model(w, 3f0) of Model{A}: A from the fields' types, as Julia's default outer constructor finds it */
        const Type *at[64];
        for (int i = 0; i < nfields && st == JUKE_OK; i++)
            if (!(at[i] = arg_type(c, &fields[i])))
                st = api_fail(m->ctx, JUKE_ERR_ARGUMENT, "%s: field %d of %s: not a scalar, array or typed value", who,
                              i + 1, name);
        const Type *T = st == JUKE_OK ? struct_default_ctor(c, S, at, nfields) : NULL;
        if (st == JUKE_OK && !T)
            st = api_fail(m->ctx, JUKE_ERR_ARGUMENT,
                          "%s: no method %s(...) of these %d field types: its parameters are not found from them", who,
                          name, nfields);
        if (T) {
            StrBuf sb = { 0 };
            ty_print(&sb, T);
            if (!sb.data || sb.len >= size)
                st = api_fail(m->ctx, sb.data ? JUKE_ERR_ARGUMENT : JUKE_ERR_NOMEM, "%s: %s's type is too long", who,
                              name);
            else
                memcpy(out, sb.data, sb.len + 1);
            sb_free(&sb);
        }
    } else if (strlen(name) >= size) {
        st = api_fail(m->ctx, JUKE_ERR_ARGUMENT, "%s: %s is too long", who, name);
    } else {
        strcpy(out, name); /* a concrete type already: juke_value_pack converts the fields */
    }
    fe_compilation_free(c);
    diag_reset(&d);
    return st;
}

/* Whether the device arrays inside the value at p of type t (its array fields, at any depth) all have fewer
 * than 2^31 elements; *len the length of the first that has not. Each is its descriptor (docs/abi.md): the
 * pointer, the dims, the length. */
static bool value_arrays_fit32(const Type *t, const unsigned char *p, int64_t *len)
{
    if (t->kind == TY_ARRAY) {
        memcpy(len, p + 8 + 8 * (size_t)t->ndims, 8);
        return *len < ((int64_t)1 << 31);
    }
    if (t->kind != TY_TUPLE && t->kind != TY_STRUCT)
        return true;
    for (int i = 0; i < t->nfields; i++)
        if (!value_arrays_fit32(t->fields[i], p + field_offset(t, i), len))
            return false;
    return true;
}

bool api_value_fits32(juke_module *m, const juke_arg *a, int64_t *len)
{
    /* the smallest descriptor (a vector's) is 24 bytes: a smaller value holds no array, nor does one whose
     * type does not parse (the launch reports that) */
    if (a->is_array || a->type != JUKE_VALUE || a->v.value.size < 24 || !a->v.value.bytes || !a->v.value.type)
        return true;
    Diags d = { 0 };
    FeCompilation *c = fe_compilation_new(m->fe, &d);
    StrBuf err = { 0 };
    const Type *t = c ? ty_parse(c->types, a->v.value.type, &err) : NULL;
    bool fits = !t || (size_t)ty_arg_size(t) > a->v.value.size || value_arrays_fit32(t, a->v.value.bytes, len);
    sb_free(&err);
    fe_compilation_free(c);
    diag_reset(&d);
    return fits;
}

/* Type text as juke_compile takes it, without blanks: "Tuple{Float32, Int32}" is "Tuple{Float32,Int32}". */
static void squeeze(char *dst, size_t n, const char *src)
{
    size_t k = 0;
    for (; *src && k + 1 < n; src++)
        if (*src != ' ' && *src != '\t')
            dst[k++] = *src;
    dst[k] = 0;
}

bool api_value_matches(const char *given, const char *compiled)
{
    char a[512], b[512];
    squeeze(a, sizeof a, given);
    squeeze(b, sizeof b, compiled);
    return strcmp(a, b) == 0;
}

juke_status juke_array_create_value(juke_device *dev, juke_module *m, const char *elemtype, int ndims,
                                    const int64_t *dims, juke_array **out)
{
    static const char who[] = "juke_array_create_value";
    if (out)
        *out = NULL;
    if (!dev || !m || !out || !elemtype || ndims < 1 || ndims > 8 || !dims)
        return api_fail(dev ? dev->ctx : NULL, JUKE_ERR_ARGUMENT, "%s: NULL argument or %d dimensions (1 to 8)", who,
                        ndims);
    Diags d = { 0 };
    FeCompilation *c;
    const Type *t = value_type(m, who, elemtype, &d, &c);
    size_t es = t ? (size_t)ty_arg_size(t) : 0;
    bool ok = t && (((t->kind == TY_TUPLE || t->kind == TY_STRUCT) && ty_bits_only(t) && es > 0) ||
                    t->kind == TY_INT128 || t->kind == TY_UINT128);
    fe_compilation_free(c);
    diag_reset(&d);
    if (!t)
        return JUKE_ERR_ARGUMENT;
    if (!ok || strlen(elemtype) >= sizeof((*out)->eltype))
        return api_fail(m->ctx, JUKE_ERR_ARGUMENT,
                        "%s: %s is no element type: give a tuple or struct of numbers, Int128 or UInt128 (or use "
                        "juke_array_create)",
                        who, elemtype);
    /* the memory as bytes, then the array as elements of the type */
    int64_t len = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0 || (dims[i] && len > INT64_MAX / (int64_t)es / 16 / dims[i]))
            return api_fail(m->ctx, JUKE_ERR_ARGUMENT, "%s: bad dimension %d (%lld)", who, i + 1, (long long)dims[i]);
        len *= dims[i];
    }
    int64_t bytes = len * (int64_t)es;
    juke_array *a;
    juke_status st = juke_array_create(dev, JUKE_UINT8, 1, &bytes, &a);
    if (st)
        return st;
    a->elem = JUKE_VALUE;
    a->elsize = es;
    snprintf(a->eltype, sizeof a->eltype, "%s", elemtype);
    a->ndims = ndims;
    memcpy(a->dims, dims, sizeof(int64_t) * (size_t)ndims);
    a->length = len;
    *out = a;
    return JUKE_OK;
}
