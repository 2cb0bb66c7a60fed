/* checkopt.h: implied and merged bounds checks on optimised LLVM IR (checkopt.c). */
#ifndef JUKE_CHECKOPT_H
#define JUKE_CHECKOPT_H

#include <stdbool.h>

#include <llvm-c/Types.h>

typedef struct CheckoptStats {
    int implied; /* checks (or parts of one) that dominating conditions decide */
    int merged;  /* checks merged into an earlier one's branch */
} CheckoptStats;

/* Runs both (merge: also part 2) on every function of mod; returns how
 * many checks changed (then the caller runs simplifycfg to drop the
 * constant branches). */
int checkopt_run(LLVMModuleRef mod, bool merge, CheckoptStats *st);

#endif
