/* dumps.h: writing a compiled kernel's dumps into a directory, as files a
 * user can open next to each other (like AMDGPU.jl's @device_code dir=...).
 * No LLVM here: the public API (juke_kernel_write_dumps) and the CLI call it
 * with strings the compiler already produced. */
#ifndef JUKE_DUMPS_H
#define JUKE_DUMPS_H

#include <stddef.h>

/* The texts of one kernel. A NULL member writes no file for it. */
typedef struct DumpSet {
    const char *lowered;      /* <kernel>_<n>.lowered.jl */
    const char *typed;        /* <kernel>_<n>.typed.jl */
    const char *llvm_unopt;   /* <kernel>_<n>.unopt.ll */
    const char *llvm_opt;     /* <kernel>_<n>.opt.ll */
    const char *asm_text;     /* <kernel>_<n>.asm */
    const char *resources;    /* <kernel>_<n>.resources.txt */
    const void *code_object;  /* <kernel>_<n>.<code_object_ext>, code_object_size bytes */
    size_t code_object_size;
    const char *code_object_ext; /* "hsaco", "ptx", "so"; NULL = "bin" */
} DumpSet;

/* Write the files of ds into dir, creating dir and its parents if missing.
 * The file stem is "<kernel>_<n>", where kernel keeps Julia's characters
 * ('!' included) but '/' and control characters become '_'. Each file is
 * written through dumps_write_file_parts, so a reader never sees half a
 * file. Returns 0, or -1 with *err (malloc'd, when err is
 * not NULL) naming the path and the reason; files written before the failure
 * stay. */
int dumps_write_dir(const char *dir, const char *kernel, int n, const DumpSet *ds, char **err);

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
