/* amdgpu_meta.c: read a kernel's description from an AMDGPU code object's
 * own metadata, so the runtime can launch any code object it can read.
 * Input is untrusted (fuzzed): every offset and size is bounds-checked.
 *
 * Layout read here:
 *   ELF64 little-endian, e_machine EM_AMDGPU (224)
 *   a SHT_NOTE section (or PT_NOTE segment) holding notes
 *     u32 namesz, u32 descsz, u32 type, name (padded to 4), desc (padded to 4)
 *   the note with name "AMDGPU" and type 32 (NT_AMDGPU_METADATA) whose desc
 *   is a msgpack map: "amdhsa.kernels" -> [ { ".name", ".symbol",
 *   ".kernarg_segment_size", ..., ".args" -> [ { ".offset", ".size",
 *   ".value_kind", ".name", ".address_space" } ] } ] */
#include <elf.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

#define AMDGPU_EM 224
#define AMDGPU_NT_METADATA 32

/* Find the NT_AMDGPU_METADATA desc in the notes at [off, off+len). */
static bool meta_scan_notes(const uint8_t *img, size_t size, uint64_t off, uint64_t len, const uint8_t **desc,
                            size_t *desc_len)
{
    if (off > size || len > size - off)
        return false;
    uint64_t pos = off, end = off + len;
    while (end - pos >= 12) {
        uint32_t namesz, descsz, type;
        memcpy(&namesz, img + pos, 4);
        memcpy(&descsz, img + pos + 4, 4);
        memcpy(&type, img + pos + 8, 4);
        uint64_t name_at = pos + 12;
        uint64_t desc_at = name_at + (((uint64_t)namesz + 3) & ~(uint64_t)3);
        uint64_t next = desc_at + (((uint64_t)descsz + 3) & ~(uint64_t)3);
        if (desc_at > end || (uint64_t)descsz > end - desc_at)
            return false;
        if (type == AMDGPU_NT_METADATA && namesz == 7 && memcmp(img + name_at, "AMDGPU", 7) == 0) {
            *desc = img + desc_at;
            *desc_len = descsz;
            return true;
        }
        if (next > end)
            return false;
        pos = next;
    }
    return false;
}

static int meta_find_note(const void *elf, size_t size, const uint8_t **desc, size_t *desc_len, char **err)
{
    const uint8_t *img = elf;
    if (!elf || size < sizeof(Elf64_Ehdr) || memcmp(img, ELFMAG, SELFMAG) != 0 || img[EI_CLASS] != ELFCLASS64 ||
        img[EI_DATA] != ELFDATA2LSB)
        return rt_fail(err, "not an AMDGPU code object: not a 64-bit little-endian ELF file");
    Elf64_Ehdr eh;
    memcpy(&eh, img, sizeof eh);
    if (eh.e_machine != AMDGPU_EM)
        return rt_fail(err, "not an AMDGPU code object: ELF machine %u", eh.e_machine);
    if (eh.e_shoff && eh.e_shnum && eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shoff <= size &&
        (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) <= size - eh.e_shoff) {
        for (uint32_t i = 0; i < eh.e_shnum; i++) {
            Elf64_Shdr sh;
            memcpy(&sh, img + eh.e_shoff + (uint64_t)i * sizeof sh, sizeof sh);
            if (sh.sh_type == SHT_NOTE && meta_scan_notes(img, size, sh.sh_offset, sh.sh_size, desc, desc_len))
                return 0;
        }
    }
    if (eh.e_phoff && eh.e_phnum && eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phoff <= size &&
        (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) <= size - eh.e_phoff) {
        for (uint32_t i = 0; i < eh.e_phnum; i++) {
            Elf64_Phdr ph;
            memcpy(&ph, img + eh.e_phoff + (uint64_t)i * sizeof ph, sizeof ph);
            if (ph.p_type == PT_NOTE && meta_scan_notes(img, size, ph.p_offset, ph.p_filesz, desc, desc_len))
                return 0;
        }
    }
    return rt_fail(err, "AMDGPU code object has no NT_AMDGPU_METADATA note");
}

static bool meta_str_is(const msgpack_object *o, const char *s)
{
    size_t n = strlen(s);
    return o->type == MSGPACK_OBJECT_STR && o->via.str.size == n && memcmp(o->via.str.ptr, s, n) == 0;
}

static const msgpack_object *meta_get(const msgpack_object *map, const char *key)
{
    if (!map || map->type != MSGPACK_OBJECT_MAP)
        return NULL;
    for (uint32_t i = 0; i < map->via.map.size; i++)
        if (meta_str_is(&map->via.map.ptr[i].key, key))
            return &map->via.map.ptr[i].val;
    return NULL;
}

/* Copy a string value into dst (truncated, NUL-terminated); false if absent or not a string. */
static bool meta_get_str(const msgpack_object *map, const char *key, char *dst, size_t cap)
{
    const msgpack_object *o = meta_get(map, key);
    if (!o || o->type != MSGPACK_OBJECT_STR) {
        dst[0] = '\0';
        return false;
    }
    size_t n = o->via.str.size < cap - 1 ? o->via.str.size : cap - 1;
    memcpy(dst, o->via.str.ptr, n);
    dst[n] = '\0';
    return true;
}

/* 1 found, 0 absent, -1 present but not an unsigned 32-bit integer. */
static int meta_get_u32(const msgpack_object *map, const char *key, uint32_t *v)
{
    const msgpack_object *o = meta_get(map, key);
    if (!o)
        return 0;
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > UINT32_MAX)
        return -1;
    *v = (uint32_t)o->via.u64;
    return 1;
}

static uint64_t meta_be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

/* Check that the msgpack bytes hold one whole object whose containers claim
 * no more elements than bytes remain, before msgpack-c allocates room for
 * them (it sizes an array from its header: 0xdd ff ff ff ff would ask for
 * 64 GiB). Every pending element needs at least one byte. */
static bool meta_msgpack_sane(const uint8_t *p, size_t n)
{
    uint64_t pending = 1;
    size_t pos = 0;
    while (pending > 0) {
        if (pos >= n)
            return false;
        uint8_t b = p[pos++];
        uint64_t skip = 0, elems = 0;
        int lenbytes = 0;
        if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3) {
        } else if (b >= 0x80 && b <= 0x8f) {
            elems = 2u * (b & 0x0f);
        } else if (b >= 0x90 && b <= 0x9f) {
            elems = b & 0x0f;
        } else if (b >= 0xa0 && b <= 0xbf) {
            skip = b & 0x1f;
        } else {
            switch (b) {
            case 0xc4:
            case 0xd9: lenbytes = 1; break;
            case 0xc5:
            case 0xda: lenbytes = 2; break;
            case 0xc6:
            case 0xdb: lenbytes = 4; break;
            case 0xc7:
                lenbytes = 1;
                skip = 1;
                break;
            case 0xc8:
                lenbytes = 2;
                skip = 1;
                break;
            case 0xc9:
                lenbytes = 4;
                skip = 1;
                break;
            case 0xca: skip = 4; break;
            case 0xcb: skip = 8; break;
            case 0xcc:
            case 0xd0: skip = 1; break;
            case 0xcd:
            case 0xd1: skip = 2; break;
            case 0xce:
            case 0xd2: skip = 4; break;
            case 0xcf:
            case 0xd3: skip = 8; break;
            case 0xd4: skip = 2; break;
            case 0xd5: skip = 3; break;
            case 0xd6: skip = 5; break;
            case 0xd7: skip = 9; break;
            case 0xd8: skip = 17; break;
            case 0xdc:
            case 0xdd:
            case 0xde:
            case 0xdf: {
                int nb = (b == 0xdc || b == 0xde) ? 2 : 4;
                if (n - pos < (size_t)nb)
                    return false;
                elems = meta_be(p + pos, nb) * ((b == 0xde || b == 0xdf) ? 2 : 1);
                pos += (size_t)nb;
                break;
            }
            default: return false; /* 0xc1 is never used */
            }
        }
        if (lenbytes) {
            if (n - pos < (size_t)lenbytes)
                return false;
            skip += meta_be(p + pos, lenbytes);
            pos += (size_t)lenbytes;
        }
        if (skip > n - pos)
            return false;
        pos += (size_t)skip;
        pending = pending - 1 + elems;
        if (pending > n - pos)
            return false;
    }
    return true;
}

/* Decode the metadata and hand back its kernel list (the unpacked zone
 * stays alive in *up until the caller destroys it). */
static int meta_kernels(const void *elf, size_t size, msgpack_unpacked *up, const msgpack_object **kernels, char **err)
{
    const uint8_t *desc;
    size_t desc_len;
    if (meta_find_note(elf, size, &desc, &desc_len, err) != 0)
        return -1;
    if (!meta_msgpack_sane(desc, desc_len))
        return rt_fail(err, "AMDGPU metadata is not valid msgpack");
    msgpack_unpacked_init(up);
    size_t off = 0;
    msgpack_unpack_return r = msgpack_unpack_next(up, (const char *)desc, desc_len, &off);
    if (r != MSGPACK_UNPACK_SUCCESS && r != MSGPACK_UNPACK_EXTRA_BYTES) {
        msgpack_unpacked_destroy(up);
        return rt_fail(err, "AMDGPU metadata is not valid msgpack");
    }
    const msgpack_object *ks = meta_get(&up->data, "amdhsa.kernels");
    if (!ks || ks->type != MSGPACK_OBJECT_ARRAY) {
        msgpack_unpacked_destroy(up);
        return rt_fail(err, "AMDGPU metadata has no amdhsa.kernels list");
    }
    *kernels = ks;
    return 0;
}

int amdgpu_meta_kernels(const void *elf, size_t size, char ***names, int *count, char **err)
{
    *names = NULL;
    *count = 0;
    msgpack_unpacked up;
    const msgpack_object *ks;
    if (meta_kernels(elf, size, &up, &ks, err) != 0)
        return -1;
    char **out = calloc(ks->via.array.size + 1, sizeof *out);
    if (!out) {
        msgpack_unpacked_destroy(&up);
        return rt_fail(err, "out of memory");
    }
    int n = 0;
    for (uint32_t i = 0; i < ks->via.array.size; i++) {
        const msgpack_object *nm = meta_get(&ks->via.array.ptr[i], ".name");
        if (!nm || nm->type != MSGPACK_OBJECT_STR)
            continue;
        out[n] = strndup(nm->via.str.ptr, nm->via.str.size);
        if (!out[n]) {
            for (int j = 0; j < n; j++)
                free(out[j]);
            free(out);
            msgpack_unpacked_destroy(&up);
            return rt_fail(err, "out of memory");
        }
        n++;
    }
    msgpack_unpacked_destroy(&up);
    *names = out;
    *count = n;
    return 0;
}

/* The alignment metadata leaves out: a by-value argument's natural one. */
static uint32_t meta_align(uint32_t size)
{
    uint32_t a = 1;
    while (a < 8 && a * 2 <= size)
        a *= 2;
    return a;
}

static int meta_read_args(const msgpack_object *kmap, const char *kname, RtFunctionInfo *out, char **err)
{
    const msgpack_object *args = meta_get(kmap, ".args");
    if (!args) {
        out->nargs = out->nall = 0;
        return 0;
    }
    if (args->type != MSGPACK_OBJECT_ARRAY)
        return rt_fail(err, "AMDGPU metadata of kernel '%s': .args is not a list", kname);
    if (args->via.array.size > 64)
        return rt_fail(err, "AMDGPU metadata of kernel '%s': %u arguments, the runtime handles at most 64", kname,
                       args->via.array.size);
    RtArgInfo hidden[64];
    uint32_t nexp = 0, nhid = 0;
    for (uint32_t i = 0; i < args->via.array.size; i++) {
        const msgpack_object *a = &args->via.array.ptr[i];
        RtArgInfo ai;
        memset(&ai, 0, sizeof ai);
        if (a->type != MSGPACK_OBJECT_MAP)
            return rt_fail(err, "AMDGPU metadata of kernel '%s': argument %u is not a map", kname, i + 1);
        if (meta_get_u32(a, ".offset", &ai.offset) != 1 || meta_get_u32(a, ".size", &ai.size) != 1)
            return rt_fail(err, "AMDGPU metadata of kernel '%s': argument %u lacks a valid .offset or .size", kname,
                           i + 1);
        if (!meta_get_str(a, ".value_kind", ai.value_kind, sizeof ai.value_kind))
            return rt_fail(err, "AMDGPU metadata of kernel '%s': argument %u lacks .value_kind", kname, i + 1);
        meta_get_str(a, ".name", ai.name, sizeof ai.name);
        if ((uint64_t)ai.offset + ai.size > out->kernarg_size)
            return rt_fail(err,
                           "AMDGPU metadata of kernel '%s': argument %u (offset %u, %u bytes) lies outside "
                           "the %u-byte kernel-argument segment",
                           kname, i + 1, ai.offset, ai.size, out->kernarg_size);
        ai.hidden = strncmp(ai.value_kind, "hidden_", 7) == 0;
        ai.align = meta_align(ai.size);
        if (ai.hidden)
            hidden[nhid++] = ai;
        else
            out->args[nexp++] = ai;
    }
    /* Explicit arguments first, then hidden ones, each in metadata order. */
    memcpy(&out->args[nexp], hidden, nhid * sizeof hidden[0]);
    out->nargs = nexp;
    out->nall = nexp + nhid;
    out->has_exception_arg = nexp > 0 && strcmp(out->args[nexp - 1].name, "__juke_exception") == 0;
    return 0;
}

int amdgpu_meta_read(const void *elf, size_t size, const char *kernel, RtFunctionInfo *out, char **err)
{
    memset(out, 0, sizeof *out);
    msgpack_unpacked up;
    const msgpack_object *ks;
    if (meta_kernels(elf, size, &up, &ks, err) != 0)
        return -1;
    size_t klen = strlen(kernel);
    const msgpack_object *kmap = NULL;
    for (uint32_t i = 0; i < ks->via.array.size && !kmap; i++) {
        const msgpack_object *k = &ks->via.array.ptr[i];
        const msgpack_object *nm = meta_get(k, ".name");
        const msgpack_object *sym = meta_get(k, ".symbol");
        if ((nm && meta_str_is(nm, kernel)) || (sym && meta_str_is(sym, kernel)))
            kmap = k;
        else if (sym && sym->type == MSGPACK_OBJECT_STR && sym->via.str.size == klen + 3 &&
                 memcmp(sym->via.str.ptr, kernel, klen) == 0 && memcmp(sym->via.str.ptr + klen, ".kd", 3) == 0)
            kmap = k;
    }
    if (!kmap) {
        char list[512] = "";
        size_t len = 0;
        for (uint32_t i = 0; i < ks->via.array.size && len + 1 < sizeof list; i++) {
            char nm[128];
            meta_get_str(&ks->via.array.ptr[i], ".name", nm, sizeof nm);
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", nm);
        }
        msgpack_unpacked_destroy(&up);
        return rt_fail(err, "no kernel '%s' in the code object (it has: %s)", kernel, len ? list : "none");
    }
    char kname[128];
    if (!meta_get_str(kmap, ".name", kname, sizeof kname))
        snprintf(kname, sizeof kname, "%s", kernel);
    snprintf(out->name, sizeof out->name, "%s", kname);
    int rc = 0;
    if (meta_get_u32(kmap, ".kernarg_segment_size", &out->kernarg_size) != 1) {
        rc = rt_fail(err, "AMDGPU metadata of kernel '%s' lacks a valid .kernarg_segment_size", kname);
        goto done;
    }
    /* The rest are informative; a bad value reads as 0. */
    struct {
        const char *key;
        uint32_t *dst;
    } fields[] = {
        { ".group_segment_fixed_size", &out->static_lds_bytes },
        { ".private_segment_fixed_size", &out->scratch_bytes },
        { ".max_flat_workgroup_size", &out->max_group_size },
        { ".wavefront_size", &out->wavefront_size },
        { ".sgpr_count", &out->sgprs },
        { ".vgpr_count", &out->vgprs },
        { ".agpr_count", &out->agprs },
        { ".sgpr_spill_count", &out->sgpr_spills },
        { ".vgpr_spill_count", &out->vgpr_spills },
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (meta_get_u32(kmap, fields[i].key, fields[i].dst) != 1)
            *fields[i].dst = 0;
    rc = meta_read_args(kmap, kname, out, err);
done:
    msgpack_unpacked_destroy(&up);
    return rc;
}
