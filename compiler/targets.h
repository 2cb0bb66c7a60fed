/* targets.h: the registry of code-generation targets. Everything the rest of
 * juke knows about a target (its names, processors, default, file
 * extension, atomic scope) is one row of the table in targets.c; its code
 * generation is the TargetOps of its own file (target_<name>.c, behind
 * target.h). No LLVM here: the API, the CLI and the runtime-only build
 * (-Dcompiler=false) ask this registry too.
 *
 * Adding a target is one new file (target_<name>.c defining its TargetOps)
 * and one row in targets.c. */
#ifndef JUKE_TARGETS_H
#define JUKE_TARGETS_H

#include <stdbool.h>
#include <stddef.h>

#include "common.h"

typedef enum TargetKind { TARGET_AMDGPU = 1, TARGET_CPU, TARGET_NVPTX } TargetKind;

struct TargetOps;

typedef struct TargetInfo {
    TargetKind kind;
    const char *name;            /* "amdgpu": also a target spec meaning the default processor */
    const char *label;           /* "AMDGPU", as messages name it */
    const char *proc_prefix;     /* specs starting with it name a processor ("gfx", "sm_"); NULL: none */
    const char *proc_separator;  /* "name<sep>PROC" also names a processor ("cpu:" for cpu:znver3); NULL: none */
    const char *const *procs;    /* the processors juke knows, NULL-terminated */
    const char *default_proc;    /* used when the spec names none; NULL: the host's */
    bool open_procs;             /* any processor name passes the spec's parse; the target's init checks it
                                    (the CPU: LLVM knows the host under names no list has) */
    const char *ext;             /* file extension of its code object: "hsaco", "ptx", "so" */
    bool text_object;            /* the code object is text (PTX): it is stored with its NUL */
    unsigned max_static_local;   /* bytes of static local memory a kernel may have */
    const char *devlib_env;      /* the environment variable naming its device libraries, NULL: none */
    const char *atomic_scope;    /* LLVM syncscope of device-wide atomics ("agent"), "" for the default */
    const char *object_what;     /* "an AMDGPU ELF (.hsaco)", for help texts */
    const struct TargetOps *ops; /* its code generation; NULL in a build without LLVM */
} TargetInfo;

/* The target spec used when none is given: "gfx90a". */
extern const char target_default_spec[];

/* Every target, in the order help texts list them. */
int target_count(void);
const TargetInfo *target_at(int i);
const TargetInfo *target_by_kind(TargetKind kind);

/* Parse a target spec ("gfx90a", "amdgpu", "sm_90", "nvptx", "cpu",
 * "cpu:znver3"; NULL or "" is target_default_spec) into its target and
 * processor (*proc: NULL for the target's default, else a pointer into
 * spec). An unknown spec or processor is false with the message in *err. */
bool target_parse(const char *spec, const TargetInfo **out, const char **proc, StrBuf *err);

/* Is proc one of t's known processors? (A build without LLVM knows the
 * names too, but cannot compile for any.) */
bool target_proc_listed(const TargetInfo *t, const char *proc);
/* t's known processors, ", "-separated, appended to sb. */
void target_list_procs(const TargetInfo *t, StrBuf *sb);

#endif
