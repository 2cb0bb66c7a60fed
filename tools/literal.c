/* literal.c: kernel arguments written as Julia literals on the command line
 * (see literal.h). The types follow Julia's literal rules, so `juke run`
 * passes what the same text would be in a Julia session. */
#include "literal.h"

#include <errno.h>
#include <math.h>
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

/* A kernel argument written as a Julia literal: 2.5f0, 2.5, 3, -3, 1e-3,
 * 0x1f, true, Int32(7), UInt8(1), Float16(1.5). */
static bool parse_literal(const char *text, Lit *out, const char **why)
{
    *why = "not a Julia literal (2.5f0, 2.5, 3, Int32(7), true, ...) nor a .npy file";
    const char *open = strchr(text, '(');
    if (!open)
        return parse_plain_literal(text, out);
    size_t len = strlen(text);
    if (text[len - 1] != ')')
        return false;
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
