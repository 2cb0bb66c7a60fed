/* macroexp.h: the macros a kernel file defines (`macro m(x) ... end`), expanded where they are used.
 *
 * Julia runs a macro's body at parse time on the syntax of its arguments; the expression it returns
 * replaces the call. Users' macros for kernels are templates: `quote ... end` or `:(...)` with the
 * arguments spliced in (`$x`, `$(f(x))`), gensym'd names and esc. Those bodies are evaluated here, on
 * the syntax tree, before methods are collected. */
#ifndef JUKE_MACROEXP_H
#define JUKE_MACROEXP_H

#include "ast.h"

/* Remove the file's macro definitions (the parser keeps each as a FUNCTION named "@name") and replace
 * every call of one by its expansion. A body juke cannot evaluate, or a call no method of the macro
 * takes, is an error at its location (in d). */
void macroexp_expand(Arena *a, Diags *d, Node *file);

#endif
