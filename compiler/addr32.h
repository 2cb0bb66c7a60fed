/* addr32.h: the 32-bit class's element addresses as one 32-bit index widened once (addr32.c). */
#ifndef JUKE_ADDR32_H
#define JUKE_ADDR32_H

#include <stdbool.h>

#include <llvm-c/Types.h>

/* The string attribute codegen puts on a kernel parameter that is a device
 * array of the 32-bit class (every element index it is read or written at
 * lies in [0, length) and length < 2^31): its element size in bytes. */
#define ADDR32_ATTR "juke-idx32-elsize"
/* The named metadata whose presence says that the module takes a raw
 * pointer into a device array (pointer(A)), which it may offset anywhere:
 * the pass then leaves the module alone. */
#define ADDR32_RAW "juke.raw_array_pointer"

/* Whether addr32_run has anything to do in mod: a marked parameter, and no
 * raw array pointer. */
bool addr32_applies(LLVMModuleRef mod);

/* Gives every load and store of mod whose address is a chain of GEPs from
 * such a parameter's data pointer the address by the sign extension of its
 * element index's 32-bit form, the constant part apart; returns how many
 * (the old addresses are left for dce). */
int addr32_run(LLVMModuleRef mod);

#endif
