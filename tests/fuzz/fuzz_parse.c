/* fuzz_parse.c: libFuzzer target for the lexer and parser (parse_file), and
 * the AST printer over whatever tree comes back. Any input must yield a tree
 * or diagnostics, never a crash, an out-of-bounds read or a hang. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "common.h"
#include "kernel_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    SrcFile file = { "fuzz.jl", text, size };
    Arena arena = { 0 };
    Diags diags = { 0 };
    Node *root = parse_file(&arena, &diags, &file);
    if (root) {
        StrBuf sb = { 0 };
        ast_print(&sb, root);
        sb_free(&sb);
    }
    diag_reset(&diags);
    arena_free(&arena);
    free(text);
    return 0;
}
