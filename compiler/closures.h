/* closures.h: anonymous functions, do-blocks and inner functions, lifted to
 * top-level functions and structs of their captures (closures.c). */
#ifndef JUKE_CLOSURES_H
#define JUKE_CLOSURES_H

#include "ast.h"

/* Lift every AST_LAMBDA of file (and every function defined inside a
 * function) to top-level items appended to file, as Julia's closure
 * conversion does. A lambda that cannot be lifted (it would need a Core.Box)
 * stays, its reason in .name, for lowering to report. Out of memory shows in
 * a->failed. base: file is the Base prelude (its closures are #Base.f#k, apart
 * from the user's #f#k). */
void closures_lift(Arena *a, Node *file, bool base);

/* The names of outer's parameters, local variables and static parameters that the function inner, defined
 * inside outer's body, uses (what makes inner a closure over outer): the first use of each into uses[], in
 * the order of first use, at most max; returns how many (0: inner needs nothing of outer). outer's body must
 * no longer hold inner. */
int closures_captures(Arena *a, const Node *outer, const Node *inner, const Node **uses, int max);

#endif
