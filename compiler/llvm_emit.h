/* llvm_emit.h: object emission through a code generation pipeline that a
 * pooled target machine keeps (llvm_emit.cpp, LLVM's C++ API: the C API
 * builds the legacy pass pipeline again for every module), and the
 * optimisation pipeline run without passes that cannot change anything
 * (llvm_passes.cpp). Only llvm_pipeline.c (and test_targets.c) include this. */
#ifndef JUKE_LLVM_EMIT_H
#define JUKE_LLVM_EMIT_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One target machine's object-file pipeline, built at its first use; NULL when out of memory. Used by one
 * thread at a time, as its target machine is. */
typedef struct JkCodegen JkCodegen;
JkCodegen *jk_codegen_new(LLVMTargetMachineRef tm);
void jk_codegen_free(JkCodegen *cg);

/* The relocatable object of m into *data (malloc'd, NUL-terminated; *size without the NUL): 1. 0 when m
 * needs a pipeline of its own (the caller emits it through the C API: see llvm_emit.cpp), -1 when out of
 * memory. */
int jk_codegen_emit_object(JkCodegen *cg, LLVMModuleRef m, uint8_t **data, size_t *size);

/* LLVMRunPasses of passes on m for tm, except that an InstCombine run on a function that nothing changed
 * since InstCombine last ran on it and found nothing is skipped, and so is CalledValuePropagation in a
 * module without indirect calls (llvm_passes.cpp): the same module comes out. 1, or 0 with *err
 * (malloc'd) when passes does not parse, -1 when out of memory. */
int jk_run_passes(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *passes, char **err);

/* For tests: the registers whose register-alias cache entry (llvm_emit.cpp) differs from the one LLVM makes, on a
 * target machine for triple, cpu, features; -1 when none could be compared. */
int jk_codegen_alias_cache_mismatches(const char *triple, const char *cpu, const char *features);

#ifdef __cplusplus
}
#endif
#endif
