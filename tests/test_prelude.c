/* test_prelude.c: the Base prelude's syntax trees that the build stores (compiler/base/embed.c, astbin.c)
 * are the trees the parser builds from the prelude's text, with every set of extensions appended, node for
 * node and location for location; the stored form holds any file's tree (tests/lang), and comparing trees
 * finds one changed field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "prelude.h"
#include "testutil.h"

/* Every FILE_* flag that appends an extension to the prelude (prelude.h). */
static const int ext_flags[] = { FILE_ATOMIX, FILE_INTRINSICS, FILE_STATICARRAYS, FILE_WMMA, FILE_STATISTICS };

/* The stored trees, put together for each of the 32 sets of extensions, equal the parse of the text that
 * fe_base_syntax put together with them: lines of the later extensions are offset past the earlier ones. */
static void test_stored_equals_parsed(void **state)
{
    (void)state;
    size_t prelude_len = strlen(jk_prelude_text);
    for (int set = 0; set < 1 << JK_ARRAY_LEN(ext_flags); set++) {
        int flags = 0;
        for (int i = 0; i < JK_ARRAY_LEN(ext_flags); i++)
            if (set & 1 << i)
                flags |= ext_flags[i];
        Arena a = { 0 }, b = { 0 };
        SrcFile file;
        Node *stored = fe_base_syntax(&a, flags, &file);
        assert_non_null(stored);
        assert_string_equal(file.name, fe_base_name);
        assert_int_equal(strlen(file.text), file.len);
        assert_memory_equal(file.text, jk_prelude_text, prelude_len);
        assert_true(set == 0 ? file.len == prelude_len : file.len > prelude_len);
        Diags d = { 0 };
        Node *parsed = parse_file(&b, &d, &file);
        assert_int_equal(d.nerrors, 0);
        StrBuf why = { 0 };
        bool same = ast_equal(parsed, &file, stored, &file, 0, &why);
        if (!same)
            fail_msg("extensions %#x: %s", (unsigned)flags, why.data);
        /* the last item is in the last part of the text, at its line there */
        const Node *last = stored->kids[stored->nkids - 1];
        const char *at = file.text;
        for (int line = 1; line < last->loc.line; line++)
            at = strchr(at, '\n') + 1;
        assert_true(at > file.text + (set ? prelude_len : 0));
        sb_free(&why);
        diag_reset(&d);
        arena_free(&a);
        arena_free(&b);
    }
}

/* Every file of the language suite goes through ast_save and ast_load unchanged, its lines offset as
 * asked: closures, comparisons' operators, literals of every type, shared nodes. */
static void test_round_trip_lang_files(void **state)
{
    (void)state;
    const char *root = getenv("JUKE_SOURCE_ROOT");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/lang", root ? root : ".");
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    int files = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".jl") != 0)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len;
        char *text = tu_read_file(path, &len);
        assert_non_null(text);
        SrcFile f = { e->d_name, text, len }, g = f;
        Arena a = { 0 };
        Diags d = { 0 };
        Node *parsed = parse_file(&a, &d, &f);
        StrBuf bytes = { 0 }, why = { 0 };
        assert_true(ast_save(&bytes, parsed, &f, &why));
        int offset = 1 + files % 50;
        Node *loaded = ast_load(&a, (const unsigned char *)bytes.data, bytes.len, &g, offset);
        assert_non_null(loaded);
        if (!ast_equal(parsed, &f, loaded, &g, offset, &why))
            fail_msg("%s: %s", e->d_name, why.data);
        /* one field changed anywhere is found: the column of the deepest last node */
        Node *x = loaded;
        while (x->nkids && x->kids[x->nkids - 1])
            x = x->kids[x->nkids - 1];
        x->loc.col++;
        assert_false(ast_equal(parsed, &f, loaded, &g, offset, &why));
        x->loc.col--;
        assert_true(ast_equal(parsed, &f, loaded, &g, offset + 1, &why) == (parsed->nkids == 0));
        files++;
        sb_free(&bytes);
        sb_free(&why);
        diag_reset(&d);
        arena_free(&a);
        free(text);
    }
    closedir(dp);
    assert_true(files > 100);
}

/* Bytes that are not a whole stored tree load as nothing, not as part of one: every cut of the prelude's,
 * the wrong magic, and a kid that names a node past the last. */
static void test_malformed_bytes(void **state)
{
    (void)state;
    SrcFile f = { fe_base_name, jk_prelude_text, jk_prelude_len };
    size_t n = jk_prelude_tree_len;
    unsigned char *copy = malloc(n);
    assert_non_null(copy);
    memcpy(copy, jk_prelude_tree, n);
    uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)&seed;
    for (int i = 0; i < 300; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        size_t cut = i < 16 ? (size_t)i : (size_t)(seed >> 33) % n;
        Arena a = { 0 };
        assert_null(ast_load(&a, copy, cut, &f, 0));
        arena_free(&a);
    }
    Arena a = { 0 };
    assert_non_null(ast_load(&a, copy, n, &f, 0));
    copy[0] ^= 1;
    assert_null(ast_load(&a, copy, n, &f, 0));
    free(copy);

    /* a file of one node whose one kid is node 2 of 1 */
    static const unsigned char bad_kid[] = { 'J', 'K', 'A', 'S', 'T', '1', 0, 0, 1, 1, 0, 0, AST_FILE, 32, 2, 1, 1, 2 };
    assert_null(ast_load(&a, bad_kid, sizeof bad_kid, &f, 0));
    unsigned char good_kid[sizeof bad_kid + 4];
    memcpy(good_kid, bad_kid, sizeof bad_kid);
    good_kid[8] = 2; /* two nodes, the second an identifier at 1:1 with no name */
    const unsigned char ident[] = { AST_IDENT, 0, 0, 1 };
    memcpy(good_kid + sizeof bad_kid, ident, sizeof ident);
    Node *two = ast_load(&a, good_kid, sizeof good_kid, &f, 0);
    assert_non_null(two);
    assert_int_equal(two->kids[0]->kind, AST_IDENT);
    assert_int_equal(two->kids[0]->loc.line, 1);
    arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stored_equals_parsed),
        cmocka_unit_test(test_round_trip_lang_files),
        cmocka_unit_test(test_malformed_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
