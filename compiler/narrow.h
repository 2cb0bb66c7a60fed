/* narrow.h: 64-bit compares of values that fit 32 bits, narrowed (narrow.c). */
#ifndef JUKE_NARROW_H
#define JUKE_NARROW_H

#include <stdbool.h>

#include <llvm-c/Types.h>

/* Narrows every i64 compare of mod whose operands provably lie in
 * [-2^31, 2^31) to an i32 compare of their low halves; returns how many.
 * group_id: the small-grid class's workgroup-id intrinsic (its name up to
 * the dimension), whose value is below SMALL_GRID_MAX, or NULL. guards:
 * every such compare; false: only those that decide a bounds check. */
int narrow_run(LLVMModuleRef mod, const char *group_id, bool guards);

#endif
