/* test_dumpnames.c: dump files are named per specialisation
 * (<kernel>_<hash>.<stage>), the same in every process, and processes that
 * share a dump directory leave every file complete. */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "juke.h"

#ifndef EM_AMDGPU
#define EM_AMDGPU 224
#endif
#if defined(__aarch64__)
#define EM_HOST EM_AARCH64
#else
#define EM_HOST EM_X86_64
#endif

static uint64_t rng;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A kernel whose constant is drawn afresh for each run of the test. */
static char *kernel_src(void)
{
    char *s = NULL;
    int c = (int)(rnd() % 1000) + 2;
    assert_true(asprintf(&s,
                         "function k!(y, x)\n"
                         "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                         "    if i <= length(y)\n"
                         "        @inbounds y[i] = x[i] * %d\n"
                         "    end\n"
                         "    return\n"
                         "end\n",
                         c) > 0);
    return s;
}

/* The specialisations the processes write: two of one target that differ
 * only in the element type, and one of another target. */
static const struct {
    const char *target, *type;
} specs[] = { { "gfx90a", "Vector{Float32}" }, { "gfx90a", "Vector{Float64}" }, { "cpu", "Vector{Float32}" } };
#define NSPECS 3

static juke_kernel *compile_spec(juke_context *ctx, juke_module *m, int i)
{
    juke_options o;
    juke_options_default(&o);
    o.target = specs[i].target;
    const char *t[2] = { specs[i].type, specs[i].type };
    juke_kernel *k = NULL;
    if (juke_compile(m, "k!", t, 2, &o, &k) != JUKE_OK)
        return NULL;
    return k;
}

static char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = (n + 4096 + 1) * 2;
            b = realloc(b, cap);
            if (!b)
                abort();
        }
        size_t r = fread(b + n, 1, 4096, f);
        n += r;
        if (r == 0)
            break;
    }
    fclose(f);
    b[n] = 0;
    if (size)
        *size = n;
    return b;
}

static char *path_join(const char *a, const char *b)
{
    char *p = NULL;
    if (asprintf(&p, "%s/%s", a, b) < 0)
        abort();
    return p;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), l = strlen(suffix);
    return n >= l && strcmp(s + n - l, suffix) == 0;
}

/* Why the file is not a whole ELF object of the machine, or NULL. */
static const char *elf_problem(const unsigned char *b, size_t n, int machine)
{
    if (n < sizeof(Elf64_Ehdr) || memcmp(b, ELFMAG, SELFMAG) != 0)
        return "no ELF header";
    Elf64_Ehdr h;
    memcpy(&h, b, sizeof h);
    if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_machine != machine)
        return "wrong ELF class or machine";
    /* the section headers sit at the end: a cut file loses them */
    if (h.e_shoff == 0 || h.e_shoff + (uint64_t)h.e_shnum * h.e_shentsize > n)
        return "section headers past the end of the file";
    return NULL;
}

/* Why name's contents in dir differ from the single-process reference in
 * ref, or NULL. The resources list compile times, which differ per run:
 * those are checked to be whole. */
static char *file_problem(const char *ref, const char *dir, const char *name)
{
    char *p = path_join(dir, name), *rp = path_join(ref, name);
    size_t n = 0, rn = 0;
    char *got = read_all(p, &n), *want = read_all(rp, &rn);
    char *why = NULL;
    if (!got) {
        if (asprintf(&why, "%s: cannot read (%s)", p, strerror(errno)) < 0)
            abort();
    } else if (!want) {
        if (asprintf(&why, "%s: no such file in the single-process run", p) < 0)
            abort();
    } else if (ends_with(name, ".resources.txt")) {
        if (n == 0 || got[n - 1] != '\n' || !strstr(got, "compile time:"))
            if (asprintf(&why, "%s: cut resources (%zu bytes)", p, n) < 0)
                abort();
    } else if (n != rn || memcmp(got, want, n) != 0) {
        if (asprintf(&why, "%s: %zu bytes, not the %zu of the single-process run", p, n, rn) < 0)
            abort();
    } else if (ends_with(name, ".hsaco") || ends_with(name, ".so")) {
        const char *e = elf_problem((unsigned char *)got, n, ends_with(name, ".hsaco") ? EM_AMDGPU : EM_HOST);
        if (e && asprintf(&why, "%s: %s", p, e) < 0)
            abort();
    }
    free(got);
    free(want);
    free(p);
    free(rp);
    return why;
}

/* Sorted names of dir's entries; hidden ones (temporaries) counted apart. */
static int list_dir(const char *dir, char names[][128], int max, int *hidden)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    *hidden = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (e->d_name[0] == '.') {
            (*hidden)++;
            continue;
        }
        assert_true(n < max);
        snprintf(names[n++], 128, "%.127s", e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, 128, (int (*)(const void *, const void *))strcmp);
    return n;
}

static void remove_tree(const char *dir)
{
    char *cmd = NULL;
    assert_true(asprintf(&cmd, "rm -rf '%s'", dir) > 0);
    assert_int_equal(system(cmd), 0);
    free(cmd);
}

/* The child's body: compile the specialisations in mask, then write their
 * dumps into dir `rounds` times. Exit status 0 on success. */
static int writer(const char *src, const char *dir, unsigned mask, int rounds)
{
    juke_context *ctx = juke_context_create();
    juke_module *m;
    if (!ctx || juke_module_load_string(ctx, "names.jl", src, &m) != JUKE_OK)
        return 2;
    juke_kernel *k[NSPECS] = { 0 };
    for (int i = 0; i < NSPECS; i++)
        if ((mask & (1u << i)) && !(k[i] = compile_spec(ctx, m, i))) {
            fprintf(stderr, "compile %d: %s\n", i, juke_errmsg(ctx));
            return 3;
        }
    for (int r = 0; r < rounds; r++)
        for (int i = 0; i < NSPECS; i++)
            if (k[i] && juke_kernel_write_dumps(k[i], dir) != JUKE_OK) {
                fprintf(stderr, "write %d: %s\n", i, juke_errmsg(ctx));
                return 4;
            }
    juke_context_destroy(ctx);
    return 0;
}

static pid_t spawn_writer(const char *src, const char *dir, unsigned mask, int rounds)
{
    fflush(NULL);
    pid_t p = fork();
    assert_true(p >= 0);
    if (p == 0)
        _exit(writer(src, dir, mask, rounds));
    return p;
}

static void expect_exit0(pid_t p)
{
    int st;
    assert_int_equal(waitpid(p, &st, 0), p);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("child %d ended with status %#x", (int)p, st);
}

/* One name per specialisation: the Float64 kernel does not overwrite the
 * Float32 one, and the stems are <kernel>_ and six hex digits. */
static void test_names_per_specialisation(void **state)
{
    (void)state;
    char dir[] = "/tmp/juke-dumpnames-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *src = kernel_src();
    juke_context *ctx = juke_context_create();
    juke_module *m;
    assert_int_equal(juke_module_load_string(ctx, "names.jl", src, &m), JUKE_OK);
    for (int i = 0; i < NSPECS; i++) {
        juke_kernel *k = compile_spec(ctx, m, i);
        if (!k)
            fail_msg("%s", juke_errmsg(ctx));
        assert_int_equal(juke_kernel_write_dumps(k, dir), JUKE_OK);
    }
    char names[64][128];
    int hidden, n = list_dir(dir, names, 64, &hidden);
    assert_int_equal(hidden, 0);
    assert_int_equal(n, 7 * NSPECS);
    char stems[NSPECS][16] = { { 0 } };
    int nstems = 0;
    for (int i = 0; i < n; i++) {
        assert_true(strncmp(names[i], "k!_", 3) == 0);
        for (int j = 3; j < 9; j++)
            if (!strchr("0123456789abcdef", names[i][j]))
                fail_msg("%s: no six-digit hash", names[i]);
        assert_int_equal(names[i][9], '.');
        char stem[16];
        snprintf(stem, sizeof stem, "%.9s", names[i]);
        bool seen = false;
        for (int j = 0; j < nstems; j++)
            seen |= strcmp(stems[j], stem) == 0;
        if (!seen) {
            assert_true(nstems < NSPECS);
            strcpy(stems[nstems++], stem);
        }
    }
    assert_int_equal(nstems, NSPECS);

    /* The Float32 and Float64 typed IR are each in their own file. */
    int f32 = 0, f64 = 0;
    for (int i = 0; i < n; i++)
        if (ends_with(names[i], ".typed.jl")) {
            char *p = path_join(dir, names[i]);
            char *t = read_all(p, NULL);
            assert_non_null(t);
            f32 += strstr(t, "::Float32") != NULL && !strstr(t, "::Float64");
            f64 += strstr(t, "::Float64") != NULL;
            free(t);
            free(p);
        }
    assert_int_equal(f32, 2);
    assert_int_equal(f64, 1);
    juke_context_destroy(ctx);

    /* Another process names the same specialisations alike. */
    char dir2[] = "/tmp/juke-dumpnames-XXXXXX";
    assert_non_null(mkdtemp(dir2));
    expect_exit0(spawn_writer(src, dir2, (1u << NSPECS) - 1, 1));
    char names2[64][128];
    int n2 = list_dir(dir2, names2, 64, &hidden);
    assert_int_equal(n2, n);
    for (int i = 0; i < n; i++) {
        assert_string_equal(names2[i], names[i]);
        char *why = file_problem(dir, dir2, names[i]);
        if (why)
            fail_msg("%s", why);
    }
    remove_tree(dir);
    remove_tree(dir2);
    free(src);
}

/* Several processes write the same and different specialisations into one
 * directory at once, many times, while another reads every file it finds:
 * the reader never sees a cut file, and at the end every file equals the
 * single-process run's and no temporary is left. */
static void test_concurrent_writers(void **state)
{
    (void)state;
    char base[] = "/tmp/juke-dumpnames-XXXXXX";
    assert_non_null(mkdtemp(base));
    char *ref = path_join(base, "ref"), *shared = path_join(base, "shared");
    char *src = kernel_src();
    expect_exit0(spawn_writer(src, ref, (1u << NSPECS) - 1, 1));
    char names[64][128];
    int hidden, n = list_dir(ref, names, 64, &hidden);
    assert_int_equal(n, 7 * NSPECS);

    enum { WRITERS = 4, ROUNDS = 30 };
    pid_t w[WRITERS];
    for (int i = 0; i < WRITERS; i++) /* each writes two specialisations; each one has two writers or more */
        w[i] = spawn_writer(src, shared, (1u << (i % NSPECS)) | (1u << ((i + 1) % NSPECS)), ROUNDS);

    /* The reader: every visible file, whenever it is seen, is whole. */
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    fflush(NULL);
    pid_t reader = fork();
    assert_true(reader >= 0);
    if (reader == 0) {
        close(pipefd[1]);
        long checked = 0;
        for (;;) {
            DIR *d = opendir(shared);
            for (struct dirent *e; d && (e = readdir(d));) {
                if (e->d_name[0] == '.')
                    continue;
                char *why = file_problem(ref, shared, e->d_name);
                if (why) {
                    fprintf(stderr, "reader: %s\n", why);
                    _exit(1);
                }
                checked++;
            }
            if (d)
                closedir(d);
            /* the parent closes the pipe when the writers are done */
            struct timespec ts = { 0, 1000000 };
            fd_set fds;
            FD_ZERO(&fds);
            FD_SET(pipefd[0], &fds);
            struct timeval tv = { 0, 0 };
            if (select(pipefd[0] + 1, &fds, NULL, NULL, &tv) > 0)
                break;
            nanosleep(&ts, NULL);
        }
        _exit(checked > 0 ? 0 : 5);
    }
    close(pipefd[0]);
    for (int i = 0; i < WRITERS; i++)
        expect_exit0(w[i]);
    close(pipefd[1]);
    expect_exit0(reader);

    char got[64][128];
    int ng = list_dir(shared, got, 64, &hidden);
    assert_int_equal(hidden, 0);
    assert_int_equal(ng, n);
    for (int i = 0; i < n; i++) {
        assert_string_equal(got[i], names[i]);
        char *why = file_problem(ref, shared, names[i]);
        if (why)
            fail_msg("%s", why);
    }
    remove_tree(base);
    free(ref);
    free(shared);
    free(src);
}

int main(void)
{
    rng = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^ 0x9e3779b97f4a7c15ull;
    rnd();
    printf("# seed drawn from the time and pid\n");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_per_specialisation),
        cmocka_unit_test(test_concurrent_writers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
