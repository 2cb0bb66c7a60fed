/* cpu_split.h: a region round's item loops split at the bound of a uniform guard (cpu_split.c). */
#ifndef JUKE_CPU_SPLIT_H
#define JUKE_CPU_SPLIT_H

#include <llvm-c/Core.h>

/* Split each x loop of the group entry fn (a loop declaring access_group's accesses parallel) that holds a
 * branch on the item's index against a value computed before the loop, as cpu_split.c describes. Returns
 * how many loops it split. */
int cpu_split_item_loops(LLVMValueRef fn, LLVMMetadataRef access_group);

#endif
