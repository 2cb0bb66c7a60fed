/* lex.c: the lexer. Turns a source file into an array of tokens, each with
 * its location, following Julia's lexical rules for the kernel subset:
 * numeric literals typed as Julia types them, Unicode identifiers and
 * operators, nested block comments. See lex.h for the contract. */
#include "lex.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Lexer {
    Arena *a;
    Arena *scratch; /* the token array and number spellings: dropped after parsing */
    Diags *d;
    const SrcFile *file;
    const char *s, *end; /* cursor and end of the text */
    const char *line_start;
    int line;
    Token *toks;
    int n, cap;
    bool oom;
} Lexer;

static const char *const lex_keywords[] = {
    "begin", "while", "if",     "for",   "try",     "return", "break",  "continue",   "function", "macro",  "quote",
    "let",   "local", "global", "const", "do",      "struct", "module", "baremodule", "using",    "import", "export",
    "end",   "else",  "elseif", "catch", "finally", "true",   "false",  "where",      "in",       "isa",
};

/* ASCII operators and punctuation, longest first so the first match wins. */
static const char *const lex_ascii_ops[] = {
    ">>>=", ">>>", ">>=", "<<=", "===", "!==", "...", "==", "!=", "<=", ">=", "<:", ">:", "&&", "||",
    "+=",   "-=",  "*=",  "/=",  "%=",  "^=",  "&=",  "|=", "<<", ">>", "::", "->", "//", "..", "=>",
    "|>",   "<|",  "\\=", "+",   "-",   "*",   "/",   "%",  "^",  "&",  "|",  "~",  "!",  "<",  ">",
    "=",    "?",   ":",   ".",   ",",   ";",   "(",   ")",  "[",  "]",  "{",  "}",  "\\", "$",
};

/* Unicode operators (UTF-8), longest first. */
static const char *const lex_unicode_ops[] = {
    "÷=", "⊻=", "÷", "⊻", "≠", "≤", "≥", "∈", "∉", "≈", "≡", "≢",
};

static SrcLoc lex_loc(Lexer *L, const char *at)
{
    SrcLoc loc = { L->file, L->line, (int)(at - L->line_start) + 1 };
    return loc;
}

static Token *lex_push(Lexer *L, TokKind kind, const char *start, const char *end, bool spc)
{
    if (L->oom)
        return NULL;
    Token *toks = arena_grow(L->scratch, L->toks, L->n, &L->cap, sizeof(Token), 256);
    if (!toks) {
        L->oom = true;
        return NULL;
    }
    L->toks = toks;
    Token *t = &L->toks[L->n++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->spc = spc;
    t->loc = lex_loc(L, start);
    t->start = start;
    t->len = (int)(end - start);
    t->text = "";
    return t;
}

/* A token whose text is a name, the bytes [name, end) (an identifier, a
 * keyword, a macro name without its @); the lexer goes on at end. */
static void lex_push_named(Lexer *L, TokKind kind, const char *start, const char *end, const char *name, bool spc)
{
    Token *t = lex_push(L, kind, start, end, spc);
    if (t) {
        t->text = arena_strndup(L->a, name, (size_t)(end - name));
        if (!t->text)
            L->oom = true;
    }
    L->s = end;
}

int lex_utf8_decode(const char *s, size_t n, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    if (n == 0)
        return 0;
    if (u[0] < 0x80) {
        *cp = u[0];
        return 1;
    }
    int len;
    uint32_t c, min;
    if ((u[0] & 0xE0) == 0xC0) {
        len = 2, c = u[0] & 0x1F, min = 0x80;
    } else if ((u[0] & 0xF0) == 0xE0) {
        len = 3, c = u[0] & 0x0F, min = 0x800;
    } else if ((u[0] & 0xF8) == 0xF0) {
        len = 4, c = u[0] & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if ((size_t)len > n)
        return 0;
    for (int i = 1; i < len; i++) {
        if ((u[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (u[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return len;
}

/* Non-ASCII code points that may appear in identifiers. Without Unicode
 * tables we accept every code point except the ranges that hold operators,
 * punctuation and spaces, and the operators the lexer recognises. Julia's
 * superscripts ² ³ ¹ and µ stay identifier characters, and so do the math
 * symbols its parser allows in names (julia_extensions.c: ∂x, ∇f, ∑). */
static bool lex_unicode_id_char(uint32_t cp)
{
    if (cp < 0x80)
        return false;
    if (cp >= 0x80 && cp <= 0x9F)
        return false;
    if (cp >= 0xA0 && cp <= 0xBF)
        return cp == 0xAA || cp == 0xB2 || cp == 0xB3 || cp == 0xB5 || cp == 0xB9 || cp == 0xBA;
    if (cp == 0xD7 || cp == 0xF7)
        return false;
    if (cp >= 0x2000 && cp <= 0x206F)
        return cp >= 0x2032 && cp <= 0x2037; /* primes */
    if (cp >= 0x2190 && cp <= 0x23FF)        /* arrows and operators, but for the math symbols Julia takes as letters */
        return cp == 0x2202 || (cp >= 0x2205 && cp <= 0x2207) || (cp >= 0x220E && cp <= 0x2211) || cp == 0x221E ||
               cp == 0x221F || (cp >= 0x222B && cp <= 0x2233) || cp == 0x223F || cp == 0x22A4 || cp == 0x22A5 ||
               cp == 0x22BE || cp == 0x22BF || (cp >= 0x22C0 && cp <= 0x22C3); /* ∂ ∅ ∆ ∇ ∎ ∏ ∐ ∑ ∞ ∟ ∫... */
    if (cp >= 0x2500 && cp <= 0x2BFF)
        return false;
    if (cp == 0x3000 || cp == 0xFEFF)
        return false;
    return true;
}

static bool lex_is_digit(char c)
{
    return c >= '0' && c <= '9';
}
static bool lex_ascii_id_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Length of the identifier character at s (0 if none); `first` excludes digits and '!'. */
static int lex_id_char(Lexer *L, const char *s, bool first)
{
    if (s >= L->end)
        return 0;
    char c = *s;
    if (lex_ascii_id_start(c))
        return 1;
    if (!first && lex_is_digit(c))
        return 1;
    /* `a!=b` is a != b: '!' belongs to the identifier unless '=' follows */
    if (!first && c == '!' && !(s + 1 < L->end && s[1] == '='))
        return 1;
    if ((unsigned char)c >= 0x80) {
        uint32_t cp;
        int n = lex_utf8_decode(s, (size_t)(L->end - s), &cp);
        if (n && lex_unicode_id_char(cp))
            return n;
    }
    return 0;
}

static bool lex_is_keyword(const char *s, int n)
{
    for (int i = 0; i < JK_ARRAY_LEN(lex_keywords); i++)
        if (n > 0 && lex_keywords[i][0] == *s && (int)strlen(lex_keywords[i]) == n &&
            memcmp(lex_keywords[i], s, (size_t)n) == 0)
            return true;
    return false;
}

/* The operator spelled at s (longest match) or NULL. */
static const char *lex_match_op(Lexer *L, const char *s)
{
    size_t avail = (size_t)(L->end - s);
    const char *const *tab = (unsigned char)*s >= 0x80 ? lex_unicode_ops : lex_ascii_ops;
    int ntab = (unsigned char)*s >= 0x80 ? JK_ARRAY_LEN(lex_unicode_ops) : JK_ARRAY_LEN(lex_ascii_ops);
    for (int i = 0; i < ntab; i++) {
        if (tab[i][0] != *s) /* most entries differ at once: the Base prelude's lexing did 70 strlen a token */
            continue;
        size_t n = strlen(tab[i]);
        if (n <= avail && memcmp(tab[i], s, n) == 0)
            return tab[i];
    }
    return NULL;
}

/* Does the previous token end a value, so that `'` is an adjoint and `.5`
 * after it is not a number? Only when nothing separates them. */
static bool lex_prev_is_value(Lexer *L)
{
    if (L->n == 0)
        return false;
    Token *t = &L->toks[L->n - 1];
    if (t->kind == TK_IDENT || t->kind == TK_INT || t->kind == TK_FLOAT || t->kind == TK_STRING)
        return true;
    if (t->kind == TK_KEYWORD && strcmp(t->text, "end") == 0)
        return true;
    return t->kind == TK_OP && (strcmp(t->text, ")") == 0 || strcmp(t->text, "]") == 0 || strcmp(t->text, "}") == 0 ||
                                strcmp(t->text, "'") == 0);
}

/* e, E or f followed by an optionally signed digit: an exponent. */
static bool lex_exponent_at(Lexer *L, const char *s)
{
    if (s >= L->end || (*s != 'e' && *s != 'E' && *s != 'f'))
        return false;
    s++;
    if (s < L->end && (*s == '+' || *s == '-'))
        s++;
    return s < L->end && lex_is_digit(*s);
}

static bool lex_op_char(char c)
{
    return c && strchr("+-*/\\^%&|<>=!~:?.", c) != NULL;
}

/* Digits in the given base with '_' allowed between digits; returns the end. */
static const char *lex_digits(Lexer *L, const char *s, int base, int *ndigits)
{
    int n = 0;
    for (; s < L->end; s++) {
        char c = *s;
        int v = lex_is_digit(c)          ? c - '0'
                : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                         : 99;
        if (v < base) {
            n++;
            continue;
        }
        if (c == '_' && n > 0 && s + 1 < L->end) {
            char d = s[1];
            int w = lex_is_digit(d)          ? d - '0'
                    : (d >= 'a' && d <= 'f') ? d - 'a' + 10
                    : (d >= 'A' && d <= 'F') ? d - 'A' + 10
                                             : 99;
            if (w < base)
                continue;
        }
        break;
    }
    *ndigits = n;
    return s;
}

static void lex_bad_number(Lexer *L, const char *start, const char *end)
{
    int n = (int)(end - start);
    diag_error(L->d, lex_loc(L, start), "syntax: invalid numeric constant \"%.*s\"", n > 40 ? 40 : n, start);
}

/* The number at L->s. Julia's typing: decimal integers are Int64; hex, binary
 * and octal literals are unsigned with the width their digits imply; floats
 * are Float64 unless the exponent letter is f (Float32). */
static void lex_number(Lexer *L, bool spc)
{
    const char *start = L->s, *s = L->s;
    int base = 10, nd = 0;
    if (s[0] == '0' && s + 1 < L->end && (s[1] == 'x' || s[1] == 'b' || s[1] == 'o'))
        base = s[1] == 'x' ? 16 : s[1] == 'b' ? 2 : 8;
    if (base != 10) {
        const char *digits = s + 2;
        s = lex_digits(L, digits, base, &nd);
        if (nd == 0 || (s < L->end && (lex_is_digit(*s) || (base == 16 && (*s == '.' || *s == 'p'))))) {
            while (s < L->end && (lex_is_digit(*s) || lex_ascii_id_start(*s) || *s == '.'))
                s++;
            lex_bad_number(L, start, s);
            Token *t = lex_push(L, TK_INT, start, s, spc);
            if (t)
                t->lit = LIT_INT64, t->text = "0";
            L->s = s;
            return;
        }
        /* the width: bits of the digits, counting a leading zero digit as if it were 1 */
        int bits;
        if (base == 16) {
            bits = 4 * nd;
        } else if (base == 2) {
            bits = nd;
        } else {
            int lead = *digits - '0';
            bits = 3 * (nd - 1) + (lead >= 4 ? 3 : lead >= 2 ? 2 : 1);
        }
        uint64_t v = 0;
        bool big = bits > 64;
        for (const char *q = digits; q < s && !big; q++) {
            if (*q == '_')
                continue;
            int dv = lex_is_digit(*q) ? *q - '0' : (*q | 0x20) - 'a' + 10;
            v = v * (uint64_t)base + (uint64_t)dv;
        }
        Token *t = lex_push(L, TK_INT, start, s, spc);
        if (t) {
            t->text = arena_strndup(L->a, start, (size_t)(s - start));
            if (!t->text)
                t->text = "";
            t->uval = v;
            t->lit = bits <= 8 ? LIT_UINT8 : bits <= 16 ? LIT_UINT16 : bits <= 32 ? LIT_UINT32 : LIT_UINT64;
            if (big) {
                int n = (int)(s - start);
                diag_error(L->d, t->loc, "syntax: integer literal too large \"%.*s\"", n > 40 ? 40 : n, start);
                t->uval = 0;
            }
        }
        L->s = s;
        return;
    }

    bool is_float = false, f32 = false;
    s = lex_digits(L, s, 10, &nd);
    if (s < L->end && *s == '.') {
        char c = s + 1 < L->end ? s[1] : 0;
        if (lex_is_digit(c)) {
            s = lex_digits(L, s + 1, 10, &nd);
            is_float = true;
        } else if (lex_exponent_at(L, s + 1)) {
            s++;
            is_float = true;
        } else if (c != '.' && !lex_op_char(c) && !lex_id_char(L, s + 1, true)) {
            s++; /* `1.` */
            is_float = true;
        }
        if (is_float && s + 1 < L->end && *s == '.' && lex_is_digit(s[1])) {
            while (s < L->end && (lex_is_digit(*s) || *s == '.' || *s == '_'))
                s++;
            lex_bad_number(L, start, s);
            Token *t = lex_push(L, TK_FLOAT, start, s, spc);
            if (t)
                t->lit = LIT_FLOAT64, t->text = "0.0";
            L->s = s;
            return;
        }
    }
    if (lex_exponent_at(L, s)) {
        f32 = *s == 'f';
        is_float = true;
        s++;
        if (*s == '+' || *s == '-')
            s++;
        while (s < L->end && lex_is_digit(*s))
            s++;
    }
    /* the literal without '_', with Julia's f exponent spelled e for strtod */
    size_t n = (size_t)(s - start);
    char *buf = arena_alloc(L->scratch, n + 1);
    Token *t = lex_push(L, is_float ? TK_FLOAT : TK_INT, start, s, spc);
    L->s = s;
    if (!buf || !t) {
        L->oom = true;
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (start[i] != '_')
            buf[k++] = start[i] == 'f' ? 'e' : start[i];
    buf[k] = 0;
    t->text = arena_strndup(L->a, start, n);
    if (!t->text)
        t->text = "";
    int shown = n > 40 ? 40 : (int)n;
    if (!is_float) {
        uint64_t v = 0;
        bool big = false;
        for (size_t i = 0; i < k; i++) {
            uint64_t dv = (uint64_t)(buf[i] - '0');
            if (v > (UINT64_MAX - dv) / 10)
                big = true;
            else
                v = v * 10 + dv;
        }
        if (big) {
            diag_error(L->d, t->loc, "syntax: integer literal too large \"%.*s\"", shown, start);
            v = 0;
        }
        /* past typemax(Int64) a decimal literal is an Int128, as in Julia (values up to 2^64 - 1 here) */
        t->lit = v > (uint64_t)INT64_MAX ? LIT_INT128 : LIT_INT64;
        t->uval = v;
        return;
    }
    errno = 0;
    if (f32) {
        float f = strtof(buf, NULL);
        if (errno == ERANGE && isinf(f))
            diag_error(L->d, t->loc, "syntax: overflow in numeric constant \"%.*s\"", shown, start);
        t->fval = f;
        t->lit = LIT_FLOAT32;
    } else {
        double f = strtod(buf, NULL);
        if (errno == ERANGE && isinf(f))
            diag_error(L->d, t->loc, "syntax: overflow in numeric constant \"%.*s\"", shown, start);
        t->fval = f;
        t->lit = LIT_FLOAT64;
    }
}

static void lex_tokens(Lexer *L);

/* Does the string literal at s (its opening quotes already skipped) interpolate, "$x" or "$(expr)"? */
static bool lex_string_interpolates(Lexer *L, const char *s, bool triple)
{
    while (s < L->end) {
        if (triple ? (L->end - s >= 3 && s[0] == '"' && s[1] == '"' && s[2] == '"') : *s == '"')
            return false;
        if (*s == '\\') {
            s += 2;
            continue;
        }
        if (*s == '$' && s + 1 < L->end && (s[1] == '(' || lex_id_char(L, s + 1, true) > 0))
            return true;
        s++;
    }
    return false;
}

/* One literal piece of a string: a TK_STRING token of sb's bytes at loc `at`. */
static void lex_string_piece(Lexer *L, const char *at, const char *end, StrBuf *sb, bool spc)
{
    Token *t = lex_push(L, TK_STRING, at, end, spc);
    if (t) {
        t->text = arena_strndup(L->a, sb->data ? sb->data : "", sb->len);
        if (!t->text)
            t->text = "";
    }
    sb->len = 0;
}

static void lex_push_op(Lexer *L, const char *at, const char *text, bool spc)
{
    Token *t = lex_push(L, TK_OP, at, at, spc);
    if (t)
        t->text = text;
}

/* "..." or """...""" with the common escapes resolved. A string that
 * interpolates ("x = $x, $(a + b)") becomes the tokens of the call Julia
 * lowers it to, string("x = ", x, ", ", (a + b)); \$ is a literal $. */
static void lex_string(Lexer *L, bool spc)
{
    const char *start = L->s;
    SrcLoc loc = lex_loc(L, start);
    bool triple = L->end - start >= 3 && start[1] == '"' && start[2] == '"';
    const char *s = start + (triple ? 3 : 1);
    bool interp = lex_string_interpolates(L, s, triple);
    if (interp) {
        Token *t = lex_push(L, TK_IDENT, start, start, spc);
        if (t)
            t->text = "string";
        lex_push_op(L, start, "(", false);
    }
    StrBuf sb = { 0 };
    bool closed = false, first = true;
    const char *piece = s;
    while (s < L->end) {
        if (triple ? (L->end - s >= 3 && s[0] == '"' && s[1] == '"' && s[2] == '"') : *s == '"') {
            s += triple ? 3 : 1;
            closed = true;
            break;
        }
        if (interp && *s == '$' && s + 1 < L->end && (s[1] == '(' || lex_id_char(L, s + 1, true) > 0)) {
            if (sb.len) {
                if (!first)
                    lex_push_op(L, piece, ",", false);
                lex_string_piece(L, piece, s, &sb, false);
                first = false;
            }
            if (!first)
                lex_push_op(L, s, ",", false);
            first = false;
            const char *e = s + 1;
            if (*e == '(') {
                int depth = 0;
                for (; e < L->end; e++) {
                    if (*e == '(')
                        depth++;
                    else if (*e == ')' && --depth == 0)
                        break;
                    else if (*e == '"' || *e == '\n')
                        break;
                }
                if (e >= L->end || *e != ')') {
                    diag_error(L->d, lex_loc(L, s), "syntax: unterminated $( in a string");
                    s = e;
                    piece = s;
                    continue;
                }
                const char *saved_end = L->end;
                L->s = s + 1;
                L->end = e + 1;
                lex_tokens(L);
                L->end = saved_end;
                s = e + 1;
            } else {
                int n;
                while ((n = lex_id_char(L, e, e == s + 1)) > 0)
                    e += n;
                lex_push_named(L, lex_is_keyword(s + 1, (int)(e - s - 1)) ? TK_KEYWORD : TK_IDENT, s + 1, e, s + 1,
                               false);
                s = e;
            }
            piece = s;
            continue;
        }
        char c = *s++;
        if (c == '\n') {
            L->line++;
            L->line_start = s;
        }
        if (c == '\\' && s < L->end) {
            char e = *s++;
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == '0' ? '\0' : e;
            if (e == '\n') {
                L->line++;
                L->line_start = s;
            }
        }
        sb_putn(&sb, &c, 1);
    }
    if (!closed) {
        diag_error(L->d, loc, "syntax: unterminated string literal");
        s = L->end;
    }
    if (!interp) {
        Token *t = lex_push(L, TK_STRING, start, s, spc);
        if (t) {
            t->loc = loc; /* where it starts, not the line a multi-line string ends on */
            t->text = arena_strndup(L->a, sb.data ? sb.data : "", sb.len);
            if (!t->text)
                t->text = "";
        }
    } else {
        if (sb.len) {
            if (!first)
                lex_push_op(L, piece, ",", false);
            lex_string_piece(L, piece, s, &sb, false);
        }
        lex_push_op(L, s > start ? s - 1 : s, ")", false);
    }
    sb_free(&sb);
    L->s = s;
}

/* A non-standard string literal, NAME"..." (or NAME"""..."""), at [name, q) with q at its quote: Julia's
 * macro call @NAME_str("..."), the string passed raw (a run of backslashes before a quote halved, an odd
 * one escaping that quote; other backslashes kept). lazy"..." (Base's LazyString, GPUArrays' error messages)
 * is read as the string it prints, interpolation included. The macro token and its string are adjacent
 * (spc false), which the parser takes as the one argument. */
static void lex_prefixed_string(Lexer *L, const char *name, const char *q, bool spc)
{
    if (q - name == 4 && memcmp(name, "lazy", 4) == 0) {
        L->s = q;
        lex_string(L, spc);
        return;
    }
    Token *m = lex_push(L, TK_MACRO, name, q, spc);
    if (m) {
        StrBuf nb = { 0 };
        sb_putn(&nb, name, (size_t)(q - name));
        sb_puts(&nb, "_str");
        m->text = arena_strndup(L->a, nb.data ? nb.data : "", nb.len);
        sb_free(&nb);
        if (!m->text)
            L->oom = true;
    }
    SrcLoc loc = lex_loc(L, q);
    bool triple = L->end - q >= 3 && q[1] == '"' && q[2] == '"';
    const char *s = q + (triple ? 3 : 1);
    StrBuf sb = { 0 };
    bool closed = false;
    while (s < L->end) {
        if (*s == '\\') {
            const char *b = s;
            while (s < L->end && *s == '\\')
                s++;
            size_t nb = (size_t)(s - b);
            if (s < L->end && *s == '"') {
                for (size_t i = 0; i < nb / 2; i++)
                    sb_putn(&sb, "\\", 1);
                if (nb % 2) {
                    sb_putn(&sb, "\"", 1);
                    s++;
                }
            } else {
                sb_putn(&sb, b, nb);
            }
            continue;
        }
        if (triple ? (L->end - s >= 3 && s[0] == '"' && s[1] == '"' && s[2] == '"') : *s == '"') {
            s += triple ? 3 : 1;
            closed = true;
            break;
        }
        if (*s == '\n') {
            L->line++;
            L->line_start = s + 1;
        }
        sb_putn(&sb, s, 1);
        s++;
    }
    if (!closed) {
        diag_error(L->d, loc, "syntax: unterminated string literal");
        s = L->end;
    }
    Token *t = lex_push(L, TK_STRING, q, s, false);
    if (t) {
        t->loc = loc;
        t->text = arena_strndup(L->a, sb.data ? sb.data : "", sb.len);
        if (!t->text)
            t->text = "";
    }
    sb_free(&sb);
    L->s = s;
}

/* 'c' or '\n': recognised so the parser can reject it with a clear message. */
static void lex_char(Lexer *L, bool spc)
{
    const char *start = L->s, *s = start + 1;
    if (s + 1 < L->end && *s == '\\' && (s[1] == 'x' || s[1] == 'u' || s[1] == 'U')) {
        s += 2; /* '\x41', '\u00e9': hex digits */
        while (s < L->end && isxdigit((unsigned char)*s))
            s++;
    } else if (s < L->end && *s == '\\')
        s += 2;
    else if (s < L->end) {
        uint32_t cp;
        int n = lex_utf8_decode(s, (size_t)(L->end - s), &cp);
        s += n ? n : 1;
    }
    if (s < L->end && *s == '\'' && s[-1] != '\n') {
        s++;
        Token *t = lex_push(L, TK_CHAR, start, s, spc);
        if (t)
            t->text = arena_strndup(L->a, start, (size_t)(s - start));
        if (t && !t->text)
            t->text = "";
    } else {
        diag_error(L->d, lex_loc(L, start), "syntax: invalid character literal");
        s = start + 1;
    }
    L->s = s;
}

/* Skip whitespace and comments; returns false at the end of input. Sets
 * *spc when anything was skipped. Newlines are not skipped (they are tokens),
 * except inside block comments. */
static void lex_skip_space(Lexer *L, bool *spc)
{
    while (L->s < L->end) {
        char c = *L->s;
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            L->s++;
            *spc = true;
        } else if (c == '#' && L->s + 1 < L->end && L->s[1] == '=') {
            const char *open = L->s;
            SrcLoc loc = lex_loc(L, open);
            int depth = 1;
            L->s += 2;
            while (L->s < L->end && depth > 0) {
                if (L->s[0] == '#' && L->s + 1 < L->end && L->s[1] == '=') {
                    depth++;
                    L->s += 2;
                } else if (L->s[0] == '=' && L->s + 1 < L->end && L->s[1] == '#') {
                    depth--;
                    L->s += 2;
                } else {
                    if (*L->s == '\n') {
                        L->line++;
                        L->line_start = L->s + 1;
                    }
                    L->s++;
                }
            }
            if (depth > 0)
                diag_error(L->d, loc, "syntax: unterminated block comment");
            *spc = true;
        } else if (c == '#') {
            while (L->s < L->end && *L->s != '\n')
                L->s++;
            *spc = true;
        } else {
            return;
        }
    }
}

/* Lex tokens from L->s up to L->end (the whole file, or the expression of a
 * string's $(...)). */
static void lex_tokens(Lexer *L)
{
    Diags *d = L->d;
    Arena *a = L->a;
    bool spc = true;
    bool bad_run = false; /* report a run of invalid bytes once */
    while (!L->oom) {
        lex_skip_space(L, &spc);
        if (L->s >= L->end)
            break;
        const char *s = L->s;
        char c = *s;
        bool was_bad = bad_run;
        bad_run = false;
        if (c == '\n') {
            Token *t = lex_push(L, TK_NL, s, s + 1, spc);
            if (t)
                t->text = "\n";
            L->s++;
            L->line++;
            L->line_start = L->s;
            spc = true;
            continue;
        }
        if (lex_is_digit(c) || (c == '.' && s + 1 < L->end && lex_is_digit(s[1]) && !(lex_prev_is_value(L) && !spc))) {
            lex_number(L, spc);
            spc = false;
            continue;
        }
        int n = lex_id_char(L, s, true);
        if (n) {
            const char *e = s + n;
            while ((n = lex_id_char(L, e, false)) > 0)
                e += n;
            bool kw = lex_is_keyword(s, (int)(e - s));
            if (!kw && e < L->end && *e == '"') {
                lex_prefixed_string(L, s, e, spc);
                spc = false;
                continue;
            }
            lex_push_named(L, kw ? TK_KEYWORD : TK_IDENT, s, e, s, spc);
            spc = false;
            continue;
        }
        if (c == '@') {
            const char *e = s + 1;
            while ((n = lex_id_char(L, e, e == s + 1)) > 0)
                e += n;
            if (e == s + 1) {
                diag_error(d, lex_loc(L, s), "syntax: invalid macro name");
                L->s = s + 1;
                spc = true;
                continue;
            }
            lex_push_named(L, TK_MACRO, s, e, s + 1, spc);
            spc = false;
            continue;
        }
        if (c == '"') {
            lex_string(L, spc);
            spc = false;
            continue;
        }
        if (c == '\'') {
            if (lex_prev_is_value(L) && !spc) {
                Token *t = lex_push(L, TK_OP, s, s + 1, spc);
                if (t)
                    t->text = "'";
                L->s++;
            } else {
                lex_char(L, spc);
            }
            spc = false;
            continue;
        }
        const char *op = lex_match_op(L, s);
        if (op && strcmp(op, ".") == 0 && s + 1 < L->end && lex_op_char(s[1]) && s[1] != '.' && s[1] != ':') {
            /* a broadcasting operator such as .+ or .=: kept as one token so the
             * parser can name it when it rejects it */
            const char *inner = lex_match_op(L, s + 1);
            size_t len = 1 + (inner ? strlen(inner) : 0);
            Token *t = lex_push(L, TK_OP, s, s + len, spc);
            if (t) {
                t->text = arena_strndup(a, s, len);
                if (!t->text)
                    L->oom = true;
            }
            L->s = s + len;
            spc = false;
            continue;
        }
        if (op) {
            size_t len = strlen(op);
            Token *t = lex_push(L, TK_OP, s, s + len, spc);
            if (t)
                t->text = op;
            L->s = s + len;
            spc = false;
            continue;
        }
        /* nothing valid starts here */
        uint32_t cp = 0;
        int len = (unsigned char)c >= 0x80 ? lex_utf8_decode(s, (size_t)(L->end - s), &cp) : 1;
        if (c == '\0') {
            if (!was_bad)
                diag_error(d, lex_loc(L, s), "syntax: invalid NUL byte");
            bad_run = true;
            len = 1;
        } else if (len == 0) {
            if (!was_bad)
                diag_error(d, lex_loc(L, s), "syntax: invalid UTF-8 sequence");
            bad_run = true;
            len = 1;
        } else if ((unsigned char)c < 0x20 || c == 0x7F) {
            diag_error(d, lex_loc(L, s), "syntax: invalid character \"\\x%02x\"", (unsigned char)c);
        } else {
            diag_error(d, lex_loc(L, s), "syntax: invalid character \"%.*s\"", len, s);
        }
        L->s = s + len;
        spc = true;
    }
}

int lex_file(Arena *a, Arena *scratch, Diags *d, const SrcFile *file, Token **out)
{
    Lexer L = { 0 };
    L.a = a;
    L.scratch = scratch;
    L.d = d;
    L.file = file;
    L.s = file->text ? file->text : "";
    L.end = L.s + (file->text ? file->len : 0);
    L.line_start = L.s;
    L.line = 1;
    if (L.end - L.s >= 3 && memcmp(L.s, "\xEF\xBB\xBF", 3) == 0)
        L.s += 3; /* a UTF-8 byte-order mark */
    lex_tokens(&L);
    if (!L.oom) {
        Token *t = lex_push(&L, TK_EOF, L.end, L.end, true);
        if (t)
            t->text = "end of input";
    }
    if (L.oom) {
        *out = NULL;
        return -1;
    }
    *out = L.toks;
    return L.n;
}
