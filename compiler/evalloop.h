/* evalloop.h: top-level `for x in (a, b, ...) @eval definition end` loops, which generate one method per
 * element (GPUArrays' and AcceleratedKernels' sources define families of methods so), expanded before
 * methods are collected. */
#ifndef JUKE_EVALLOOP_H
#define JUKE_EVALLOOP_H

#include "ast.h"

/* Replace each top-level loop over a literal tuple whose body is `@eval` definitions with
 * those definitions, once per element, `$x` (and `$(x)`) in them the element: an identifier, a type
 * expression or a literal; a symbol `:f` is the name f. A lone top-level `@eval definition` is the
 * definition. A loop juke cannot unroll stays, for the front end to reject. Errors go to d. */
void evalloop_expand(Arena *a, Diags *d, Node *file);

#endif
