/* cpu_regions.h: a kernel with barriers as a resumable work-item (cpu_regions.c), for the CPU target. */
#ifndef JUKE_CPU_REGIONS_H
#define JUKE_CPU_REGIONS_H

#include <stdbool.h>
#include <stdint.h>

#include <llvm-c/Core.h>

/* A work-item's status in the group's status array (runtime/abi.h, JukeCpuState.spill). */
#define CPU_REGION_RETURNED 0xfffffffeu
#define CPU_REGION_EXITED 0xffffffffu
/* The resumable item's mode (its last parameter) when each item resumes where its status says; any other
 * mode k (0..nbarriers) resumes every item at barrier k (0: the start). */
#define CPU_REGION_ANY 0xfffffffdu
/* The group entry has a round loop of its own for the start and each of the first CPU_REGION_SPECIALISE
 * barriers (target_cpu.c); rounds at later barriers run in mode CPU_REGION_ANY. */
#define CPU_REGION_SPECIALISE 8
/* JukeCpuState.spill's field number in the state's LLVM type (target_cpu.c) */
#define CPU_STATE_SPILL_FIELD 12
/* The resumable item's parameters after the kernel's own (its exception pointer and state last):
 * i32 mode, ptr uniform (the group's uniform values: the round's snapshot, then group_bytes more where the
 * item leaves them when it stops), and the item's index i32 x, y, z, which it reads there and not in
 * st->item (the group entry does not store it per item; the item stores it before a call that is given
 * the state). */
#define CPU_REGION_EXTRA_PARAMS 5

typedef struct CpuRegions {
    uint32_t nbarriers;
    uint64_t *locs;       /* [1 + nbarriers]: barrier k's line << 32 | col at [k] (malloc'd) */
    uint32_t spill_bytes; /* per work-item: the status and the slots */
    uint32_t nslots;
    uint32_t group_bytes;   /* the group's uniform values: the snapshot and the values left take as many each */
    uint32_t uniform_slots; /* how many values live across barriers are the group's */
    /* the access group (a distinct empty node) of fn's loads and stores that work-items of one region never
     * share in a race-free kernel: the group entry's item loops declare it llvm.loop.parallel_accesses */
    LLVMMetadataRef access_group;
} CpuRegions;

/* Whether the group entry of these regions keeps the status array itself (JUKE_CPU_GROUP_OWNS_STATUS): when
 * every round but a cancelled one has a loop of its own, so that rounds that read the array are rare. Then an
 * item records its status only in mode CPU_REGION_ANY or where its stop is not silent (reached by every item
 * that reaches a silent stop of the round, cpu_regions.c): it leaves the status of a silent stop at
 * CPU_REGION_SILENT_AT and a 1 at CPU_REGION_RECORDED_AT of the uniform values (those two i32 after the
 * 2 * group_bytes of the snapshot and the values left, which the group entry zeroes before each round), and the
 * group entry keeps the array zero between rounds where no item recorded, and fills it in for the runtime after
 * a round that ended with the items at different places. */
#define CPU_REGION_SILENT_AT(group_bytes) (2 * (uint64_t)(group_bytes))
#define CPU_REGION_RECORDED_AT(group_bytes) (2 * (uint64_t)(group_bytes) + 4)
static inline bool cpu_regions_owns_status(const CpuRegions *r)
{
    return r->nbarriers <= CPU_REGION_SPECIALISE;
}

/* Make fn (a copy of the kernel body returning i32, everything that reaches a barrier inlined into it, with
 * the CPU_REGION_EXTRA_PARAMS after the state) a resumable work-item, as cpu_regions.c describes. false: it
 * cannot (and fn may be half changed: delete it). */
bool cpu_regions_transform(LLVMModuleRef m, LLVMValueRef fn, LLVMTypeRef state_ty, LLVMValueRef barrier_fn,
                           LLVMValueRef exit_fn, CpuRegions *out);

/* The loop property `!{"llvm.loop.parallel_accesses", access_group}` that the group entry's item loops of a
 * region kernel hold (cpu_split_loop_id). */
LLVMMetadataRef cpu_regions_parallel(LLVMContextRef c, LLVMMetadataRef access_group);

/* Drop fn's scope declarations (llvm.experimental.noalias.scope.decl), keeping the scoped alias metadata of
 * its accesses: each scope is then the whole function's, which is right for the scopes of a noalias state
 * (no pointer a kernel holds ever points into its work-items' state). */
void cpu_regions_drop_scope_decls(LLVMValueRef fn);

#endif
