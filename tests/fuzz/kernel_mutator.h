/* kernel_mutator.h: a token- and line-aware libFuzzer mutator for kernel
 * source, included by the fuzz targets that take Julia source (parse,
 * frontend, compile).
 *
 * Byte-level mutation of source mostly yields lexical garbage that the lexer
 * rejects in its first lines, so the deep stages (dispatch, inference,
 * lowering, code generation) rarely see anything new. This mutator instead
 * edits whole tokens and whole lines of known-good kernels: a token replaced
 * by another of the language (a keyword, an operator, a builtin, a type, an
 * interesting number), a line deleted, duplicated or swapped, an identifier
 * renamed to another of the same file, and lines spliced between two kernels
 * (the cross-over). Most results still lex and parse and so reach inference
 * and codegen with a small change: a type error, a new call, a loop moved out
 * of its guard. One mutation in five is libFuzzer's own byte mutation, so the
 * lexer still gets its share. Only this file's code is compiled into the
 * fuzz targets; no state is kept between calls (the PRNG is the seed). */
#ifndef JUKE_KERNEL_MUTATOR_H
#define JUKE_KERNEL_MUTATOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* Tokens of the kernel language that a mutation may insert. */
static const char *const km_dict[] = {
    "function",
    "end",
    "if",
    "elseif",
    "else",
    "for",
    "while",
    "in",
    "return",
    "break",
    "continue",
    "begin",
    "local",
    "const",
    "where",
    "true",
    "false",
    "nothing",
    "isa",
    "let",
    "do",
    "=",
    "+=",
    "-=",
    "*=",
    "÷=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "≤",
    "≠",
    "+",
    "-",
    "*",
    "/",
    "÷",
    "%",
    "^",
    "&",
    "|",
    "⊻",
    "<<",
    ">>",
    ">>>",
    "!",
    "~",
    "&&",
    "||",
    "?",
    ":",
    "::",
    "<:",
    ".",
    ",",
    ";",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "'",
    "\"",
    "#",
    "\n",
    "$",
    "...",
    "->",
    "=>",
    ".+",
    ".=",
    "∈",
    "workitemIdx().x",
    "workitemIdx().y",
    "workgroupIdx().x",
    "workgroupDim().x",
    "gridGroupDim().x",
    "sync_workgroup()",
    "length",
    "size",
    "sqrt",
    "exp",
    "sin",
    "cos",
    "abs",
    "min",
    "max",
    "ifelse",
    "div",
    "rem",
    "mod",
    "fld",
    "cld",
    "muladd",
    "fma",
    "zero",
    "one",
    "eltype",
    "typemax",
    "typemin",
    "Int32",
    "Int64",
    "UInt8",
    "UInt32",
    "UInt64",
    "Float16",
    "Float32",
    "Float64",
    "Bool",
    "Int8",
    "Vector{Float32}",
    "Matrix{Float64}",
    "AbstractArray{T}",
    "AbstractVector",
    "Real",
    "Integer",
    "@inbounds",
    "@inline",
    "@noinline",
    "@ROCStaticLocalArray(Float32, 64)",
    "@ROCDynamicLocalArray(Float32, 1)",
    "AMDGPU.@atomic",
    "@atomic",
    "@show",
    "@cuda",
    "x",
    "i",
    "j",
    "T",
    "a",
    "b",
    "c",
    "n",
    "(1, 2)",
    "x[i]",
    "x[i, j]",
    "1:n",
    "1:2:n",
};

/* Numbers that find overflow and conversion bugs. */
static const char *const km_numbers[] = {
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "64",
    "255",
    "256",
    "1024",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551615",
    "0x7f",
    "0xff",
    "0xffffffff",
    "0xffffffffffffffff",
    "0x10000000000000000",
    "0b101",
    "0o777",
    "1_000",
    "0.0",
    "-0.0",
    "1.5",
    "1f0",
    "0.5f0",
    "1e308",
    "1e309",
    "1e-320",
    "1f39",
    "Inf",
    "NaN",
    "Inf32",
    "NaN32",
    "1.0e",
    "0x",
    "1__0",
    "1.2.3",
    "100000000000000000000000",
};

static uint32_t km_rand(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

typedef struct KmSpan {
    size_t start, len;
    int kind; /* 0 whitespace, 1 identifier, 2 number, 3 other */
} KmSpan;

/* Split src into spans; returns the count (at most max). */
static int km_tokenize(const uint8_t *s, size_t n, KmSpan *out, int max)
{
    int k = 0;
    size_t i = 0;
    while (i < n && k < max) {
        size_t st = i;
        int kind;
        uint8_t c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            kind = 0;
            while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
                i++;
        } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80 || c == '@') {
            kind = 1;
            i++;
            while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' ||
                             (s[i] >= '0' && s[i] <= '9') || s[i] == '!' || s[i] >= 0x80))
                i++;
        } else if (c >= '0' && c <= '9') {
            kind = 2;
            i++;
            while (i < n && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z') ||
                             (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' || s[i] == '.'))
                i++;
        } else {
            kind = 3;
            i++;
        }
        out[k++] = (KmSpan){ st, i - st, kind };
    }
    return k;
}

/* Replace [at, at+len) of data (size bytes, room for max) by rep. */
static size_t km_replace(uint8_t *data, size_t size, size_t max, size_t at, size_t len, const char *rep, size_t rlen)
{
    if (size - len + rlen > max)
        return size;
    memmove(data + at + rlen, data + at + len, size - at - len);
    memcpy(data + at, rep, rlen);
    return size - len + rlen;
}

/* Line boundaries: starts[i] is where line i begins; returns the line count. */
static int km_lines(const uint8_t *s, size_t n, size_t *starts, int max)
{
    int k = 0;
    if (n == 0 || max == 0)
        return 0;
    starts[k++] = 0;
    for (size_t i = 0; i + 1 < n && k < max; i++)
        if (s[i] == '\n')
            starts[k++] = i + 1;
    return k;
}

static size_t km_line_end(const uint8_t *s, size_t n, size_t st)
{
    while (st < n && s[st] != '\n')
        st++;
    return st < n ? st + 1 : st;
}

#define KM_MAXTOK 4096
#define KM_MAXLINE 1024

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
    uint32_t rs = seed * 2654435761u + 1;
    unsigned what = km_rand(&rs) % 10;
    if (what < 2 || size == 0)
        return LLVMFuzzerMutate(data, size, max);
    KmSpan spans[KM_MAXTOK];
    size_t starts[KM_MAXLINE];
    int nt = km_tokenize(data, size, spans, KM_MAXTOK);
    int nl = km_lines(data, size, starts, KM_MAXLINE);
    if (nt == 0)
        return LLVMFuzzerMutate(data, size, max);
    KmSpan t = spans[km_rand(&rs) % (unsigned)nt];
    switch (what) {
    case 2: { /* a token becomes a dictionary token */
        const char *r = km_dict[km_rand(&rs) % (sizeof km_dict / sizeof km_dict[0])];
        return km_replace(data, size, max, t.start, t.len, r, strlen(r));
    }
    case 3: { /* a number becomes an interesting number (or any token does, 1 in 4) */
        for (int tries = 0; tries < 8 && t.kind != 2; tries++)
            t = spans[km_rand(&rs) % (unsigned)nt];
        const char *r = km_numbers[km_rand(&rs) % (sizeof km_numbers / sizeof km_numbers[0])];
        return km_replace(data, size, max, t.start, t.len, r, strlen(r));
    }
    case 4: { /* an identifier becomes another identifier of the same file */
        for (int tries = 0; tries < 8 && t.kind != 1; tries++)
            t = spans[km_rand(&rs) % (unsigned)nt];
        KmSpan u = spans[km_rand(&rs) % (unsigned)nt];
        for (int tries = 0; tries < 8 && u.kind != 1; tries++)
            u = spans[km_rand(&rs) % (unsigned)nt];
        if (t.kind != 1 || u.kind != 1 || u.len > 64)
            return LLVMFuzzerMutate(data, size, max);
        char tmp[64];
        memcpy(tmp, data + u.start, u.len);
        return km_replace(data, size, max, t.start, t.len, tmp, u.len);
    }
    case 5: { /* delete a token */ return km_replace(data, size, max, t.start, t.len, "", 0);
    }
    case 6: { /* insert a dictionary token before a token */
        const char *r = km_dict[km_rand(&rs) % (sizeof km_dict / sizeof km_dict[0])];
        char tmp[96];
        size_t rl = strlen(r);
        if (rl + 2 > sizeof tmp)
            return size;
        tmp[0] = ' ';
        memcpy(tmp + 1, r, rl);
        tmp[rl + 1] = ' ';
        return km_replace(data, size, max, t.start, 0, tmp, rl + 2);
    }
    case 7: { /* delete a line */
        if (nl < 2)
            return LLVMFuzzerMutate(data, size, max);
        size_t st = starts[km_rand(&rs) % (unsigned)nl];
        return km_replace(data, size, max, st, km_line_end(data, size, st) - st, "", 0);
    }
    case 8: { /* duplicate a line somewhere else */
        if (nl < 1)
            return LLVMFuzzerMutate(data, size, max);
        size_t st = starts[km_rand(&rs) % (unsigned)nl];
        size_t len = km_line_end(data, size, st) - st;
        size_t at = starts[km_rand(&rs) % (unsigned)nl];
        if (len == 0 || len > 512 || size + len > max)
            return size;
        uint8_t tmp[512];
        memcpy(tmp, data + st, len);
        return km_replace(data, size, max, at, 0, (const char *)tmp, len);
    }
    default: { /* swap two adjacent lines */
        if (nl < 3)
            return LLVMFuzzerMutate(data, size, max);
        int l = (int)(km_rand(&rs) % (unsigned)(nl - 1));
        size_t a = starts[l], b = starts[l + 1], e = km_line_end(data, size, b);
        if (e - a > 1024)
            return size;
        uint8_t tmp[1024];
        memcpy(tmp, data + b, e - b);
        memcpy(tmp + (e - b), data + a, b - a);
        memcpy(data + a, tmp, e - a);
        return size;
    }
    }
}

/* Splice: the first lines of one kernel, then the last lines of another (or
 * a line of the second inserted into the first). */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out, size_t max,
                                 unsigned int seed)
{
    uint32_t rs = seed * 2246822519u + 7;
    size_t st1[KM_MAXLINE], st2[KM_MAXLINE];
    int n1 = km_lines(d1, s1, st1, KM_MAXLINE), n2 = km_lines(d2, s2, st2, KM_MAXLINE);
    if (n1 == 0 || n2 == 0)
        return 0;
    size_t cut1 = st1[km_rand(&rs) % (unsigned)n1];
    size_t cut2 = st2[km_rand(&rs) % (unsigned)n2];
    if (km_rand(&rs) % 2) {
        size_t len = s2 - cut2;
        if (cut1 + len > max)
            len = max - cut1;
        memcpy(out, d1, cut1);
        memcpy(out + cut1, d2 + cut2, len);
        return cut1 + len;
    }
    size_t l2 = km_line_end(d2, s2, cut2) - cut2;
    if (s1 + l2 > max)
        return 0;
    memcpy(out, d1, cut1);
    memcpy(out + cut1, d2 + cut2, l2);
    memcpy(out + cut1 + l2, d1 + cut1, s1 - cut1);
    return s1 + l2;
}

#endif
