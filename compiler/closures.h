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
void closures_lift(Arena *a, Node *file, bool base, PtrVec *inner);

/* A function defined by name inside another (`function f() ... function kernel(x) ... end; @roc kernel(x)
 * end`), as closures_lift records it into *inner: the host launches it by its name, or by outer/name where
 * several functions define one of that name. lifted is the top-level function that runs it: the lifted
 * function itself, or, for a closure over outer's variables, #outer#k#entry(captures..., params...), which
 * builds the closure from the captured values (in the order the body first uses them) and calls it. NULL:
 * it cannot be launched (it captures a static parameter, or its parameters have defaults or keywords). */
typedef struct ClInner {
    const char *name, *outer, *lifted;
    const char *qname; /* its launch name: outer/name, outer/name#k for the k-th of that name in outer's methods
                          (frontend.c fills it in) */
    SrcLoc loc;
} ClInner;

/* The names of outer's parameters, local variables and static parameters that the function inner, defined
 * inside outer's body, uses (what makes inner a closure over outer): the first use of each into uses[], in
 * the order of first use, at most max; returns how many (0: inner needs nothing of outer). outer's body must
 * no longer hold inner. */
int closures_captures(Arena *a, const Node *outer, const Node *inner, const Node **uses, int max);

#endif
