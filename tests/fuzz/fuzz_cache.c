/* fuzz_cache.c: libFuzzer target for the disk cache's entry reader
 * (kcache_parse, what kcache_load runs on every byte it read). The first
 * input byte picks the lookup: bits 0-1 the target (CPU, AMDGPU, NVPTX),
 * bit 2 a runtime-only lookup (no build identity to compare), bit 3 "fix
 * the checksum" so that mutations get past it to the header and section
 * checks; the rest is the entry. An accepted entry must be what the lookup
 * asked for (symbol, kind, processor, limits, a code object of its target)
 * and must survive kcache_format and kcache_parse again unchanged. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "kcache.h"

/* The lookup every seed in corpus/cache was written for. */
#define FUZZ_KEY "vadd!/3(Array{Float32,1},Array{Float32,1},Array{Float32,1})|fuzz"
#define FUZZ_BUILD "0123456789abcdef0123456789abcdef"

static void fix_checksum(uint8_t *d, size_t n)
{
    static const char magic[] = "JUKE-KERNEL-CACHE 2\nxxh3-128 ";
    size_t ml = sizeof magic - 1;
    if (n < ml + 33 || memcmp(d, magic, ml) != 0)
        return;
    XXH128_hash_t h = XXH3_128bits(d + ml + 33, n - ml - 33);
    char hex[40];
    snprintf(hex, sizeof hex, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
    memcpy(d + ml, hex, 32);
}

static void check(bool ok)
{
    if (!ok)
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const TargetKind kinds[4] = { TARGET_CPU, TARGET_AMDGPU, TARGET_NVPTX, TARGET_CPU };
    KcacheSlot s;
    memset(&s, 0, sizeof s);
    s.dfd = -1;
    s.kind = kinds[data[0] & 3];
    s.proc = s.kind == TARGET_AMDGPU ? "gfx90a" : s.kind == TARGET_NVPTX ? "sm_90" : NULL;
    s.key_line = FUZZ_KEY;
    s.build = data[0] & 4 ? NULL : FUZZ_BUILD;
    s.symbol = "vadd_21";
    uint8_t *entry = malloc(size); /* a copy of its own size: ASan sees every overread */
    if (!entry)
        return 0;
    memcpy(entry, data + 1, size - 1);
    if (data[0] & 8)
        fix_checksum(entry, size - 1);
    char *l = NULL, *t = NULL, *r = NULL;
    CodeObject co;
    memset(&co, 0, sizeof co);
    const char *why = kcache_parse(&s, entry, size - 1, &l, &t, &r, &co);
    if (why) {
        check(*why && !l && !t && !r && !co.data);
    } else {
        check(l && t && r && co.data && co.kind == s.kind && strcmp(co.kernel_symbol, s.symbol) == 0);
        check(!s.proc || strcmp(co.proc, s.proc) == 0);
        check(co.static_lds_bytes <= 65536 && co.max_flat_workgroup_size >= 0 && co.max_flat_workgroup_size <= 1024);
        check(co.size + (co.kind == TARGET_NVPTX) <= size - 1);
        check(co.kind == TARGET_NVPTX ? co.data[co.size] == 0 : memcmp(co.data, "\177ELF", 4) == 0);
        size_t n2 = 0;
        uint8_t *again = kcache_format(&s, l, t, r, &co, &n2);
        if (again) {
            char *l2 = NULL, *t2 = NULL, *r2 = NULL;
            CodeObject co2;
            check(kcache_parse(&s, again, n2, &l2, &t2, &r2, &co2) == NULL);
            check(strcmp(l, l2) == 0 && strcmp(t, t2) == 0 && strcmp(r, r2) == 0 && co.size == co2.size &&
                  memcmp(co.data, co2.data, co.size) == 0 && co.static_lds_bytes == co2.static_lds_bytes &&
                  co.max_flat_workgroup_size == co2.max_flat_workgroup_size && co.uses_barrier == co2.uses_barrier &&
                  co.uses_dynamic_lds == co2.uses_dynamic_lds && strcmp(co.proc, co2.proc) == 0);
            free(l2);
            free(t2);
            free(r2);
            code_object_free(&co2);
            free(again);
        }
        free(l);
        free(t);
        free(r);
        code_object_free(&co);
    }
    free(entry);
    return 0;
}
