/* literal.c: kernel arguments written as Julia literals on the command line
 * (see literal.h). The types follow Julia's literal rules, so `juke run`
 * passes what the same text would be in a Julia session. */
#include "literal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Float64 to Float16 bits, rounding to nearest even as Julia's Float16(x). */
uint16_t lit_f64_to_f16(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    uint16_t sign = (uint16_t)((b >> 48) & 0x8000);
    int bexp = (int)((b >> 52) & 0x7ff);
    uint64_t man = b & ((1ULL << 52) - 1);
    if (bexp == 0x7ff)
        return sign | 0x7c00 | (man ? 0x200 : 0);
    if (bexp == 0)
        return sign; /* a Float64 subnormal is far below Float16's range */
    int e = bexp - 1023;
    if (e > 15)
        return sign | 0x7c00;
    uint64_t full = man | (1ULL << 52);
    /* Normal results keep 11 significant bits; subnormal ones count units of 2^-24. */
    int shift = e >= -14 ? 42 : 28 - e;
    if (shift >= 54)
        return sign;
    uint64_t q = full >> shift, rem = full & ((1ULL << shift) - 1), half = 1ULL << (shift - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    if (e < -14)
        return sign | (uint16_t)q;                                  /* q == 1024 is the smallest normal, as bits */
    uint32_t r = ((uint32_t)(e + 15) << 10) + (uint32_t)(q - 1024); /* a carry bumps the exponent */
    return sign | (uint16_t)(r >= 0x7c00 ? 0x7c00 : r);
}

/* A parsed literal: ints in i (signed, Bool) or u (unsigned), floats in f. */
typedef struct Lit {
    juke_type type;
    int64_t i;
    uint64_t u;
    double f;
} Lit;

static bool lit_is_float(juke_type t)
{
    return t == JUKE_FLOAT16 || t == JUKE_FLOAT32 || t == JUKE_FLOAT64;
}
static bool lit_is_unsigned(juke_type t)
{
    return t >= JUKE_UINT8 && t <= JUKE_UINT64;
}

static const struct {
    const char *name;
    juke_type type;
    int bits;
} lit_types[] = {
    { "Bool", JUKE_BOOL, 1 },        { "Int8", JUKE_INT8, 8 },        { "Int16", JUKE_INT16, 16 },
    { "Int32", JUKE_INT32, 32 },     { "Int64", JUKE_INT64, 64 },     { "Int", JUKE_INT64, 64 },
    { "UInt8", JUKE_UINT8, 8 },      { "UInt16", JUKE_UINT16, 16 },   { "UInt32", JUKE_UINT32, 32 },
    { "UInt64", JUKE_UINT64, 64 },   { "UInt", JUKE_UINT64, 64 },     { "Float16", JUKE_FLOAT16, 16 },
    { "Float32", JUKE_FLOAT32, 32 }, { "Float64", JUKE_FLOAT64, 64 },
};

/* Julia's unsigned literals take the smallest type holding their digits
 * (leading zeros count): 0x1f is a UInt8, 0x001f a UInt16. */
static bool parse_unsigned_literal(const char *s, Lit *out)
{
    int base = s[1] == 'x' ? 16 : s[1] == 'b' ? 2 : 8;
    int bits_per_digit = base == 16 ? 4 : base == 2 ? 1 : 3;
    const char *d = s + 2;
    size_t ndig = strlen(d);
    char *end;
    if (!ndig)
        return false;
    errno = 0;
    unsigned long long v = strtoull(d, &end, base);
    if (errno || *end || *d == '-' || *d == '+')
        return false;
    size_t bits = ndig * (size_t)bits_per_digit;
    if (base == 8) /* octal counts the value's bits */
        for (bits = 1; bits < 64 && (v >> bits); bits++)
            ;
    out->type = bits <= 8 ? JUKE_UINT8 : bits <= 16 ? JUKE_UINT16 : bits <= 32 ? JUKE_UINT32 : JUKE_UINT64;
    if (bits > 64)
        return false;
    out->u = v;
    return true;
}

/* A Julia number or Bool literal, without a type wrapper. Underscores
 * between digits are allowed as in Julia (1_000_003). */
static bool parse_plain_literal(const char *text, Lit *out)
{
    char buf[128];
    size_t n = 0;
    for (const char *p = text; *p; p++)
        if (*p != '_') {
            if (n + 1 >= sizeof buf)
                return false;
            buf[n++] = *p;
        }
    buf[n] = '\0';
    memset(out, 0, sizeof *out);
    if (!strcmp(buf, "true") || !strcmp(buf, "false")) {
        out->type = JUKE_BOOL;
        out->i = buf[0] == 't';
        return true;
    }
    bool neg = buf[0] == '-';
    const char *s = buf + (buf[0] == '-' || buf[0] == '+');
    static const struct {
        const char *name;
        juke_type type;
        double v;
    } specials[] = {
        { "Inf", JUKE_FLOAT64, INFINITY },   { "Inf64", JUKE_FLOAT64, INFINITY }, { "Inf32", JUKE_FLOAT32, INFINITY },
        { "Inf16", JUKE_FLOAT16, INFINITY }, { "NaN", JUKE_FLOAT64, NAN },        { "NaN64", JUKE_FLOAT64, NAN },
        { "NaN32", JUKE_FLOAT32, NAN },      { "NaN16", JUKE_FLOAT16, NAN },
    };
    for (int i = 0; i < (int)(sizeof specials / sizeof specials[0]); i++)
        if (!strcmp(s, specials[i].name)) {
            out->type = specials[i].type;
            out->f = neg ? -specials[i].v : specials[i].v;
            return true;
        }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'b' || s[1] == 'o')) {
        if (!parse_unsigned_literal(s, out))
            return false;
        if (neg) { /* Julia negates an unsigned literal modulo 2^bits: -0x01 == 0xff */
            int bits = out->type == JUKE_UINT8 ? 8 : out->type == JUKE_UINT16 ? 16 : out->type == JUKE_UINT32 ? 32 : 64;
            out->u = (0 - out->u) & (bits == 64 ? UINT64_MAX : ((1ULL << bits) - 1));
        }
        return true;
    }
    /* Decimal: digits, an optional fraction, an optional exponent (e/E Float64, f Float32). */
    const char *p = s;
    int ndigits = 0;
    bool is_float = false;
    while (*p >= '0' && *p <= '9')
        p++, ndigits++;
    if (*p == '.') {
        is_float = true;
        p++;
        while (*p >= '0' && *p <= '9')
            p++, ndigits++;
    }
    if (!ndigits)
        return false;
    char expchar = 0;
    if (*p == 'e' || *p == 'E' || *p == 'f') {
        expchar = *p;
        char *e = (char *)p;
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return false;
        while (*p >= '0' && *p <= '9')
            p++;
        if (expchar == 'f')
            *e = 'e'; /* for strtof */
        is_float = true;
    }
    if (*p)
        return false;
    char *end;
    errno = 0;
    if (expchar == 'f') {
        out->type = JUKE_FLOAT32;
        out->f = strtof(buf, &end); /* rounded once, from the decimal, as Julia does */
    } else if (is_float) {
        out->type = JUKE_FLOAT64;
        out->f = strtod(buf, &end);
    } else {
        out->type = JUKE_INT64;
        out->i = strtoll(buf, &end, 10);
        if (errno == ERANGE)
            return false; /* Julia would make an Int128 or BigInt */
    }
    return *end == '\0';
}

/* Convert a literal to type t as Julia's T(x) does: exact, or an InexactError. */
static bool lit_convert(Lit *l, juke_type t, int bits)
{
    if (lit_is_float(t)) {
        double v = lit_is_float(l->type) ? l->f : lit_is_unsigned(l->type) ? (double)l->u : (double)l->i;
        l->f = t == JUKE_FLOAT32 ? (double)(float)v : v;
        l->type = t;
        return true;
    }
    /* To an integer (or Bool): the value must be integral and in range. */
    bool neg = false;
    uint64_t mag;
    if (lit_is_float(l->type)) {
        if (!(l->f == floor(l->f)) || fabs(l->f) >= 18446744073709551616.0)
            return false;
        neg = l->f < 0;
        mag = (uint64_t)fabs(l->f);
    } else if (lit_is_unsigned(l->type)) {
        mag = l->u;
    } else {
        neg = l->i < 0;
        mag = neg ? 0 - (uint64_t)l->i : (uint64_t)l->i;
    }
    if (t == JUKE_BOOL) {
        if (neg || mag > 1)
            return false;
        l->i = (int64_t)mag;
    } else if (lit_is_unsigned(t)) {
        if ((neg && mag) || (bits < 64 && mag >> bits))
            return false;
        l->u = mag;
    } else {
        uint64_t lim = 1ULL << (bits - 1); /* |typemin| */
        if (neg ? mag > lim : mag >= lim)
            return false;
        l->i = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    }
    l->type = t;
    return true;
}

static int scalar_type_named(const char *p, size_t n);

/* typemin(T) or typemax(T) of a scalar type T (a float's is -Inf or Inf), the n bytes at t naming T. */
static bool type_extreme(bool max, const char *t, size_t n, Lit *out)
{
    int ti = scalar_type_named(t, n);
    if (ti < 0)
        return false;
    memset(out, 0, sizeof *out);
    juke_type ty = lit_types[ti].type;
    int bits = lit_types[ti].bits;
    out->type = ty;
    if (lit_is_float(ty))
        out->f = max ? INFINITY : -INFINITY;
    else if (lit_is_unsigned(ty))
        out->u = max ? (bits == 64 ? UINT64_MAX : (1ULL << bits) - 1) : 0;
    else if (ty == JUKE_BOOL)
        out->i = max;
    else
        out->i = max ? (int64_t)((1ULL << (bits - 1)) - 1) : (int64_t)(0 - (1ULL << (bits - 1)));
    return true;
}

/* A kernel argument written as a Julia literal: 2.5f0, 2.5, 3, -3, 1e-3,
 * 0x1f, true, Int32(7), UInt8(1), Float16(1.5), typemin(Int64). */
static bool parse_literal(const char *text, Lit *out, const char **why)
{
    *why = "not a Julia literal (2.5f0, 2.5, 3, Int32(7), true, ...) nor a .npy file";
    const char *open = strchr(text, '(');
    if (!open)
        return parse_plain_literal(text, out);
    size_t len = strlen(text);
    if (text[len - 1] != ')')
        return false;
    if ((open - text == 7) && (strncmp(text, "typemin", 7) == 0 || strncmp(text, "typemax", 7) == 0))
        return type_extreme(text[5] == 'a', open + 1, len - 9, out);
    for (int i = 0; i < (int)(sizeof lit_types / sizeof lit_types[0]); i++) {
        size_t n = strlen(lit_types[i].name);
        if ((size_t)(open - text) != n || strncmp(text, lit_types[i].name, n))
            continue;
        char inner[128];
        size_t m = len - n - 2;
        if (m == 0 || m >= sizeof inner)
            return false;
        memcpy(inner, open + 1, m);
        inner[m] = '\0';
        Lit v;
        const char *inner_why;
        if (!parse_literal(inner, &v, &inner_why))
            return false;
        if (!lit_convert(&v, lit_types[i].type, lit_types[i].bits)) {
            *why = "InexactError: the value does not fit the type";
            return false;
        }
        *out = v;
        return true;
    }
    *why = "unknown type (Bool, Int8..Int64, UInt8..UInt64, Float16, Float32, Float64)";
    return false;
}

static juke_arg lit_to_arg(const Lit *l)
{
    juke_arg a = { false, l->type, { 0 } };
    switch (l->type) {
    case JUKE_FLOAT16: a.v.f16 = lit_f64_to_f16(l->f); break;
    case JUKE_FLOAT32: a.v.f32 = (float)l->f; break;
    case JUKE_FLOAT64: a.v.f64 = l->f; break;
    case JUKE_UINT8:
    case JUKE_UINT16:
    case JUKE_UINT32:
    case JUKE_UINT64: a.v.u = l->u; break;
    default: a.v.i = l->i; break;
    }
    return a;
}

bool lit_parse(const char *text, juke_arg *out, const char **why)
{
    Lit l;
    if (!parse_literal(text, &l, why))
        return false;
    *out = lit_to_arg(&l);
    return true;
}

/* ---- values of other types: tuples, structs, named tuples, types, symbols, functions ---- */

typedef struct VParser {
    juke_context *ctx;
    juke_module *m;
    juke_device *dev; /* where a field's array literal is made; NULL: none may appear */
    const char *p;
    char *why;
    size_t whyn;
    LitBlobs *blobs;
    int field; /* the top-level field being parsed (LitBlobs.array_fields) */
} VParser;

static void vp_space(VParser *v)
{
    while (*v->p == ' ' || *v->p == '\t')
        v->p++;
}

static bool vp_fail(VParser *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool vp_fail(VParser *v, const char *fmt, ...)
{
    if (!v->why[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(v->why, v->whyn, fmt, ap);
        va_end(ap);
    }
    return false;
}
static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '!' ||
           (unsigned char)c >= 0x80;
}

/* The end of a balanced stretch from p (brackets nest) at a top-level ',' or the closer. */
static const char *vp_item_end(const char *p)
{
    int depth = 0;
    for (; *p; p++) {
        if (*p == '(' || *p == '{' || *p == '[')
            depth++;
        else if (*p == ')' || *p == '}' || *p == ']') {
            if (depth == 0)
                return p;
            depth--;
        } else if (*p == ',' && depth == 0)
            return p;
    }
    return p;
}

static const char *const scalar_names[] = { "?",      "Bool",   "Int8",   "Int16",   "Int32",   "Int64",  "UInt8",
                                            "UInt16", "UInt32", "UInt64", "Float16", "Float32", "Float64" };

/* Keep p (malloc'd) until lit_blobs_free; false when out of memory (p freed). */
static bool keep(LitBlobs *b, void *p)
{
    void **n = realloc(b->items, sizeof(void *) * (size_t)(b->n + 1));
    if (!n) {
        free(p);
        return false;
    }
    b->items = n;
    b->items[b->n++] = p;
    return true;
}

/* A value of struct type `type` from its fields: packed into bytes the blobs own (as the type's copy). */
static bool vp_pack(VParser *v, const char *type, const juke_arg *fields, int n, juke_arg *out)
{
    size_t size = 0;
    juke_status st = juke_value_layout(v->m, type, &size, NULL, NULL, NULL, 0);
    char *tcopy = strdup(type);
    void *bytes = malloc(size ? size : 1);
    if (!tcopy || !bytes || !keep(v->blobs, tcopy) || !keep(v->blobs, bytes)) {
        if (!tcopy)
            free(bytes);
        return vp_fail(v, "%s", "out of memory");
    }
    if (st == JUKE_OK)
        st = juke_value_pack(v->m, type, fields, n, bytes, size);
    if (st != JUKE_OK)
        return vp_fail(v, "%s", juke_errmsg(v->ctx));
    *out = juke_arg_value(tcopy, bytes, size);
    return true;
}

static bool vp_value(VParser *v, juke_arg *out, int depth);
static bool parse_int128_arg(const char *text, bool *is_unsigned, unsigned __int128 *out, const char **why);
static bool parse_int128_text(const char *text, bool *neg, unsigned __int128 *mag);

/* The scalar type named by the n bytes at p (Float32, Int, ...), or -1. */
static int scalar_type_named(const char *p, size_t n)
{
    for (int i = 0; i < (int)(sizeof lit_types / sizeof lit_types[0]); i++)
        if (strlen(lit_types[i].name) == n && strncmp(p, lit_types[i].name, n) == 0)
            return i;
    return -1;
}

bool lit_type_named(const char *p, size_t n, juke_type *out)
{
    int i = scalar_type_named(p, n);
    if (i >= 0)
        *out = lit_types[i].type;
    else if (n == 10 && (strncmp(p, "ComplexF32", 10) == 0 || strncmp(p, "ComplexF64", 10) == 0))
        *out = p[9] == '2' ? JUKE_COMPLEXF32 : JUKE_COMPLEXF64;
    else
        return false;
    return true;
}

const char *lit_type_name(juke_type t)
{
    if (t == JUKE_COMPLEXF32 || t == JUKE_COMPLEXF64)
        return t == JUKE_COMPLEXF32 ? "ComplexF32" : "ComplexF64";
    return t >= JUKE_BOOL && t <= JUKE_FLOAT64 ? scalar_names[t] : "?";
}

/* ---- complex numbers: 1.0+2.0im, 1f0-0.5f0im, 2.5im ---- */

/* The bytes of a real part of a complex number of type t at dst (its part type: Float32 or Float64). */
static void put_part(juke_type t, double x, unsigned char *dst)
{
    if (t == JUKE_COMPLEXF32) {
        float f = (float)x;
        memcpy(dst, &f, 4);
    } else {
        memcpy(dst, &x, 8);
    }
}

/* A complex literal as Julia writes one: re+imim, re-imim or imim, blanks allowed around the sign. Its type
 * is Julia's promotion of the parts' (ComplexF64 if one is a Float64, else ComplexF32 if one is a Float32:
 * 1f0+2im is a ComplexF32); integer or Float16 parts alone are Complex{Int64} and ComplexF16, which juke's
 * arguments do not take. False if text is none (*why set when it is one of those). */
static bool parse_complex(const char *text, double *re, double *im, juke_type *t, const char **why)
{
    char buf[128];
    size_t n = 0;
    for (const char *p = text; *p; p++)
        if (*p != ' ') {
            if (n + 1 >= sizeof buf)
                return false;
            buf[n++] = *p;
        }
    if (n < 3 || strncmp(buf + n - 2, "im", 2) != 0)
        return false;
    buf[n - 2] = 0;
    /* the imaginary part starts at the last sign that is not an exponent's (1e-3+2im) */
    char *split = NULL;
    for (char *p = buf + 1; *p; p++)
        if ((*p == '+' || *p == '-') &&
            !(strchr("eEf", p[-1]) && p - 1 > buf && (isdigit((unsigned char)p[-2]) || p[-2] == '.')))
            split = p;
    Lit r = { JUKE_INT64, 0, 0, 0 }, i;
    char imtext[128];
    snprintf(imtext, sizeof imtext, "%s", split ? split : buf);
    if (split) {
        *split = 0;
        if (!parse_plain_literal(buf, &r))
            return false;
    }
    if (!parse_plain_literal(imtext, &i))
        return false;
    bool f64 = r.type == JUKE_FLOAT64 || i.type == JUKE_FLOAT64;
    bool f32 = r.type == JUKE_FLOAT32 || i.type == JUKE_FLOAT32;
    if (!f64 && !f32) {
        *why = "a complex literal needs a Float32 or Float64 part (1.0+2.0im, 1f0+2f0im): juke takes no "
               "Complex{Int64} or ComplexF16";
        return false;
    }
    *t = f64 ? JUKE_COMPLEXF64 : JUKE_COMPLEXF32;
    lit_convert(&r, JUKE_FLOAT64, 64);
    lit_convert(&i, JUKE_FLOAT64, 64);
    *re = r.f;
    *im = i.f;
    return true;
}

/* A decimal literal past typemax(Int64) (Julia's Int128) up to typemax(UInt64), as the UInt64 it converts to
 * exactly: UInt64[13639972463760760124]. */
static bool parse_wide_literal(const char *text, Lit *out)
{
    bool neg;
    unsigned __int128 mag;
    const char *d = text + (*text == '-' || *text == '+');
    if (d[0] == '0' && (d[1] == 'x' || d[1] == 'b' || d[1] == 'o'))
        return false;
    if (!parse_int128_text(text, &neg, &mag) || neg || mag >> 64)
        return false;
    memset(out, 0, sizeof *out);
    out->type = JUKE_UINT64;
    out->u = (uint64_t)mag;
    return true;
}

/* ---- arrays: T[v1, ...], zeros(T, d...), reshape(T[v...], d...), collect(T, a:b) ---- */

/* The end of an element type's text at p: a name with dots and @, and {...} (Float32, NTuple{2, Float32},
 * Main.P{Float64}, @NamedTuple{a::Int32}). */
static const char *type_text_end(const char *p)
{
    int depth = 0;
    for (; *p; p++) {
        if (*p == '{')
            depth++;
        else if (*p == '}')
            depth--;
        else if (depth == 0 && !ident_char(*p) && *p != '.' && *p != '@')
            return p;
        if (depth < 0)
            return p;
    }
    return p;
}

bool lit_is_array(const char *text)
{
    if (strncmp(text, "zeros(", 6) == 0 || strncmp(text, "reshape(", 8) == 0 || strncmp(text, "collect(", 8) == 0)
        return true;
    const char *q = type_text_end(text);
    return q > text && *q == '[';
}

/* Integer dims ", d1, d2, ...)" at v->p (after the array or type), 1 to 8 of them; false on error. */
static bool vp_dims(VParser *v, const char *what, LitArray *a)
{
    a->nd = 0;
    vp_space(v);
    while (*v->p == ',') {
        v->p++;
        char *end;
        long long d = strtoll(v->p, &end, 10);
        if (end == v->p || d < 0 || a->nd == 8)
            return vp_fail(v, "bad array dimension at \"%s\"", v->p);
        a->dims[a->nd++] = d;
        v->p = end;
        vp_space(v);
    }
    if (*v->p != ')')
        return vp_fail(v, "expected ')' after the dims at \"%s\"", v->p);
    v->p++;
    if (!a->nd)
        return vp_fail(v, "%s needs dims", what);
    return true;
}

/* The element type T at v->p (a scalar type, ComplexF32/ComplexF64, or with a module Int128, UInt128 or a
 * tuple or struct type): a's type, elemtype and elsize. */
static bool vp_elemtype(VParser *v, LitArray *a)
{
    vp_space(v);
    const char *q = type_text_end(v->p);
    size_t n = (size_t)(q - v->p);
    if (n == 0 || n >= sizeof a->elemtype)
        return vp_fail(v, "expected an element type at \"%s\"", v->p);
    memcpy(a->elemtype, v->p, n);
    a->elemtype[n] = 0;
    v->p = q;
    if (lit_type_named(a->elemtype, n, &a->type)) {
        a->elsize = juke_sizeof(a->type);
        return true;
    }
    a->type = JUKE_VALUE;
    if (!v->m)
        return vp_fail(v, "not an array of a number type: \"%s\"", a->elemtype);
    if (juke_value_layout(v->m, a->elemtype, &a->elsize, NULL, NULL, NULL, 0) != JUKE_OK || !a->elsize)
        return vp_fail(v, "%s", juke_errmsg(v->ctx));
    return true;
}

/* Room for element a->len (a->host grows by doubling); false when out of memory. */
static bool vp_grow(VParser *v, LitArray *a, int64_t *cap)
{
    if (a->len < *cap)
        return true;
    int64_t c = *cap ? *cap * 2 : 16;
    unsigned char *h = realloc(a->host, (size_t)c * a->elsize);
    if (!h)
        return vp_fail(v, "%s", "out of memory");
    a->host = h;
    *cap = c;
    return true;
}

/* Element text (n bytes) of an array of a's element type, written at a->host's element a->len (a complex
 * array's part, with LIT_COMPLEX_PARTS). */
static bool vp_element(VParser *v, LitArray *a, const char *text, int flags, int64_t *cap)
{
    unsigned char *dst;
    bool parts = (flags & LIT_COMPLEX_PARTS) && (a->type == JUKE_COMPLEXF32 || a->type == JUKE_COMPLEXF64);
    size_t psize = a->type == JUKE_COMPLEXF32 ? 4 : 8;
    if (parts) { /* the parts in turn: element len / 2, part len % 2 */
        int64_t el = a->len / 2;
        int64_t save = a->len;
        a->len = el;
        bool ok = vp_grow(v, a, cap);
        a->len = save;
        if (!ok)
            return false;
        dst = a->host + (size_t)el * a->elsize + (size_t)(save % 2) * psize;
    } else {
        if (!vp_grow(v, a, cap))
            return false;
        dst = a->host + (size_t)a->len * a->elsize;
    }
    Lit l;
    const char *why = NULL;
    if (a->type == JUKE_VALUE) {
        /* a 128-bit integer written bare (Int128[1, -2]) is T(v), as Julia converts it */
        bool wide = strcmp(a->elemtype, "Int128") == 0 || strcmp(a->elemtype, "UInt128") == 0;
        char val[700];
        if (snprintf(val, sizeof val, wide ? "%s(%s)" : "%s%s", wide ? a->elemtype : "", text) >= (int)sizeof val)
            return vp_fail(v, "%s", "array element too long");
        LitBlobs blobs = { 0 };
        VParser e = { v->ctx, v->m, NULL, val, v->why, v->whyn, &blobs };
        juke_arg x;
        bool ok = vp_value(&e, &x, 1);
        vp_space(&e);
        if (ok && (*e.p || x.is_array || x.type != JUKE_VALUE || x.v.value.size != a->elsize || !x.v.value.bytes))
            ok = vp_fail(v, "element \"%s\" is no %s", text, a->elemtype);
        if (ok)
            memcpy(dst, x.v.value.bytes, a->elsize);
        lit_blobs_free(&blobs);
        if (!ok)
            return false;
    } else if (a->type == JUKE_COMPLEXF32 || a->type == JUKE_COMPLEXF64) {
        double re, im = 0;
        juke_type ct;
        if (!parts && parse_complex(text, &re, &im, &ct, &why)) {
            put_part(a->type, re, dst);
            put_part(a->type, im, dst + psize);
        } else if (!why && parse_literal(text, &l, &why) && lit_convert(&l, JUKE_FLOAT64, 64)) {
            put_part(a->type, l.f, dst); /* a real: no imaginary part (or, in parts, one part) */
            if (!parts)
                put_part(a->type, 0, dst + psize);
        } else {
            return vp_fail(v, "bad array element \"%s\" (a complex or real number)", text);
        }
    } else {
        int ti = scalar_type_named(a->elemtype, strlen(a->elemtype));
        if (!parse_literal(text, &l, &why) && !parse_wide_literal(text, &l))
            return vp_fail(v, "bad array element \"%s\" (a number that converts exactly)", text);
        if (!lit_convert(&l, lit_types[ti].type, lit_types[ti].bits))
            return vp_fail(v, "bad array element \"%s\" (a number that converts exactly)", text);
        juke_arg x = lit_to_arg(&l);
        const void *src = a->type == JUKE_FLOAT16   ? (const void *)&x.v.f16
                          : a->type == JUKE_FLOAT32 ? (const void *)&x.v.f32
                          : a->type == JUKE_FLOAT64 ? (const void *)&x.v.f64
                                                    : (const void *)&x.v.u; /* little-endian: the low bytes */
        if (a->type == JUKE_BOOL)
            dst[0] = x.v.i != 0;
        else
            memcpy(dst, src, a->elsize);
    }
    a->len++;
    return true;
}

/* [v1, v2, ...] at v->p: the elements of a (a->len of them; a complex array's parts counted, with
 * LIT_COMPLEX_PARTS, then halved). */
static bool vp_elements(VParser *v, LitArray *a, int flags)
{
    if (*v->p != '[')
        return vp_fail(v, "expected '[' at \"%s\"", v->p);
    v->p++;
    int64_t cap = 0;
    for (vp_space(v); *v->p != ']';) {
        const char *end = vp_item_end(v->p);
        char text[512];
        size_t len = (size_t)(end - v->p);
        while (len && v->p[len - 1] == ' ')
            len--;
        if (len == 0 || len >= sizeof text)
            return vp_fail(v, "%s", len ? "array element too long" : "expected an array element");
        memcpy(text, v->p, len);
        text[len] = 0;
        if (!vp_element(v, a, text, flags, &cap))
            return false;
        v->p = end;
        if (*v->p == ',')
            v->p++;
        else if (*v->p != ']')
            return vp_fail(v, "expected ',' or ']' at \"%s\"", v->p);
        vp_space(v);
    }
    v->p++;
    if ((flags & LIT_COMPLEX_PARTS) && (a->type == JUKE_COMPLEXF32 || a->type == JUKE_COMPLEXF64)) {
        if (a->len % 2)
            return vp_fail(v, "%s", "a complex array lists its parts in turn: an even count");
        a->len /= 2;
    }
    return true;
}

/* An array literal at v->p: its element type, dims and elements on the host (see lit_parse_array). */
static bool vp_array_host(VParser *v, LitArray *a, int flags)
{
    memset(a, 0, sizeof *a);
    bool zeros = strncmp(v->p, "zeros(", 6) == 0, reshape = strncmp(v->p, "reshape(", 8) == 0;
    bool collect = strncmp(v->p, "collect(", 8) == 0;
    v->p += zeros ? 6 : reshape || collect ? 8 : 0;
    if (!vp_elemtype(v, a))
        return false;
    a->nd = 1;
    if (zeros) {
        if (!vp_dims(v, "zeros(T, dims...)", a))
            return false;
        int64_t n = 1;
        for (int i = 0; i < a->nd && n >= 0; i++)
            n = a->dims[i] && n > INT64_MAX / 16 / (int64_t)a->elsize / a->dims[i] ? -1 : n * a->dims[i];
        if (n < 0)
            return vp_fail(v, "%s", "array too large");
        a->len = n;
        a->host = calloc((size_t)(n ? n : 1), a->elsize);
        return a->host ? true : vp_fail(v, "%s", "out of memory");
    }
    if (collect) { /* collect(T, a:b): T.(a:b) */
        char *end;
        vp_space(v);
        if (*v->p != ',')
            return vp_fail(v, "%s", "collect(T, a:b)");
        long long lo = strtoll(v->p + 1, &end, 10), hi;
        if (end == v->p + 1 || *end != ':' || (hi = strtoll(end + 1, &end, 10), *end != ')') || hi - lo > (1 << 28))
            return vp_fail(v, "%s", "collect(T, a:b) of two integers");
        v->p = end + 1;
        int64_t cap = 0;
        for (long long k = lo; k <= hi; k++) {
            char text[32];
            snprintf(text, sizeof text, "%lld", k);
            if (!vp_element(v, a, text, 0, &cap))
                return false;
        }
        a->dims[0] = a->len;
        return a->host || (a->host = calloc(1, a->elsize)) ? true : vp_fail(v, "%s", "out of memory");
    }
    if (!vp_elements(v, a, flags))
        return false;
    if (!a->host && !(a->host = calloc(1, a->elsize)))
        return vp_fail(v, "%s", "out of memory");
    a->dims[0] = a->len;
    if (reshape) {
        if (!vp_dims(v, "reshape(A, dims...)", a))
            return false;
        int64_t m = 1;
        for (int i = 0; i < a->nd; i++)
            m *= a->dims[i];
        if (m != a->len)
            return vp_fail(v, "%s", "DimensionMismatch: reshape's dims do not multiply to the length");
    }
    return true;
}

bool lit_parse_array(juke_context *ctx, juke_module *m, const char *text, int flags, LitArray *out, char *why,
                     size_t whyn)
{
    VParser v = { ctx, m, NULL, text, why, whyn, NULL };
    why[0] = 0;
    bool ok = vp_array_host(&v, out, flags);
    vp_space(&v);
    if (ok && *v.p)
        ok = vp_fail(&v, "unexpected \"%s\" after the array", v.p);
    if (!ok)
        lit_array_free(out);
    return ok;
}

juke_status lit_array_make(juke_device *dev, juke_module *m, const LitArray *a, juke_array **out)
{
    if (a->type != JUKE_VALUE)
        return juke_array_from_host(dev, a->type, a->nd, a->dims, a->host, out);
    juke_status st = juke_array_create_value(dev, m, a->elemtype, a->nd, a->dims, out);
    if (st == JUKE_OK && (st = juke_array_upload(*out, a->host, (size_t)a->len * a->elsize)) != JUKE_OK) {
        juke_array_free(*out);
        *out = NULL;
    }
    return st;
}

void lit_array_type(const LitArray *a, char *buf, size_t n)
{
    const char *t = a->type == JUKE_VALUE ? a->elemtype : lit_type_name(a->type);
    if (a->nd == 1)
        snprintf(buf, n, "Vector{%s}", t);
    else if (a->nd == 2)
        snprintf(buf, n, "Matrix{%s}", t);
    else
        snprintf(buf, n, "Array{%s,%d}", t, a->nd);
}

void lit_array_free(LitArray *a)
{
    free(a->host);
    a->host = NULL;
}

/* A device array written as a field's value (a struct of arrays, as AMDGPU.jl's Adapt passes one), made on
 * v->dev and kept in the blobs until lit_blobs_free. */
static bool vp_array(VParser *v, juke_arg *out, int depth)
{
    if (!v->dev)
        return vp_fail(v, "%s", "an array inside a value needs a device");
    LitArray a;
    bool ok = vp_array_host(v, &a, 0);
    juke_array *arr = NULL;
    if (ok && lit_array_make(v->dev, v->m, &a, &arr) != JUKE_OK)
        ok = vp_fail(v, "%s", juke_errmsg(v->ctx));
    lit_array_free(&a);
    if (!ok)
        return false;
    juke_array **na = realloc(v->blobs->arrays, sizeof *na * (size_t)(v->blobs->narrays + 1));
    int *nf = na ? realloc(v->blobs->array_fields, sizeof *nf * (size_t)(v->blobs->narrays + 1)) : NULL;
    if (na)
        v->blobs->arrays = na;
    if (!nf) {
        juke_array_free(arr);
        return vp_fail(v, "%s", "out of memory");
    }
    v->blobs->array_fields = nf;
    nf[v->blobs->narrays] = depth == 1 ? v->field : -1;
    na[v->blobs->narrays++] = arr;
    *out = juke_arg_array(arr);
    return true;
}

/* "(a, b)" or "(x = a, y = b)" after the '(' (or NAME(...) with ctor NAME): the fields, then the packed value. */
static bool vp_composite(VParser *v, const char *ctor, size_t ctorlen, juke_arg *out, int depth)
{
    juke_arg fields[64];
    char names[64][64];
    int n = 0;
    bool named = false;
    vp_space(v);
    while (*v->p != ')') {
        if (n == 64)
            return vp_fail(v, "%s", "too many fields (at most 64)");
        /* name = value in a named tuple */
        const char *q = v->p;
        while (ident_char(*q))
            q++;
        const char *r = q;
        while (*r == ' ')
            r++;
        if (!ctor && q > v->p && *r == '=' && r[1] != '=') {
            size_t len = (size_t)(q - v->p);
            if (len >= sizeof names[n])
                return vp_fail(v, "%s", "field name too long");
            memcpy(names[n], v->p, len);
            names[n][len] = 0;
            named = true;
            v->p = r + 1;
        } else if (named) {
            return vp_fail(v, "%s", "every element of a named tuple needs a name: (a = 1, b = 2f0)");
        }
        if (depth == 0)
            v->field = n;
        if (!vp_value(v, &fields[n++], depth + 1))
            return false;
        vp_space(v);
        if (*v->p == ',') {
            v->p++;
            vp_space(v);
        } else if (*v->p != ')') {
            return vp_fail(v, "expected ',' or ')' at \"%s\"", v->p);
        }
    }
    v->p++;
    if (!ctor && n == 1 && !named && v->p[-2] != ',')
        return vp_fail(v, "%s", "a 1-tuple needs a trailing comma: (1f0,)");
    /* the type: NAME as written, or Tuple{...} / @NamedTuple{...} of the fields' types */
    char type[1024];
    size_t tl = 0;
    if (ctor && ctorlen == 14 && strncmp(ctor, "CartesianIndex", 14) == 0) {
        tl = (size_t)snprintf(type, sizeof type, "CartesianIndex{%d}", n); /* CartesianIndex(1, 1) */
    } else if (ctor) {
        if (ctorlen >= sizeof type)
            return vp_fail(v, "%s", "type name too long");
        char name[sizeof type];
        memcpy(name, ctor, ctorlen);
        name[ctorlen] = 0;
        /* Model(w, 3f0) of struct Model{A}: its parameters from the fields, as Julia's constructor finds them */
        if (juke_value_type(v->m, name, fields, n, type, sizeof type) != JUKE_OK)
            return vp_fail(v, "%s", juke_errmsg(v->ctx));
        tl = strlen(type);
    } else {
        tl = (size_t)snprintf(type, sizeof type, "%s{", named ? "@NamedTuple" : "Tuple");
        for (int i = 0; i < n && tl < sizeof type; i++) {
            char an[32];
            if (fields[i].is_array)
                snprintf(an, sizeof an, "Array{%s,%d}", lit_type_name(juke_array_eltype(fields[i].v.array)),
                         juke_array_ndims(fields[i].v.array));
            const char *fn = fields[i].is_array             ? an
                             : fields[i].type == JUKE_VALUE ? fields[i].v.value.type
                                                            : lit_type_name(fields[i].type);
            tl += (size_t)snprintf(type + tl, sizeof type - tl, "%s%s%s%s", i ? "," : "", named ? names[i] : "",
                                   named ? "::" : "", fn);
        }
        if (tl < sizeof type)
            tl += (size_t)snprintf(type + tl, sizeof type - tl, "}");
    }
    if (tl >= sizeof type)
        return vp_fail(v, "%s", "type too long");
    type[tl] = 0;
    return vp_pack(v, type, fields, n, out);
}

/* Is text a type's name, as Julia capitalises them: Float32, Params, a module's (WMMA_RDNA3.ColMajor)? */
static bool is_type_name(const char *text)
{
    const char *last = text;
    for (const char *p = text; *p; p++)
        if (*p == '.')
            last = p + 1;
        else if (!ident_char(*p))
            return false;
    return *last >= 'A' && *last <= 'Z';
}

/* An integer range as Julia writes one: LO:HI, LO:STEP:HI (Int64 bounds), or Base.OneTo(N) (juke's OneTo is
 * 1:N). The bounds in r[0..2] (start, step, stop) and whether a step was written; false if text is none. */
static bool range_text(const char *text, int64_t r[3], bool *stepped)
{
    const char *p = text;
    bool oneto = strncmp(p, "Base.OneTo(", 11) == 0 || strncmp(p, "OneTo(", 6) == 0;
    if (oneto)
        p = strchr(p, '(') + 1;
    int64_t v[3];
    int n = 0;
    for (;;) {
        while (*p == ' ')
            p++;
        char *end;
        errno = 0;
        long long x = strtoll(p, &end, 10);
        if (end == p || errno || n == 3)
            return false;
        v[n++] = x;
        for (p = end; *p == ' ';)
            p++;
        if (oneto || *p != ':')
            break;
        p++;
    }
    if (oneto ? (n != 1 || strcmp(p, ")") != 0) : (n < 2 || *p))
        return false;
    r[0] = oneto ? 1 : v[0];
    r[1] = n == 3 ? v[1] : 1;
    r[2] = v[n - 1];
    *stepped = n == 3;
    return true;
}

/* The type of a constant of Base's whose value has no bits (Base.Order.Forward, as sort!'s order= takes it), or
 * NULL; Base.Order.x and Base.x name x. */
static const char *base_singleton(const char *text)
{
    static const char *const consts[][2] = { { "Forward", "ForwardOrdering" },
                                             { "Reverse", "ReverseOrdering{ForwardOrdering}" } };
    if (strncmp(text, "Base.", 5) == 0)
        text += strncmp(text + 5, "Order.", 6) == 0 ? 11 : 5;
    for (int i = 0; i < (int)(sizeof consts / sizeof consts[0]); i++)
        if (strcmp(text, consts[i][0]) == 0)
            return consts[i][1];
    return NULL;
}

/* A value: a scalar literal, a tuple, a named tuple, NAME(...) of a struct, or a value without bits
 * (Type{T}, Val{x}, Val(x), :name, typeof(f), a function's name or an operator). */
static bool vp_value(VParser *v, juke_arg *out, int depth)
{
    vp_space(v);
    if (depth > 16)
        return vp_fail(v, "%s", "value nested too deeply");
    const char *start = v->p;
    if (*v->p == '(') {
        v->p++;
        return vp_composite(v, NULL, 0, out, depth);
    }
    if (depth > 0 && lit_is_array(v->p))
        return vp_array(v, out, depth);
    const char *end = vp_item_end(v->p);
    size_t len = (size_t)(end - start);
    while (len && start[len - 1] == ' ')
        len--;
    char text[512];
    if (len == 0)
        return vp_fail(v, "%s", "expected a value");
    bool long_text = len >= sizeof text; /* only a struct's constructor call: Model(Float32[...], 2f0) */
    memcpy(text, start, long_text ? sizeof text - 1 : len);
    text[long_text ? sizeof text - 1 : len] = 0;
    if (long_text)
        goto ctor;
    const char *why;
    if (lit_parse(text, out, &why)) {
        v->p = end;
        return true;
    }
    int64_t r[3];
    bool stepped;
    if (range_text(text, r, &stepped)) { /* UnitRange{Int64} / StepRange{Int64, Int64} from its fields */
        const char *type = stepped ? "StepRange{Int64, Int64}" : "UnitRange{Int64}";
        juke_arg f[3];
        int nf = 0;
        for (int i = 0; i < 3; i++)
            if (i != 1 || stepped)
                f[nf++] = (juke_arg){ false, JUKE_INT64, { .i = r[i] } };
        if (!vp_pack(v, type, f, nf, out))
            return false;
        v->p = end;
        return true;
    }
    double re, im;
    juke_type ct;
    why = NULL;
    if (parse_complex(text, &re, &im, &ct, &why)) { /* 1.0+2.0im: a ComplexF64, Julia's layout (re, im) */
        size_t ps = ct == JUKE_COMPLEXF32 ? 4 : 8;
        unsigned char *bytes = malloc(2 * ps);
        if (!bytes || !keep(v->blobs, bytes))
            return vp_fail(v, "%s", "out of memory");
        put_part(ct, re, bytes);
        put_part(ct, im, bytes + ps);
        *out = juke_arg_value(lit_type_name(ct), bytes, 2 * ps);
        v->p = end;
        return true;
    }
    if (why)
        return vp_fail(v, "%s", why);
    bool uns;
    unsigned __int128 wide;
    if (parse_int128_arg(text, &uns, &wide, &why)) {
        unsigned char *bytes = malloc(16);
        if (!bytes || !keep(v->blobs, bytes))
            return vp_fail(v, "%s", "out of memory");
        memcpy(bytes, &wide, 16);
        *out = juke_arg_value(uns ? "UInt128" : "Int128", bytes, 16);
        v->p = end;
        return true;
    }
    if (why)
        return vp_fail(v, "%s", why);
    /* values without bits: their type is all */
    const char *ghost = NULL;
    char buf[600];
    if (text[0] == ':' || strncmp(text, "Type{", 5) == 0 || strncmp(text, "Val{", 4) == 0 ||
        strncmp(text, "typeof(", 7) == 0) {
        ghost = text;
    } else if (strncmp(text, "Val(", 4) == 0 && text[len - 1] == ')') {
        snprintf(buf, sizeof buf, "Val{%.*s}", (int)len - 5, text + 4);
        ghost = buf;
    } else if (strcmp(text, "nothing") == 0 || strcmp(text, "missing") == 0) {
        ghost = text[0] == 'n' ? "Nothing" : "Missing"; /* the singletons, not functions */
    } else if (base_singleton(text)) {
        ghost = base_singleton(text); /* Base.Order.Forward: a ForwardOrdering */
    } else if (!strchr(text, '(') && is_type_name(text)) {
        snprintf(buf, sizeof buf, "Type{%s}", text); /* a type: Float32, WMMA_RDNA3.ColMajor */
        ghost = buf;
    } else if (!strchr(text, '(')) {
        snprintf(buf, sizeof buf, "typeof(%s)", text); /* a function: sin, +, myop */
        ghost = buf;
    }
    if (ghost) {
        char *t = strdup(ghost);
        if (!t || !keep(v->blobs, t))
            return vp_fail(v, "%s", "out of memory");
        *out = juke_arg_type(t);
        v->p = end;
        return true;
    }
ctor:;
    /* NAME(args) or NAME{params}(args): a struct by its constructor */
    const char *q = start;
    while (ident_char(*q) || *q == '.')
        q++;
    if (*q == '{') {
        int d = 0;
        for (; *q; q++)
            if (*q == '{')
                d++;
            else if (*q == '}' && --d == 0) {
                q++;
                break;
            }
    }
    if (q == start || *q != '(')
        return vp_fail(v, "not a Julia literal, tuple, struct or type: \"%s\"", text);
    v->p = q + 1;
    return vp_composite(v, start, (size_t)(q - start), out, depth);
}

/* A 128-bit integer literal: [-]digits (decimal, 0x, 0b or 0o, underscores between digits), |value| <
 * 2^128; false if it is none. */
static bool parse_int128_text(const char *text, bool *neg, unsigned __int128 *mag)
{
    const char *s = text;
    *neg = *s == '-';
    s += *s == '-' || *s == '+';
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'b' || s[1] == 'o')) {
        base = s[1] == 'x' ? 16 : s[1] == 'b' ? 2 : 8;
        s += 2;
    }
    unsigned __int128 v = 0, lim = ~(unsigned __int128)0;
    int ndig = 0;
    for (; *s; s++) {
        if (*s == '_' && ndig)
            continue;
        int d = *s >= '0' && *s <= '9'   ? *s - '0'
                : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
                : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10
                                         : 99;
        if (d >= base || v > (lim - (unsigned)d) / (unsigned)base)
            return false;
        v = v * (unsigned)base + (unsigned)d;
        ndig++;
    }
    *mag = v;
    return ndig > 0;
}

/* Int128(x), UInt128(x), a decimal literal past typemax(Int64) (Julia's Int128) or a hex, binary or octal
 * one past 64 bits (UInt128): the value's 16 bytes (little-endian, as the ABI lays out an Int128) in *out.
 * false if text is none of these; *why set when it is one but does not fit. */
static bool parse_int128_arg(const char *text, bool *is_unsigned, unsigned __int128 *out, const char **why)
{
    char inner[160];
    size_t len = strlen(text);
    bool wrapped = false, uns = false;
    if (len >= sizeof inner)
        return false;
    if ((strncmp(text, "Int128(", 7) == 0 || strncmp(text, "UInt128(", 8) == 0) && text[len - 1] == ')') {
        uns = text[0] == 'U';
        size_t skip = uns ? 8 : 7;
        memcpy(inner, text + skip, len - skip - 1);
        inner[len - skip - 1] = 0;
        wrapped = true;
    } else {
        memcpy(inner, text, len + 1);
    }
    bool neg;
    unsigned __int128 mag;
    if (!parse_int128_text(inner, &neg, &mag))
        return false;
    const char *digits = inner + (inner[0] == '-' || inner[0] == '+');
    bool based = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'b' || digits[1] == 'o');
    if (!wrapped) { /* only literals Julia itself types as 128-bit */
        /* hex and binary literals take their type from the digits written (0x0...01 of 17 to 32 hex
           digits is a UInt128), octal ones from the value */
        int ndig = 0, bits = digits[1] == 'x' ? 4 : digits[1] == 'b' ? 1 : 0;
        for (const char *d = digits + 2; based && *d; d++)
            ndig += *d != '_';
        if (based ? (bits ? ndig * bits <= 64 : (mag >> 64) == 0) : mag <= (unsigned __int128)INT64_MAX + (neg ? 1 : 0))
            return false;
        uns = based;
    }
    unsigned __int128 smax = ((unsigned __int128)1 << 127) - 1;
    if (uns ? (neg && mag) : (neg ? mag > smax + 1 : mag > smax)) {
        *why = "InexactError: the value does not fit the type";
        return false;
    }
    *is_unsigned = uns;
    *out = neg ? 0 - mag : mag;
    return true;
}

bool lit_is_value(const char *text)
{
    juke_arg a;
    const char *why = NULL;
    bool uns;
    unsigned __int128 wide;
    double re, im;
    juke_type ct;
    if (parse_int128_arg(text, &uns, &wide, &why) || why || parse_complex(text, &re, &im, &ct, &why) || why)
        return true;
    int64_t r[3];
    bool stepped;
    if (range_text(text, r, &stepped))
        return true;
    if (lit_parse(text, &a, &why) || !text[0] || (text[0] >= '0' && text[0] <= '9') || text[0] == '.')
        return false;
    if (text[0] == '(' || text[0] == ':')
        return true;
    const char *open = strpbrk(text, "({");
    if (open) {
        /* Int8(300) is a (bad) scalar literal; Params(...), P{T}(...),
         * Type{T}, Val{x}, Val(x) and typeof(f) are values */
        size_t n = (size_t)(open - text);
        for (int i = 0; i < (int)(sizeof lit_types / sizeof lit_types[0]); i++)
            if (strlen(lit_types[i].name) == n && strncmp(text, lit_types[i].name, n) == 0)
                return false;
        return strncmp(text, "typeof(", 7) == 0 || (text[0] >= 'A' && text[0] <= 'Z');
    }
    if (is_type_name(text)) /* a type, passed as Julia passes one: Type{T} */
        return true;
    for (const char *p = text; *p; p++) /* a function's name, or an operator */
        if (!ident_char(*p) && !strchr("+-*/^%&|<>=~÷⊻", *p))
            return false;
    return true;
}

bool lit_parse_value(juke_context *ctx, juke_module *m, juke_device *dev, const char *text, juke_arg *out,
                     LitBlobs *blobs, char *why, size_t whyn)
{
    VParser v = { ctx, m, dev, text, why, whyn, blobs };
    why[0] = 0;
    if (!vp_value(&v, out, 0))
        return false;
    vp_space(&v);
    if (*v.p)
        return vp_fail(&v, "unexpected \"%s\" after the value", v.p);
    return true;
}

void lit_blobs_free(LitBlobs *b)
{
    for (int i = 0; i < b->n; i++)
        free(b->items[i]);
    free(b->items);
    b->items = NULL;
    b->n = 0;
    for (int i = 0; i < b->narrays; i++)
        juke_array_free(b->arrays[i]);
    free(b->arrays);
    free(b->array_fields);
    b->arrays = NULL;
    b->array_fields = NULL;
    b->narrays = 0;
}
