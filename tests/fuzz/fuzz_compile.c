/* fuzz_compile.c: libFuzzer target for the whole compile, source to code
 * object, through the public API (juke_module_load_string + juke_compile),
 * for the CPU and for gfx90a. Every program the front end accepts goes
 * through LLVM's verifier inside cg_compile; JUKE_ERR_INVALID_IR or
 * JUKE_ERR_INTERNAL is a finding, as is any crash (including an LLVM
 * assertion or a fatal error in a backend), leak or hang.
 * FUZZ_TARGETS=cpu or =gfx90a in the environment narrows the targets. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "fuzz_findings.h"
#include "fuzz_sigs.h"
#include "juke.h"
#include "kernel_mutator.h"

typedef struct FzState {
    juke_context *ctx;
    const char *targets[2];
    int ntargets;
} FzState;

/* libFuzzer calls us without a user pointer: one context per process. */
static FzState *fz_state(void)
{
    static FzState st;
    if (!st.ctx) {
        st.ctx = juke_context_create();
        const char *t = getenv("FUZZ_TARGETS");
        if (!t || !strcmp(t, "all") || !strcmp(t, "cpu"))
            st.targets[st.ntargets++] = "cpu";
        if (!t || !strcmp(t, "all") || !strcmp(t, "gfx90a"))
            st.targets[st.ntargets++] = "gfx90a";
    }
    return &st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FzState *st = fz_state();
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    if (memchr(data, 0, size)) { /* the string API cannot carry a NUL; fuzz_frontend covers it */
        free(text);
        return 0;
    }
    juke_module *mod;
    FzSig sigs[FZ_MAXSIG];
    int n = fz_load_sigs(st->ctx, text, size, fz_hash(data, size), &mod, sigs);
    if (mod) {
        for (int i = 0; i < n; i++) {
            const char *tn[FZ_MAXARGS];
            fz_type_names(&sigs[i], tn);
            for (int t = 0; t < st->ntargets; t++) {
                juke_options o;
                juke_options_default(&o);
                o.target = st->targets[t];
                juke_kernel *k = NULL;
                juke_status s = juke_compile(mod, sigs[i].func, tn, sigs[i].nargs, &o, &k);
                fz_check_finding(s == JUKE_ERR_INVALID_IR, s == JUKE_ERR_INTERNAL, st->targets[t],
                                 juke_errmsg(st->ctx));
                if (s == JUKE_OK) {
                    size_t sz = 0;
                    if (!juke_kernel_code_object(k, &sz) || sz == 0 || !juke_kernel_symbol(k))
                        fz_check_finding(0, 1, "empty code object", st->targets[t]);
                }
                if (s == JUKE_ERR_COMPILE || s == JUKE_ERR_ARGUMENT)
                    break; /* a source error is the same for every target */
            }
        }
        juke_module_free(mod);
    }
    free(text);
    return 0;
}
