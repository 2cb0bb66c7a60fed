/* cpu_split.h: a group entry's item loops split at the bound of a uniform guard (cpu_split.c). */
#ifndef JUKE_CPU_SPLIT_H
#define JUKE_CPU_SPLIT_H

#include <llvm-c/Core.h>
#include <stdbool.h>

/* A loop ID `!{self, mark}` for one x loop of a group entry: mark, a loop property that LLVM's passes keep
 * (a region's `!{"llvm.loop.parallel_accesses", group}`, or cpu_split_plain_mark), is how
 * cpu_split_item_loops finds the loop again. */
LLVMMetadataRef cpu_split_loop_id(LLVMContextRef c, LLVMMetadataRef mark);

/* The mark of the x loops of a kernel without barriers: `!{!"juke.loop.items"}`, a property no LLVM pass
 * reads (the items' accesses are not declared parallel: they keep LLVM's alias checks). */
LLVMMetadataRef cpu_split_plain_mark(LLVMContextRef c);

/* Split each x loop of the group entry fn (a loop whose ID holds mark) that holds a branch on the item's
 * index against a value computed before the loop, as cpu_split.c describes; with chains, also a compare
 * that decides a branch through `&&` and `||`. Returns how many loops it split. */
int cpu_split_item_loops(LLVMValueRef fn, LLVMMetadataRef mark, bool chains);

#endif
