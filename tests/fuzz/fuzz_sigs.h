/* fuzz_sigs.h: which signatures a fuzz target specialises a kernel file on.
 *
 * A corpus file may name them in comments, one per line, which the parser
 * ignores:
 *     #sig saxpy! Vector{Float32}; Vector{Float32}; Float32
 * (types separated by ';', since Array{Int64,3} holds a comma). Without such
 * lines, each of the first few functions gets signatures derived from its
 * first method: an annotated parameter keeps a concrete annotation
 * (`n::Int32` -> Int32), every other parameter draws a type from a pool by a
 * hash of the input, so a file always gets the same signatures (replayable
 * crashes) while different files cover different types. */
#ifndef JUKE_FUZZ_SIGS_H
#define JUKE_FUZZ_SIGS_H

#include <stdint.h>
#include <string.h>

#include "frontend.h"
#include "fuzz_findings.h"
#include "juke.h"

#define FZ_MAXSIG 6
#define FZ_MAXARGS 12

typedef struct FzSig {
    char func[128];
    char types[FZ_MAXARGS][48];
    int nargs;
} FzSig;

static const char *const fz_type_pool[] = {
    "Vector{Float32}", "Vector{Float64}", "Vector{Int32}",  "Matrix{Float32}",
    "Matrix{Float64}", "Vector{Int64}",   "Array{Int64,3}", "Float32",
    "Int32",           "Int64",           "Float64",        "Bool",
    "UInt8",           "Vector{UInt32}",  "Float16",        "Vector{Float16}",
    "Matrix{Int32}",   "Vector{Bool}",    "Int8",           "UInt64",
};

static uint64_t fz_hash(const uint8_t *d, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ d[i]) * 1099511628211ull;
    return h;
}

/* The "#sig" lines of the input; returns how many were read. */
static int fz_sigs_from_comments(const char *src, FzSig *out, int max)
{
    int k = 0;
    for (const char *p = src; p && *p && k < max;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len > 5 && len < 1024 && strncmp(p, "#sig ", 5) == 0) {
            char line[1024];
            memcpy(line, p + 5, len - 5);
            line[len - 5] = 0;
            FzSig s = { 0 };
            char *q = line;
            while (*q == ' ')
                q++;
            char *sp = strchr(q, ' ');
            if (sp)
                *sp = 0;
            if (strlen(q) < sizeof s.func && *q) {
                strcpy(s.func, q);
                char *t = sp ? sp + 1 : NULL;
                while (t && *t && s.nargs < FZ_MAXARGS) {
                    char *semi = strchr(t, ';');
                    if (semi)
                        *semi = 0;
                    while (*t == ' ')
                        t++;
                    size_t tl = strlen(t);
                    while (tl && t[tl - 1] == ' ')
                        t[--tl] = 0;
                    if (tl && tl < sizeof s.types[0])
                        strcpy(s.types[s.nargs++], t);
                    t = semi ? semi + 1 : NULL;
                }
                out[k++] = s;
            }
        }
        p = e ? e + 1 : NULL;
    }
    return k;
}

#ifdef JUKE_FRONTEND_H
/* Signatures for the first functions of a loaded module: per_func of each,
 * varied by h. */
static int fz_derive_sigs(const FeModule *m, uint64_t h, FzSig *out, int max, int per_func)
{
    static const char *const concrete[] = { "Bool",   "Int8",   "Int16",   "Int32",   "Int64",   "UInt8", "UInt16",
                                            "UInt32", "UInt64", "Float16", "Float32", "Float64", "Int",   "UInt" };
    const int npool = (int)(sizeof fz_type_pool / sizeof fz_type_pool[0]);
    int k = 0;
    for (int f = 0; f < m->nfuncs && k < max; f++) {
        const GenericFunc *g = m->funcs[f];
        if (strlen(g->name) >= sizeof out[0].func)
            continue;
        for (int v = 0; v < per_func && k < max; v++) {
            const Method *me = g->methods[v % g->nmethods];
            FzSig s = { 0 };
            strcpy(s.func, g->name);
            for (int i = 0; i < me->nparams && i < FZ_MAXARGS; i++) {
                const char *t = NULL;
                const Node *te = me->params[i].type_expr;
                if (te && te->kind == AST_IDENT && te->name)
                    for (size_t c = 0; c < sizeof concrete / sizeof concrete[0]; c++)
                        if (strcmp(te->name, concrete[c]) == 0)
                            t = concrete[c];
                if (!t) {
                    /* the first variant favours arrays of Float32, as most kernels take */
                    uint64_t r = (h >> ((i * 7 + v * 13) % 50)) ^ (uint64_t)(i * 31 + v * 17 + f);
                    t = v == 0 && (r % 3) ? fz_type_pool[0] : fz_type_pool[r % (uint64_t)npool];
                }
                strcpy(s.types[s.nargs++], t);
            }
            out[k++] = s;
        }
    }
    return k;
}
#endif

/* Loads text (size bytes and a NUL) through the API, where an invalid-IR or
 * internal error is a finding, and picks the signatures to specialise it on:
 * its "#sig" lines, else two derived from its functions. Returns how many
 * (0 when the load fails; *mod is then NULL). */
static inline int fz_load_sigs(juke_context *ctx, const char *text, size_t size, uint64_t h, juke_module **mod,
                               FzSig *sigs)
{
    *mod = NULL;
    juke_status s = juke_module_load_string(ctx, "fuzz.jl", text, mod);
    fz_check_finding(s == JUKE_ERR_INVALID_IR, s == JUKE_ERR_INTERNAL, "load", juke_errmsg(ctx));
    if (s != JUKE_OK)
        return 0;
    Diags d = { 0 };
    FeModule *m = fe_load("fuzz.jl", text, size, &d);
    diag_reset(&d);
    int n = fz_sigs_from_comments(text, sigs, 3);
    if (m && n == 0)
        n = fz_derive_sigs(m, h, sigs, 2, 1);
    fe_module_free(m);
    return n;
}

/* sig's argument types as juke_compile takes them. */
static inline void fz_type_names(const FzSig *sig, const char **tn)
{
    for (int a = 0; a < sig->nargs; a++)
        tn[a] = sig->types[a];
}

#endif
