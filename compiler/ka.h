/* ka.h: KernelAbstractions.jl's kernel language (`@kernel`, `@index`,
 * `@localmem`, `@synchronize`, ...), rewritten into juke's own language
 * before methods are collected. */
#ifndef JUKE_KA_H
#define JUKE_KA_H

#include "ast.h"

/* The name of a @kernel function's hidden last parameter, KernelAbstractions'
 * own `__ctx__` (what `KernelAbstractions.@context` names): the launch's
 * ndrange, an NTuple{N,Int64}. */
#define KA_CTX "__ctx__"

/* Rewrite every KernelAbstractions construct of file in place: each
 * `@kernel function` becomes a FUNCTION flagged FN_KA with the hidden
 * parameter and its body guarded as KernelAbstractions guards it, the other
 * macros become calls of juke's built-ins or of the prelude's functions.
 * Returns whether the file needs the prelude (ka_prelude); errors go to d. */
bool ka_rewrite(Arena *a, Diags *d, Node *file);

/* What to write instead of a macro juke does not have (a clause for
 * "unsupported macro @name: ..."); user: the file defines it. */
const char *ka_macro_hint(const char *name, bool user);

/* The prelude: the functions the rewritten macros call, in Julia, compiled
 * by the same front end. */
const char *ka_prelude(void);
extern const char KA_PRELUDE_NAME[];

#endif
