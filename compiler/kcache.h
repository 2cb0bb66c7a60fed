/* kcache.h: the on-disk kernel cache (JUKE_CACHE_DIR / juke_options.cache_dir).
 *
 * One file per kernel in a private directory. A directory juke does not own,
 * or one that group or others may write, is refused: the compile goes on
 * without the disk cache and a warning says why. An entry is trusted only
 * after it passed every check (regular file of this user, at most
 * KCACHE_MAX_ENTRY bytes, XXH3-128 checksum of its whole content, every header
 * field valid for the request); an entry that fails one is removed, and the
 * kernel is rebuilt and saved again (a note says so). No byte of an entry
 * reaches the runtime (and so the CPU device's dlopen) before that.
 *
 * The key has two parts. The request (function, canonical argument types,
 * options, target, the module's source hash, juke's version) and the machine
 * (for the CPU target, the host CPU's identity read with cpuid; for a portable
 * x86-64 level, "cpu:x86-64-v3", the level's name) name the file
 * and are its `key:` line: both the full build and the runtime-only build
 * (-Dcompiler=false) can form them. The build identity (the sources' identity,
 * juke_build_id(); LLVM's version, the CPU's name and features as LLVM sees them, the content hashes of the device
 * libraries a compile may link) is its `build:` line, which a build with a
 * compiler requires to equal its own; the runtime-only build cannot compile and
 * so cannot know it, and runs what a compiler built for this same machine. */
#ifndef JUKE_KCACHE_H
#define JUKE_KCACHE_H

#include <stdint.h>

#include "codegen.h"
#include "juke.h"

/* The largest entry read: far above any kernel (a few hundred KiB), far
 * below what would hurt to read. */
#define KCACHE_MAX_ENTRY (256u << 20)

typedef struct Kcache Kcache;

/* What one lookup found: an open cache directory and an entry name, or
 * dfd < 0 when there is no usable disk cache for this compile. */
typedef struct KcacheSlot {
    int dfd;
    char *dir, *name; /* for messages: the directory as given, the entry's file name */
    char *key_line;   /* the request and machine part of the key */
    char *build;      /* the build identity's hash (hex), NULL without a compiler */
    char *symbol;     /* the kernel symbol the function name implies */
    TargetKind kind;
    const char *proc; /* the processor asked for, NULL for the default */
    char *bad;        /* why the entry found was refused (NULL if none) */
} KcacheSlot;

/* The parts a key is made of (kcache_make_key). */
typedef struct KcacheKeyParts {
    const char *request; /* function(canonical types)|target|options (api.c's in-memory key) */
    const char *source;  /* the module's source text */
    size_t source_len;
    const char *machine; /* the machine the code must run on ("" for GPUs: the target names it) */
    const char *build;   /* the build identity (LLVM version, host CPU name and features, device
                               library hashes), NULL without a compiler */
} KcacheKeyParts;

/* A per-context cache state (identity memo, directories already reported,
 * where notes go). NULL when out of memory. */
Kcache *kcache_new(void);
void kcache_free(Kcache *kc);
/* Send notes and warnings to fn (NULL: nowhere). */
void kcache_set_log(Kcache *kc, juke_log_fn fn, void *user);
/* Send msg to the context's log (the trace's write failure at destroy uses it too). */
void kcache_log(Kcache *kc, juke_log_level level, const char *msg);

/* The key of parts: *key_line (request, source hash, juke version, machine),
 * *build (hex hash of parts->build, NULL if it is NULL) and *file (the entry's
 * file name, from function and a hash of the key line). All malloc'd; false
 * when out of memory. */
bool kcache_make_key(const KcacheKeyParts *parts, const char *function, char **key_line, char **build, char **file);
/* The host CPU's identity as the key's machine part (cpuid: vendor,
 * family/model/stepping, feature words, the OS-enabled state). malloc'd. */
char *kcache_host_machine(void);

/* The portable x86-64 levels whose code this host's CPU runs, best first (x86-64-v4 ... x86-64; none
 * off x86-64): levels points at static names; returns how many. A CPU kernel compiled for one of them
 * (target "cpu:x86-64-v3") is keyed by the level instead of the machine that compiled it, so a
 * runtime-only build on another machine finds it (api.c tries them when it cannot compile). */
int kcache_host_levels(const char *levels[4]);

/* Prepare a lookup in dir for function with the request key. false (and
 * s->dfd < 0) when the directory is refused or unusable: the compile goes on
 * without it; a refusal was reported as a warning. */
bool kcache_open(Kcache *kc, KcacheSlot *s, const char *dir, const char *function, const char *request,
                 const char *source, size_t source_len, const TargetOptions *to);
/* Read and check the slot's entry. true with its sections and code object
 * filled; false on a miss or a refused entry (then removed; s->bad says why). */
bool kcache_load(Kcache *kc, KcacheSlot *s, char **lowered, char **typed, char **resources, CodeObject *co);
/* Write the kernel to the slot's entry (atomically: a private temporary file
 * renamed over it); a failure to write is no error. Reports a refused entry
 * as rebuilt. */
void kcache_save(Kcache *kc, KcacheSlot *s, const char *lowered, const char *typed, const char *resources,
                 const CodeObject *co);
/* Release the slot (reports a refused entry that was not rebuilt). */
void kcache_close(Kcache *kc, KcacheSlot *s);

/* Check an entry's bytes against the slot (what kcache_load does after
 * reading): NULL and the fields filled when it is good, else why not
 * (a static string). For the fuzzer and tests. */
const char *kcache_parse(const KcacheSlot *s, const uint8_t *data, size_t size, char **lowered, char **typed,
                         char **resources, CodeObject *co);
/* An entry's bytes for the slot (what kcache_save writes); malloc'd, NULL
 * when out of memory. */
uint8_t *kcache_format(const KcacheSlot *s, const char *lowered, const char *typed, const char *resources,
                       const CodeObject *co, size_t *size);

#endif
