/* page_touch.c: what the first touch of a page costs on this machine (RESULTS.md §24c), for the page kinds a
 * fresh process's first compile touches: anonymous memory written fresh, the same after MADV_POPULATE_WRITE
 * or in a transparent huge page, a page shared with the parent written in a forked child (copy on write),
 * and a shared library's text read one page per 64 KiB window (the kernel maps the window around a faulting
 * file page) or after MADV_POPULATE_READ. Each line: wall ms, minor faults, microseconds per page (or per
 * window).
 *
 *     gcc -O2 bench/page_touch.c -o /tmp/page_touch && /tmp/page_touch /usr/lib/llvm-19/lib/libLLVM.so.1 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGES 4096
#define PAGE 4096
#define WINDOW (16 * PAGE)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static long minor_faults(void)
{
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return r.ru_minflt;
}

static double t0;
static long f0;
static void start(void)
{
    f0 = minor_faults();
    t0 = now_ms();
}
static void stop(const char *what, int units)
{
    double ms = now_ms() - t0;
    printf("%-44s %8.2f ms %6ld faults %7.2f us each\n", what, ms, minor_faults() - f0, ms * 1e3 / units);
    fflush(stdout);
}

static char *anon(size_t len)
{
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    return p;
}

static void write_pages(volatile char *p, int n)
{
    for (int i = 0; i < n; i++)
        p[(size_t)i * PAGE] = 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: page_touch SHARED_LIBRARY (a file of at least 32 MiB, e.g. libLLVM)\n");
        return 2;
    }
    char *p = anon((size_t)PAGES * PAGE);
    start();
    write_pages(p, PAGES);
    stop("anonymous, first write", PAGES);
    start();
    write_pages(p, PAGES);
    stop("  the same pages again", PAGES);

    char *q = anon((size_t)PAGES * PAGE);
    start();
    madvise(q, (size_t)PAGES * PAGE, MADV_POPULATE_WRITE);
    stop("anonymous, MADV_POPULATE_WRITE", PAGES);
    start();
    write_pages(q, PAGES);
    stop("  then the first write", PAGES);

    /* a 2 MiB-aligned range in huge pages (THP is "madvise" here) */
    char *h = anon((size_t)PAGES * PAGE + (2u << 20));
    h = (char *)(((unsigned long)h + (2ul << 20) - 1) & ~((2ul << 20) - 1));
    madvise(h, (size_t)PAGES * PAGE, MADV_HUGEPAGE);
    start();
    write_pages(h, PAGES);
    stop("anonymous, MADV_HUGEPAGE, first write", PAGES);

    pid_t pid = fork();
    if (pid == 0) {
        start();
        write_pages(p, PAGES);
        stop("forked child, write of the parent's pages", PAGES);
        char *c = anon((size_t)PAGES * PAGE);
        start();
        write_pages(c, PAGES);
        stop("forked child, anonymous, first write", PAGES);
        _exit(0);
    }
    waitpid(pid, NULL, 0);

    int fd = open(argv[1], O_RDONLY);
    off_t size = fd < 0 ? 0 : lseek(fd, 0, SEEK_END);
    if (size < 2 * (off_t)PAGES * PAGE) {
        fprintf(stderr, "%s: not a file of at least %d MiB\n", argv[1], 2 * PAGES * PAGE >> 20);
        return 1;
    }
    volatile char *text = mmap(NULL, (size_t)PAGES * PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
    volatile char sink = 0;
    start();
    for (int i = 0; i < PAGES * PAGE / WINDOW; i++)
        sink += text[(size_t)i * WINDOW];
    stop("file text, first read of each 64 KiB window", PAGES * PAGE / WINDOW);
    start();
    for (int i = 0; i < PAGES * PAGE / WINDOW; i++)
        sink += text[(size_t)i * WINDOW + PAGE];
    stop("  a second page of each window", PAGES * PAGE / WINDOW);
    volatile char *text2 =
        mmap(NULL, (size_t)PAGES * PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, (off_t)PAGES * PAGE);
    start();
    madvise((void *)text2, (size_t)PAGES * PAGE, MADV_POPULATE_READ);
    stop("file text, MADV_POPULATE_READ", PAGES);
    start();
    for (int i = 0; i < PAGES * PAGE / WINDOW; i++)
        sink += text2[(size_t)i * WINDOW];
    stop("  then the first read of each window", PAGES * PAGE / WINDOW);
    (void)sink;
    return 0;
}
