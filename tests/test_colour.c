/* test_colour.c: the juke command's colours (tools/colour.c): types in cyan
 * as Julia's @code_typed prints them, errors as clang prints them, plain text
 * for a pipe, --color=never, NO_COLOR and TERM=dumb; on a pseudo-terminal the
 * default (auto) colours. argv[1] is the juke binary. */
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "colour.h"

#define ESC "\033"
#define CYAN ESC "[36m"
#define RESET ESC "[0m"

static const char *juke_bin;
static char workdir[] = "/tmp/juke-colour-XXXXXX";
static char *good_path, *bad_path;
static const char *elt; /* the element type drawn for this run */
static char badname[16];

static uint64_t rng;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* What a run printed. */
typedef struct Run {
    char *out, *err;
    int status;
} Run;

static char *slurp_fd(int fd)
{
    size_t n = 0, cap = 4096;
    char *b = malloc(cap);
    assert_non_null(b);
    for (;;) {
        if (n + 1024 >= cap) {
            cap *= 2;
            b = realloc(b, cap);
            assert_non_null(b);
        }
        ssize_t r = read(fd, b + n, cap - n - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) /* a pty's master reads EIO once the child has gone */
            break;
        n += (size_t)r;
    }
    b[n] = 0;
    return b;
}

/* Set the colour environment in a child: NULL unsets. */
static void child_env(const char *term, const char *no_color)
{
    if (term)
        setenv("TERM", term, 1);
    else
        unsetenv("TERM");
    if (no_color)
        setenv("NO_COLOR", no_color, 1);
    else
        unsetenv("NO_COLOR");
}

/* juke ARGS... with stdout and stderr on pipes. */
static Run run_pipe(const char *term, const char *no_color, const char *const *args)
{
    int po[2], pe[2];
    assert_int_equal(pipe(po), 0);
    assert_int_equal(pipe(pe), 0);
    fflush(NULL);
    pid_t p = fork();
    assert_true(p >= 0);
    if (p == 0) {
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]);
        close(pe[0]);
        child_env(term, no_color);
        execv(juke_bin, (char *const *)args);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    /* stderr is small; reading stdout to the end first cannot block the child */
    Run r = { slurp_fd(po[0]), NULL, 0 };
    r.err = slurp_fd(pe[0]);
    close(po[0]);
    close(pe[0]);
    assert_int_equal(waitpid(p, &r.status, 0), p);
    return r;
}

/* juke ARGS... with stdout and stderr on one pseudo-terminal. */
static Run run_pty(const char *term, const char *no_color, const char *const *args)
{
    int master;
    fflush(NULL);
    pid_t p = forkpty(&master, NULL, NULL, NULL);
    assert_true(p >= 0);
    if (p == 0) {
        child_env(term, no_color);
        execv(juke_bin, (char *const *)args);
        _exit(127);
    }
    Run r = { slurp_fd(master), strdup(""), 0 };
    close(master);
    assert_int_equal(waitpid(p, &r.status, 0), p);
    return r;
}

static void run_free(Run *r)
{
    free(r->out);
    free(r->err);
}

static int exit_code(const Run *r)
{
    return WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1;
}

/* The text with ANSI escapes and (for a pty) carriage returns removed. */
static char *strip(const char *s)
{
    char *o = malloc(strlen(s) + 1), *q = o;
    assert_non_null(o);
    while (*s) {
        if (*s == '\033' && s[1] == '[') {
            s += 2;
            while (*s && *s != 'm')
                s++;
            if (*s)
                s++;
        } else if (*s == '\r') {
            s++;
        } else {
            *q++ = *s++;
        }
    }
    *q = 0;
    return o;
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

#define ARGS(...) ((const char *const[]){ juke_bin, __VA_ARGS__, NULL })

/* --color=always: each `::T` and only those are cyan, comments are plain,
 * and without the escapes the text is --color=never's. */
static void test_typed_always(void **state)
{
    (void)state;
    char vec[64];
    snprintf(vec, sizeof vec, "Vector{%s}", elt);
    Run plain = run_pipe("xterm", NULL, ARGS("typed", "--color=never", good_path, "f!", vec, vec));
    Run col = run_pipe("xterm", NULL, ARGS("typed", "--color=always", good_path, "f!", vec, vec));
    assert_int_equal(exit_code(&plain), 0);
    assert_int_equal(exit_code(&col), 0);
    assert_null(strchr(plain.out, '\033'));
    char *s = strip(col.out);
    assert_string_equal(s, plain.out);
    free(s);
    char want[64];
    snprintf(want, sizeof want, CYAN "::%s" RESET, elt);
    if (!strstr(col.out, want))
        fail_msg("no %s in:\n%s", want + 5, col.out);
    assert_non_null(strstr(col.out, CYAN "::Int64" RESET));
    assert_non_null(strstr(col.out, CYAN "::@NamedTuple{x::Int64, y::Int64, z::Int64}" RESET));
    assert_non_null(strstr(col.out, "x" CYAN "::ROCDeviceArray{"));
    /* every cyan span starts at "::" and holds no comment */
    int spans = 0;
    for (const char *p = col.out; (p = strstr(p, CYAN)); spans++) {
        p += strlen(CYAN);
        assert_true(strncmp(p, "::", 2) == 0);
        const char *end = strstr(p, RESET);
        assert_non_null(end);
        for (const char *q = p; q < end; q++)
            assert_true(*q != '#' && *q != '\n');
    }
    assert_int_equal(spans, count(col.out, RESET));
    assert_true(spans >= 8);
    /* nothing else on stdout is coloured */
    assert_int_equal(count(col.out, "\033["), 2 * spans);
    assert_string_equal(col.err, "");
    run_free(&plain);
    run_free(&col);
}

/* clang's colours on an error: the location bold, "error:" bold red, the
 * message bold, the caret bold green; the source line plain. */
static void test_error_always(void **state)
{
    (void)state;
    Run plain = run_pipe("xterm", NULL, ARGS("typed", "--color=never", bad_path, "g!", "Vector{Float32}"));
    Run col = run_pipe("xterm", NULL, ARGS("typed", "--color=always", bad_path, "g!", "Vector{Float32}"));
    assert_int_equal(exit_code(&plain), 1);
    assert_int_equal(exit_code(&col), 1);
    assert_null(strchr(plain.err, '\033'));
    char *s = strip(col.err);
    assert_string_equal(s, plain.err);
    free(s);
    char *want = NULL;
    assert_true(asprintf(&want, ESC "[1m%s:2:", bad_path) > 0);
    if (strncmp(col.err, want, strlen(want)) != 0)
        fail_msg("stderr does not start with the bold location:\n%s", col.err);
    free(want);
    assert_non_null(strstr(col.err, ":" RESET " " ESC "[1;31merror:" RESET " " ESC "[1mUndefVarError: `"));
    assert_non_null(strstr(col.err, badname));
    /* the source line is plain, the caret green after a plain gutter */
    assert_non_null(strstr(col.err, "\n 2 |     y[1] = "));
    assert_non_null(strstr(col.err, "\n   | "));
    assert_non_null(strstr(col.err, ESC "[1;32m^" RESET "\n"));
    run_free(&plain);
    run_free(&col);

    /* the command's own errors too */
    Run r = run_pipe("xterm", NULL, ARGS("typed", "--color=always", "/nonexistent/k.jl", "f"));
    assert_int_equal(exit_code(&r), 1);
    assert_true(strncmp(r.err, ESC "[1mjuke:" RESET " " ESC "[1;31merror:" RESET, 20) == 0);
    run_free(&r);
}

/* A pipe under auto, and --color=never anywhere, get no escape at all. */
static void test_plain(void **state)
{
    (void)state;
    char vec[64];
    snprintf(vec, sizeof vec, "Vector{%s}", elt);
    const char *const *cases[] = {
        ARGS("typed", good_path, "f!", vec, vec),
        ARGS("lowered", good_path, "f!"),
        ARGS("typed", bad_path, "g!", "Vector{Float32}"),
        ARGS("typed", "--color=auto", bad_path, "g!", "Vector{Float32}"),
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run r = run_pipe("xterm", NULL, cases[i]);
        assert_true(exit_code(&r) == 0 || exit_code(&r) == 1);
        assert_true(*r.out || *r.err);
        assert_null(strchr(r.out, '\033'));
        assert_null(strchr(r.err, '\033'));
        run_free(&r);
    }
    static const struct {
        const char *term, *no_color, *flag;
        bool coloured;
    } ptys[] = {
        { "xterm", NULL, "--color=auto", true },        /* a terminal colours by default */
        { "xterm-256color", "", "--color=auto", true }, /* an empty NO_COLOR is no request */
        { "xterm", "1", "--color=auto", false },        /* NO_COLOR */
        { "xterm", "yes", "--color=auto", false },      { "dumb", NULL, "--color=auto", false }, /* TERM=dumb */
        { NULL, NULL, "--color=auto", false },                                                   /* no TERM */
        { "xterm", NULL, "--color=never", false },      { "dumb", "1", "--color=always", true }, /* asked for: always */
    };
    for (size_t i = 0; i < sizeof ptys / sizeof ptys[0]; i++) {
        Run t = run_pty(ptys[i].term, ptys[i].no_color, ARGS("typed", ptys[i].flag, good_path, "f!", vec, vec));
        Run e = run_pty(ptys[i].term, ptys[i].no_color, ARGS("typed", ptys[i].flag, bad_path, "g!", "Vector{Float32}"));
        assert_int_equal(exit_code(&t), 0);
        assert_int_equal(exit_code(&e), 1);
        bool tc = strstr(t.out, CYAN "::") != NULL, ec = strstr(e.out, ESC "[1;31merror:") != NULL;
        if (tc != ptys[i].coloured || ec != ptys[i].coloured ||
            (!ptys[i].coloured && (strchr(t.out, '\033') || strchr(e.out, '\033'))))
            fail_msg("TERM=%s NO_COLOR=%s %s: %s colour, got:\n%s\n%s", ptys[i].term ? ptys[i].term : "(unset)",
                     ptys[i].no_color ? ptys[i].no_color : "(unset)", ptys[i].flag,
                     ptys[i].coloured ? "expected" : "no", t.out, e.out);
        run_free(&t);
        run_free(&e);
    }
}

/* --color is accepted by every subcommand; a bad value is a usage error. */
static void test_option(void **state)
{
    (void)state;
    Run r = run_pipe(
        "xterm", NULL,
        ARGS("llvm", "--target", "cpu", "--color=always", good_path, "f!", "Vector{Float32}", "Vector{Float32}"));
    assert_int_equal(exit_code(&r), 0);
    assert_null(strchr(r.out, '\033')); /* only the typed and lowered IR have colours */
    run_free(&r);
    r = run_pipe("xterm", NULL, ARGS("help", "--color", "never", "typed"));
    assert_int_equal(exit_code(&r), 0);
    assert_non_null(strstr(r.out, "--color=auto|always|never"));
    run_free(&r);
    r = run_pipe("xterm", NULL, ARGS("run", "--colour=never", "--device", "cpu", "--groupsize", "1", bad_path, "g!"));
    assert_int_equal(exit_code(&r), 1); /* the kernel's error, not a usage error */
    run_free(&r);
    r = run_pipe("xterm", NULL, ARGS("typed", "--color=sometimes", good_path, "f!"));
    assert_int_equal(exit_code(&r), 2);
    assert_non_null(strstr(r.err, "--color expects auto, always or never"));
    run_free(&r);
}

/* The colourers on texts they must not misread. */
static void test_colourers(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    colour_put_ir(f, "f(x::Int64, y) @ k.jl:1\n  %1 = x::Tuple{Int64, Float32} # a::B\n  => Nothing\n::\n");
    fclose(f);
    assert_string_equal(buf, "f(x" CYAN "::Int64" RESET ", y) @ k.jl:1\n  %1 = x" CYAN "::Tuple{Int64, Float32}" RESET
                             " # a::B\n  => Nothing\n::\n");
    free(buf);
    f = open_memstream(&buf, &n);
    colour_put_diag(f, "k.jl:3:4: warning: w\nk.jl:1:1: note: here\n 3 | a ^ b\n   |   ^~~\nplain: text\n");
    fclose(f);
    assert_string_equal(buf, ESC "[1mk.jl:3:4:" RESET " " ESC "[1;35mwarning:" RESET " " ESC "[1mw" RESET "\n" ESC
                                 "[1mk.jl:1:1:" RESET " " ESC "[1;36mnote:" RESET " " ESC "[1mhere" RESET
                                 "\n 3 | a ^ b\n   |   " ESC "[1;32m^~~" RESET "\nplain: text\n");
    free(buf);
    ColourMode m;
    assert_true(colour_parse_mode("never", &m) && m == COLOUR_NEVER);
    assert_false(colour_parse_mode("Always", &m));
    assert_false(colour_wanted(COLOUR_NEVER, 1));
    assert_true(colour_wanted(COLOUR_ALWAYS, -1));
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_colour JUKE\n");
        return 2;
    }
    juke_bin = argv[1];
    rng = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
    rnd();
    static const char *const elts[] = { "Float32", "Float64", "Int32", "Float16", "UInt8" };
    elt = elts[rnd() % 5];
    snprintf(badname, sizeof badname, "undef_%04x", (unsigned)(rnd() & 0xffff));
    printf("# element type %s, undefined name %s\n", elt, badname);
    if (!mkdtemp(workdir))
        return 1;
    if (asprintf(&good_path, "%s/good.jl", workdir) < 0 || asprintf(&bad_path, "%s/bad.jl", workdir) < 0)
        return 1;
    char *src = NULL;
    if (asprintf(&src,
                 "function f!(y, x)\n    i = workitemIdx().x\n    @inbounds y[i] = x[i] * x[i]\n    return\nend\n") < 0)
        return 1;
    write_file(good_path, src);
    free(src);
    if (asprintf(&src, "function g!(y)\n    y[1] = %s + 1\n    return\nend\n", badname) < 0)
        return 1;
    write_file(bad_path, src);
    free(src);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colourers), cmocka_unit_test(test_typed_always), cmocka_unit_test(test_error_always),
        cmocka_unit_test(test_plain),     cmocka_unit_test(test_option),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(good_path);
    unlink(bad_path);
    rmdir(workdir);
    free(good_path);
    free(bad_path);
    return r;
}
