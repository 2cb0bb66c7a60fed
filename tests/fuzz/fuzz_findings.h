/* fuzz_findings.h: what counts as a bug when a fuzz target gets an answer.
 * A user error is the expected answer to a bad input. Invalid IR (a verifier,
 * ours or LLVM's, rejected what juke built) and an internal compiler error
 * are juke bugs by definition, as GPUCompiler.jl classifies them, so the
 * target stops there and libFuzzer keeps the input. Running out of memory is
 * no bug (the fuzzer's RSS limit can cause it). */
#ifndef JUKE_FUZZ_FINDINGS_H
#define JUKE_FUZZ_FINDINGS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef JUKE_FUZZ_REPLAY
extern int fz_replay_failed;
#endif

/* Called with the kind of the first error and the whole message. */
static void fz_check_finding(int is_invalid_ir, int is_internal, const char *what, const char *msg)
{
    if (!is_invalid_ir && !is_internal)
        return;
    if (msg && strstr(msg, "out of memory"))
        return;
    fprintf(stderr, "\n==== juke fuzz finding (%s): %s ====\n%s\n",
            is_invalid_ir ? "invalid IR" : "internal compiler error", what, msg ? msg : "(no message)");
    /* Replaying a regression file in the cmocka test must fail, not trap. */
#ifdef JUKE_FUZZ_REPLAY
    fz_replay_failed = 1;
#else
    __builtin_trap();
#endif
}

#endif
