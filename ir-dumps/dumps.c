/* dumps.c: a kernel's dumps as files in a directory (see dumps.h). */
#include "dumps.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
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
            int r =
                dumps_fail(err, "juke: cannot create directory '%s': '%s' exists and is not a directory", dir, path);
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

/* Write all of parts to fd; returns 0 or an errno value (EIO for a write
 * that wrote nothing without saying why). */
static int dumps_write_parts(int fd, const DumpPart *parts, int nparts)
{
    for (int i = 0; i < nparts; i++) {
        const char *p = parts[i].data;
        size_t left = parts[i].size;
        while (left > 0) {
            ssize_t w = write(fd, p, left);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                return w < 0 ? errno : EIO;
            p += w;
            left -= (size_t)w;
        }
    }
    return 0;
}

/* Where a write to a path lands. */
typedef struct DumpTarget {
    char *path; /* the file to create, replace or write into (symlinks followed) */
    bool exists;
    bool in_place;  /* not a regular file, or an open file named through /proc: write into it */
    struct stat st; /* of an existing target */
} DumpTarget;

/* symlink's target as a path: relative targets are relative to the link's
 * directory. NULL with errno set on failure. */
static char *dumps_link_target(const char *link)
{
    size_t cap = 256;
    for (;;) {
        char *buf = malloc(cap);
        if (!buf)
            return NULL;
        ssize_t n = readlink(link, buf, cap);
        if (n < 0) {
            free(buf);
            return NULL;
        }
        if ((size_t)n < cap) {
            buf[n] = '\0';
            const char *slash = strrchr(link, '/');
            if (buf[0] == '/' || !slash)
                return buf;
            char *joined = NULL;
            if (asprintf(&joined, "%.*s%s", (int)(slash - link + 1), link, buf) < 0)
                joined = NULL;
            free(buf);
            return joined;
        }
        free(buf);
        cap *= 2;
    }
}

/* Follow path's symlinks to the file a write should land on, so a link is
 * never replaced by a file. A link under /proc (/dev/stdout ->
 * /proc/self/fd/1 -> "pipe:[123]") names an open file rather than a path:
 * the write goes through it in place. Returns 0, or an errno value. */
static int dumps_resolve(const char *path, DumpTarget *t)
{
    memset(t, 0, sizeof *t);
    size_t len = strlen(path);
    if (len == 0)
        return ENOENT;
    if (path[len - 1] == '/')
        return EISDIR;
    char *cur = strdup(path);
    if (!cur)
        return ENOMEM;
    for (int hops = 0; hops <= 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0) {
            int e = errno;
            if (e != ENOENT) {
                free(cur);
                return e;
            }
            t->path = cur;
            return 0;
        }
        if (S_ISLNK(st.st_mode) && strncmp(cur, "/proc/", 6) == 0) {
            if (stat(cur, &t->st) != 0) {
                int e = errno;
                free(cur);
                return e;
            }
            t->path = cur;
            t->exists = t->in_place = true;
            return S_ISDIR(t->st.st_mode) ? EISDIR : 0;
        }
        if (!S_ISLNK(st.st_mode)) {
            t->path = cur;
            t->st = st;
            t->exists = true;
            t->in_place = !S_ISREG(st.st_mode);
            return S_ISDIR(st.st_mode) ? EISDIR : 0;
        }
        char *next = dumps_link_target(cur);
        if (!next) {
            int e = errno;
            free(cur);
            return e;
        }
        free(cur);
        cur = next;
    }
    free(cur);
    return ELOOP;
}

/* An existing file that is no regular file (a character device such as
 * /dev/null or /dev/full, a FIFO, a terminal) is written into, never
 * replaced. Returns 0 or an errno value. */
static int dumps_write_in_place(const DumpTarget *t, const DumpPart *parts, int nparts)
{
    int flags = O_WRONLY | O_CLOEXEC | O_NOCTTY | (S_ISREG(t->st.st_mode) ? O_TRUNC : 0);
    int fd = open(t->path, flags);
    if (fd < 0)
        return errno;
    int e = dumps_write_parts(fd, parts, nparts);
    /* devices and FIFOs cannot be synced (EINVAL): their data is gone anyway */
    if (!e && S_ISREG(t->st.st_mode) && fsync(fd) != 0 && errno != EINVAL)
        e = errno;
    if (close(fd) != 0 && !e && errno != EINTR)
        e = errno;
    return e;
}

/* A regular file, or one that does not exist yet: a temporary file in the
 * same directory, written, synced and closed, then renamed over the target
 * and the directory synced. A failure before the rename removes the
 * temporary and leaves the old file as it was. Returns 0 or an errno value;
 * *renamed tells whether the target was replaced before a later failure. */
static int dumps_replace(const DumpTarget *t, const DumpPart *parts, int nparts, bool *renamed)
{
    *renamed = false;
    /* pid and thread id keep concurrent writers apart, and O_EXCL makes a
     * stale leftover a retry rather than a clash */
    const char *slash = strrchr(t->path, '/');
    size_t dirlen = slash ? (size_t)(slash - t->path + 1) : 0;
    const char *base = slash ? slash + 1 : t->path;
    char *tmp = NULL;
    int fd = -1, e = 0;
    /* an existing file's mode is restored below; until then only we may read */
    mode_t mode = t->exists ? 0600 : 0666;
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        free(tmp);
        if (asprintf(&tmp, "%.*s.%s.%ld.%ld.%d.tmp", (int)dirlen, t->path, base, (long)getpid(), (long)gettid(),
                     attempt) < 0)
            return ENOMEM;
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        e = errno;
        free(tmp);
        return e;
    }
    if (t->exists) {
        /* Keep owner and permissions where we may (root rewriting a user's
         * file); set-id bits are not carried over to new contents. Best
         * effort: not keeping them is no reason to lose the output. */
        int kept = 0;
        if (t->st.st_uid != geteuid() || t->st.st_gid != getegid())
            kept |= fchown(fd, t->st.st_uid, t->st.st_gid);
        kept |= fchmod(fd, t->st.st_mode & 0777);
        (void)kept;
    }
    e = dumps_write_parts(fd, parts, nparts);
    if (!e && fsync(fd) != 0)
        e = errno;
    if (close(fd) != 0 && !e && errno != EINTR)
        e = errno;
    if (!e && rename(tmp, t->path) != 0)
        e = errno;
    if (e) {
        unlink(tmp);
        free(tmp);
        return e;
    }
    free(tmp);
    *renamed = true;
    /* the rename itself is only durable once the directory is synced */
    char *dir = dirlen ? strndup(t->path, dirlen) : strdup(".");
    if (!dir)
        return ENOMEM;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (dfd < 0)
        return errno;
    if (fsync(dfd) != 0 && errno != EINVAL)
        e = errno;
    close(dfd);
    return e;
}

int dumps_write_file_parts(const char *path, const DumpPart *parts, int nparts, char **err)
{
    DumpTarget t;
    int e = dumps_resolve(path, &t);
    bool renamed = false;
    if (!e)
        e = t.in_place ? dumps_write_in_place(&t, parts, nparts) : dumps_replace(&t, parts, nparts, &renamed);
    free(t.path);
    if (!e)
        return 0;
    if (renamed)
        return dumps_fail(err, "juke: wrote '%s' but could not sync its directory: %s", path, strerror(e));
    return dumps_fail(err, "juke: cannot write '%s': %s", path, strerror(e));
}

int dumps_write_file_atomic(const char *path, const void *data, size_t size, char **err)
{
    DumpPart part = { data, size };
    return dumps_write_file_parts(path, &part, 1, err);
}

/* FNV-1a (64 bits): a hash with no state and no table, so two processes,
 * or two builds, name the same specialisation alike. */
void dumps_key_hash(const char *key, char out[DUMPS_HASH_LEN + 1])
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const unsigned char *c = (const unsigned char *)(key ? key : ""); *c; c++)
        h = (h ^ *c) * 0x100000001b3ull;
    /* fold the high bits in: FNV's low bits alone mix the last bytes poorly */
    h ^= h >> 32;
    snprintf(out, DUMPS_HASH_LEN + 1, "%06llx", (unsigned long long)(h & 0xffffff));
}

/* The kernel name as a file-name stem: Julia names may hold '!' and Unicode
 * (kept); a '/' would make a path and control characters make unreadable
 * listings, so both become '_'. */
static char *dumps_stem(const char *kernel, const char *key)
{
    const char *k = kernel && *kernel ? kernel : "kernel";
    char hash[DUMPS_HASH_LEN + 1];
    dumps_key_hash(key, hash);
    char *s = NULL;
    if (asprintf(&s, "%s_%s", k, hash) < 0)
        return NULL;
    for (unsigned char *c = (unsigned char *)s; *c; c++)
        if (*c == '/' || *c < 0x20 || *c == 0x7f)
            *c = '_';
    return s;
}

int dumps_write_dir(const char *dir, const char *kernel, const char *key, const DumpSet *ds, char **err)
{
    if (err)
        *err = NULL;
    if (!ds)
        return dumps_fail(err, "juke: no dumps to write");
    if (dumps_mkdirs(dir, err) != 0)
        return -1;
    char *stem = dumps_stem(kernel, key);
    if (!stem)
        return dumps_fail(err, "juke: out of memory");

    struct {
        const char *suffix;
        const void *data;
        size_t size;
    } files[] = {
        { "lowered.jl", ds->lowered, ds->lowered ? strlen(ds->lowered) : 0 },
        { "typed.jl", ds->typed, ds->typed ? strlen(ds->typed) : 0 },
        { "unopt.ll", ds->llvm_unopt, ds->llvm_unopt ? strlen(ds->llvm_unopt) : 0 },
        { "opt.ll", ds->llvm_opt, ds->llvm_opt ? strlen(ds->llvm_opt) : 0 },
        { "asm", ds->asm_text, ds->asm_text ? strlen(ds->asm_text) : 0 },
        { "resources.txt", ds->resources, ds->resources ? strlen(ds->resources) : 0 },
        { ds->code_object_ext && *ds->code_object_ext ? ds->code_object_ext : "bin", ds->code_object,
          ds->code_object_size },
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
