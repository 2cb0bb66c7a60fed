/* loader.c: an AMDGPU code object (ELF64 shared object, EM_AMDGPU) placed
 * in memory as the ROCm loader does: its PT_LOAD segments at their virtual
 * addresses from one base, its dynamic relocations applied, and kernels
 * found by their descriptor symbol "NAME.kd". */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amdemu.h"

#define R_AMDGPU_ABS64 3
#define R_AMDGPU_RELATIVE64 13

static int fail(char **err, const char *msg)
{
    *err = strdup(msg);
    return -1;
}

/* The image's size is not passed by hipModuleLoadData: the section headers
 * end the file, so e_shoff + e_shnum * e_shentsize bounds it. */
int amdemu_image_load(const void *elf, AmdIsa isa, AmdImage **out, char **err)
{
    const uint8_t *f = elf;
    const Elf64_Ehdr *eh = elf;
    *out = NULL;
    if (!elf || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_machine != 224 /* EM_AMDGPU */)
        return fail(err, "amdemu: not an AMDGPU code object");
    uint64_t end = 0;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(f + eh->e_phoff);
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr + ph[i].p_memsz > end)
            end = ph[i].p_vaddr + ph[i].p_memsz;
    if (end == 0 || end > (1u << 30))
        return fail(err, "amdemu: the code object has no loadable segment");
    AmdImage *img = calloc(1, sizeof *img);
    size_t size = (end + 4095) & ~(size_t)4095;
    if (!img || !(img->base = aligned_alloc(4096, size)) || !(img->dcache = calloc(size / 4, sizeof *img->dcache)) ||
        !(img->dvalid = calloc(size / 4, 1))) {
        amdemu_image_free(img);
        return fail(err, "amdemu: out of memory loading a code object");
    }
    img->size = size;
    img->isa = isa;
    pthread_mutex_init(&img->lock, NULL);
    memset(img->base, 0, size);
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_LOAD)
            memcpy(img->base + ph[i].p_vaddr, f + ph[i].p_offset, ph[i].p_filesz);
    /* dynamic relocations (.rela.dyn): pointers in .data/.rodata to the image */
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(f + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_RELA)
            continue;
        const Elf64_Rela *r = (const Elf64_Rela *)(f + sh[i].sh_offset);
        const Elf64_Sym *syms =
            sh[i].sh_link < eh->e_shnum ? (const Elf64_Sym *)(f + sh[sh[i].sh_link].sh_offset) : NULL;
        for (size_t k = 0; k < sh[i].sh_size / sizeof *r; k++) {
            uint32_t type = ELF64_R_TYPE(r[k].r_info);
            if (r[k].r_offset + 8 > size)
                continue;
            uint64_t v;
            if (type == R_AMDGPU_RELATIVE64)
                v = (uint64_t)(uintptr_t)img->base + (uint64_t)r[k].r_addend;
            else if (type == R_AMDGPU_ABS64 && syms)
                v = (uint64_t)(uintptr_t)img->base + syms[ELF64_R_SYM(r[k].r_info)].st_value + (uint64_t)r[k].r_addend;
            else {
                amdemu_image_free(img);
                char msg[128];
                snprintf(msg, sizeof msg, "amdemu: relocation type %u of the code object not modelled", type);
                return fail(err, msg);
            }
            memcpy(img->base + r[k].r_offset, &v, 8);
        }
    }
    *out = img;
    return 0;
}

void amdemu_image_free(AmdImage *img)
{
    if (!img)
        return;
    if (img->base && img->dcache && img->dvalid)
        pthread_mutex_destroy(&img->lock);
    free(img->base);
    free(img->dcache);
    free(img->dvalid);
    free(img);
}

/* The kernel descriptor (AMDGPUUsage "Kernel Descriptor"), 64 bytes:
 *   0 group_segment_fixed_size, 4 private_segment_fixed_size, 8 kernarg_size,
 *   16 kernel_code_entry_byte_offset (from the descriptor), 44 rsrc3,
 *   48 rsrc1, 52 rsrc2, 56 kernel_code_properties (16 bits). */
/* The image's dynamic symbol table (the loaded image has only .dynsym/.dynstr): false if it has none. */
static bool dynamic_symbols(const AmdImage *img, const Elf64_Sym **syms, const char **strs, uint64_t *nsyms)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->base;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(img->base + eh->e_phoff);
    *syms = NULL;
    *strs = NULL;
    *nsyms = 0;
    for (int i = 0; i < eh->e_phnum; i++) {
        if (ph[i].p_type != PT_DYNAMIC)
            continue;
        for (const Elf64_Dyn *dy = (const Elf64_Dyn *)(img->base + ph[i].p_vaddr); dy->d_tag != DT_NULL; dy++) {
            if (dy->d_tag == DT_SYMTAB)
                *syms = (const Elf64_Sym *)(img->base + dy->d_un.d_ptr);
            else if (dy->d_tag == DT_STRTAB)
                *strs = (const char *)(img->base + dy->d_un.d_ptr);
            else if (dy->d_tag == DT_HASH)
                *nsyms = ((const uint32_t *)(img->base + dy->d_un.d_ptr))[1];
        }
    }
    return *syms && *strs && *nsyms;
}

int amdemu_global_find(AmdImage *img, const char *name, void **addr, size_t *bytes)
{
    const Elf64_Sym *syms;
    const char *strs;
    uint64_t nsyms;
    if (!dynamic_symbols(img, &syms, &strs, &nsyms))
        return -1;
    for (uint64_t i = 0; i < nsyms; i++)
        if (ELF64_ST_TYPE(syms[i].st_info) == STT_OBJECT && strcmp(strs + syms[i].st_name, name) == 0 &&
            syms[i].st_value + syms[i].st_size <= img->size) {
            *addr = img->base + syms[i].st_value;
            *bytes = (size_t)syms[i].st_size;
            return 0;
        }
    return -1;
}

int amdemu_kernel_find(AmdImage *img, const char *name, AmdKernel *k, char **err)
{
    /* the symbol tables are in the loaded image only as .dynsym/.dynstr: read them from the dynamic segment */
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img->base;
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(img->base + eh->e_phoff);
    const Elf64_Sym *syms = NULL;
    const char *strs = NULL;
    uint64_t nsyms = 0;
    for (int i = 0; i < eh->e_phnum; i++) {
        if (ph[i].p_type != PT_DYNAMIC)
            continue;
        for (const Elf64_Dyn *dy = (const Elf64_Dyn *)(img->base + ph[i].p_vaddr); dy->d_tag != DT_NULL; dy++) {
            if (dy->d_tag == DT_SYMTAB)
                syms = (const Elf64_Sym *)(img->base + dy->d_un.d_ptr);
            else if (dy->d_tag == DT_STRTAB)
                strs = (const char *)(img->base + dy->d_un.d_ptr);
            else if (dy->d_tag == DT_HASH)
                nsyms = ((const uint32_t *)(img->base + dy->d_un.d_ptr))[1];
        }
    }
    if (!syms || !strs || !nsyms)
        return fail(err, "amdemu: the code object has no dynamic symbol table");
    char want[300];
    snprintf(want, sizeof want, "%s.kd", name);
    for (uint64_t i = 0; i < nsyms; i++) {
        if (strcmp(strs + syms[i].st_name, want) != 0)
            continue;
        if (syms[i].st_value + 64 > img->size)
            break;
        memset(k, 0, sizeof *k);
        k->img = img;
        snprintf(k->name, sizeof k->name, "%s", name);
        k->kd = img->base + syms[i].st_value;
        int64_t entry;
        memcpy(&k->group_fixed, k->kd, 4);
        memcpy(&k->private_fixed, k->kd + 4, 4);
        memcpy(&k->kernarg_size, k->kd + 8, 4);
        memcpy(&entry, k->kd + 16, 8);
        memcpy(&k->rsrc3, k->kd + 44, 4);
        memcpy(&k->rsrc1, k->kd + 48, 4);
        memcpy(&k->rsrc2, k->kd + 52, 4);
        memcpy(&k->props, k->kd + 56, 2);
        k->entry = (uint64_t)(uintptr_t)k->kd + (uint64_t)entry;
        return 0;
    }
    char msg[400];
    snprintf(msg, sizeof msg, "amdemu: no kernel descriptor %s in the code object", want);
    return fail(err, msg);
}
