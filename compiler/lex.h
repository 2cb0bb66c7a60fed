/* lex.h: the lexer of the Julia kernel language. Internal to the parser.
 *
 * The whole file is turned into one token array up front (kernels are small;
 * the parser then looks ahead freely and resynchronises by index). Newlines
 * are tokens (TK_NL) because they end statements; the parser skips them where
 * Julia does (inside brackets, after a binary operator). Comments and other
 * whitespace are dropped, but each token records whether any preceded it
 * (.spc), which Julia's grammar needs for `3n` juxtaposition, the adjoint
 * quote and space-separated macro arguments. */
#ifndef JUKE_LEX_H
#define JUKE_LEX_H

#include "ast.h"
#include "common.h"

typedef enum TokKind {
    TK_EOF,     /* always the last token */
    TK_NL,      /* a newline outside comments and strings */
    TK_INT,     /* integer literal: .uval/.ival with .lit (LIT_INT64, LIT_UINT8..LIT_UINT64) */
    TK_FLOAT,   /* float literal: .fval with .lit (LIT_FLOAT64, LIT_FLOAT32) */
    TK_STRING,  /* "...": .text = contents with escapes resolved */
    TK_CHAR,    /* 'c' (recognised only to reject it clearly) */
    TK_IDENT,   /* identifier: .text */
    TK_KEYWORD, /* reserved word (function, end, if, in, isa, where, true, ...): .text */
    TK_MACRO,   /* @name: .text = name without '@' */
    TK_OP,      /* operator or punctuation, including ( ) [ ] { } , ; : :: . ? =: .text as written */
} TokKind;

typedef struct Token {
    TokKind kind;
    bool spc; /* whitespace, a comment or a line start precedes this token */
    LitType lit;
    SrcLoc loc;        /* of the token's first byte */
    const char *start; /* the token's bytes in the source */
    int len;
    const char *text; /* NUL-terminated, see the kinds above; never NULL */
    union {
        int64_t ival;
        uint64_t uval;
        double fval;
    };
} Token;

/* Lex the whole file into *out (an array in scratch ending in one TK_EOF
 * token; the tokens' texts are in a, so they outlive scratch) and return the
 * number of tokens, or -1 when an arena ran out of memory.
 * Lexical errors (bad numbers, unterminated comments or strings, invalid
 * UTF-8, NUL bytes, stray characters) are reported to d with a "syntax: "
 * message; the offending bytes are skipped (a bad number still yields a
 * TK_INT of value 0) so that the parser reports only its own errors. */
int lex_file(Arena *a, Arena *scratch, Diags *d, const SrcFile *file, Token **out);

/* Decode one UTF-8 code point at s (at most n bytes available). Returns its
 * length in bytes and stores the code point, or returns 0 for an invalid or
 * truncated sequence (overlong forms and surrogates are invalid). */
int lex_utf8_decode(const char *s, size_t n, uint32_t *cp);

#endif
