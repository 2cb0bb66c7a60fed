/* test_cache.c: the on-disk kernel cache (compiler/kcache.c) cannot be turned
 * against its user. Entries that are tampered with, corrupted, swapped for a
 * symlink or a FIFO, or carry bad header fields are removed and rebuilt (a
 * note says so) and never loaded; a directory others can write or another
 * user owns is refused with a warning, and the compile goes on without it;
 * the key tells machines, compilers and long types apart. Every case runs a
 * real kernel on the CPU device with fresh random inputs and checks it. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <xxhash.h>

#include "juke.h"
#include "kcache.h"

static uint64_t rng;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const char *src = "function axpy!(y, x, a)\n"
                         "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                         "    if i <= length(y)\n"
                         "        @inbounds y[i] = a * x[i] + y[i]\n"
                         "    end\n"
                         "    return\n"
                         "end\n";

typedef struct Log {
    char text[8192];
    int notes, warnings;
} Log;

static void log_fn(void *user, juke_log_level level, const char *msg)
{
    Log *l = user;
    size_t n = strlen(l->text);
    snprintf(l->text + n, sizeof l->text - n, "%s: %s\n", level == JUKE_LOG_NOTE ? "note" : "warning", msg);
    if (level == JUKE_LOG_NOTE)
        l->notes++;
    else
        l->warnings++;
}

/* One process's worth of use: a fresh context with dir as its cache
 * compiles and runs axpy! on the CPU with random inputs; the result must be
 * right. Returns what the library reported. */
static void run_axpy(const char *dir, Log *log)
{
    memset(log, 0, sizeof *log);
    juke_context *ctx = juke_context_create();
    assert_non_null(ctx);
    juke_set_log_callback(ctx, log_fn, log);
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    o.cache_dir = dir;
    assert_int_equal(juke_set_options(ctx, &o), JUKE_OK);
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "axpy.jl", src, &m), JUKE_OK);
    juke_device *dev;
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    int64_t n = 200 + (int64_t)(rnd() % 300);
    float x[500], y[500], out[500], a = (float)(rnd() % 1000) / 37.0f - 13.0f;
    for (int i = 0; i < n; i++) {
        x[i] = (float)(rnd() % 20001) / 100.0f - 100.0f;
        y[i] = (float)(rnd() % 20001) / 100.0f - 100.0f;
    }
    juke_array *dx, *dy;
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &dx), JUKE_OK);
    assert_int_equal(juke_array_create(dev, JUKE_FLOAT32, 1, &n, &dy), JUKE_OK);
    assert_int_equal(juke_array_upload(dx, x, sizeof(float) * (size_t)n), JUKE_OK);
    assert_int_equal(juke_array_upload(dy, y, sizeof(float) * (size_t)n), JUKE_OK);
    juke_arg args[3] = { juke_arg_array(dy), juke_arg_array(dx), juke_arg_f32(a) };
    juke_launch_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.groupsize[0] = 64;
    cfg.gridsize[0] = (uint32_t)((n + 63) / 64);
    juke_status st = juke_launch(dev, m, "axpy!", args, 3, &cfg);
    if (st)
        fail_msg("launch: %s", juke_errmsg(ctx));
    assert_int_equal(juke_device_synchronize(dev), JUKE_OK);
    assert_int_equal(juke_array_download(dy, out, sizeof(float) * (size_t)n), JUKE_OK);
    for (int i = 0; i < n; i++) {
        float want = a * x[i] + y[i];
        if (out[i] != want && !(out[i] - want < 1e-3f && want - out[i] < 1e-3f))
            fail_msg("y[%d] = %g, want %g", i, (double)out[i], (double)want);
    }
    juke_context_destroy(ctx);
}

static char tmpdir[256];

static void new_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/juke-test-cache-XXXXXX");
    assert_non_null(mkdtemp(tmpdir));
}

static void rm_tmpdir(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s' 2>/dev/null; rm -rf '%s'", tmpdir, tmpdir);
    if (system(cmd) != 0)
        print_message("could not remove %s\n", tmpdir);
}

/* The one entry of dir (its path in path); the count of entries. */
static int find_entry(const char *dir, char *path, size_t n)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, n, "%s/%s", dir, e->d_name);
            count++;
        }
    closedir(d);
    return count;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

static void spit(const char *path, const void *data, size_t len)
{
    unlink(path);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
    chmod(path, 0600);
}

/* A cache dir with one good entry: its path in entry. */
static void fresh_cache(char *dir, size_t dn, char *entry, size_t en)
{
    new_tmpdir();
    snprintf(dir, dn, "%s/cache", tmpdir);
    Log log;
    run_axpy(dir, &log);
    assert_int_equal(log.notes + log.warnings, 0);
    assert_int_equal(find_entry(dir, entry, en), 1);
}

/* After a run that found entry bad: the note says so, and the rebuilt entry
 * is good (the run after it finds it, with nothing to report). */
static void expect_rebuilt(const char *dir, const char *entry, const Log *log, const char *why)
{
    if (log->notes != 1 || !strstr(log->text, "; rebuilt") || !strstr(log->text, entry) ||
        (why && !strstr(log->text, why)))
        fail_msg("expected one note '%s ... %s; rebuilt', got:\n%s", entry, why ? why : "", log->text);
    struct stat st;
    assert_int_equal(lstat(entry, &st), 0);
    assert_true(S_ISREG(st.st_mode));
    Log again;
    run_axpy(dir, &again);
    if (again.notes + again.warnings)
        fail_msg("the rebuilt entry was not taken:\n%s", again.text);
    assert_int_equal(lstat(entry, &st), 0);
}

/* The byte offset of the code section and its size, from the header. */
static size_t code_offset(const uint8_t *d, size_t len, size_t *sizes)
{
    const char *s = strstr((const char *)d, "\nsections: ");
    assert_non_null(s);
    assert_int_equal(sscanf(s, "\nsections: %zu %zu %zu %zu", &sizes[0], &sizes[1], &sizes[2], &sizes[3]), 4);
    const char *body = strchr(s + 1, '\n') + 1;
    size_t off = (size_t)(body - (const char *)d) + sizes[0] + sizes[1] + sizes[2];
    assert_int_equal(off + sizes[3], len);
    return off;
}

/* Rewrite the checksum line so that only the other checks can catch what
 * was changed. */
static void fix_checksum(uint8_t *d, size_t len)
{
    const char *magic = "JUKE-KERNEL-CACHE 2\nxxh3-128 ";
    size_t ml = strlen(magic);
    assert_memory_equal(d, magic, ml);
    XXH128_hash_t h = XXH3_128bits(d + ml + 33, len - ml - 33);
    char hex[40];
    snprintf(hex, sizeof hex, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
    memcpy(d + ml, hex, 32);
}

/* Replace header line "name: ..." by "name: value". */
static uint8_t *set_field(const uint8_t *d, size_t len, const char *name, const char *value, size_t *nlen)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\n%s: ", name);
    const char *s = strstr((const char *)d, pat);
    assert_non_null(s);
    const char *v = s + strlen(pat), *e = strchr(v, '\n');
    size_t pre = (size_t)(v - (const char *)d), post = len - (size_t)(e - (const char *)d);
    *nlen = pre + strlen(value) + post;
    uint8_t *r = malloc(*nlen);
    memcpy(r, d, pre);
    memcpy(r + pre, value, strlen(value));
    memcpy(r + pre + strlen(value), e, post);
    return r;
}

/* ---- the tests ---- */

static void test_created_private_and_reused(void **state)
{
    (void)state;
    char dir[300], entry[600];
    fresh_cache(dir, sizeof dir, entry, sizeof entry);
    struct stat st, st2;
    assert_int_equal(stat(dir, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(stat(entry, &st), 0);
    assert_int_equal(st.st_mode & 0077, 0);
    Log log;
    run_axpy(dir, &log);
    assert_int_equal(log.notes + log.warnings, 0);
    assert_int_equal(stat(entry, &st2), 0);
    assert_true(st.st_ino == st2.st_ino); /* found, not rewritten */
    rm_tmpdir();
}

static void test_swapped_shared_object(void **state)
{
    (void)state;
    char dir[300], entry[600], marker[400];
    fresh_cache(dir, sizeof dir, entry, sizeof entry);
    snprintf(marker, sizeof marker, "%s/marker", tmpdir);
    setenv("JUKE_TEST_MARKER", marker, 1);
    size_t len, evil_len, sizes[4];
    uint8_t *d = slurp(entry, &len), *evil = slurp(EVIL_SO, &evil_len);
    size_t off = code_offset(d, len, sizes);
    /* the .so in place of the code, with the sections line telling its size */
    char sect[128];
    snprintf(sect, sizeof sect, "%zu %zu %zu %zu", sizes[0], sizes[1], sizes[2], evil_len);
    uint8_t *e = malloc(off + evil_len);
    memcpy(e, d, off);
    memcpy(e + off, evil, evil_len);
    size_t nlen;
    uint8_t *swapped = set_field(e, off + evil_len, "sections", sect, &nlen);
    spit(entry, swapped, nlen);
    Log log;
    run_axpy(dir, &log);
    assert_int_equal(access(marker, F_OK), -1);
    expect_rebuilt(dir, entry, &log, "failed its checksum");
    assert_int_equal(access(marker, F_OK), -1);
    unsetenv("JUKE_TEST_MARKER");
    free(d);
    free(evil);
    free(e);
    free(swapped);
    rm_tmpdir();
}

static void test_bit_flips(void **state)
{
    (void)state;
    char dir[300], entry[600];
    fresh_cache(dir, sizeof dir, entry, sizeof entry);
    for (int round = 0; round < 12; round++) {
        size_t len;
        uint8_t *d = slurp(entry, &len);
        int flips = 1 + (int)(rnd() % 4);
        for (int i = 0; i < flips; i++)
            d[rnd() % len] ^= (uint8_t)(1u << (rnd() % 8));
        /* an all-canceling pair of flips leaves the entry as it was */
        uint8_t *orig;
        size_t olen;
        orig = slurp(entry, &olen);
        bool changed = memcmp(orig, d, len) != 0;
        free(orig);
        spit(entry, d, len);
        free(d);
        Log log;
        run_axpy(dir, &log);
        if (changed)
            expect_rebuilt(dir, entry, &log, NULL);
    }
    rm_tmpdir();
}

static void test_bad_fields(void **state)
{
    (void)state;
    static const struct {
        const char *name, *value, *why;
    } cases[] = {
        { "max_group", "0x400", "maximum group size" },
        { "max_group", "2048", "maximum group size" },
        { "symbol", "evil", "another kernel symbol" },
        { "symbol", "axpy_21;rm", "another kernel symbol" },
        { "kind", "7", "another target" },
        { "kind", "1", "another target" },
        { "static_lds", "70000", "beyond the target's limit" },
        { "static_lds", "-1", "beyond the target's limit" },
        { "proc", "../../x", "another processor" },
        { "build", "0123456789abcdef0123456789abcdef", "another compiler" },
        { "sections", "1 2 3", "malformed" },
        { "barrier", "4", "malformed" },
    };
    char dir[300], entry[600];
    fresh_cache(dir, sizeof dir, entry, sizeof entry);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int fix = 0; fix < 2; fix++) {
            size_t len, nlen;
            uint8_t *d = slurp(entry, &len);
            uint8_t *e = set_field(d, len, cases[i].name, cases[i].value, &nlen);
            if (fix)
                fix_checksum(e, nlen);
            spit(entry, e, nlen);
            Log log;
            run_axpy(dir, &log);
            expect_rebuilt(dir, entry, &log, fix ? cases[i].why : "failed its checksum");
            free(d);
            free(e);
        }
    }
    rm_tmpdir();
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_cache: a cache entry made the run hang\n";
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(3);
    _exit(2);
}

static void test_symlink_and_fifo(void **state)
{
    (void)state;
    char dir[300], entry[600];
    fresh_cache(dir, sizeof dir, entry, sizeof entry);
    signal(SIGALRM, on_alarm);
    alarm(120);
    struct stat st;
    unlink(entry);
    assert_int_equal(symlink("/dev/zero", entry), 0);
    Log log;
    run_axpy(dir, &log);
    expect_rebuilt(dir, entry, &log, "symbolic link");
    unlink(entry);
    assert_int_equal(mkfifo(entry, 0600), 0);
    run_axpy(dir, &log);
    expect_rebuilt(dir, entry, &log, "not a regular file");
    /* a file beyond the cap is not read (sparse: it costs no disk) */
    assert_int_equal(truncate(entry, (off_t)KCACHE_MAX_ENTRY + 4096), 0);
    run_axpy(dir, &log);
    expect_rebuilt(dir, entry, &log, "larger than the limit");
    /* a symlink to a good entry of this user is no entry either */
    char other[700];
    snprintf(other, sizeof other, "%s/elsewhere", tmpdir);
    assert_int_equal(rename(entry, other), 0);
    assert_int_equal(symlink(other, entry), 0);
    run_axpy(dir, &log);
    expect_rebuilt(dir, entry, &log, "symbolic link");
    assert_int_equal(stat(other, &st), 0); /* the link's target is left alone */
    alarm(0);
    rm_tmpdir();
}

static void test_refused_directories(void **state)
{
    (void)state;
    new_tmpdir();
    char dir[300], entry[600];
    snprintf(dir, sizeof dir, "%s/shared", tmpdir);
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(chmod(dir, 0777), 0);
    Log log;
    run_axpy(dir, &log);
    if (log.warnings != 1 ||
        !strstr(log.text, "is writable by group and others (mode 0777); compiling without the disk cache"))
        fail_msg("expected the refusal, got:\n%s", log.text);
    assert_int_equal(find_entry(dir, entry, sizeof entry), 0); /* nothing written there */
    assert_int_equal(chmod(dir, 0720), 0);
    run_axpy(dir, &log);
    assert_non_null(strstr(log.text, "is writable by its group (mode 0720)"));
    assert_int_equal(find_entry(dir, entry, sizeof entry), 0);
    if (geteuid() == 0) {
        assert_int_equal(chmod(dir, 0700), 0);
        assert_int_equal(chown(dir, 65534, 65534), 0);
        run_axpy(dir, &log);
        if (log.warnings != 1 || !strstr(log.text, "belongs to uid 65534, not to this user (uid 0)"))
            fail_msg("expected the refusal, got:\n%s", log.text);
        assert_int_equal(find_entry(dir, entry, sizeof entry), 0);
    } else {
        print_message("not root: the directory of another user is not tried\n");
    }
    rm_tmpdir();
}

static void test_key_parts(void **state)
{
    (void)state;
    const char *req = "f/1(Array{Float32,1})|cpu|O3|cov5|w0|";
    const char *b1 = "llvm 19.1.7|host sapphirerapids +avx512f,+avx2,+sse4.2";
    const char *b2 = "llvm 19.1.7|host sapphirerapids -avx512f,+avx2,+sse4.2";
    KcacheKeyParts p1 = { req, "src", 3, "x86 GenuineIntel 1:806f8", b1 }, p2 = p1;
    char *k1, *bd1, *f1, *k2, *bd2, *f2;
    assert_true(kcache_make_key(&p1, "f", &k1, &bd1, &f1));
    p2.build = b2;
    assert_true(kcache_make_key(&p2, "f", &k2, &bd2, &f2));
    assert_string_equal(k1, k2);
    assert_string_not_equal(bd1, bd2); /* another feature string: another build */
    free(k2), free(bd2), free(f2);
    p2 = p1;
    p2.machine = "x86 AuthenticAMD 1:a20f10";
    assert_true(kcache_make_key(&p2, "f", &k2, &bd2, &f2));
    assert_string_not_equal(k1, k2); /* another machine: another key and file */
    assert_string_not_equal(f1, f2);
    free(k2), free(bd2), free(f2);
    p2 = p1;
    p2.source = "srd";
    assert_true(kcache_make_key(&p2, "f", &k2, &bd2, &f2));
    assert_string_not_equal(k1, k2);
    free(k2), free(bd2), free(f2);
    /* a newline in a type cannot end the key line */
    p2 = p1;
    p2.request = "f/1(A\nsymbol: evil)";
    assert_true(kcache_make_key(&p2, "f", &k2, &bd2, &f2));
    assert_null(strchr(k2, '\n'));
    free(k2), free(bd2), free(f2);
    /* the build identity holds the sources' identity: a build of other sources has another (its entries
     * are rebuilt, as the "another compiler" case of test_bad_fields shows) */
    StrBuf ident = { 0 }, files = { 0 };
    TargetOptions to = { 0 };
    to.kind = TARGET_CPU;
    assert_true(cg_build_identity(&to, &ident, &files));
    char want[40];
    snprintf(want, sizeof want, "juke %s ", juke_build_id());
    assert_non_null(strstr(ident.data, want));
    sb_free(&ident);
    sb_free(&files);
    /* the host's identity is stable and nonempty */
    char *m1 = kcache_host_machine(), *m2 = kcache_host_machine();
    assert_true(strlen(m1) > 3);
    assert_string_equal(m1, m2);
    free(m1), free(m2);
    free(k1), free(bd1), free(f1);
}

static void test_long_types(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "k.jl", "function f(a)\n    a[1] = 1f0\n    return\nend\n", &m),
                     JUKE_OK);
    char t1[600], t2[600];
    size_t zeros = 260 + rnd() % 200;
    strcpy(t1, "Array{Float32,");
    memset(t1 + 14, '0', zeros);
    strcpy(t1 + 14 + zeros, "1}");
    strcpy(t2, t1);
    t2[14 + zeros] = '2';
    const char *a1[] = { t1 }, *a2[] = { t2 };
    juke_options o;
    juke_options_default(&o);
    o.target = "cpu";
    juke_kernel *k1, *k2;
    assert_int_equal(juke_compile(m, "f", a1, 1, &o, &k1), JUKE_OK);
    assert_int_equal(juke_compile(m, "f", a2, 1, &o, &k2), JUKE_OK);
    assert_ptr_not_equal(k1, k2);
    assert_non_null(strstr(juke_kernel_dump(k1, JUKE_DUMP_TYPED), "Float32, 1, 1}"));
    assert_non_null(strstr(juke_kernel_dump(k2, JUKE_DUMP_TYPED), "Float32, 2, 1}"));
    juke_context_destroy(ctx);
}

/* One type written two ways is one kernel, in the context and in the disk cache: the aliases (Vector,
 * Matrix, Int, UInt) are spelt out at any depth of a type, as a launch spells the types it derives (an index
 * map's __KaMap holds its map as Array{T,N}); names that only begin like them (Interval, MyVector) and other
 * types are other kernels. */
static void test_alias_spellings(void **state)
{
    (void)state;
    new_tmpdir();
    char dir[300], entry[600];
    snprintf(dir, sizeof dir, "%s/cache", tmpdir);
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(
        juke_module_load_string(ctx, "t.jl", "function g(t)\n    @inbounds t[1][1] = t[2]\n    return\nend\n", &m),
        JUKE_OK);
    juke_options o;
    juke_options_default(&o);
    o.cache_dir = dir;
    o.target = "cpu";
    const char *a[] = { "Tuple{Vector{Float32},Int}" }, *b[] = { "Tuple{Array{Float32, 1}, Int64}" },
               *c[] = { "Tuple{Matrix{Float32},UInt}" }, *d[] = { "Tuple{Array{Float32,2},UInt64}" },
               *e[] = { "Tuple{Vector{Float32},Int32}" };
    juke_kernel *ka, *kb, *kc, *kd, *ke;
    assert_int_equal(juke_compile(m, "g", a, 1, &o, &ka), JUKE_OK);
    assert_int_equal(juke_compile(m, "g", b, 1, &o, &kb), JUKE_OK);
    assert_ptr_equal(ka, kb);
    assert_int_equal(find_entry(dir, entry, sizeof entry), 1);
    assert_int_equal(juke_compile(m, "g", c, 1, &o, &kc), JUKE_OK);
    assert_int_equal(juke_compile(m, "g", d, 1, &o, &kd), JUKE_OK);
    assert_ptr_equal(kc, kd);
    assert_ptr_not_equal(ka, kc);
    assert_int_equal(juke_compile(m, "g", e, 1, &o, &ke), JUKE_OK);
    assert_ptr_not_equal(ka, ke);
    assert_int_equal(find_entry(dir, entry, sizeof entry), 3);
    juke_context_destroy(ctx);
    /* a new context finds the first spelling's entry under the second */
    ctx = juke_context_create();
    assert_int_equal(
        juke_module_load_string(ctx, "t.jl", "function g(t)\n    @inbounds t[1][1] = t[2]\n    return\nend\n", &m),
        JUKE_OK);
    assert_int_equal(juke_compile(m, "g", b, 1, &o, &kb), JUKE_OK);
    assert_int_equal(find_entry(dir, entry, sizeof entry), 3);
    juke_context_destroy(ctx);
    rm_tmpdir();
}

/* A CPU kernel compiled for a portable x86-64 level is keyed by the level, not by the machine that
 * compiled it (a runtime-only build elsewhere finds it, api.c's load_portable_cpu); one compiled for
 * the host keeps the host's identity. The host's levels are listed best first, x86-64 last. */
static void test_portable_cpu_key(void **state)
{
    (void)state;
    const char *levels[4];
    int n = kcache_host_levels(levels);
#if defined(__x86_64__)
    assert_true(n >= 1);
    assert_string_equal(levels[n - 1], "x86-64");
    for (int i = 0; i + 1 < n; i++)
        assert_true(strcmp(levels[i], levels[i + 1]) > 0); /* v4 > v3 > v2 > the base: best first */
#else
    assert_int_equal(n, 0);
#endif
    new_tmpdir();
    char dir[300], entry[600];
    snprintf(dir, sizeof dir, "%s/cache", tmpdir);
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "axpy.jl", src, &m), JUKE_OK);
    const char *types[] = { "Vector{Float32}", "Vector{Float32}", "Float32" };
    juke_options o;
    juke_options_default(&o);
    o.cache_dir = dir;
    o.target = "cpu:x86-64";
    juke_kernel *k;
    assert_int_equal(juke_compile(m, "axpy!", types, 3, &o, &k), JUKE_OK);
    assert_int_equal(find_entry(dir, entry, sizeof entry), 1);
    size_t len;
    uint8_t *d = slurp(entry, &len);
    char *machine = kcache_host_machine();
    assert_non_null(memmem(d, len, "|cpu:x86-64|", 12));
    assert_non_null(memmem(d, len, "|machine portable x86-64\n", 25));
    assert_null(memmem(d, len, machine, strlen(machine)));
    free(d);
    o.target = "cpu";
    assert_int_equal(juke_compile(m, "axpy!", types, 3, &o, &k), JUKE_OK);
    assert_int_equal(find_entry(dir, entry, sizeof entry), 2);
    free(machine);
    juke_context_destroy(ctx);
    rm_tmpdir();
}

int main(void)
{
    const char *seed = getenv("JUKE_TEST_SEED");
    rng = seed ? strtoull(seed, NULL, 0) : (uint64_t)time(NULL) * 2654435761u + (uint64_t)getpid();
    if (!rng)
        rng = 1;
    printf("# seed %llu (JUKE_TEST_SEED)\n", (unsigned long long)rng);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_created_private_and_reused),
        cmocka_unit_test(test_swapped_shared_object),
        cmocka_unit_test(test_bit_flips),
        cmocka_unit_test(test_bad_fields),
        cmocka_unit_test(test_symlink_and_fifo),
        cmocka_unit_test(test_refused_directories),
        cmocka_unit_test(test_key_parts),
        cmocka_unit_test(test_long_types),
        cmocka_unit_test(test_portable_cpu_key),
        cmocka_unit_test(test_alias_spellings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
