/* prelude.h: the Base prelude, Julia source compiled into the library.
 *
 * compiler/base/prelude.jl holds what of Julia's Base can be written in the
 * kernel language itself (minmax, evalpoly, iteration, ...); the C side keeps
 * the primitives (builtins.def). The build turns each file into its text and
 * its syntax tree (compiler/base/embed.c: NAME_text, NAME_len, NAME_tree,
 * NAME_tree_len); frontend.c loads the tree into every module after the
 * user's definitions, which shadow it by name. */
#ifndef JUKE_PRELUDE_H
#define JUKE_PRELUDE_H
#include <stddef.h>

extern const char jk_prelude_text[];          /* NUL-terminated */
extern const size_t jk_prelude_len;           /* without the NUL */
extern const unsigned char jk_prelude_tree[]; /* ast_save's bytes (astbin.c), lines counted from the file's start */
extern const size_t jk_prelude_tree_len;
/* "base/prelude.jl": the prelude's file name in diagnostics; its locations' SrcFile.name is this pointer */
extern const char fe_base_name[];
/* The prelude's extensions, appended to its text in a module whose file uses them (AST_FILE's FILE_* flags,
 * set by the parser), so that a kernel that does not pays nothing for them: base/atomix.jl (Pair, @atomicswap, @atomicreplace), base/intrinsics.jl
 * (KernelAbstractions.KernelIntrinsics), base/staticarrays.jl (SVector, MVector, SMatrix, MMatrix),
 * base/wmma.jl (AMDGPU.Device.WMMA's fragments), base/statistics.jl (Statistics' median and middle). */
extern const char jk_atomix_text[], jk_intrinsics_text[], jk_staticarrays_text[], jk_wmma_text[], jk_statistics_text[];
extern const size_t jk_atomix_len, jk_intrinsics_len, jk_staticarrays_len, jk_wmma_len, jk_statistics_len;
extern const unsigned char jk_atomix_tree[], jk_intrinsics_tree[], jk_staticarrays_tree[], jk_wmma_tree[],
    jk_statistics_tree[];
extern const size_t jk_atomix_tree_len, jk_intrinsics_tree_len, jk_staticarrays_tree_len, jk_wmma_tree_len,
    jk_statistics_tree_len;
/* The identity of the sources this library was built from (16 hex digits; compiler/source_id.py, also made at
 * build time): juke_build_id(), and part of the disk cache's build identity. */
extern const char jk_source_id[];

#endif
