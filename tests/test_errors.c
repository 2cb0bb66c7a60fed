/* test_errors.c: every entry of docs/errors.md, the catalogue of bad inputs,
 * checked against the exact message a user sees. The catalogue is the test's
 * input: each entry ("### E<n>: title") holds
 *   ```julia   the kernel source (written as kernel.jl)         optional
 *   ```npy     bytes of a .npy file, C escapes (written as data.npy)  optional
 *   ```run     what to do: one line, see below
 *   ```expect status=S   the exact message (stderr of the CLI, or juke_errmsg)
 * so the document and the test cannot drift. Lines are compared with trailing
 * blanks removed (markdown editors strip them), and a machine address (0x and
 * nine or more hex digits) reads 0x… on both sides.
 *
 * run lines:
 *   [VAR=value...] juke ARGS...        the CLI in a scratch directory holding
 *                                      kernel.jl / data.npy; S = exit status
 *   api load                           juke_module_load_string(ctx, "kernel.jl", source)
 *   api compile F [opts] TYPE...       load, then juke_compile (opts: --target T, -O N,
 *                                      --cov N, --wave N, --devlibs DIR); TYPEs split on blanks
 *   api launch F [opts] ARG...         load, open the cpu device, create the arrays and
 *                                      launch (opts: --group X,Y,Z --grid X,Y,Z --shmem N);
 *                                      ARG: Float32[64] / Int32[8,8] (an array of those dims),
 *                                      Int32=5 / Float64=2.5 (a scalar), null (a NULL array)
 *   api call NAME                      a scenario of API misuse coded below (scenarios[])
 *   For api lines, S is the juke_status_name of the failing call.
 *
 * JUKE_ERRORS_UPDATE=1 rewrites every expect block with what the library
 * says now (then review the diff of docs/errors.md). */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "juke.h"
#include "testutil.h"

typedef struct Entry {
    char id[16];
    char title[160];
    char *source; /* NULL if none */
    char *npy;    /* unescaped bytes */
    size_t npy_len;
    char *run;
    char *expect;
    char status[64];
    size_t expect_begin, expect_end; /* byte range of the expect block's body in the document */
} Entry;

typedef struct Catalogue {
    char *doc;
    size_t doc_len;
    Entry *entries;
    int n;
    char juke[1024];
    char path[1024];
} Catalogue;

static Catalogue cat;

/* ---- reading the catalogue ---- */

static char *dup_range(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

/* C escapes (\xNN, \n, \t, \\, \0) to bytes; newlines of the block itself are dropped. */
static char *unescape(const char *s, size_t *len)
{
    char *out = malloc(strlen(s) + 1);
    size_t k = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '\n')
            continue;
        if (*p != '\\') {
            out[k++] = *p;
            continue;
        }
        p++;
        if (*p == 'x' && p[1] && p[2]) {
            char hex[3] = { p[1], p[2], 0 };
            out[k++] = (char)strtol(hex, NULL, 16);
            p += 2;
        } else if (*p == 'n') {
            out[k++] = '\n';
        } else if (*p == 't') {
            out[k++] = '\t';
        } else if (*p == '0') {
            out[k++] = 0;
        } else if (*p) {
            out[k++] = *p;
        } else {
            break;
        }
    }
    *len = k;
    return out;
}

static void parse_catalogue(void)
{
    char *d = cat.doc;
    int cap = 0;
    Entry *e = NULL;
    for (char *line = d; line && *line;) {
        char *nl = strchr(line, '\n');
        char *next = nl ? nl + 1 : NULL;
        if (strncmp(line, "### E", 5) == 0) {
            if (cat.n == cap) {
                cap = cap ? cap * 2 : 64;
                cat.entries = realloc(cat.entries, sizeof(Entry) * (size_t)cap);
            }
            e = &cat.entries[cat.n++];
            memset(e, 0, sizeof *e);
            char *colon = strchr(line + 4, ':');
            size_t idlen = colon && colon < nl ? (size_t)(colon - line - 4) : 0;
            if (idlen >= sizeof e->id)
                idlen = sizeof e->id - 1;
            memcpy(e->id, line + 4, idlen);
            if (colon && colon < nl) {
                size_t tl = (size_t)(nl - colon - 1);
                if (tl >= sizeof e->title)
                    tl = sizeof e->title - 1;
                memcpy(e->title, colon + 1, tl);
            }
        } else if (e && strncmp(line, "```", 3) == 0 && line[3] != '\n') {
            char tag[128] = { 0 };
            size_t tl = (size_t)(nl - line - 3);
            memcpy(tag, line + 3, tl < sizeof tag - 1 ? tl : sizeof tag - 1);
            char *body = next;
            char *end = body;
            while (end && *end && strncmp(end, "```\n", 4) != 0 && strcmp(end, "```") != 0) {
                char *n2 = strchr(end, '\n');
                end = n2 ? n2 + 1 : end + strlen(end);
            }
            size_t blen = (size_t)(end - body);
            if (strncmp(tag, "julia", 5) == 0) {
                e->source = dup_range(body, blen);
            } else if (strncmp(tag, "npy", 3) == 0) {
                char *raw = dup_range(body, blen);
                e->npy = unescape(raw, &e->npy_len);
                free(raw);
            } else if (strncmp(tag, "run", 3) == 0) {
                e->run = dup_range(body, blen && body[blen - 1] == '\n' ? blen - 1 : blen);
            } else if (strncmp(tag, "expect", 6) == 0) {
                e->expect = dup_range(body, blen && body[blen - 1] == '\n' ? blen - 1 : blen);
                e->expect_begin = (size_t)(body - d);
                e->expect_end = (size_t)(end - d);
                char *st = strstr(tag, "status=");
                if (st)
                    snprintf(e->status, sizeof e->status, "%s", st + 7);
            }
            next = *end ? strchr(end, '\n') : NULL;
            next = next ? next + 1 : NULL;
        }
        line = next;
    }
}

/* The length of the valid UTF-8 sequence at s, or 0. */
static int utf8_len(const unsigned char *s)
{
    int n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* Lines with trailing blanks removed, no trailing newlines, and bytes that
 * are not UTF-8 written as \xNN (a message quoting a bad source line). */
static char *normalise(const char *s)
{
    char *out = malloc(4 * strlen(s) + 1);
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        /* a machine address (0x and nine or more hex digits, as in a kernel fault) differs per run: 0x… */
        size_t nx = 0;
        while (p[0] == '0' && p[1] == 'x' && strchr("0123456789abcdef", p[2 + nx]) && p[2 + nx])
            nx++;
        if (nx >= 9) {
            k += (size_t)sprintf(out + k, "0x\u2026");
            p += 1 + nx;
            continue;
        }
        if (*p == '\n') {
            while (k && (out[k - 1] == ' ' || out[k - 1] == '\t'))
                k--;
        }
        int n = utf8_len(p);
        if (n == 0) {
            k += (size_t)sprintf(out + k, "\\x%02x", *p);
            continue;
        }
        for (int i = 0; i < n; i++)
            out[k++] = (char)p[i];
        p += n - 1;
    }
    while (k && (out[k - 1] == ' ' || out[k - 1] == '\t' || out[k - 1] == '\n'))
        k--;
    out[k] = 0;
    return out;
}

/* ---- running an entry ---- */

typedef struct Outcome {
    char status[64];
    char *message;
} Outcome;

static char **split_words(const char *s, int *n)
{
    char **v = calloc(128, sizeof(char *));
    *n = 0;
    const char *p = s;
    while (*p && *n < 127) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char buf[1024];
        size_t k = 0;
        if (*p == '\'') { /* 'a word with blanks' */
            p++;
            while (*p && *p != '\'' && k < sizeof buf - 1)
                buf[k++] = *p++;
            if (*p)
                p++;
        } else {
            while (*p && *p != ' ' && k < sizeof buf - 1)
                buf[k++] = *p++;
        }
        buf[k] = 0;
        v[(*n)++] = strdup(buf);
    }
    return v;
}

static void free_words(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void write_file(const char *dir, const char *name, const char *data, size_t len)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void run_cli(const Entry *e, char **w, int nw, Outcome *out)
{
    char dir[] = "/tmp/juke-errors-XXXXXX";
    assert_non_null(mkdtemp(dir));
    if (e->source)
        write_file(dir, "kernel.jl", e->source, strlen(e->source));
    if (e->npy)
        write_file(dir, "data.npy", e->npy, e->npy_len);
    char errpath[2100];
    snprintf(errpath, sizeof errpath, "%s/stderr.txt", dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        FILE *ef = freopen(errpath, "w", stderr);
        FILE *of = freopen("/dev/null", "w", stdout);
        (void)ef;
        (void)of;
        char *argv[130];
        int k = 0;
        int i = 0;
        for (; i < nw && strchr(w[i], '=') && strcmp(w[i], "juke") != 0; i++)
            putenv(w[i]);
        argv[k++] = cat.juke;
        for (i++; i < nw; i++)
            argv[k++] = w[i];
        argv[k] = NULL;
        execv(cat.juke, argv);
        _exit(127);
    }
    int ws = 0;
    waitpid(pid, &ws, 0);
    snprintf(out->status, sizeof out->status, "%d", WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws));
    size_t len = 0;
    char *msg = tu_read_file(errpath, &len);
    out->message = msg ? msg : strdup("");
    char cmd[2200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        print_message("could not remove %s\n", dir);
}

static juke_type type_named(const char *s, size_t n)
{
    static const char *names[] = { "Bool",   "Int8",   "Int16",  "Int32",   "Int64",   "UInt8",
                                   "UInt16", "UInt32", "UInt64", "Float16", "Float32", "Float64" };
    for (int i = 0; i < 12; i++)
        if (strlen(names[i]) == n && strncmp(names[i], s, n) == 0)
            return (juke_type)(JUKE_BOOL + i);
    return (juke_type)0;
}

static void parse_triple(const char *s, uint32_t v[3])
{
    v[0] = v[1] = v[2] = 0;
    sscanf(s, "%u,%u,%u", &v[0], &v[1], &v[2]);
}

/* A scenario returns the status of its failing call; *msg is set when the
 * message is not juke_errmsg(ctx) (a call that was given no context). */
typedef juke_status (*Scenario)(juke_context *ctx, const char **msg);
typedef struct ScenarioDef {
    const char *name;
    Scenario fn;
} ScenarioDef;
static const ScenarioDef *find_scenario(const char *name);

static void run_api(const Entry *e, char **w, int nw, Outcome *out)
{
    juke_context *ctx = juke_context_create();
    assert_non_null(ctx);
    juke_status st = JUKE_OK;
    const char *what = nw > 1 ? w[1] : "";
    if (strcmp(what, "call") == 0) {
        assert_true(nw == 3);
        assert_non_null(find_scenario(w[2]));
        const char *msg = NULL;
        st = find_scenario(w[2])->fn(ctx, &msg);
        snprintf(out->status, sizeof out->status, "%s", juke_status_name(st));
        out->message = strdup(msg ? msg : st ? juke_errmsg(ctx) : "(success)");
        juke_context_destroy(ctx);
        return;
    }
    juke_module *m = NULL;
    st = juke_module_load_string(ctx, "kernel.jl", e->source ? e->source : "", &m);
    if (st || strcmp(what, "load") == 0)
        goto done;
    assert_true(nw >= 3);
    const char *fn = w[2];
    if (strcmp(what, "compile") == 0) {
        juke_options o;
        juke_options_default(&o);
        o.target = "cpu";
        const char *types[64];
        int nt = 0;
        for (int i = 3; i < nw; i++) {
            if (!strcmp(w[i], "--target") && i + 1 < nw)
                o.target = w[++i];
            else if (!strcmp(w[i], "-O") && i + 1 < nw)
                o.opt_level = atoi(w[++i]);
            else if (!strcmp(w[i], "--cov") && i + 1 < nw)
                o.code_object_version = atoi(w[++i]);
            else if (!strcmp(w[i], "--wave") && i + 1 < nw)
                o.wavefront_size = atoi(w[++i]);
            else if (!strcmp(w[i], "--devlibs") && i + 1 < nw)
                o.device_libs = w[++i];
            else
                types[nt++] = strcmp(w[i], "NULL") ? w[i] : NULL;
        }
        juke_kernel *k = NULL;
        st = juke_compile(m, fn, types, nt, &o, &k);
    } else if (strcmp(what, "launch") == 0) {
        juke_device *dev = NULL;
        st = juke_device_open(ctx, "cpu", &dev);
        assert_int_equal(st, JUKE_OK);
        juke_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, false };
        juke_arg args[64];
        int na = 0;
        for (int i = 3; i < nw; i++) {
            if (!strcmp(w[i], "--group") && i + 1 < nw) {
                parse_triple(w[++i], cfg.groupsize);
            } else if (!strcmp(w[i], "--grid") && i + 1 < nw) {
                parse_triple(w[++i], cfg.gridsize);
            } else if (!strcmp(w[i], "--shmem") && i + 1 < nw) {
                cfg.shmem = (uint32_t)atoi(w[++i]);
            } else if (!strcmp(w[i], "null")) {
                args[na++] = juke_arg_array(NULL);
            } else if (strchr(w[i], '[')) {
                char *br = strchr(w[i], '[');
                juke_type t = type_named(w[i], (size_t)(br - w[i]));
                assert_true(t != 0);
                int64_t dims[8];
                int nd = 0;
                for (char *p = br + 1; *p && *p != ']' && nd < 8;) {
                    dims[nd++] = strtoll(p, &p, 10);
                    if (*p == ',')
                        p++;
                }
                juke_array *a = NULL;
                assert_int_equal(juke_array_create(dev, t, nd, dims, &a), JUKE_OK);
                size_t bytes = (size_t)juke_array_length(a) * juke_sizeof(t);
                unsigned char *host = calloc(bytes + 1, 1);
                for (size_t b = 0; b < bytes; b++) /* small non-zero values of every type */
                    host[b] = (unsigned char)(b % juke_sizeof(t) == 0 ? 1 + b % 7 : 0);
                if (t == JUKE_FLOAT32 || t == JUKE_FLOAT64 || t == JUKE_FLOAT16)
                    memset(host, 0, bytes); /* +0.0: a float pattern that is no NaN */
                assert_int_equal(juke_array_upload(a, host, bytes), JUKE_OK);
                free(host);
                args[na++] = juke_arg_array(a);
            } else {
                char *eq = strchr(w[i], '=');
                assert_non_null(eq);
                juke_type t = type_named(w[i], (size_t)(eq - w[i]));
                assert_true(t != 0);
                juke_arg a = { false, t, { 0 } };
                if (t == JUKE_FLOAT32)
                    a.v.f32 = strtof(eq + 1, NULL);
                else if (t == JUKE_FLOAT64)
                    a.v.f64 = strtod(eq + 1, NULL);
                else
                    a.v.i = strtoll(eq + 1, NULL, 10);
                args[na++] = a;
            }
        }
        st = juke_launch(dev, m, fn, args, na, &cfg);
    } else {
        fail_msg("%s: unknown api action \"%s\"", e->id, what);
    }
done:
    snprintf(out->status, sizeof out->status, "%s", juke_status_name(st));
    out->message = strdup(st ? juke_errmsg(ctx) : "(success)");
    juke_context_destroy(ctx);
}

static void run_entry(const Entry *e, Outcome *out)
{
    assert_non_null(e->run);
    int nw = 0;
    char **w = split_words(e->run, &nw);
    assert_true(nw > 0);
    if (strcmp(w[0], "api") == 0)
        run_api(e, w, nw, out);
    else
        run_cli(e, w, nw, out);
    /* run_cli's putenv happened in the child; the words may be freed */
    free_words(w, nw);
}

static void test_entry(void **state)
{
    const Entry *e = *state;
    assert_non_null(e->expect);
    Outcome o = { { 0 }, NULL };
    run_entry(e, &o);
    char *got = normalise(o.message), *want = normalise(e->expect);
    if (strcmp(o.status, e->status) != 0 || strcmp(got, want) != 0)
        fail_msg("%s:%s\n--- status: expected %s, got %s\n--- expected:\n%s\n--- got:\n%s\n", e->id, e->title,
                 e->status, o.status, want, got);
    free(got);
    free(want);
    free(o.message);
}

/* JUKE_ERRORS_UPDATE=1: rewrite each expect block (and its status) in place. */
static int update_catalogue(void)
{
    FILE *f = fopen(cat.path, "wb");
    if (!f)
        return 1;
    size_t pos = 0;
    for (int i = 0; i < cat.n; i++) {
        Entry *e = &cat.entries[i];
        if (!e->expect)
            continue;
        Outcome o = { { 0 }, NULL };
        run_entry(e, &o);
        /* the fence line before the body: rewrite its status too */
        size_t fence = e->expect_begin - 1;
        while (fence > 0 && cat.doc[fence - 1] != '\n')
            fence--;
        fwrite(cat.doc + pos, 1, fence - pos, f);
        char *norm = normalise(o.message);
        fprintf(f, "```expect status=%s\n%s\n", o.status, norm);
        free(norm);
        free(o.message);
        pos = e->expect_end;
    }
    fwrite(cat.doc + pos, 1, cat.doc_len - pos, f);
    fclose(f);
    return 0;
}

/* ---- scenarios of API misuse (api call NAME) ---- */

#include "errors_capi.inc"
#include "errors_values.inc"

static juke_status sc_load_null_ctx(juke_context *ctx, const char **msg)
{
    (void)ctx;
    juke_module *m = NULL;
    juke_status st = juke_module_load_string(NULL, "k.jl", "f() = nothing", &m);
    assert_null(m);
    /* the message of a call without a context has nowhere to go */
    *msg = juke_errmsg(NULL);
    return st;
}

static juke_status sc_load_null_source(juke_context *ctx, const char **msg)
{
    juke_module *m = NULL;
    return juke_module_load_string(ctx, "k.jl", NULL, &m);
}

static juke_status sc_load_null_out(juke_context *ctx, const char **msg)
{
    return juke_module_load_string(ctx, "k.jl", "f() = nothing", NULL);
}

static juke_status sc_load_missing_file(juke_context *ctx, const char **msg)
{
    juke_module *m = NULL;
    return juke_module_load_file(ctx, "/nonexistent/kernel.jl", &m);
}

static juke_status sc_load_directory(juke_context *ctx, const char **msg)
{
    juke_module *m = NULL;
    return juke_module_load_file(ctx, "/", &m);
}

/* A load on a thread of 64 KiB stack (as a host may use), of an
 * expression nested 300 deep: an error, not a SIGSEGV. */
typedef struct SmallStackLoad {
    juke_context *ctx;
    juke_status st;
    char msg[1024];
} SmallStackLoad;

static void *small_stack_load(void *arg)
{
    SmallStackLoad *l = arg;
    char src[1024];
    int n = snprintf(src, sizeof src, "function f(a)\n    a[1] = ");
    for (int i = 0; i < 300; i++)
        n += snprintf(src + n, sizeof src - (size_t)n, "(");
    n += snprintf(src + n, sizeof src - (size_t)n, "1");
    for (int i = 0; i < 300; i++)
        n += snprintf(src + n, sizeof src - (size_t)n, ")");
    snprintf(src + n, sizeof src - (size_t)n, "\n    return\nend\n");
    juke_module *m = NULL;
    l->st = juke_module_load_string(l->ctx, "kernel.jl", src, &m);
    snprintf(l->msg, sizeof l->msg, "%s", juke_errmsg(l->ctx));
    return NULL;
}

static juke_status sc_load_small_stack(juke_context *ctx, const char **msg)
{
    static SmallStackLoad l;
    l.ctx = ctx;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    pthread_t t;
    if (pthread_create(&t, &attr, small_stack_load, &l) != 0)
        return JUKE_ERR_ARGUMENT;
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
    *msg = l.msg;
    return l.st;
}

static juke_module *load_ok(juke_context *ctx)
{
    juke_module *m = NULL;
    assert_int_equal(juke_module_load_string(ctx, "kernel.jl", "function f(x)\n    x[1] = 1f0\n    return\nend\n", &m),
                     JUKE_OK);
    return m;
}

static juke_status sc_compile_null_module(juke_context *ctx, const char **msg)
{
    (void)ctx;
    juke_kernel *k = NULL;
    const char *t[] = { "Vector{Float32}" };
    juke_status st = juke_compile(NULL, "f", t, 1, NULL, &k);
    assert_null(k);
    *msg = juke_errmsg(NULL);
    return st;
}

static juke_status sc_compile_null_function(juke_context *ctx, const char **msg)
{
    juke_module *m = load_ok(ctx);
    juke_kernel *k = NULL;
    const char *t[] = { "Vector{Float32}" };
    return juke_compile(m, NULL, t, 1, NULL, &k);
}

static juke_status sc_compile_unknown_function(juke_context *ctx, const char **msg)
{
    juke_module *m = load_ok(ctx);
    juke_kernel *k = NULL;
    const char *t[] = { "Vector{Float32}" };
    return juke_compile(m, "g", t, 1, NULL, &k);
}

static juke_status sc_compile_null_types(juke_context *ctx, const char **msg)
{
    juke_module *m = load_ok(ctx);
    juke_kernel *k = NULL;
    return juke_compile(m, "f", NULL, 1, NULL, &k);
}

static juke_status sc_compile_negative_nargs(juke_context *ctx, const char **msg)
{
    juke_module *m = load_ok(ctx);
    juke_kernel *k = NULL;
    const char *t[] = { "Vector{Float32}" };
    return juke_compile(m, "f", t, -1, NULL, &k);
}

static juke_status sc_set_options_opt(juke_context *ctx, const char **msg)
{
    juke_options o;
    juke_options_default(&o);
    o.opt_level = 9;
    return juke_set_options(ctx, &o);
}

static juke_status sc_set_options_cov(juke_context *ctx, const char **msg)
{
    juke_options o;
    juke_options_default(&o);
    o.code_object_version = 3;
    return juke_set_options(ctx, &o);
}

static juke_status sc_set_options_wave(juke_context *ctx, const char **msg)
{
    juke_options o;
    juke_options_default(&o);
    o.wavefront_size = 48;
    return juke_set_options(ctx, &o);
}

static juke_status sc_set_options_index_bits(juke_context *ctx, const char **msg)
{
    juke_options o;
    juke_options_default(&o);
    o.index_bits = 16;
    return juke_set_options(ctx, &o);
}

/* A kernel compiled with 32-bit indices, launched through its handle with
 * an array of 2^31 elements (mapped lazily: nothing is touched). */
static juke_status sc_launch_index32_large(juke_context *ctx, const char **msg)
{
    juke_module *m = NULL;
    juke_device *cpu = NULL;
    juke_kernel *k = NULL;
    juke_array *a = NULL;
    const char *types[1] = { "Vector{Int8}" };
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    o.index_bits = 32;
    int64_t n = (int64_t)1 << 31;
    juke_status st =
        juke_module_load_string(ctx, "kernel.jl", "function f(x)\n    x[1] = Int8(1)\n    return\nend\n", &m);
    if (!st)
        st = juke_device_open(ctx, "cpu", &cpu);
    if (!st)
        st = juke_compile(m, "f", types, 1, &o, &k);
    if (!st)
        st = juke_array_create(cpu, JUKE_INT8, 1, &n, &a);
    if (st)
        return st;
    juke_arg arg = juke_arg_array(a);
    juke_launch_config c;
    memset(&c, 0, sizeof c);
    st = juke_kernel_launch(k, cpu, &arg, 1, &c);
    *msg = juke_errmsg(ctx);
    return st;
}

/* A kernel compiled for arrays of one shape (same_shape), launched through its handle with two arrays of
 * other lengths (two), or with one array (one). */
static juke_status launch_same_shape(juke_context *ctx, const char **msg, bool two)
{
    juke_module *m = NULL;
    juke_device *cpu = NULL;
    juke_kernel *k = NULL;
    juke_array *a = NULL, *b = NULL;
    const char *types[2] = { "Vector{Float32}", "Vector{Float32}" };
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    o.same_shape = 1;
    int64_t n = 8, n2 = 9;
    juke_status st = juke_module_load_string(ctx, "kernel.jl",
                                             "function f(x, y)\n    x[1] = y[1]\n    return\nend\n"
                                             "function g(x)\n    x[1] = 1f0\n    return\nend\n",
                                             &m);
    if (!st)
        st = juke_device_open(ctx, "cpu", &cpu);
    if (!st)
        st = juke_compile(m, two ? "f" : "g", types, two ? 2 : 1, &o, &k);
    if (!st)
        st = juke_array_create(cpu, JUKE_FLOAT32, 1, &n, &a);
    if (!st)
        st = juke_array_create(cpu, JUKE_FLOAT32, 1, &n2, &b);
    if (!st) {
        juke_arg args[2] = { juke_arg_array(a), juke_arg_array(b) };
        juke_launch_config c;
        memset(&c, 0, sizeof c);
        c.groupsize[0] = c.gridsize[0] = 1;
        st = juke_kernel_launch(k, cpu, args, two ? 2 : 1, &c);
        *msg = juke_errmsg(ctx);
    }
    juke_array_free(a);
    juke_array_free(b);
    return st;
}

static juke_status sc_launch_same_shape_mismatch(juke_context *ctx, const char **msg)
{
    return launch_same_shape(ctx, msg, true);
}

static juke_status sc_launch_same_shape_one_array(juke_context *ctx, const char **msg)
{
    return launch_same_shape(ctx, msg, false);
}

/* A small-grid kernel (juke_options.small_grid) launched with more than 2^20 workgroups in dimension 2. */
static juke_status sc_launch_small_grid_too_large(juke_context *ctx, const char **msg)
{
    juke_module *m = NULL;
    juke_device *cpu = NULL;
    juke_kernel *k = NULL;
    juke_array *a = NULL;
    const char *types[1] = { "Vector{Float32}" };
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    o.small_grid = 1;
    int64_t n = 8;
    juke_status st = juke_module_load_string(ctx, "kernel.jl", "function h(x)\n    x[1] = 1f0\n    return\nend\n", &m);
    if (!st)
        st = juke_device_open(ctx, "cpu", &cpu);
    if (!st)
        st = juke_compile(m, "h", types, 1, &o, &k);
    if (!st)
        st = juke_array_create(cpu, JUKE_FLOAT32, 1, &n, &a);
    if (!st) {
        juke_arg args[1] = { juke_arg_array(a) };
        juke_launch_config c;
        memset(&c, 0, sizeof c);
        c.groupsize[0] = c.gridsize[0] = 1;
        c.gridsize[1] = (1u << 20) + 1;
        st = juke_kernel_launch(k, cpu, args, 1, &c);
        *msg = juke_errmsg(ctx);
    }
    juke_array_free(a);
    return st;
}

static juke_status sc_device_unknown(juke_context *ctx, const char **msg)
{
    juke_device *d = NULL;
    return juke_device_open(ctx, "tpu", &d);
}

static juke_device *cpu(juke_context *ctx)
{
    juke_device *d = NULL;
    assert_int_equal(juke_device_open(ctx, "cpu", &d), JUKE_OK);
    return d;
}

static juke_status sc_array_zero_dims(juke_context *ctx, const char **msg)
{
    juke_array *a = NULL;
    int64_t dims[1] = { 4 };
    return juke_array_create(cpu(ctx), JUKE_FLOAT32, 0, dims, &a);
}

static juke_status sc_array_nine_dims(juke_context *ctx, const char **msg)
{
    juke_array *a = NULL;
    int64_t dims[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    return juke_array_create(cpu(ctx), JUKE_FLOAT32, 9, dims, &a);
}

static juke_status sc_array_negative_dim(juke_context *ctx, const char **msg)
{
    juke_array *a = NULL;
    int64_t dims[2] = { 4, -3 };
    return juke_array_create(cpu(ctx), JUKE_FLOAT32, 2, dims, &a);
}

static juke_status sc_array_bad_type(juke_context *ctx, const char **msg)
{
    juke_array *a = NULL;
    int64_t dims[1] = { 4 };
    return juke_array_create(cpu(ctx), (juke_type)42, 1, dims, &a);
}

static juke_status sc_array_huge(juke_context *ctx, const char **msg)
{
    juke_array *a = NULL;
    int64_t dims[2] = { INT64_C(1) << 40, INT64_C(1) << 30 };
    return juke_array_create(cpu(ctx), JUKE_FLOAT64, 2, dims, &a);
}

static juke_status sc_upload_wrong_size(juke_context *ctx, const char **msg)
{
    juke_array *a = NULL;
    int64_t dims[1] = { 16 };
    assert_int_equal(juke_array_create(cpu(ctx), JUKE_FLOAT32, 1, dims, &a), JUKE_OK);
    float host[15] = { 1 };
    return juke_array_upload(a, host, sizeof host);
}

static juke_status sc_download_wrong_size(juke_context *ctx, const char **msg)
{
    juke_array *a = NULL;
    int64_t dims[1] = { 16 };
    assert_int_equal(juke_array_create(cpu(ctx), JUKE_FLOAT32, 1, dims, &a), JUKE_OK);
    double host[16];
    return juke_array_download(a, host, sizeof host);
}

static juke_status sc_upload_null_host(juke_context *ctx, const char **msg)
{
    juke_array *a = NULL;
    int64_t dims[1] = { 16 };
    assert_int_equal(juke_array_create(cpu(ctx), JUKE_FLOAT32, 1, dims, &a), JUKE_OK);
    return juke_array_upload(a, NULL, 64);
}

static juke_status sc_launch_null_config(juke_context *ctx, const char **msg)
{
    juke_module *m = load_ok(ctx);
    juke_array *a = NULL;
    int64_t dims[1] = { 16 };
    juke_device *d = cpu(ctx);
    assert_int_equal(juke_array_create(d, JUKE_FLOAT32, 1, dims, &a), JUKE_OK);
    juke_arg arg = juke_arg_array(a);
    return juke_launch(d, m, "f", &arg, 1, NULL);
}

static juke_status sc_launch_bad_scalar_type(juke_context *ctx, const char **msg)
{
    juke_module *m = load_ok(ctx);
    juke_arg arg = { false, (juke_type)99, { 0 } };
    juke_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, false };
    return juke_launch(cpu(ctx), m, "f", &arg, 1, &cfg);
}

static juke_status sc_launch_other_device(juke_context *ctx, const char **msg)
{
    juke_module *m = load_ok(ctx);
    juke_array *a = NULL;
    int64_t dims[1] = { 16 };
    assert_int_equal(juke_array_create(cpu(ctx), JUKE_FLOAT32, 1, dims, &a), JUKE_OK);
    juke_arg arg = juke_arg_array(a);
    juke_launch_config cfg = { { 1, 1, 1 }, { 1, 1, 1 }, 0, false };
    return juke_launch(cpu(ctx), m, "f", &arg, 1, &cfg);
}

static juke_status sc_write_dumps_unwritable(juke_context *ctx, const char **msg)
{
    juke_module *m = load_ok(ctx);
    juke_kernel *k = NULL;
    const char *t[] = { "Vector{Float32}" };
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    assert_int_equal(juke_compile(m, "f", t, 1, &o, &k), JUKE_OK);
    return juke_kernel_write_dumps(k, "/proc/juke-dumps");
}

static juke_status sc_sync_null_device(juke_context *ctx, const char **msg)
{
    (void)ctx;
    *msg = juke_errmsg(NULL);
    return juke_device_synchronize(NULL);
}

static juke_status sc_null_handles(juke_context *ctx, const char **msg)
{
    /* freed handles cannot be detected in general (the memory is gone); what
     * the API does promise is that NULL handles are safe everywhere */
    assert_int_equal(juke_module_function_count(NULL), 0);
    assert_null(juke_module_function_name(NULL, 0));
    assert_null(juke_kernel_dump(NULL, JUKE_DUMP_LLVM));
    assert_null(juke_kernel_symbol(NULL));
    assert_int_equal(juke_array_length(NULL), 0);
    juke_module_free(NULL);
    juke_array_free(NULL);
    juke_device_close(NULL);
    juke_context_destroy(NULL);
    juke_module *m = NULL;
    return juke_module_load_string(ctx, NULL, NULL, &m);
}

/* A cache entry that fails its checksum: the note of its rebuild (the
 * scratch directory written DIR, the key's hash HASH, which differ by run
 * and by machine). */
static void note_to(void *user, juke_log_level level, const char *msg)
{
    if (level == JUKE_LOG_NOTE)
        snprintf(user, 1024, "%s", msg);
}

static juke_status sc_cache_rebuilt(juke_context *ctx, const char **msg)
{
    static char note[1024], out[1100];
    char dir[] = "/tmp/juke-errors-cache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *src = "function f(a)\n    a[1] = 1f0\n    return\nend\n";
    const char *types[] = { "Vector{Float32}" };
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    o.cache_dir = dir;
    juke_kernel *k;
    juke_module *m;
    juke_context *first = juke_context_create();
    assert_int_equal(juke_set_options(first, &o), JUKE_OK);
    assert_int_equal(juke_module_load_string(first, "kernel.jl", src, &m), JUKE_OK);
    assert_int_equal(juke_compile(m, "f", types, 1, NULL, &k), JUKE_OK);
    juke_context_destroy(first);
    char path[1200] = "", cmd[1300];
    snprintf(cmd, sizeof cmd, "ls %s/*.jkc", dir);
    FILE *ls = popen(cmd, "r");
    assert_non_null(ls);
    assert_non_null(fgets(path, sizeof path, ls));
    pclose(ls);
    path[strcspn(path, "\n")] = 0;
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, -10, SEEK_END);
    int c = fgetc(f);
    fseek(f, -10, SEEK_END);
    fputc(c ^ 0x40, f);
    fclose(f);
    note[0] = 0;
    juke_set_log_callback(ctx, note_to, note);
    assert_int_equal(juke_set_options(ctx, &o), JUKE_OK);
    assert_int_equal(juke_module_load_string(ctx, "kernel.jl", src, &m), JUKE_OK);
    juke_status st = juke_compile(m, "f", types, 1, NULL, &k);
    const char *d = strstr(note, dir), *h = strrchr(note, '-');
    if (d && h && strlen(h) > 21)
        snprintf(out, sizeof out, "%.*sDIR%.*s-HASH%s", (int)(d - note), note, (int)(h - d - strlen(dir)),
                 d + strlen(dir), h + 17);
    else
        snprintf(out, sizeof out, "%s", note);
    *msg = out;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        print_message("could not remove %s\n", dir);
    return st;
}

/* ---- array operations (docs/errors.md, "Python, device arrays, broadcasts and matmul") ---- */

static juke_array *vec(juke_device *d, juke_type t, int64_t n)
{
    juke_array *a = NULL;
    assert_int_equal(juke_array_zeros(d, t, 1, &n, &a), JUKE_OK);
    return a;
}

static juke_status broadcast2(juke_context *ctx, const char *expr, int64_t na, int64_t nb)
{
    juke_device *d = cpu(ctx);
    juke_named_arg ops[] = { { "a", juke_arg_array(vec(d, JUKE_FLOAT32, na)) },
                             { "b", juke_arg_array(vec(d, JUKE_FLOAT32, nb)) },
                             { "s", juke_arg_f32(2.0f) } };
    return juke_broadcast(ctx, d, expr, ops, 3);
}

static juke_status sc_broadcast_shape(juke_context *ctx, const char **msg)
{
    return broadcast2(ctx, "a .= a .+ b", 4, 5);
}

static juke_status sc_broadcast_undotted(juke_context *ctx, const char **msg)
{
    return broadcast2(ctx, "a .= a * b", 4, 4);
}

static juke_status sc_broadcast_no_assign(juke_context *ctx, const char **msg)
{
    return broadcast2(ctx, "a .+ b", 4, 4);
}

static juke_status sc_broadcast_scalar_dest(juke_context *ctx, const char **msg)
{
    return broadcast2(ctx, "s .= a .+ b", 4, 4);
}

static juke_status sc_broadcast_unknown_dest(juke_context *ctx, const char **msg)
{
    return broadcast2(ctx, "c .= a .+ b", 4, 4);
}

static juke_status sc_broadcast_bad_name(juke_context *ctx, const char **msg)
{
    juke_device *d = cpu(ctx);
    juke_named_arg ops[] = { { "a b", juke_arg_array(vec(d, JUKE_FLOAT32, 4)) } };
    return juke_broadcast(ctx, d, "a .= 1f0", ops, 1);
}

static juke_status sc_mapreduce_no_neutral(juke_context *ctx, const char **msg)
{
    juke_device *d = cpu(ctx);
    juke_arg r;
    return juke_mapreduce(d, "abs", "(a, b) -> a - b", vec(d, JUKE_FLOAT64, 8), NULL, &r);
}

static juke_status sc_maximum_empty(juke_context *ctx, const char **msg)
{
    juke_device *d = cpu(ctx);
    juke_arg r;
    return juke_maximum(d, vec(d, JUKE_FLOAT32, 0), &r);
}

static juke_status sc_mapreduce_bad_function(juke_context *ctx, const char **msg)
{
    juke_device *d = cpu(ctx);
    juke_arg r;
    return juke_mapreduce(d, "x; y", "+", vec(d, JUKE_FLOAT32, 4), NULL, &r);
}

static juke_status sc_matmul_shape(juke_context *ctx, const char **msg)
{
    juke_device *d = cpu(ctx);
    int64_t da[2] = { 2, 3 }, db[2] = { 4, 2 }, dc[2] = { 2, 2 };
    juke_array *a, *b, *c;
    assert_int_equal(juke_array_zeros(d, JUKE_FLOAT32, 2, da, &a), JUKE_OK);
    assert_int_equal(juke_array_zeros(d, JUKE_FLOAT32, 2, db, &b), JUKE_OK);
    assert_int_equal(juke_array_zeros(d, JUKE_FLOAT32, 2, dc, &c), JUKE_OK);
    return juke_matmul(d, c, a, b, 0, NULL);
}

static juke_status sc_matmul_types(juke_context *ctx, const char **msg)
{
    juke_device *d = cpu(ctx);
    return juke_matmul(d, vec(d, JUKE_FLOAT32, 2), vec(d, JUKE_FLOAT64, 2), vec(d, JUKE_FLOAT32, 1), 0, NULL);
}

static juke_status sc_randn_integers(juke_context *ctx, const char **msg)
{
    int64_t n = 4;
    juke_array *a;
    return juke_array_randn(cpu(ctx), JUKE_INT32, 1, &n, 1, &a);
}

static const ScenarioDef scenario_table[] = {
    { "value_size", sc_value_size },
    { "load-null-context", sc_load_null_ctx },
    { "wrap-null", sc_wrap_null },
    { "wrap-misaligned", sc_wrap_misaligned },
    { "copy-range", sc_copy_range },
    { "copy-types", sc_copy_types },
    { "handle-count", sc_handle_count },
    { "handle-type", sc_handle_type },
    { "event-unrecorded", sc_event_unrecorded },
    { "load-null-source", sc_load_null_source },
    { "load-null-out", sc_load_null_out },
    { "load-missing-file", sc_load_missing_file },
    { "load-directory", sc_load_directory },
    { "load-small-stack", sc_load_small_stack },
    { "compile-null-module", sc_compile_null_module },
    { "compile-null-function", sc_compile_null_function },
    { "compile-unknown-function", sc_compile_unknown_function },
    { "compile-null-types", sc_compile_null_types },
    { "compile-negative-nargs", sc_compile_negative_nargs },
    { "options-opt-level", sc_set_options_opt },
    { "options-code-object-version", sc_set_options_cov },
    { "options-wavefront-size", sc_set_options_wave },
    { "options-index-bits", sc_set_options_index_bits },
    { "launch-index32-large", sc_launch_index32_large },
    { "launch-same-shape-mismatch", sc_launch_same_shape_mismatch },
    { "launch-same-shape-one-array", sc_launch_same_shape_one_array },
    { "launch-small-grid-too-large", sc_launch_small_grid_too_large },
    { "device-unknown", sc_device_unknown },
    { "array-zero-dims", sc_array_zero_dims },
    { "array-nine-dims", sc_array_nine_dims },
    { "array-negative-dim", sc_array_negative_dim },
    { "array-bad-element-type", sc_array_bad_type },
    { "array-too-large", sc_array_huge },
    { "upload-wrong-size", sc_upload_wrong_size },
    { "download-wrong-size", sc_download_wrong_size },
    { "upload-null-host", sc_upload_null_host },
    { "launch-null-config", sc_launch_null_config },
    { "launch-bad-scalar-type", sc_launch_bad_scalar_type },
    { "launch-array-of-other-device", sc_launch_other_device },
    { "write-dumps-unwritable", sc_write_dumps_unwritable },
    { "synchronize-null-device", sc_sync_null_device },
    { "null-handles", sc_null_handles },
    { "cache-rebuilt", sc_cache_rebuilt },
    { "broadcast-shape", sc_broadcast_shape },
    { "broadcast-undotted", sc_broadcast_undotted },
    { "broadcast-no-assign", sc_broadcast_no_assign },
    { "broadcast-scalar-dest", sc_broadcast_scalar_dest },
    { "broadcast-unknown-dest", sc_broadcast_unknown_dest },
    { "broadcast-bad-name", sc_broadcast_bad_name },
    { "mapreduce-no-neutral", sc_mapreduce_no_neutral },
    { "maximum-empty", sc_maximum_empty },
    { "mapreduce-bad-function", sc_mapreduce_bad_function },
    { "matmul-shape", sc_matmul_shape },
    { "matmul-types", sc_matmul_types },
    { "randn-integers", sc_randn_integers },
};

static const ScenarioDef *find_scenario(const char *name)
{
    for (size_t i = 0; i < sizeof scenario_table / sizeof scenario_table[0]; i++)
        if (strcmp(scenario_table[i].name, name) == 0)
            return &scenario_table[i];
    return NULL;
}

int main(void)
{
    const char *root = getenv("JUKE_SOURCE_ROOT");
    const char *build = getenv("JUKE_BUILD_ROOT");
    snprintf(cat.path, sizeof cat.path, "%s/docs/errors.md", root ? root : ".");
    snprintf(cat.juke, sizeof cat.juke, "%s/juke", build ? build : "build");
    cat.doc = tu_read_file(cat.path, &cat.doc_len);
    if (!cat.doc) {
        fprintf(stderr, "test_errors: cannot read %s: %s\n", cat.path, strerror(errno));
        return 1;
    }
    parse_catalogue();
    if (getenv("JUKE_ERRORS_UPDATE"))
        return update_catalogue();
    struct CMUnitTest *tests = calloc((size_t)cat.n, sizeof *tests);
    char(*names)[200] = calloc((size_t)cat.n, sizeof *names);
    for (int i = 0; i < cat.n; i++) {
        snprintf(names[i], sizeof names[i], "%s:%s", cat.entries[i].id, cat.entries[i].title);
        tests[i] = (struct CMUnitTest){ names[i], test_entry, NULL, NULL, &cat.entries[i] };
    }
    int rc = _cmocka_run_group_tests("errors", tests, (size_t)cat.n, NULL, NULL);
    printf("# %d catalogue entries in %s\n", cat.n, cat.path);
    free(tests);
    free(names);
    return rc;
}
