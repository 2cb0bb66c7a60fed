/* fuzz_frontend.c: libFuzzer target for the whole front end: parse, collect
 * methods, lower (fe_load; the Base prelude's methods with fe_lower_lazily),
 * then dispatch and infer a few signatures (fe_specialize, which runs the IR
 * verifier on every typed function) and print the lowered and typed IR. Invalid IR or an internal compiler error is
 * a finding (fuzz_findings.h); so is any crash, leak or hang. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "fuzz_findings.h"
#include "fuzz_sigs.h"
#include "kernel_mutator.h"
#include "types.h"

static void check(Diags *d, const char *what)
{
    fz_check_finding(d->first_kind == DIAG_INVALID_IR, d->first_kind == DIAG_INTERNAL, what, d->text.data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    Diags d = { 0 };
    FeModule *m = fe_load("fuzz.jl", text, size, &d);
    check(&d, "fe_load");
    diag_reset(&d);
    if (m) {
        for (int i = 0; i < m->nfuncs; i++)
            for (int k = 0; k < m->funcs[i]->nmethods; k++) {
                /* the Base prelude's methods wait for their first call: lowered here, every one */
                fe_lower_lazily(m, m->funcs[i]->methods[k], &d);
                check(&d, "fe_lower_lazily");
                diag_reset(&d);
                StrBuf sb = { 0 };
                ir_print(&sb, m->funcs[i]->methods[k]->lowered);
                sb_free(&sb);
            }
        FzSig sigs[FZ_MAXSIG];
        int n = fz_sigs_from_comments(text, sigs, FZ_MAXSIG);
        n += fz_derive_sigs(m, fz_hash(data, size), sigs + n, FZ_MAXSIG - n, 2);
        for (int s = 0; s < n; s++) {
            FeCompilation *c = fe_compilation_new(m, &d);
            if (!c)
                break;
            const Type *types[FZ_MAXARGS];
            bool ok = true;
            for (int a = 0; a < sigs[s].nargs && ok; a++) {
                StrBuf err = { 0 };
                types[a] = ty_parse(c->types, sigs[s].types[a], &err);
                ok = types[a] != NULL;
                sb_free(&err);
            }
            if (ok) {
                Spec *sp = fe_specialize(c, sigs[s].func, types, sigs[s].nargs, (SrcLoc){ 0 });
                check(&d, sigs[s].func);
                if (sp) {
                    StrBuf sb = { 0 };
                    fe_print_typed(&sb, c);
                    sb_free(&sb);
                }
            }
            diag_reset(&d);
            fe_compilation_free(c);
        }
        fe_module_free(m);
    }
    diag_reset(&d);
    free(text);
    return 0;
}
