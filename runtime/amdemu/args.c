/* args.c: what HIP does for a launch given kernelParams (an array of
 * pointers, one per explicit argument) rather than a packed buffer: read the
 * kernel's arguments from the code object's metadata (runtime/amdgpu_meta.c,
 * shared with the runtime) and lay them out in the kernarg segment with the
 * hidden arguments HIP fills.
 *
 * Layout (code object v5, from the metadata): explicit argument i's .size
 * bytes from params[i] at its .offset; hidden_block_count_{x,y,z} (u32,
 * workgroups), hidden_group_size_{x,y,z} (u16), hidden_remainder_* (0: the
 * grid is whole groups), hidden_grid_dims (u16), hidden_dynamic_lds_size
 * (u32); every other hidden argument zero. */
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amdemu.h"
#include "backend.h"

/* amdgpu_meta.c reports through the runtime's rt_fail; the emulator library
 * has its own (hidden: it never meets the runtime's). */
int rt_fail(char **err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err) {
        char *msg = NULL;
        if (vasprintf(&msg, fmt, ap) < 0)
            msg = NULL;
        free(*err);
        *err = msg;
    }
    va_end(ap);
    return -1;
}

size_t amdemu_elf_size(const void *elf)
{
    const Elf64_Ehdr *eh = elf;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)((const uint8_t *)elf + eh->e_phoff);
    uint64_t end = eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize;
    if (eh->e_phoff + (uint64_t)eh->e_phnum * eh->e_phentsize > end)
        end = eh->e_phoff + (uint64_t)eh->e_phnum * eh->e_phentsize;
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_offset + ph[i].p_filesz > end)
            end = ph[i].p_offset + ph[i].p_filesz;
    return (size_t)end;
}

static void put_le(uint8_t *p, uint32_t size, uint64_t v)
{
    for (uint32_t i = 0; i < size && i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

int amdemu_pack_params(const void *elf, size_t elf_size, const char *kernel, void **params, const uint32_t grid[3],
                       const uint32_t block[3], uint32_t shmem, uint8_t *buf, size_t cap, char **err)
{
    RtFunctionInfo info;
    char *why = NULL;
    if (amdgpu_meta_read(elf, elf_size, kernel, &info, &why) != 0) {
        rt_fail(err, "amdemu: kernelParams of %s: %s", kernel, why ? why : "no metadata");
        free(why);
        return -1;
    }
    if (info.kernarg_size > cap)
        return rt_fail(err, "amdemu: %s: %u bytes of kernel arguments, the descriptor says %zu", kernel,
                       info.kernarg_size, cap);
    uint32_t dims = 1;
    for (int d = 1; d < 3; d++)
        if ((uint64_t)grid[d] * block[d] > 1)
            dims = (uint32_t)d + 1;
    for (uint32_t i = 0; i < info.nall && i < 64; i++) {
        const RtArgInfo *a = &info.args[i];
        const char *vk = a->value_kind;
        if (i < info.nargs) {
            if (a->size && !params[i])
                return rt_fail(err, "amdemu: %s: kernelParams[%u] is NULL", kernel, i);
            memcpy(buf + a->offset, params[i], a->size);
            continue;
        }
        uint64_t v = 0;
        if (strncmp(vk, "hidden_block_count_", 19) == 0 && vk[19] >= 'x' && vk[19] <= 'z' && !vk[20])
            v = grid[vk[19] - 'x'];
        else if (strncmp(vk, "hidden_group_size_", 18) == 0 && vk[18] >= 'x' && vk[18] <= 'z' && !vk[19])
            v = block[vk[18] - 'x'];
        else if (strcmp(vk, "hidden_grid_dims") == 0)
            v = dims;
        else if (strcmp(vk, "hidden_dynamic_lds_size") == 0)
            v = shmem;
        put_le(buf + a->offset, a->size, v);
    }
    return 0;
}
