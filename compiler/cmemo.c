/* cmemo.c: the explicit compile's memo. juke_compile with the inputs of an
 * earlier call (the caller's own strings, not their canonical spelling)
 * finds that call's kernel here by a hash and an exact comparison, without
 * building the cache key (api.c's cache_key: string formatting and
 * allocation). Equal inputs make an equal key, so a hit is the kernel the
 * key would find; inputs spelt differently miss here and meet in the
 * context's kernel list by the key. One table per module, under ctx->lock. */
#include <stdlib.h>
#include <string.h>

#include "api_impl.h"

enum { CMEMO_SLOTS = 256, CMEMO_PROBES = 8 };

/* FNV-1a over a string and its terminator (NULL hashes as one 0xff byte). */
static uint64_t hash_str(uint64_t h, const char *s)
{
    if (!s)
        return (h ^ 0xff) * 0x100000001b3ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h * 0x100000001b3ull;
}

uint64_t cmemo_hash(const char *function, const char *const *argtypes, int nargs, const juke_options *o, int variant)
{
    uint64_t h = 0xcbf29ce484222325ull;
    h = hash_str(h, function);
    for (int i = 0; i < nargs; i++)
        h = hash_str(h, argtypes[i]);
    h = hash_str(h, o->target);
    h = hash_str(h, o->device_libs);
    int ints[6] = { nargs, o->opt_level, o->code_object_version, o->wavefront_size, o->debuginfo, variant };
    for (int i = 0; i < 6; i++)
        h = (h ^ (uint32_t)ints[i]) * 0x100000001b3ull;
    return h;
}

/* The inputs as one blob: each string as a present byte (1; 0 for NULL) and
 * its bytes with the terminator, then the integers. */
static void blob_str(char **p, const char *s)
{
    *(*p)++ = s != NULL;
    if (s) {
        size_t n = strlen(s) + 1;
        memcpy(*p, s, n);
        *p += n;
    }
}

static bool blob_eq_str(const char **p, const char *s)
{
    if (*(*p)++ != (s != NULL))
        return false;
    if (!s)
        return true;
    const char *b = *p;
    while (*b && *b == *s)
        b++, s++;
    if (*b != *s)
        return false;
    *p = b + 1;
    return true;
}

static bool entry_matches(const CmemoEntry *e, uint64_t h, const char *function, const char *const *argtypes, int nargs,
                          const juke_options *o, int variant)
{
    if (!e->k || e->hash != h || e->nargs != nargs || e->variant != variant || e->opt_level != o->opt_level ||
        e->cov != o->code_object_version || e->wavefront != o->wavefront_size || e->debuginfo != o->debuginfo)
        return false;
    const char *p = e->blob;
    if (!blob_eq_str(&p, function))
        return false;
    for (int i = 0; i < nargs; i++)
        if (!blob_eq_str(&p, argtypes[i]))
            return false;
    return blob_eq_str(&p, o->target) && blob_eq_str(&p, o->device_libs);
}

juke_kernel *cmemo_find(const Cmemo *cm, uint64_t h, const char *function, const char *const *argtypes, int nargs,
                        const juke_options *o, int variant)
{
    if (!cm->slots)
        return NULL;
    for (int i = 0; i < CMEMO_PROBES; i++) {
        const CmemoEntry *e = &cm->slots[(h + (uint64_t)i) & (CMEMO_SLOTS - 1)];
        if (!e->k)
            return NULL;
        if (entry_matches(e, h, function, argtypes, nargs, o, variant))
            return e->k;
    }
    return NULL;
}

/* Remember k for these inputs; out of memory, or a full probe sequence,
 * replaces the probe's first entry or forgets: the memo only speeds up. */
void cmemo_add(Cmemo *cm, uint64_t h, const char *function, const char *const *argtypes, int nargs,
               const juke_options *o, int variant, juke_kernel *k)
{
    if (!cm->slots && !(cm->slots = calloc(CMEMO_SLOTS, sizeof *cm->slots)))
        return;
    size_t n = 4 + strlen(function) + 1;
    for (int i = 0; i < nargs; i++)
        n += strlen(argtypes[i]) + 2;
    n += (o->target ? strlen(o->target) + 1 : 0) + (o->device_libs ? strlen(o->device_libs) + 1 : 0);
    char *blob = malloc(n);
    if (!blob)
        return;
    char *p = blob;
    blob_str(&p, function);
    for (int i = 0; i < nargs; i++)
        blob_str(&p, argtypes[i]);
    blob_str(&p, o->target);
    blob_str(&p, o->device_libs);
    CmemoEntry *e = &cm->slots[h & (CMEMO_SLOTS - 1)];
    for (int i = 0; i < CMEMO_PROBES; i++) {
        CmemoEntry *c = &cm->slots[(h + (uint64_t)i) & (CMEMO_SLOTS - 1)];
        if (!c->k) {
            e = c;
            break;
        }
    }
    free(e->blob);
    *e = (CmemoEntry){ .hash = h,
                       .k = k,
                       .blob = blob,
                       .nargs = nargs,
                       .variant = variant,
                       .opt_level = o->opt_level,
                       .cov = o->code_object_version,
                       .wavefront = o->wavefront_size,
                       .debuginfo = o->debuginfo };
}

void cmemo_free(Cmemo *cm)
{
    for (int i = 0; cm->slots && i < CMEMO_SLOTS; i++)
        free(cm->slots[i].blob);
    free(cm->slots);
    cm->slots = NULL;
}
