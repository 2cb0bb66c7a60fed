/* test_parse.c: the lexer and parser. Every acceptance kernel parses cleanly
 * with the expected structure; literals get Julia's types; precedence shows
 * through ast_print and through an S-expression dump of the tree; syntax
 * errors carry the exact message and location; garbage never crashes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ast.h"
#include "testutil.h"

/* One parse: the file, its arena and diagnostics, released by done(). */
typedef struct Parsed {
    SrcFile file;
    Arena arena;
    Diags diags;
    Node *root;
    char *text;
} Parsed;

static Parsed *parse_text_n(const char *name, const char *src, size_t len)
{
    Parsed *p = calloc(1, sizeof *p);
    assert_non_null(p);
    p->text = malloc(len + 1);
    assert_non_null(p->text);
    memcpy(p->text, src, len);
    p->text[len] = 0;
    p->file.name = name;
    p->file.text = p->text;
    p->file.len = len;
    p->root = parse_file(&p->arena, &p->diags, &p->file);
    return p;
}

static Parsed *parse_text(const char *src)
{
    return parse_text_n("t.jl", src, strlen(src));
}

static void done(Parsed *p)
{
    diag_reset(&p->diags);
    arena_free(&p->arena);
    free(p->text);
    free(p);
}

static const char *errs(Parsed *p)
{
    return p->diags.text.data ? p->diags.text.data : "";
}

/* ---- an S-expression dump: the tree's shape, independent of ast_print ---- */

static void sexp(StrBuf *sb, const Node *n)
{
    if (!n) {
        sb_puts(sb, "null");
        return;
    }
    switch (n->kind) {
    case AST_INT: sb_printf(sb, "%lld", (long long)n->ival); return;
    case AST_FLOAT: sb_printf(sb, "%g%s", n->fval, n->lit == LIT_FLOAT32 ? "f" : ""); return;
    case AST_IDENT: sb_printf(sb, "%s%s%s", n->qual ? n->qual : "", n->qual ? "." : "", n->name); return;
    case AST_BOOL: sb_puts(sb, n->ival ? "true" : "false"); return;
    case AST_NOTHING: sb_puts(sb, "nothing"); return;
    default: break;
    }
    static const char *const names[] = {
        [AST_CALL] = "call",   [AST_COMPARISON] = "cmp",    [AST_AND] = "&&",
        [AST_OR] = "||",       [AST_TERNARY] = "?",         [AST_REF] = "ref",
        [AST_DOT] = "dot",     [AST_TUPLE] = "tuple",       [AST_CURLY] = "curly",
        [AST_TYPED] = "::",    [AST_SUBTYPE] = "<:",        [AST_MACROCALL] = "macro",
        [AST_ASSIGN] = "=",    [AST_OPASSIGN] = "op=",      [AST_BLOCK] = "block",
        [AST_IF] = "if",       [AST_WHILE] = "while",       [AST_FOR] = "for",
        [AST_BREAK] = "break", [AST_CONTINUE] = "continue", [AST_RETURN] = "return",
        [AST_LOCAL] = "local", [AST_FUNCTION] = "function", [AST_CONST] = "const",
        [AST_FILE] = "file",   [AST_STRING] = "string",
    };
    sb_printf(sb, "(%s", names[n->kind]);
    if (n->name && n->kind != AST_STRING)
        sb_printf(sb, " %s", n->name);
    for (int i = 0; i < n->nkids; i++) {
        sb_puts(sb, " ");
        if (n->kind == AST_COMPARISON && i > 0)
            sb_printf(sb, "%s ", n->ops[i - 1]);
        sexp(sb, n->kids[i]);
    }
    sb_puts(sb, ")");
}

/* The single statement of `src`, parsed cleanly. */
static const Node *stmt(Parsed *p)
{
    if (p->diags.nerrors)
        fprintf(stderr, "%s", errs(p));
    assert_int_equal(p->diags.nerrors, 0);
    assert_non_null(p->root);
    assert_int_equal(p->root->nkids, 1);
    return p->root->kids[0];
}

/* The rhs of `x = <expr>`. */
static const Node *rhs_of(Parsed *p)
{
    const Node *s = stmt(p);
    assert_int_equal(s->kind, AST_ASSIGN);
    return s->kids[1];
}

static void check_sexp(const char *src, const char *want)
{
    Parsed *p = parse_text(src);
    StrBuf sb = { 0 };
    sexp(&sb, stmt(p));
    if (strcmp(sb.data, want) != 0)
        fprintf(stderr, "source: %s\n  got:  %s\n  want: %s\n", src, sb.data, want);
    assert_string_equal(sb.data, want);
    sb_free(&sb);
    done(p);
}

/* ast_print of the single statement of src. */
static void check_print(const char *src, const char *want)
{
    Parsed *p = parse_text(src);
    StrBuf sb = { 0 };
    ast_print(&sb, stmt(p));
    if (strcmp(sb.data, want) != 0)
        fprintf(stderr, "source: %s\n  got:  %s\n  want: %s\n", src, sb.data, want);
    assert_string_equal(sb.data, want);
    /* the printed form parses back to the same tree */
    Parsed *q = parse_text(sb.data);
    StrBuf a = { 0 }, b = { 0 };
    sexp(&a, stmt(p));
    sexp(&b, stmt(q));
    assert_string_equal(a.data, b.data);
    sb_free(&a);
    sb_free(&b);
    sb_free(&sb);
    done(q);
    done(p);
}

/* ---- acceptance kernels ---- */

static Parsed *parse_acceptance(const char *name)
{
    const char *dir = getenv("JUKE_ACCEPTANCE_DIR");
    assert_non_null(dir);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t len;
    char *src = tu_read_file(path, &len);
    assert_non_null(src);
    Parsed *p = parse_text_n(name, src, len);
    free(src);
    if (p->diags.nerrors)
        fprintf(stderr, "%s", errs(p));
    assert_int_equal(p->diags.nerrors, 0);
    return p;
}

static void test_acceptance_all_parse(void **state)
{
    (void)state;
    const char *dir = getenv("JUKE_ACCEPTANCE_DIR");
    assert_non_null(dir);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".jl") != 0)
            continue;
        Parsed *p = parse_acceptance(e->d_name);
        assert_true(p->root->nkids >= 1);
        /* every file defines at least one function, and printing it reparses to the same tree */
        bool has_fn = false;
        for (int i = 0; i < p->root->nkids; i++)
            has_fn |= p->root->kids[i]->kind == AST_FUNCTION;
        assert_true(has_fn);
        StrBuf sb = { 0 }, a = { 0 }, b = { 0 };
        ast_print(&sb, p->root);
        Parsed *q = parse_text(sb.data);
        if (q->diags.nerrors)
            fprintf(stderr, "%s\n%s", sb.data, errs(q));
        assert_int_equal(q->diags.nerrors, 0);
        sexp(&a, p->root);
        sexp(&b, q->root);
        assert_string_equal(a.data, b.data);
        sb_free(&sb);
        sb_free(&a);
        sb_free(&b);
        done(q);
        done(p);
        count++;
    }
    closedir(d);
    assert_true(count >= 15);
}

static void test_vadd(void **state)
{
    (void)state;
    Parsed *p = parse_acceptance("vadd.jl");
    assert_int_equal(p->root->nkids, 1);
    const Node *f = p->root->kids[0];
    assert_int_equal(f->kind, AST_FUNCTION);
    assert_string_equal(f->name, "vadd!");
    assert_int_equal(f->nkids, 4);
    assert_int_equal(f->kids[0]->kind, AST_TUPLE);
    assert_int_equal(f->kids[0]->nkids, 3);
    assert_string_equal(f->kids[0]->kids[0]->name, "c");
    assert_null(f->kids[2]);
    assert_null(f->kids[3]);
    assert_int_equal(f->loc.line, 2);
    assert_int_equal(f->loc.col, 1);
    const Node *body = f->kids[1];
    assert_int_equal(body->kind, AST_BLOCK);
    assert_int_equal(body->nkids, 3);
    /* i = workitemIdx().x + ... */
    const Node *a = body->kids[0];
    assert_int_equal(a->kind, AST_ASSIGN);
    assert_int_equal(a->loc.line, 3);
    assert_int_equal(a->loc.col, 5);
    const Node *plus = a->kids[1];
    assert_int_equal(plus->kind, AST_CALL);
    assert_string_equal(plus->kids[0]->name, "+");
    assert_int_equal(plus->loc.col, 25); /* the operator */
    assert_int_equal(plus->kids[1]->kind, AST_DOT);
    assert_string_equal(plus->kids[1]->name, "x");
    /* if i <= length(c); @inbounds c[i] = a[i] + b[i]; end */
    const Node *iff = body->kids[1];
    assert_int_equal(iff->kind, AST_IF);
    assert_int_equal(iff->nkids, 3);
    assert_null(iff->kids[2]);
    assert_string_equal(iff->kids[0]->kids[0]->name, "<=");
    const Node *m = iff->kids[1]->kids[0];
    assert_int_equal(m->kind, AST_MACROCALL);
    assert_string_equal(m->name, "inbounds");
    assert_int_equal(m->nkids, 1);
    assert_int_equal(m->kids[0]->kind, AST_ASSIGN);
    assert_int_equal(m->kids[0]->kids[0]->kind, AST_REF);
    assert_int_equal(m->kids[0]->kids[0]->loc.col, 19);
    const Node *r = body->kids[2];
    assert_int_equal(r->kind, AST_RETURN);
    assert_int_equal(r->nkids, 1);
    assert_null(r->kids[0]);
    done(p);
}

static void test_transpose(void **state)
{
    (void)state;
    Parsed *p = parse_acceptance("transpose.jl");
    assert_int_equal(p->root->nkids, 2);
    const Node *c = p->root->kids[0];
    assert_int_equal(c->kind, AST_CONST);
    assert_string_equal(c->name, "TILE");
    assert_int_equal(c->kids[0]->kind, AST_INT);
    assert_int_equal(c->kids[0]->ival, 16);
    const Node *f = p->root->kids[1];
    assert_string_equal(f->name, "transpose!");
    const Node *a = f->kids[1]->kids[0];
    assert_int_equal(a->kind, AST_ASSIGN);
    const Node *m = a->kids[1];
    assert_int_equal(m->kind, AST_MACROCALL);
    assert_string_equal(m->name, "ROCStaticLocalArray");
    assert_null(m->qual);
    assert_int_equal(m->nkids, 3);
    assert_string_equal(m->kids[0]->name, "Float32");
    assert_int_equal(m->kids[1]->kind, AST_TUPLE);
    assert_int_equal(m->kids[1]->nkids, 2);
    assert_int_equal(m->kids[2]->kind, AST_BOOL);
    assert_int_equal(m->kids[2]->ival, 0);
    /* tx = workitemIdx().x; ty = workitemIdx().y: two statements */
    assert_int_equal(f->kids[1]->kids[1]->kind, AST_ASSIGN);
    assert_int_equal(f->kids[1]->kids[2]->kind, AST_ASSIGN);
    assert_int_equal(f->kids[1]->kids[2]->loc.col, 27);
    done(p);
}

static void test_intops(void **state)
{
    (void)state;
    Parsed *p = parse_acceptance("intops.jl");
    const Node *iff = p->root->kids[0]->kids[1]->kids[1];
    assert_int_equal(iff->kind, AST_IF);
    const Node *s = iff->kids[1]->kids[3]; /* r += (x & y) | (x ⊻ y) */
    assert_int_equal(s->kind, AST_OPASSIGN);
    assert_string_equal(s->name, "+");
    assert_int_equal(s->kids[1]->kind, AST_CALL);
    assert_string_equal(s->kids[1]->kids[0]->name, "|");
    assert_string_equal(s->kids[1]->kids[1]->kids[0]->name, "&");
    assert_string_equal(s->kids[1]->kids[2]->kids[0]->name, "⊻");
    const Node *t = iff->kids[1]->kids[5]; /* r += ifelse(...) + (x == y ? one(x) : zero(x)) */
    assert_int_equal(t->kids[1]->kids[2]->kind, AST_TERNARY);
    done(p);
}

static void test_histogram_block_sum_dispatch(void **state)
{
    (void)state;
    Parsed *p = parse_acceptance("histogram.jl");
    const Node *iff = p->root->kids[0]->kids[1]->kids[1];
    const Node *at = iff->kids[1]->kids[1];
    assert_int_equal(at->kind, AST_MACROCALL);
    assert_string_equal(at->name, "atomic");
    assert_string_equal(at->qual, "AMDGPU");
    assert_int_equal(at->nkids, 1);
    assert_int_equal(at->kids[0]->kind, AST_OPASSIGN);
    assert_string_equal(at->kids[0]->name, "+");
    done(p);

    p = parse_acceptance("block_sum.jl");
    assert_int_equal(p->root->nkids, 2);
    assert_int_equal(p->root->kids[0]->flags, FN_INLINE);
    assert_string_equal(p->root->kids[0]->name, "tree_reduce!");
    assert_int_equal(p->root->kids[1]->flags, 0);
    const Node *w = p->root->kids[0]->kids[1]->kids[1];
    assert_int_equal(w->kind, AST_WHILE);
    assert_int_equal(w->kids[1]->kids[2]->kind, AST_OPASSIGN);
    assert_string_equal(w->kids[1]->kids[2]->name, "÷");
    done(p);

    p = parse_acceptance("dispatch.jl");
    assert_int_equal(p->root->nkids, 4);
    for (int i = 0; i < 3; i++) {
        const Node *f = p->root->kids[i];
        assert_int_equal(f->kind, AST_FUNCTION);
        assert_string_equal(f->name, "scale");
        assert_int_equal(f->kids[0]->nkids, 1);
        assert_int_equal(f->kids[0]->kids[0]->kind, AST_TYPED);
        assert_int_equal(f->kids[1]->kind, AST_BLOCK);
        assert_int_equal(f->kids[1]->nkids, 1);
    }
    assert_int_equal(p->root->kids[0]->kids[1]->kids[0]->kids[1]->lit, LIT_FLOAT32);
    done(p);

    p = parse_acceptance("indices3d.jl");
    const Node *a = p->root->kids[0]->kids[1]->kids[0];
    assert_int_equal(a->kids[0]->kind, AST_TUPLE);
    assert_int_equal(a->kids[0]->nkids, 3);
    assert_int_equal(a->kids[1]->kind, AST_TUPLE);
    done(p);

    p = parse_acceptance("mandelbrot.jl");
    a = p->root->kids[0]->kids[1]->kids[2]; /* w, h = size(iters) */
    assert_int_equal(a->kids[0]->kind, AST_TUPLE);
    assert_int_equal(a->kids[1]->kind, AST_CALL);
    done(p);
}

/* ---- literals ---- */

static const Node *lit(Parsed **pp, const char *expr)
{
    char src[256];
    snprintf(src, sizeof src, "x = %s\n", expr);
    *pp = parse_text(src);
    return rhs_of(*pp);
}

static void check_int(const char *expr, LitType t, uint64_t v)
{
    Parsed *p;
    const Node *n = lit(&p, expr);
    assert_int_equal(n->kind, AST_INT);
    assert_int_equal(n->lit, t);
    assert_int_equal(n->uval, v);
    done(p);
}

static void check_float(const char *expr, LitType t, double v)
{
    Parsed *p;
    const Node *n = lit(&p, expr);
    assert_int_equal(n->kind, AST_FLOAT);
    assert_int_equal(n->lit, t);
    assert_true(n->fval == v);
    done(p);
}

static void test_literals(void **state)
{
    (void)state;
    check_int("1", LIT_INT64, 1);
    check_int("1_000_003", LIT_INT64, 1000003);
    check_int("9223372036854775807", LIT_INT64, INT64_MAX);
    check_int("-1", LIT_INT64, (uint64_t)-1);
    check_int("0x1f", LIT_UINT8, 0x1f);
    check_int("0x01", LIT_UINT8, 1);
    check_int("0x1ff", LIT_UINT16, 0x1ff);
    check_int("0x0001", LIT_UINT16, 1);
    check_int("0x12345", LIT_UINT32, 0x12345);
    check_int("0x123456789", LIT_UINT64, 0x123456789ull);
    check_int("0xffffffffffffffff", LIT_UINT64, UINT64_MAX);
    check_int("0b101", LIT_UINT8, 5);
    check_int("0b111111111", LIT_UINT16, 511);
    check_int("0o17", LIT_UINT8, 15);
    check_int("0o777", LIT_UINT16, 511);
    check_float("1.0", LIT_FLOAT64, 1.0);
    check_float("1e5", LIT_FLOAT64, 1e5);
    check_float("1e3", LIT_FLOAT64, 1000.0);
    check_float(".5", LIT_FLOAT64, 0.5);
    check_float("1.", LIT_FLOAT64, 1.0);
    check_float("1.5e-3", LIT_FLOAT64, 1.5e-3);
    check_float("1f0", LIT_FLOAT32, 1.0);
    check_float("1.5f0", LIT_FLOAT32, 1.5);
    check_float("1f-3", LIT_FLOAT32, (double)1e-3f);
    check_float("2.5f10", LIT_FLOAT32, (double)2.5e10f);
    check_float("0f0", LIT_FLOAT32, 0.0);
    check_float("0.1f0", LIT_FLOAT32, (double)0.1f);
    check_float("-2.5", LIT_FLOAT64, -2.5);

    Parsed *p;
    const Node *n = lit(&p, "true");
    assert_int_equal(n->kind, AST_BOOL);
    assert_int_equal(n->ival, 1);
    done(p);
    n = lit(&p, "nothing");
    assert_int_equal(n->kind, AST_NOTHING);
    done(p);
    n = lit(&p, "Inf32");
    assert_int_equal(n->kind, AST_IDENT);
    assert_string_equal(n->name, "Inf32");
    done(p);
    n = lit(&p, "\"a\\\"b\"");
    assert_int_equal(n->kind, AST_STRING);
    assert_string_equal(n->name, "a\"b");
    done(p);
    /* unsigned literals do not fold a minus: -0x1 is -(0x01) */
    n = lit(&p, "-0x1");
    assert_int_equal(n->kind, AST_CALL);
    done(p);

    check_sexp("x = 3n", "(= x (call * 3 n))");
    check_sexp("x = 2(x+1)", "(= x (call * 2 (call + x 1)))");
    check_sexp("x = 2x^2", "(= x (call * 2 (call ^ x 2)))");
    check_sexp("x = -2x", "(= x (call * -2 x))");
    check_sexp("x = 1.5f0x", "(= x (call * 1.5f x))");
    check_sexp("x = 2 * x", "(= x (call * 2 x))");
}

/* ---- precedence and structure ---- */

static void test_precedence_print(void **state)
{
    (void)state;
    check_print("a + b * c", "a + b * c");
    check_print("(a + b) * c", "(a + b) * c");
    check_print("a - b - c", "a - b - c");
    check_print("a - (b - c)", "a - (b - c)");
    check_print("a ^ b ^ c", "a ^ b ^ c");
    check_print("(a ^ b) ^ c", "(a ^ b) ^ c");
    check_print("-2^2", "-(2 ^ 2)");
    check_print("-x^2", "-(x ^ 2)");
    check_print("(-2)^2", "(-2) ^ 2");
    check_print("-x * y", "-x * y");
    check_print("-(x * y)", "-(x * y)");
    check_print("a << 1 + b", "a << 1 + b");
    check_print("(a + b) << 1", "(a + b) << 1");
    check_print("a & b | c ⊻ d", "a & b | c ⊻ d");
    check_print("a == b && c || d", "a == b && c || d");
    check_print("a && (b || c)", "a && (b || c)");
    check_print("x = a < b ? a : b", "x = a < b ? a : b");
    check_print("y = 1:n", "y = 1:n");
    check_print("y = a:s:b", "y = a:s:b");
    check_print("y = a+1:b-1", "y = a + 1:b - 1");
    check_print("r += x ÷ y % z", "r += x ÷ y % z");
    check_print("f(x)[i].y", "f(x)[i].y");
    check_print("A[i, j] = x::Float32", "A[i, j] = x::Float32");
    check_print("t = (a,)", "t = (a,)");
    check_print("t = ()", "t = ()");
    check_print("!a && ~b", "!a && ~b");
    check_print("x = 0x1f + 1.5f0 + 1e-5 + 2.5", "x = 0x1f + 1.5f0 + 1.0e-5 + 2.5");
    check_print("a < b <= c", "a < b <= c");
    check_print("(a < b) < c", "(a < b) < c");
    check_print("Vector{Float32}", "Vector{Float32}");
}

static void test_structure(void **state)
{
    (void)state;
    check_sexp("a + b + c", "(call + (call + a b) c)");
    check_sexp("a ^ b ^ c", "(call ^ a (call ^ b c))");
    check_sexp("a || b || c", "(|| a (|| b c))");
    check_sexp("a && b || c && d", "(|| (&& a b) (&& c d))");
    check_sexp("a < b <= c", "(cmp a < b <= c)");
    check_sexp("a ≠ b", "(call != a b)");
    check_sexp("a ≤ b ≥ c", "(cmp a <= b >= c)");
    check_sexp("i ∈ r", "(call in i r)");
    check_sexp("x isa Int", "(call isa x Int)");
    check_sexp("c ? a : b ? d : e", "(? c a (? b d e))");
    check_sexp("x == y ? one(x) : zero(x)", "(? (call == x y) (call one x) (call zero x))");
    check_sexp("a:b", "(call : a b)");
    check_sexp("1:2:n+1", "(call : 1 2 (call + n 1))");
    check_sexp("-1", "-1");
    check_sexp("-x", "(call - x)");
    check_sexp("- -1", "(call - -1)");
    check_sexp("-(a, b)", "(call - a b)");
    check_sexp("a, b = x, y", "(= (tuple a b) (tuple x y))");
    check_sexp("w, h = size(A)", "(= (tuple w h) (call size A))");
    check_sexp("x::Float32 = 1", "(= (:: x Float32) 1)");
    check_sexp("a = b = c", "(= a (= b c))");
    check_sexp("x <<= 2", "(op= << x 2)");
    check_sexp("x >>>= 2", "(op= >>> x 2)");
    check_sexp("x ⊻= y", "(op= ⊻ x y)");
    check_sexp("A[i, end]", "(ref A i end)");
    check_sexp("AMDGPU.foo(x)", "(call AMDGPU.foo x)");
    check_sexp("Base.sqrt(x)", "(call Base.sqrt x)");
    check_sexp("a.b.c", "(dot c (dot b a))");
    check_sexp("xor(a, b)", "(call xor a b)");
    check_sexp("reduce(+, x)", "(call reduce + x)");
    check_sexp("A[:, 1]", "(ref A : 1)");
    check_sexp("x = (1 +\n 2)", "(= x (call + 1 2))");
    check_sexp("x = 1 +\n 2", "(= x (call + 1 2))");
    check_sexp("f(a,\n  b)", "(call f a b)");
    check_sexp("x = 1 #= a #= nested =# comment =# + 2", "(= x (call + 1 2))");
    check_sexp("@inbounds(x[i])", "(macro inbounds (ref x i))");
    check_sexp("@inbounds shared[item] += shared[item + d]",
               "(macro inbounds (op= + (ref shared item) (ref shared (call + item d))))");
    check_sexp("@inbounds for i in 1:n\nx[i] = 0\nend",
               "(macro inbounds (for i (call : 1 n) (block (= (ref x i) 0))))");
    check_sexp("@inbounds begin\nx\nend", "(macro inbounds (block x))");
    check_sexp("AMDGPU.@atomic max(A[i], x)", "(macro atomic (call max (ref A i) x))");
    check_sexp("@atomic x[1] += 1", "(macro atomic (op= + (ref x 1) 1))");
    check_sexp("@m a -b (c)", "(macro m a (call - b) c)");
    check_sexp("@m(a, b)", "(macro m a b)");
    check_sexp("@ROCStaticLocalArray(Float32, (TILE, TILE + 1), false)",
               "(macro ROCStaticLocalArray Float32 (tuple TILE (call + TILE 1)) false)");
    check_sexp("i > n && return", "(&& (call > i n) (return null))");
    check_sexp("local x", "(local x)");
    check_sexp("local x::Int32 = 1", "(local (= (:: x Int32) 1))");
    check_sexp("local x = 1, y", "(local (= x 1) y)");
    check_sexp("for i in 1:n, j in 1:m\nend", "(for i (call : 1 n) (block (for j (call : 1 m) (block))))");
    check_sexp("for i = a:s:b; end", "(for i (call : a s b) (block))");
    check_sexp("for i ∈ r end", "(for i r (block))");
    check_sexp("while true; break; continue; end", "(while true (block (break) (continue)))");
    check_sexp("if a\n1\nelseif b\n2\nelse\n3\nend", "(if a (block 1) (if b (block 2) (block 3)))");
    check_sexp("if a 1 end", "(if a (block 1) null)");
    check_sexp("begin; return 1; end", "(block (return 1))");
    check_sexp("return\n", "(return null)");
    check_sexp("return x, y", "(return (tuple x y))");
    check_sexp("x = T{A, B}", "(= x (curly T A B))");
    check_sexp("const T = (1, 2)", "(const T (tuple 1 2))");
    /* broadcasting: dotted operators and dot calls are broadcast(f, args...); a => b is Pair(a, b) */
    check_sexp("I .- lo .+ 1", "(call broadcast + (call broadcast - I lo) 1)");
    check_sexp("all(I .<= n)", "(call all (call broadcast <= I n))");
    check_sexp("f.(t, 2)", "(call broadcast f t 2)");
    check_sexp("x .^ 2 .* y", "(call broadcast * (call broadcast ^ x 2) y)");
    check_sexp("a => b ? c : d", "(call Pair a (? b c d))");
}

static void test_definitions(void **state)
{
    (void)state;
    check_sexp("function f(a, b::Float32, ::Int64, c::AbstractArray{T,N}) where {T<:Real, N}\nend",
               "(function f (tuple a (:: b Float32) (:: null Int64) (:: c (curly AbstractArray T N))) "
               "(block) (tuple (<: T Real) N) null)");
    check_sexp("function f(x) where T\nend", "(function f (tuple x) (block) (tuple T) null)");
    check_sexp("function f(x)::Float32\nx\nend", "(function f (tuple x) (block x) null Float32)");
    check_sexp("function f(x=1)\nend", "(function f (tuple (= x 1)) (block) null null)");
    check_sexp("f(x) = x + 1", "(function f (tuple x) (block (call + x 1)) null null)");
    /* dest .= src: the prelude's __dotassign!, an indexed destination its @view */
    check_sexp("a .= b", "(call __dotassign! a b)");
    check_sexp("A[i, :] .= 0", "(call __dotassign! (macro view (ref A i :)) 0)");
    check_sexp("f(x::T) where {T} = x", "(function f (tuple (:: x T)) (block x) (tuple T) null)");
    check_sexp("f(x)::Int = 1", "(function f (tuple x) (block 1) null Int)");
    check_sexp("function f() 1 end", "(function f (tuple) (block 1) null null)");
    check_sexp("function f(); end", "(function f (tuple) (block) null null)");
    Parsed *p = parse_text("@noinline f(x) = 1\n@inline function g()\nend\n");
    assert_int_equal(p->diags.nerrors, 0);
    assert_int_equal(p->root->nkids, 2);
    assert_int_equal(p->root->kids[0]->kind, AST_FUNCTION);
    assert_int_equal(p->root->kids[0]->flags, FN_NOINLINE);
    assert_int_equal(p->root->kids[1]->flags, FN_INLINE);
    done(p);
    /* statements split by ; and newlines, comments ignored, several definitions */
    p = parse_text("# c\nconst A = 1; const B = 2.0\n\nf(x) = x # trailing\nfunction g()\n    a = 1; b = 2\nend\n");
    assert_int_equal(p->diags.nerrors, 0);
    assert_int_equal(p->root->nkids, 4);
    assert_int_equal(p->root->kids[3]->kids[1]->nkids, 2);
    done(p);
}

/* ---- syntax errors: message text and location ---- */

static void check_error(const char *src, const char *want_first_line)
{
    Parsed *p = parse_text(src);
    assert_true(p->diags.nerrors >= 1);
    const char *t = errs(p);
    const char *nl = strchr(t, '\n');
    size_t n = nl ? (size_t)(nl - t) : strlen(t);
    if (strlen(want_first_line) != n || strncmp(t, want_first_line, n) != 0)
        fprintf(stderr, "source: %s\n  got:  %.*s\n  want: %s\n", src, (int)n, t, want_first_line);
    assert_int_equal(strlen(want_first_line), n);
    assert_memory_equal(t, want_first_line, n);
    done(p);
}

static void test_errors(void **state)
{
    (void)state;
    check_error("function vadd!(c)\n    x = 1\n",
                "t.jl:3:1: error: syntax: incomplete: \"function\" at t.jl:1 requires end");
    check_error("function f()\n  if x\n    y\nend\n",
                "t.jl:5:1: error: syntax: incomplete: \"function\" at t.jl:1 requires end");
    check_error("x = f(a))\n", "t.jl:1:9: error: syntax: unexpected \")\"");
    check_error("x = 1 x\n", "t.jl:1:7: error: syntax: extra token \"x\" after end of expression");
    check_error("y = 1.2.3\n", "t.jl:1:5: error: syntax: invalid numeric constant \"1.2.3\"");
    check_error("y = 1\n#= never closed\n", "t.jl:2:1: error: syntax: unterminated block comment");
    check_error("x = 99999999999999999999\n",
                "t.jl:1:5: error: syntax: integer literal too large \"99999999999999999999\"");
    check_error("x = (1, 2\n", "t.jl:2:1: error: syntax: incomplete: premature end of input");
    check_error("x = c ? a\n", "t.jl:1:10: error: syntax: colon expected in \"?\" expression");
    check_error("function f(x + 1)\nend\n", "t.jl:1:14: error: syntax: invalid function argument \"x + 1\"");
    check_error("for i 1:n\nend\n", "t.jl:1:7: error: syntax: invalid iteration specification");
    check_error("end\n", "t.jl:1:1: error: syntax: unexpected \"end\"");
    check_error("x = \"abc\n", "t.jl:1:5: error: syntax: unterminated string literal");
    check_error("x = a .+= b\n", "t.jl:1:7: error: syntax: broadcasting \".+=\" is not supported in kernels");
    check_error("x = '\\q'\n", "t.jl:1:5: error: syntax: invalid escape in character literal '\\q'");
    check_error("x = 'ab'\n", "t.jl:1:5: error: syntax: invalid character literal");
    check_error("x = 1e500\n", "t.jl:1:5: error: syntax: overflow in numeric constant \"1e500\"");
    check_error("x = f(a b)\n", "t.jl:1:9: error: syntax: missing comma or \")\" in argument list");
    check_error("global x = 1\n", "t.jl:1:1: error: syntax: \"global\" is not supported in kernels");
    check_error("x = 0x\n", "t.jl:1:5: error: syntax: invalid numeric constant \"0x\"");
    check_error("x = $ y\n", "t.jl:1:5: error: syntax: invalid character \"$\"");
    check_error("a where T = 1\n", "t.jl:1:3: error: syntax: \"where\" is only supported in function definitions");
    check_error("if x\nelse\nelse\nend\n", "t.jl:3:1: error: syntax: unexpected \"else\"");
    check_error("const x\n", "t.jl:1:7: error: syntax: expected assignment after \"const\"");

    /* the whole diagnostic: source line and caret */
    Parsed *p = parse_text("function f()\n    x = (1 +)\nend\n");
    assert_string_equal(errs(p), "t.jl:2:13: error: syntax: unexpected \")\"\n"
                                 " 2 |     x = (1 +)\n"
                                 "   |             ^\n");
    done(p);

    /* invalid bytes */
    const char nul[] = "x = 1\ny = 2 \0 + 3\n";
    p = parse_text_n("t.jl", nul, sizeof nul - 1);
    assert_int_equal(p->diags.nerrors, 1);
    assert_non_null(strstr(errs(p), "t.jl:2:7: error: syntax: invalid NUL byte"));
    done(p);
    p = parse_text("x = \xff\xfe + 1\n");
    assert_int_equal(p->diags.nerrors, 1);
    assert_non_null(strstr(errs(p), "t.jl:1:5: error: syntax: invalid UTF-8 sequence"));
    done(p);
}

static void test_error_recovery(void **state)
{
    (void)state;
    /* one error per broken definition; the good ones still parse */
    Parsed *p = parse_text("function f()\n    x = )\n    y = 2\nend\n"
                           "function g()\n    return 1\nend\n"
                           "h(x) = ]\n"
                           "k(x) = x\n"
                           "function m()\n    a b\nend\n");
    assert_int_equal(p->diags.nerrors, 3);
    const char *t = errs(p);
    assert_non_null(strstr(t, "t.jl:2:9: error: syntax: unexpected \")\""));
    assert_non_null(strstr(t, "t.jl:8:8: error: syntax: unexpected \"]\""));
    assert_non_null(strstr(t, "t.jl:11:7: error: syntax: extra token \"b\" after end of expression"));
    assert_int_equal(p->root->nkids, 2);
    assert_string_equal(p->root->kids[0]->name, "g");
    assert_string_equal(p->root->kids[1]->name, "k");
    done(p);
}

/* ---- robustness ---- */

static void test_deep_nesting(void **state)
{
    (void)state;
    const int N = 100000;
    const char *pieces[][3] = {
        { "x = ", "(", "" },   { "x = ", "-", "" },   { "x = a", "^a", "" },    { "x = a", "[a", "" },
        { "x = f", "(f", "" }, { "", "@m ", "" },     { "x = a", " = a", "" },  { "x = c", " ? a : c", "" },
        { "", "if x\n", "" },  { "x = 2", "(2", "" }, { "x = ", "begin ", "" }, { "x = T", "{T", "" },
    };
    for (int k = 0; k < JK_ARRAY_LEN(pieces); k++) {
        StrBuf sb = { 0 };
        sb_puts(&sb, pieces[k][0]);
        for (int i = 0; i < N; i++)
            sb_puts(&sb, pieces[k][1]);
        sb_puts(&sb, "1\n");
        Parsed *p = parse_text(sb.data);
        assert_true(p->diags.nerrors >= 1);
        assert_non_null(strstr(errs(p), "syntax: expression too deeply nested"));
        done(p);
        sb_free(&sb);
    }
    /* long flat chains are not nesting */
    StrBuf sb = { 0 };
    sb_puts(&sb, "x = a");
    for (int i = 0; i < N; i++)
        sb_puts(&sb, i % 3 == 0 ? " + a" : i % 3 == 1 ? " || a" : " < a");
    sb_puts(&sb, "\n");
    Parsed *p = parse_text(sb.data);
    assert_int_equal(p->diags.nerrors, 0);
    done(p);
    sb_free(&sb);
    /* reasonable nesting is fine */
    sb_puts(&sb, "x = ");
    for (int i = 0; i < 200; i++)
        sb_puts(&sb, "(");
    sb_puts(&sb, "1");
    for (int i = 0; i < 200; i++)
        sb_puts(&sb, ")");
    p = parse_text(sb.data);
    assert_int_equal(p->diags.nerrors, 0);
    done(p);
    sb_free(&sb);
}

/* A small deterministic generator (no global state). */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void test_garbage(void **state)
{
    (void)state;
    static const char *const fixed[] = {
        "",
        "\n\n\n",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "@",
        "@@",
        "'",
        "\"",
        "#=",
        "=#",
        "function",
        "end",
        "function f(",
        "function f(x",
        "f(x) =",
        "x =",
        "x = ,",
        "a ? b",
        "A[",
        "if",
        "for",
        "for i",
        "for i in",
        "@inbounds",
        "AMDGPU.@",
        "AMDGPU.",
        "x::",
        "::",
        "...",
        ".",
        "..",
        "1.",
        "1e",
        "0x",
        "0b",
        "0o",
        "1f",
        "\xef\xbb\xbf",
        "\xc3",
        "\xe2\x8a",
        "÷÷÷",
        "≤≤",
        "x'''",
        "\"\"\"",
        "where",
        "local",
        "const",
        "return return",
        "-",
        "- -",
        "^",
        "a^",
        "2(",
        "3n(",
        "(a,",
        "(;)",
        "begin",
        "@m(",
        "f(x) where",
        "f(x) where {",
        "x.@m",
        "x.(",
        "a .+",
        "#= #= =#",
        "elseif",
        "else",
        "break break",
        "@inline 1",
        "@inline x = 1",
    };
    for (int i = 0; i < JK_ARRAY_LEN(fixed); i++) {
        Parsed *p = parse_text(fixed[i]);
        assert_non_null(p->root);
        StrBuf sb = { 0 };
        ast_print(&sb, p->root);
        sb_free(&sb);
        done(p);
    }
    /* random token soup and random bytes, from a random seed */
    static const char *const vocab[] = {
        "function", "end", "if",        "elseif", "else",   "while", "for",     "in",     "=",     "(",     ")",
        "[",        "]",   "{",         "}",      ",",      ";",     "\n",      "x",      "f",     "1",     "1.5",
        "0x1f",     "1f0", "@inbounds", "@m",     "AMDGPU", ".",     "@atomic", "+",      "-",     "*",     "^",
        "::",       "<:",  "where",     "?",      ":",      "&&",    "||",      "return", "begin", "local", "const",
        "\"s\"",    "'",   "#",         "#=",     "=#",     "÷",     "⊻",       "≤",      "∈",     "2x",    " ",
        "+=",       "<<=", "...",       ".+",     "Base",   "true",  "nothing", "-1",     "a:b:c", "\xff",  "\xe2",
    };
    uint64_t seed = ((uint64_t)time(NULL) << 20) ^ (uint64_t)clock() ^ 0x9e3779b97f4a7c15ull;
    fprintf(stderr, "test_garbage seed: %llu\n", (unsigned long long)seed);
    for (int iter = 0; iter < 2000; iter++) {
        StrBuf sb = { 0 };
        int n = (int)(rng_next(&seed) % 120);
        bool bytes = rng_next(&seed) % 4 == 0;
        for (int i = 0; i < n; i++) {
            if (bytes) {
                char c = (char)(rng_next(&seed) & 0xff);
                sb_putn(&sb, &c, 1);
            } else {
                sb_puts(&sb, vocab[rng_next(&seed) % JK_ARRAY_LEN(vocab)]);
                if (rng_next(&seed) % 2)
                    sb_puts(&sb, " ");
            }
        }
        Parsed *p = parse_text_n("g.jl", sb.data ? sb.data : "", sb.len);
        assert_non_null(p->root);
        StrBuf out = { 0 };
        ast_print(&out, p->root);
        sb_free(&out);
        done(p);
        sb_free(&sb);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_acceptance_all_parse),
        cmocka_unit_test(test_vadd),
        cmocka_unit_test(test_transpose),
        cmocka_unit_test(test_intops),
        cmocka_unit_test(test_histogram_block_sum_dispatch),
        cmocka_unit_test(test_literals),
        cmocka_unit_test(test_precedence_print),
        cmocka_unit_test(test_structure),
        cmocka_unit_test(test_definitions),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_error_recovery),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_garbage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
