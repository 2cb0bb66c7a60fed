/* dumps.h: writing a compiled kernel's dumps into a directory, as files a
 * user can open next to each other (like AMDGPU.jl's @device_code dir=...).
 * No LLVM here: the public API (juke_kernel_write_dumps) and the CLI call it
 * with strings the compiler already produced. */
#ifndef JUKE_DUMPS_H
#define JUKE_DUMPS_H

#include <stddef.h>

/* The texts of one kernel. A NULL member writes no file for it. */
typedef struct DumpSet {
    const char *lowered;     /* <kernel>_<hash>.lowered.jl */
    const char *typed;       /* <kernel>_<hash>.typed.jl */
    const char *llvm_unopt;  /* <kernel>_<hash>.unopt.ll */
    const char *llvm_opt;    /* <kernel>_<hash>.opt.ll */
    const char *asm_text;    /* <kernel>_<hash>.asm */
    const char *resources;   /* <kernel>_<hash>.resources.txt */
    const void *code_object; /* <kernel>_<hash>.<code_object_ext>, code_object_size bytes */
    size_t code_object_size;
    const char *code_object_ext; /* "hsaco", "ptx", "so"; NULL = "bin" */
} DumpSet;

/* Write the files of ds into dir, creating dir and its parents if missing.
 * The file stem is "<kernel>_<hash>" (vadd!_3fa2c1), where kernel keeps
 * Julia's characters ('!' included) but '/' and control characters become
 * '_', and hash is dumps_key_hash(key): one name per specialisation, the same
 * in every process, so a Float64 kernel does not overwrite the Float32 one. Each file is
 * written through dumps_write_file_parts, so a reader never sees half a
 * file. Returns 0, or -1 with *err (malloc'd, when err is
 * not NULL) naming the path and the reason; files written before the failure
 * stay. */
int dumps_write_dir(const char *dir, const char *kernel, const char *key, const DumpSet *ds, char **err);

/* Hex digits in a dump file's hash. */
#define DUMPS_HASH_LEN 6

/* The short hash of a kernel's cache key (argument types, target, options)
 * that names its dump files: DUMPS_HASH_LEN lower-case hex digits. */
void dumps_key_hash(const char *key, char out[DUMPS_HASH_LEN + 1]);

/* Create dir and its parents (mkdir -p). Returns 0, or -1 with *err as above. */
int dumps_mkdirs(const char *dir, char **err);

/* One piece of a file's contents. */
typedef struct DumpPart {
    const void *data;
    size_t size;
} DumpPart;

/* Every file juke writes goes through here, so no output is ever lost or
 * half written. A regular file, or a path that does not exist yet, gets a
 * temporary file in the same directory, written, fsync'd and renamed over it
 * (then the directory is fsync'd); on failure the old file is unchanged and
 * no temporary stays, and an existing file keeps its mode. Symlinks are
 * followed, never replaced. An existing file that is no regular file
 * (/dev/null, /dev/full, a FIFO, /dev/stdout) is written into in place.
 * Returns 0, or -1 with *err (malloc'd, when err is not NULL) naming the path
 * and the reason (strerror: "No space left on device" for ENOSPC). */
int dumps_write_file_parts(const char *path, const DumpPart *parts, int nparts, char **err);

/* dumps_write_file_parts with one part of size bytes. */
int dumps_write_file_atomic(const char *path, const void *data, size_t size, char **err);

#endif
