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
 * written under a temporary name in dir and renamed into place, so a reader
 * never sees half a file. Returns 0, or -1 with *err (malloc'd, when err is
 * not NULL) naming the path and the reason; files written before the failure
 * stay. */
int dumps_write_dir(const char *dir, const char *kernel, int n, const DumpSet *ds, char **err);

/* Create dir and its parents (mkdir -p). Returns 0, or -1 with *err as above. */
int dumps_mkdirs(const char *dir, char **err);

/* Write size bytes to path atomically (temporary file in the same directory,
 * then rename). Returns 0, or -1 with *err as above. */
int dumps_write_file_atomic(const char *path, const void *data, size_t size, char **err);

#endif
