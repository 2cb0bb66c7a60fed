/* test_outputs.c: no output of juke is ever lost, and no special file is
 * replaced. `juke compile -o` once renamed a temporary over whatever was at
 * the path (as root, /dev/null and /dev/full became regular files), and
 * `juke run --out` truncated the old .npy first, so a full disk left a short
 * file whose header promised more. Here juke runs as a child process:
 *   - /dev/stdout is written through;
 *   - on a disk made full by tests/enospc_shim.c (LD_PRELOAD), -o and --out
 *     fail with exit 1 and "No space left on device", the old file's bytes
 *     stay, and no temporary file is left;
 *   - a FIFO (read by a thread) and a character device (mknod, as root) are
 *     written in place and stay what they are; a symlink stays a symlink;
 *   - /dev/full, directly and through a symlink, is exit 1 with the message.
 *
 *   test_outputs JUKE_EXE ENOSPC_SHIM */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "npy.h"

typedef struct Env {
    const char *juke, *shim;
    char tmp[256];  /* stdout/stderr of the children */
    char full[300]; /* the directory the shim fills up */
    char kernel[300];
    uint64_t seed;
} Env;

static Env env;

static const char vadd_src[] = "function vadd!(c, a, b)\n"
                               "    i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n"
                               "    if i <= length(c)\n"
                               "        @inbounds c[i] = a[i] + b[i]\n"
                               "    end\n"
                               "    return\n"
                               "end\n";

static uint64_t next_random(void)
{
    env.seed ^= env.seed << 13;
    env.seed ^= env.seed >> 7;
    env.seed ^= env.seed << 17;
    return env.seed;
}

static char *read_all(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    ssize_t got;
    while (buf && (got = read(fd, buf + n, cap - n)) > 0) {
        n += (size_t)got;
        if (n == cap)
            buf = realloc(buf, (cap *= 2) + 1);
    }
    close(fd);
    if (buf)
        buf[n] = '\0';
    if (size)
        *size = n;
    return buf;
}

/* A file of n random bytes, standing for an earlier result. */
static char *write_random(const char *path, size_t n)
{
    char *b = malloc(n);
    for (size_t i = 0; i < n; i++)
        b[i] = (char)next_random();
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    return b;
}

static char *path_in(const char *dir, const char *name)
{
    char *p;
    assert_true(asprintf(&p, "%s/%s", dir, name) > 0);
    return p;
}

typedef struct Run {
    int status;
    char *err;
} Run;

/* Run juke with args; shim_kv: NULL, or up to two "NAME=VALUE" that turn the
 * ENOSPC shim on for the child. */
static Run run_juke(const char *const *shim_kv, const char *const *args)
{
    char *err_path = path_in(env.tmp, "stderr.txt"), *out_path = path_in(env.tmp, "stdout.txt");
    const char *argv[32] = { env.juke };
    int n = 1;
    for (; args[n - 1]; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fo = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fo < 0 || fe < 0)
            _exit(126);
        dup2(fo, 1);
        dup2(fe, 2);
        if (shim_kv) {
            /* under AddressSanitizer the shim precedes ASan's runtime in the
             * library list, which ASan refuses unless told this is meant */
            const char *asan = getenv("ASAN_OPTIONS");
            char opts[1024];
            snprintf(opts, sizeof opts, "%s%sverify_asan_link_order=0", asan ? asan : "", asan && *asan ? ":" : "");
            setenv("ASAN_OPTIONS", opts, 1);
            setenv("LD_PRELOAD", env.shim, 1);
            setenv("JUKE_ENOSPC_DIR", env.full, 1);
            for (int i = 0; shim_kv[i]; i++)
                putenv((char *)shim_kv[i]);
        }
        execv(env.juke, (char *const *)argv);
        _exit(127);
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    Run r = { WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws), read_all(err_path, NULL) };
    assert_non_null(r.err);
    free(err_path);
    free(out_path);
    return r;
}

#define JUKE(shim, ...) run_juke((shim), (const char *const[]){ __VA_ARGS__, NULL })

static void expect_status(const Run *r, int status)
{
    if (r->status != status)
        print_error("juke exited %d, expected %d; stderr:\n%s\n", r->status, status, r->err);
    assert_int_equal(r->status, status);
}

static void expect_contains(const char *text, const char *needle)
{
    if (!strstr(text, needle))
        print_error("expected to find '%s' in:\n%s\n", needle, text);
    assert_non_null(strstr(text, needle));
}

/* The names in dir other than keep[] (NULL-terminated): must be none, so no
 * temporary file was left behind. */
static void expect_only(const char *dir, const char *const *keep)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *de;
    int extra = 0;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        bool known = false;
        for (int i = 0; keep[i]; i++)
            known |= !strcmp(de->d_name, keep[i]);
        if (!known) {
            print_error("left behind in %s: %s\n", dir, de->d_name);
            extra++;
        }
    }
    closedir(d);
    assert_int_equal(extra, 0);
}

static void expect_same_bytes(const char *path, const char *want, size_t n)
{
    size_t got_n = 0;
    char *got = read_all(path, &got_n);
    assert_non_null(got);
    if (got_n != n)
        print_error("%s: %zu bytes, expected the old %zu\n", path, got_n, n);
    assert_int_equal(got_n, n);
    assert_memory_equal(got, want, n);
    free(got);
}

static const char *const no_space[] = { "JUKE_ENOSPC_AFTER=100", NULL };
static const char *const fsync_fails[] = { "JUKE_ENOSPC_FSYNC=1", NULL };

/* compile -o over an existing file on a full disk: exit 1, the message, the
 * old bytes, no temporary. Both a write that runs out of space and an fsync
 * that reports it. */
static void test_compile_full_disk(void **state)
{
    (void)state;
    char *obj = path_in(env.full, "vadd.hsaco");
    const char *const *modes[] = { no_space, fsync_fails };
    for (int m = 0; m < 2; m++) {
        size_t n = 3000 + next_random() % 5000;
        char *old = write_random(obj, n);
        Run r = JUKE(modes[m], "compile", "--target", "gfx90a", "-o", obj, env.kernel, "vadd!", "Vector{Float32}",
                     "Vector{Float32}", "Vector{Float32}");
        expect_status(&r, 1);
        expect_contains(r.err, "juke: error: cannot write '");
        expect_contains(r.err, obj);
        expect_contains(r.err, "No space left on device");
        free(r.err);
        expect_same_bytes(obj, old, n);
        expect_only(env.full, (const char *const[]){ "vadd.hsaco", NULL });
        free(old);
    }
    /* and with room, the same command replaces it and keeps its mode */
    assert_int_equal(chmod(obj, 0640), 0);
    Run r = JUKE(NULL, "compile", "--target", "gfx90a", "-o", obj, env.kernel, "vadd!", "Vector{Float32}",
                 "Vector{Float32}", "Vector{Float32}");
    expect_status(&r, 0);
    free(r.err);
    size_t n = 0;
    char *got = read_all(obj, &n);
    assert_true(n > 64);
    assert_memory_equal(got, "\177ELF", 4);
    free(got);
    struct stat st;
    assert_int_equal(stat(obj, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0640);
    expect_only(env.full, (const char *const[]){ "vadd.hsaco", NULL });
    unlink(obj);
    free(obj);
}

static void write_npy_f32(const char *path, const float *x, int64_t n)
{
    NpyArray a = {
        .type = JUKE_T_FLOAT32, .ndims = 1, .dims = { n }, .elsize = 4, .length = (size_t)n, .data = (void *)x
    };
    char *err = NULL;
    if (npy_write_file(path, &a, &err) != 0)
        print_error("npy_write_file: %s\n", err ? err : "?");
    assert_null(err);
}

/* run --out 1=c.npy on a full disk, 73,728 bytes free for an 80,128-byte
 * result (the numbers): the old c.npy stays whole. */
static void test_run_out_full_disk(void **state)
{
    (void)state;
    enum { N = 20000 };
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    for (int i = 0; i < N; i++) {
        a[i] = (float)(int)(next_random() % 20001 - 10000) / 16.0f;
        b[i] = (float)(int)(next_random() % 20001 - 10000) / 16.0f;
        c[i] = (float)(int)(next_random() % 20001 - 10000) / 16.0f;
    }
    char *pa = path_in(env.full, "a.npy"), *pb = path_in(env.full, "b.npy"), *pc = path_in(env.full, "c.npy");
    write_npy_f32(pa, a, N);
    write_npy_f32(pb, b, N);
    write_npy_f32(pc, c, N);
    size_t oldn = 0;
    char *old = read_all(pc, &oldn);
    assert_true(oldn > N * 4);
    char out[400];
    snprintf(out, sizeof out, "1=%s", pc);
    const char *const *modes[] = { (const char *const[]){ "JUKE_ENOSPC_AFTER=73728", NULL }, fsync_fails };
    for (int m = 0; m < 2; m++) {
        Run r = JUKE(modes[m], "run", "--device", "cpu", "--groupsize", "256", "--gridsize", "79", "--out", out,
                     env.kernel, "vadd!", pc, pa, pb);
        expect_status(&r, 1);
        expect_contains(r.err, "juke: error: cannot write '");
        expect_contains(r.err, pc);
        expect_contains(r.err, "No space left on device");
        free(r.err);
        expect_same_bytes(pc, old, oldn);
        expect_only(env.full, (const char *const[]){ "a.npy", "b.npy", "c.npy", NULL });
    }
    /* with room the result is written whole */
    Run r = JUKE(NULL, "run", "--device", "cpu", "--groupsize", "256", "--gridsize", "79", "--out", out, env.kernel,
                 "vadd!", pc, pa, pb);
    expect_status(&r, 0);
    free(r.err);
    NpyArray got;
    char *err = NULL;
    assert_int_equal(npy_read_file(pc, &got, &err), 0);
    assert_int_equal(got.length, N);
    for (int i = 0; i < N; i++)
        assert_true(((float *)got.data)[i] == a[i] + b[i]);
    npy_free(&got);
    expect_only(env.full, (const char *const[]){ "a.npy", "b.npy", "c.npy", NULL });
    unlink(pa);
    unlink(pb);
    unlink(pc);
    free(pa);
    free(pb);
    free(pc);
    free(old);
    free(a);
    free(b);
    free(c);
}

typedef struct FifoReader {
    const char *path;
    char *data;
    size_t size;
} FifoReader;

static void *fifo_read(void *arg)
{
    FifoReader *fr = arg;
    fr->data = read_all(fr->path, &fr->size);
    return NULL;
}

/* A FIFO is written in place (a reader gets the code object) and stays a
 * FIFO; the same bytes as a regular file. */
static void test_fifo_in_place(void **state)
{
    (void)state;
    char *fifo = path_in(env.tmp, "out.fifo"), *reg = path_in(env.tmp, "out.so");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    /* a second name for the FIFO, to release the reader if juke replaced the first */
    char *alias = path_in(env.tmp, "out.fifo.alias");
    assert_int_equal(link(fifo, alias), 0);
    FifoReader fr = { fifo, NULL, 0 };
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, fifo_read, &fr), 0);
    struct stat st;
    Run r = JUKE(NULL, "compile", "--target", "gfx90a", "-o", fifo, env.kernel, "vadd!", "Vector{Float32}",
                 "Vector{Float32}", "Vector{Float32}");
    if (r.status != 0 || lstat(fifo, &st) != 0 || !S_ISFIFO(st.st_mode)) {
        int fd = open(alias, O_WRONLY | O_NONBLOCK);
        if (fd >= 0)
            close(fd);
    }
    pthread_join(t, NULL);
    unlink(alias);
    free(alias);
    expect_status(&r, 0);
    free(r.err);
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    r = JUKE(NULL, "compile", "--target", "gfx90a", "-o", reg, env.kernel, "vadd!", "Vector{Float32}",
             "Vector{Float32}", "Vector{Float32}");
    expect_status(&r, 0);
    free(r.err);
    size_t n = 0;
    char *want = read_all(reg, &n);
    assert_true(n > 64);
    assert_int_equal(fr.size, n);
    assert_memory_equal(fr.data, want, n);
    free(fr.data);

    /* /dev/stdout (a link into /proc naming fd 1, here a file the test made)
     * is written through, not replaced */
    r = JUKE(NULL, "compile", "--target", "gfx90a", "-o", "/dev/stdout", env.kernel, "vadd!", "Vector{Float32}",
             "Vector{Float32}", "Vector{Float32}");
    expect_status(&r, 0);
    free(r.err);
    char *out_path = path_in(env.tmp, "stdout.txt");
    size_t outn = 0;
    char *out = read_all(out_path, &outn);
    assert_int_equal(outn, n);
    assert_memory_equal(out, want, n);
    free(out);
    free(out_path);
    free(want);
    unlink(fifo);
    unlink(reg);
    free(fifo);
    free(reg);
}

/* A symlink is followed: the file it names gets the output, the link stays.
 * A link to /dev/null succeeds and /dev/null stays a character device; a
 * link to /dev/full and /dev/full itself fail with the message. */
static void test_symlinks_and_devices(void **state)
{
    (void)state;
    char *target = path_in(env.tmp, "real.hsaco"), *link = path_in(env.tmp, "link.hsaco");
    char *old = write_random(target, 1000 + next_random() % 1000);
    free(old);
    assert_int_equal(symlink("real.hsaco", link), 0);
    Run r = JUKE(NULL, "compile", "--target", "gfx90a", "-o", link, env.kernel, "vadd!", "Vector{Float32}",
                 "Vector{Float32}", "Vector{Float32}");
    expect_status(&r, 0);
    free(r.err);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    size_t n = 0;
    char *got = read_all(target, &n);
    assert_memory_equal(got, "\177ELF", 4);
    free(got);

    char *to_null = path_in(env.tmp, "null.hsaco"), *to_full = path_in(env.tmp, "full.hsaco");
    assert_int_equal(symlink("/dev/null", to_null), 0);
    assert_int_equal(symlink("/dev/full", to_full), 0);
    r = JUKE(NULL, "compile", "--target", "cpu", "-o", to_null, env.kernel, "vadd!", "Vector{Float32}",
             "Vector{Float32}", "Vector{Float32}");
    expect_status(&r, 0);
    free(r.err);
    assert_int_equal(lstat(to_null, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));

    r = JUKE(NULL, "compile", "--target", "cpu", "-o", to_full, env.kernel, "vadd!", "Vector{Float32}",
             "Vector{Float32}", "Vector{Float32}");
    expect_status(&r, 1);
    expect_contains(r.err, "juke: error: cannot write '");
    expect_contains(r.err, "No space left on device");
    free(r.err);
    assert_int_equal(lstat(to_full, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(stat("/dev/full", &st), 0);
    assert_true(S_ISCHR(st.st_mode));

    /* Only now, with the links shown to be written in place, /dev/full itself
     * (a broken writer would have replaced it with a file as root). */
    r = JUKE(NULL, "compile", "--target", "cpu", "-o", "/dev/full", env.kernel, "vadd!", "Vector{Float32}",
             "Vector{Float32}", "Vector{Float32}");
    expect_status(&r, 1);
    expect_contains(r.err, "juke: error: cannot write '/dev/full': No space left on device");
    free(r.err);
    assert_int_equal(stat("/dev/full", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    unlink(to_null);
    unlink(to_full);
    unlink(link);
    unlink(target);
    free(to_null);
    free(to_full);
    free(link);
    free(target);
}

/* A character device node of our own (null's numbers, made with mknod as
 * root) stays a character device: what -o /dev/null as root checks, without
 * risking the real /dev/null. Skipped without the privilege. */
static void test_own_char_device(void **state)
{
    (void)state;
    char *dev = path_in(env.tmp, "mynull");
    if (mknod(dev, S_IFCHR | 0666, makedev(1, 3)) != 0) {
        print_message("skipping: mknod: %s\n", strerror(errno));
        free(dev);
        skip();
    }
    Run r = JUKE(NULL, "compile", "--target", "cpu", "-o", dev, env.kernel, "vadd!", "Vector{Float32}",
                 "Vector{Float32}", "Vector{Float32}");
    struct stat st;
    assert_int_equal(lstat(dev, &st), 0);
    bool chr = S_ISCHR(st.st_mode);
    unlink(dev);
    free(dev);
    expect_status(&r, 0);
    free(r.err);
    assert_true(chr);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_outputs JUKE_EXE ENOSPC_SHIM\n");
        return 2;
    }
    env.juke = argv[1];
    env.shim = argv[2];
    env.seed = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid();
    if (!env.seed)
        env.seed = 1;
    snprintf(env.tmp, sizeof env.tmp, "%s/juke-test-outputs-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(env.tmp)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(env.full, sizeof env.full, "%s/full", env.tmp);
    snprintf(env.kernel, sizeof env.kernel, "%s/vadd.jl", env.tmp);
    if (mkdir(env.full, 0700) != 0) {
        perror("mkdir");
        return 1;
    }
    FILE *f = fopen(env.kernel, "w");
    if (!f || fputs(vadd_src, f) < 0 || fclose(f) != 0) {
        perror(env.kernel);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compile_full_disk), cmocka_unit_test(test_run_out_full_disk),
        cmocka_unit_test(test_fifo_in_place),     cmocka_unit_test(test_symlinks_and_devices),
        cmocka_unit_test(test_own_char_device),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    if (!failed) {
        char *cmd;
        if (asprintf(&cmd, "rm -rf '%s'", env.tmp) > 0 && system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", env.tmp);
        free(cmd);
    } else {
        fprintf(stderr, "test files kept in %s\n", env.tmp);
    }
    return failed ? 1 : 0;
}
