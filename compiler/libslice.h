/* libslice.h: what a module needs of a bitcode device library (ocml, ockl,
 * the oclc control constants, libdevice), cut once per process and kept.
 *
 * Linking a library lazily still reads its whole module level (ocml's
 * constant tables, every declaration) in every compile. The slice of a
 * library for a set of needed names is the module that linking the library
 * into a module declaring only those names leaves behind: the same
 * definitions, in bitcode of a few kilobytes, made once per process (under a
 * lock) and read by every later compile that needs the same names. */
#ifndef JUKE_LIBSLICE_H
#define JUKE_LIBSLICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>

typedef enum LibsliceResult {
    LIBSLICE_NONE,  /* m needs nothing of the library: linking it would move nothing */
    LIBSLICE_SLICE, /* *bc, *size: the slice for m's needs (owned by the cache, lives as long as the process) */
    LIBSLICE_WHOLE, /* link the file itself (unreadable, not bitcode, aliases, out of memory, cache full) */
} LibsliceResult;

/* The slice of the bitcode library at path that module m needs: every
 * declaration of m that the library defines with external linkage. */
LibsliceResult libslice_get(LLVMModuleRef m, const char *path, const uint8_t **bc, size_t *size);

/* llvm_pipeline.c: a device library readied for linking into m, as every
 * link of one does: m's triple and data layout, and, with only_needed, each
 * definition made linkonce_odr, so that linking moves only what m refers to. */
void llvm_prepare_library(LLVMModuleRef lib, LLVMModuleRef m, bool only_needed);

#endif
