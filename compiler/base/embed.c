/* embed.c: a prelude file compiled into the library (compiler/prelude.h), a step of the build.
 *
 *   embed IN.jl OUT.c NAME
 *
 * writes the symbols NAME_text and NAME_len (the source, for diagnostics' source lines and carets) and
 * NAME_tree and NAME_tree_len (its syntax tree as astbin.c stores one), so that a process loads the tree
 * rather than lexing and parsing the source. The tree is the one the library's own parser builds from the
 * same bytes, read back and compared here before it is written; a prelude with a syntax error fails the
 * build with the parser's message. */
#include "ast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* data as the body of a C array initialiser */
static void write_bytes(FILE *out, const unsigned char *data, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%d,%s", data[i], i % 24 == 23 ? "\n" : "");
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: embed IN.jl OUT.c NAME\n");
        return 2;
    }
    char *text;
    size_t len;
    StrBuf why = { 0 };
    if (jk_read_file(argv[1], JK_MAX_SOURCE_BYTES, &text, &len, &why) != JK_READ_OK) {
        fprintf(stderr, "embed: %s: %s\n", argv[1], why.data ? why.data : "cannot read");
        return 1;
    }
    const char *base = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
    SrcFile file = { base, text, len }, back = file;
    Arena a = { 0 };
    Diags d = { .max_errors = 20 };
    Node *root = parse_file(&a, &d, &file);
    StrBuf tree = { 0 };
    if (d.nerrors || a.failed) {
        fprintf(stderr, "%s", d.text.data ? d.text.data : "embed: out of memory\n");
        return 1;
    }
    Node *again =
        ast_save(&tree, root, &file, &why) ? ast_load(&a, (const unsigned char *)tree.data, tree.len, &back, 0) : NULL;
    if (!again || !ast_equal(root, &file, again, &back, 0, &why)) {
        fprintf(stderr, "embed: %s: the stored tree is not the parsed one: %s\n", argv[1],
                why.data ? why.data : "it does not load");
        return 1;
    }
    FILE *out = fopen(argv[2], "w");
    if (!out) {
        perror(argv[2]);
        return 1;
    }
    fprintf(out, "/* generated from %s by compiler/base/embed.c: do not edit */\n#include \"prelude.h\"\n\n", base);
    fprintf(out, "const char %s_text[] = {\n", argv[3]);
    write_bytes(out, (const unsigned char *)text, len);
    fprintf(out, "0\n};\nconst size_t %s_len = %zu;\n\n", argv[3], len);
    fprintf(out, "const unsigned char %s_tree[] = {\n", argv[3]);
    write_bytes(out, (const unsigned char *)tree.data, tree.len);
    fprintf(out, "};\nconst size_t %s_tree_len = %zu;\n", argv[3], tree.len);
    int rc = fclose(out) ? 1 : 0;
    if (rc)
        perror(argv[2]);
    sb_free(&tree);
    sb_free(&why);
    diag_reset(&d);
    arena_free(&a);
    free(text);
    return rc;
}
