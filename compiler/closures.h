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

/* The first use, in the function inner defined inside outer's body, of one of outer's parameters, local
 * variables or static parameters (what would make inner a closure over outer), or NULL when inner needs
 * nothing of outer. outer's body must no longer hold inner. */
const Node *closures_first_capture(Arena *a, const Node *outer, const Node *inner);

#endif
