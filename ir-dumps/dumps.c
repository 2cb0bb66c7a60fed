/* dumps.c: a kernel's dumps as files in a directory (see dumps.h). */
#include "dumps.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* Set *err to a formatted malloc'd message (if err is not NULL); returns -1 so
 * callers can `return dumps_fail(...)`. */
static int dumps_fail(char **err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int dumps_fail(char **err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        if (vasprintf(err, fmt, ap) < 0)
            *err = NULL;
        va_end(ap);
    }
    return -1;
}

static int dumps_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int dumps_mkdirs(const char *dir, char **err)
{
    if (!dir || !*dir)
        return dumps_fail(err, "juke: dump directory is empty");
    if (dumps_is_dir(dir))
        return 0;
    char *path = strdup(dir);
    if (!path)
        return dumps_fail(err, "juke: out of memory");
    /* Walk the prefixes "a", "a/b", "a/b/c"; each must end up a directory.
     * EEXIST is fine (another writer may race us); anything else stops. */
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            int e = errno;
            int r = dumps_fail(err, "juke: cannot create directory '%s': %s", path, strerror(e));
            free(path);
            return r;
        }
        if (!dumps_is_dir(path)) {
            int r = dumps_fail(err, "juke: cannot create directory '%s': '%s' exists and is not a directory",
                               dir, path);
            free(path);
            return r;
        }
        *p = saved;
        if (saved == '\0')
            break;
    }
    free(path);
    return 0;
}

int dumps_write_file_atomic(const char *path, const void *data, size_t size, char **err)
{
    /* The temporary name lives in the same directory so rename() is atomic;
     * pid and thread id keep concurrent writers apart, and O_EXCL makes a
     * stale leftover a retry rather than a clash. */
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
    const char *base = slash ? slash + 1 : path;
    char *tmp = NULL;
    int fd = -1;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        free(tmp);
        if (asprintf(&tmp, "%.*s.%s.%ld.%ld.%d.tmp", (int)dirlen, path, base, (long)getpid(),
                     (long)gettid(), attempt) < 0)
            return dumps_fail(err, "juke: out of memory");
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return dumps_fail(err, "juke: cannot write '%s': %s", path, strerror(e));
    }
    const char *p = data;
    size_t left = size;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            close(fd);
            unlink(tmp);
            free(tmp);
            return dumps_fail(err, "juke: cannot write '%s': %s", path, strerror(e));
        }
        p += w;
        left -= (size_t)w;
    }
    if (close(fd) != 0) {
        int e = errno;
        unlink(tmp);
        free(tmp);
        return dumps_fail(err, "juke: cannot write '%s': %s", path, strerror(e));
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        free(tmp);
        return dumps_fail(err, "juke: cannot write '%s': %s", path, strerror(e));
    }
    free(tmp);
    return 0;
}

/* The kernel name as a file-name stem: Julia names may hold '!' and Unicode
 * (kept); a '/' would make a path and control characters make unreadable
 * listings, so both become '_'. */
static char *dumps_stem(const char *kernel, int n)
{
    const char *k = kernel && *kernel ? kernel : "kernel";
    char *s = NULL;
    if (asprintf(&s, "%s_%d", k, n) < 0)
        return NULL;
    for (unsigned char *c = (unsigned char *)s; *c; c++)
        if (*c == '/' || *c < 0x20 || *c == 0x7f)
            *c = '_';
    return s;
}

int dumps_write_dir(const char *dir, const char *kernel, int n, const DumpSet *ds, char **err)
{
    if (err)
        *err = NULL;
    if (!ds)
        return dumps_fail(err, "juke: no dumps to write");
    if (dumps_mkdirs(dir, err) != 0)
        return -1;
    char *stem = dumps_stem(kernel, n);
    if (!stem)
        return dumps_fail(err, "juke: out of memory");

    struct {
        const char *suffix;
        const void *data;
        size_t size;
    } files[] = {
        {"lowered.jl", ds->lowered, ds->lowered ? strlen(ds->lowered) : 0},
        {"typed.jl", ds->typed, ds->typed ? strlen(ds->typed) : 0},
        {"unopt.ll", ds->llvm_unopt, ds->llvm_unopt ? strlen(ds->llvm_unopt) : 0},
        {"opt.ll", ds->llvm_opt, ds->llvm_opt ? strlen(ds->llvm_opt) : 0},
        {"asm", ds->asm_text, ds->asm_text ? strlen(ds->asm_text) : 0},
        {"resources.txt", ds->resources, ds->resources ? strlen(ds->resources) : 0},
        {ds->code_object_ext && *ds->code_object_ext ? ds->code_object_ext : "bin", ds->code_object,
         ds->code_object_size},
    };
    size_t dirlen = strlen(dir);
    while (dirlen > 1 && dir[dirlen - 1] == '/')
        dirlen--;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (!files[i].data)
            continue;
        char *path = NULL;
        if (asprintf(&path, "%.*s/%s.%s", (int)dirlen, dir, stem, files[i].suffix) < 0) {
            free(stem);
            return dumps_fail(err, "juke: out of memory");
        }
        int r = dumps_write_file_atomic(path, files[i].data, files[i].size, err);
        free(path);
        if (r != 0) {
            free(stem);
            return -1;
        }
    }
    free(stem);
    return 0;
}
