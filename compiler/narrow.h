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

/* Takes out of each merged bounds check (checkopt.c: a branch on an `or` of
 * compares, cold on true) the compares `x >=u n` that another one implies
 * (`x + d >=u n`, d >= 0) or that the guards above it decide false, with
 * every index bounded exactly by the class's facts (no wrap flag trusted);
 * the cold path is left as it was. Returns how many went. */
int narrow_drop_implied(LLVMModuleRef mod, const char *group_id);

#endif
