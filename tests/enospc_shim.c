/* enospc_shim.c: an LD_PRELOAD library that makes one directory look full,
 * so tests can check what juke leaves behind when a disk fills up without
 * the privileges a small tmpfs would need.
 *
 *   JUKE_ENOSPC_DIR=DIR     only files under DIR are affected
 *   JUKE_ENOSPC_AFTER=N     writes to them succeed for N bytes in all, then
 *                           fail with ENOSPC (a short write first, as a
 *                           real file system does); fsync and close of such
 *                           a file fail with ENOSPC once the space is gone
 *   JUKE_ENOSPC_FSYNC=1     every write succeeds, fsync fails (delayed
 *                           allocation on a full disk reports it there)
 *
 * The byte count is per process and unlocked: juke writes its outputs from
 * one thread, and this is a test tool. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the project builds with -fvisibility=hidden; interposers must be seen */
#define SHIM_EXPORT __attribute__((visibility("default")))

static size_t used;

/* Whether fd is a regular file under $JUKE_ENOSPC_DIR. */
static int shim_watched(int fd)
{
    const char *dir = getenv("JUKE_ENOSPC_DIR");
    struct stat st;
    if (!dir || !*dir || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n < 0)
        return 0;
    path[n] = '\0';
    size_t dl = strlen(dir);
    return strncmp(path, dir, dl) == 0 && (path[dl] == '/' || path[dl] == '\0');
}

static size_t shim_budget(void)
{
    const char *s = getenv("JUKE_ENOSPC_AFTER");
    return s && *s ? (size_t)strtoull(s, NULL, 10) : (size_t)-1;
}

static int shim_full(void)
{
    return used >= shim_budget();
}

static int shim_fsync_fails(void)
{
    const char *s = getenv("JUKE_ENOSPC_FSYNC");
    return s && *s == '1';
}

SHIM_EXPORT ssize_t write(int fd, const void *buf, size_t count)
{
    static ssize_t (*real)(int, const void *, size_t);
    if (!real)
        real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    if (count == 0 || !shim_watched(fd))
        return real(fd, buf, count);
    size_t budget = shim_budget();
    if (used >= budget) {
        errno = ENOSPC;
        return -1;
    }
    if (count > budget - used)
        count = budget - used;
    ssize_t w = real(fd, buf, count);
    if (w > 0)
        used += (size_t)w;
    return w;
}

SHIM_EXPORT int fsync(int fd)
{
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    if (shim_watched(fd) && (shim_full() || shim_fsync_fails())) {
        errno = ENOSPC;
        return -1;
    }
    return real(fd);
}

SHIM_EXPORT int close(int fd)
{
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "close");
    int fail = shim_watched(fd) && (shim_full() || shim_fsync_fails());
    int r = real(fd);
    if (r == 0 && fail) {
        errno = ENOSPC;
        return -1;
    }
    return r;
}
