/* printfmt.h: the formats of printing (@rocprintf, @rocprint, @rocprintln) and of thrown exceptions'
 * messages, from the macro's or the call's syntax to one format string (C printf's conversions and %J:
 * a value as Julia's print shows it, runtime/abi.h) and the value expressions it takes. Front end only:
 * lowering builds them (builtins_print.c), the printing family's typing rule checks them, the runtime
 * formats the records. */
#ifndef JUKE_PRINTFMT_H
#define JUKE_PRINTFMT_H

#include "ast.h"

/* Who prints, as AMDGPU.jl's execution gate decides it: every work-item; those with workitemIdx().x - 1
 * a multiple of the wavefront size; those with workitemIdx().x == 1; the one with workitemIdx().x == 1
 * in workgroupIdx().x == 1. */
typedef enum PrintMode { PRINT_LANE, PRINT_WAVE, PRINT_GROUP, PRINT_GRID } PrintMode;

/* What a printing macro or an exception's message becomes: the format (in the arena), the expressions
 * of its values in order, and the mode. */
typedef struct PrintFormat {
    const char *fmt;
    Node **vals;
    int nvals;
    PrintMode mode;
} PrintFormat;

/* The format of @rocprintf / @rocprint / @rocprintln, or KernelAbstractions' @print (every work-item, as
 * Base.print of its arguments) (macro: the AST_MACROCALL). false after a diagnostic. */
bool printfmt_macro(Arena *a, Diags *d, const Node *macro, PrintFormat *out);
/* A message made of parts (string literals, interpolations string(...), other values), after prefix
 * (a literal, may be NULL). false after a diagnostic. */
bool printfmt_message(Arena *a, Diags *d, Node *const *parts, int n, const char *prefix, PrintFormat *out);

/* One conversion of a format: its spec's bytes fmt[start..end) ("%-8.3lf"), its conversion character
 * ('d', 'f', 'J', ...). */
typedef struct PrintConv {
    size_t start, end;
    char conv;
} PrintConv;
/* The next conversion of fmt from *pos (%% skipped); false at the end. A conversion juke cannot print
 * has conv '?' (a '*' width or precision, %n, %p, an unknown letter, a spec cut short). */
bool printfmt_next(const char *fmt, size_t *pos, PrintConv *c);

#endif
