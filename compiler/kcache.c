/* kcache.c: the on-disk kernel cache. kcache.h says what it trusts and why.
 *
 * An entry (format 2):
 *   JUKE-KERNEL-CACHE 2
 *   xxh3-128 <32 hex digits: XXH3-128 of every byte after this line>
 *   key: <request>|src <hash>|juke <version>|machine <id>
 *   build: <32 hex digits: hash of the build identity>
 *   symbol / kind / proc / static_lds / barrier / dynamic_lds / [random: 1, when the kernel takes a seed] /
 *   max_group lines
 *   sections: LOWERED TYPED RESOURCES CODE   (byte counts)
 *   the four sections' bytes
 * The checksum is checked before any other byte is looked at. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <xxhash.h>

#include "prelude.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#else
#include <sys/auxv.h>
#endif

#include "kcache.h"

#define KCACHE_MAGIC "JUKE-KERNEL-CACHE 2\n"
#define KCACHE_SUM "xxh3-128 "

struct Kcache {
    pthread_mutex_t lock;     /* the memo and the reported directories */
    pthread_mutex_t log_lock; /* one callback at a time, as juke.h promises */
    juke_log_fn log;
    void *user;
    char **reported; /* directories refused and already reported */
    int nreported;
    struct IdentMemo {
        char *inputs; /* what decides the identity (target, libraries' places) */
        char *ident;  /* the identity, library hashes included */
    } *ids;
    int nids;
    char *machine; /* kcache_host_machine(), once */
};

Kcache *kcache_new(void)
{
    Kcache *kc = calloc(1, sizeof *kc);
    if (!kc)
        return NULL;
    pthread_mutex_init(&kc->lock, NULL);
    pthread_mutex_init(&kc->log_lock, NULL);
    return kc;
}

void kcache_free(Kcache *kc)
{
    if (!kc)
        return;
    for (int i = 0; i < kc->nreported; i++)
        free(kc->reported[i]);
    free(kc->reported);
    for (int i = 0; i < kc->nids; i++) {
        free(kc->ids[i].inputs);
        free(kc->ids[i].ident);
    }
    free(kc->ids);
    free(kc->machine);
    pthread_mutex_destroy(&kc->lock);
    pthread_mutex_destroy(&kc->log_lock);
    free(kc);
}

void kcache_set_log(Kcache *kc, juke_log_fn fn, void *user)
{
    pthread_mutex_lock(&kc->log_lock);
    kc->log = fn;
    kc->user = user;
    pthread_mutex_unlock(&kc->log_lock);
}

static void kc_log(Kcache *kc, juke_log_level level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void kc_log(Kcache *kc, juke_log_level level, const char *fmt, ...)
{
    pthread_mutex_lock(&kc->log_lock);
    if (kc->log) {
        StrBuf sb = { 0 };
        va_list ap;
        va_start(ap, fmt);
        sb_vprintf(&sb, fmt, ap);
        va_end(ap);
        if (sb.data && !sb.failed)
            kc->log(kc->user, level, sb.data);
        sb_free(&sb);
    }
    pthread_mutex_unlock(&kc->log_lock);
}

void kcache_log(Kcache *kc, juke_log_level level, const char *msg)
{
    kc_log(kc, level, "%s", msg);
}

/* ---- the key ---- */

static void hex128(char out[33], XXH128_hash_t h)
{
    snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, (uint64_t)h.high64, (uint64_t)h.low64);
}

char *kcache_host_machine(void)
{
    StrBuf sb = { 0 };
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    unsigned max = __get_cpuid_max(0, NULL);
    __cpuid(0, a, b, c, d);
    sb_printf(&sb, "x86 %.4s%.4s%.4s", (char *)&b, (char *)&d, (char *)&c);
    /* leaf 1's EBX holds the APIC id of whichever core runs us: left out */
    if (max >= 1) {
        __cpuid(1, a, b, c, d);
        sb_printf(&sb, " 1:%x.%x.%x", a, c, d);
        if (c & (1u << 27)) { /* OSXSAVE: what the OS saves decides AVX and AVX-512 use */
            unsigned lo, hi;
            __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            sb_printf(&sb, " xcr0:%x", lo);
        }
    }
    if (max >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        sb_printf(&sb, " 7:%x.%x.%x", b, c, d);
        __cpuid_count(7, 1, a, b, c, d);
        sb_printf(&sb, ".%x", a);
    }
    if (max >= 0xd) {
        __cpuid_count(0xd, 1, a, b, c, d);
        sb_printf(&sb, " d:%x", a);
    }
    if (__get_cpuid_max(0x80000000, NULL) >= 0x80000001) {
        __cpuid(0x80000001, a, b, c, d);
        sb_printf(&sb, " e1:%x.%x", c, d);
    }
#else
    struct utsname u;
    if (uname(&u) == 0)
        sb_puts(&sb, u.machine);
    sb_printf(&sb, " hwcap:%lx.%lx", getauxval(AT_HWCAP), getauxval(AT_HWCAP2));
#endif
    return sb_take(&sb);
}

/* The key line is one line of the header: control characters and
 * backslashes are written as \xNN, so no argument type can end it. */
static void put_escaped(StrBuf *sb, const char *s)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        if (*c < 0x20 || *c == 0x7f || *c == '\\')
            sb_printf(sb, "\\x%02X", *c);
        else
            sb_putn(sb, (const char *)c, 1);
}

bool kcache_make_key(const KcacheKeyParts *parts, const char *function, char **key_line, char **build, char **file)
{
    char src[33], bh[33];
    /* the Base prelude is part of every module's source: seed the source's hash with it */
    hex128(src, XXH3_128bits_withSeed(parts->source ? parts->source : "", parts->source ? parts->source_len : 0,
                                      XXH3_64bits(jk_prelude_text, jk_prelude_len)));
    StrBuf sb = { 0 };
    put_escaped(&sb, parts->request);
    sb_printf(&sb, "|src %s|juke %s|machine ", src, JUKE_VERSION_STRING);
    put_escaped(&sb, parts->machine && *parts->machine ? parts->machine : "-");
    *key_line = sb_take(&sb);
    *build = NULL;
    if (parts->build) {
        hex128(bh, XXH3_128bits(parts->build, strlen(parts->build)));
        *build = strdup(bh);
    }
    /* the readable part of the name is cut at 64 characters (file names
     * have a limit); the hash of the whole key line tells entries apart */
    StrBuf fn = { 0 };
    int n = 0;
    for (const unsigned char *c = (const unsigned char *)function; *c && n < 64; c++, n++)
        sb_printf(&fn,
                  (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'
                      ? "%c"
                      : "_%02X",
                  *c);
    if (*key_line)
        sb_printf(&fn, "-%016" PRIx64 ".jkc", (uint64_t)XXH3_64bits(*key_line, strlen(*key_line)));
    *file = sb_take(&fn);
    if (!*key_line || !*file || (parts->build && !*build)) {
        free(*key_line);
        free(*build);
        free(*file);
        *key_line = *build = *file = NULL;
        return false;
    }
    return true;
}

/* Hash a device library for the identity: bounded, no symlink games needed
 * (it is read, never run), but never a FIFO or a device. */
static void hash_file(StrBuf *out, const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > KCACHE_MAX_ENTRY) {
        if (fd >= 0)
            close(fd);
        sb_printf(out, "|%s unreadable", path);
        return;
    }
    XXH3_state_t *h = XXH3_createState();
    if (!h) {
        close(fd);
        sb_printf(out, "|%s unreadable", path);
        return;
    }
    XXH3_128bits_reset(h);
    char buf[65536];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        XXH3_128bits_update(h, buf, (size_t)n);
    close(fd);
    char hx[33];
    hex128(hx, XXH3_128bits_digest(h));
    XXH3_freeState(h);
    sb_printf(out, "|%s %s", path, n < 0 ? "unreadable" : hx);
}

/* The build identity of a compile for to (NULL without a compiler), its
 * device libraries hashed once per context and kept. malloc'd. */
static char *build_identity(Kcache *kc, const TargetOptions *to, bool *no_compiler)
{
    StrBuf in = { 0 };
    sb_printf(&in, "%d|%s|%s", (int)to->kind, to->proc ? to->proc : "", to->devlib_dir ? to->devlib_dir : "");
    char *inputs = sb_take(&in);
    *no_compiler = false;
    if (!inputs)
        return NULL;
    pthread_mutex_lock(&kc->lock);
    for (int i = 0; i < kc->nids; i++)
        if (strcmp(kc->ids[i].inputs, inputs) == 0) {
            char *r = strdup(kc->ids[i].ident);
            pthread_mutex_unlock(&kc->lock);
            free(inputs);
            return r;
        }
    pthread_mutex_unlock(&kc->lock);
    StrBuf ident = { 0 }, files = { 0 };
    if (!cg_build_identity(to, &ident, &files)) {
        *no_compiler = true;
        sb_free(&ident);
        sb_free(&files);
        free(inputs);
        return NULL;
    }
    for (char *p = files.data; p && *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        hash_file(&ident, p);
        p = nl ? nl + 1 : p + strlen(p);
    }
    sb_free(&files);
    char *r = ident.failed ? NULL : sb_take(&ident);
    sb_free(&ident);
    if (!r) {
        free(inputs);
        return NULL;
    }
    pthread_mutex_lock(&kc->lock);
    struct IdentMemo *nv = realloc(kc->ids, sizeof *nv * (size_t)(kc->nids + 1));
    char *copy = strdup(r);
    if (nv && copy) {
        kc->ids = nv;
        kc->ids[kc->nids].inputs = inputs;
        kc->ids[kc->nids++].ident = copy;
        inputs = NULL;
        copy = NULL;
    } else if (nv) {
        kc->ids = nv;
    }
    pthread_mutex_unlock(&kc->lock);
    free(copy);
    free(inputs);
    return r;
}

/* ---- the directory ---- */

/* Report a refused directory once per context. */
static void refuse_dir(Kcache *kc, const char *dir, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void refuse_dir(Kcache *kc, const char *dir, const char *fmt, ...)
{
    pthread_mutex_lock(&kc->lock);
    for (int i = 0; i < kc->nreported; i++)
        if (strcmp(kc->reported[i], dir) == 0) {
            pthread_mutex_unlock(&kc->lock);
            return;
        }
    char **nv = realloc(kc->reported, sizeof *nv * (size_t)(kc->nreported + 1));
    if (nv) {
        kc->reported = nv;
        if ((nv[kc->nreported] = strdup(dir)))
            kc->nreported++;
    }
    pthread_mutex_unlock(&kc->lock);
    StrBuf sb = { 0 };
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    kc_log(kc, JUKE_LOG_WARNING, "kernel cache directory %s %s; compiling without the disk cache", dir,
           sb.data ? sb.data : "is refused");
    sb_free(&sb);
}

/* Create dir and its missing parents, private to this user (0700). */
static void make_private_dirs(const char *dir)
{
    char *path = strdup(dir);
    if (!path)
        return;
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST)
            break;
        *p = saved;
        if (saved == '\0')
            break;
    }
    free(path);
}

/* The cache directory, open, if this user owns it and no one else may write
 * it; else -1 (reported). */
static int open_dir(Kcache *kc, const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
        make_private_dirs(dir);
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    }
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        refuse_dir(kc, dir, "cannot be used (%s)", strerror(e));
        return -1;
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH)) {
        close(fd);
        refuse_dir(kc, dir, "is writable by %s (mode %04o)",
                   (st.st_mode & S_IWGRP) && (st.st_mode & S_IWOTH) ? "group and others"
                   : st.st_mode & S_IWGRP                           ? "its group"
                                                                    : "others",
                   (unsigned)(st.st_mode & 07777));
        return -1;
    }
    if (st.st_uid != geteuid()) {
        close(fd);
        refuse_dir(kc, dir, "belongs to uid %u, not to this user (uid %u)", (unsigned)st.st_uid, (unsigned)geteuid());
        return -1;
    }
    return fd;
}

/* The x86-64 micro-architecture levels (the psABI's), best first. */
static const char *const x86_levels[4] = { "x86-64-v4", "x86-64-v3", "x86-64-v2", "x86-64" };

/* Whether proc names one: its code runs on any CPU of that level, whichever compiled it. */
static bool portable_level(const char *proc)
{
    for (int i = 0; proc && i < 4; i++)
        if (strcmp(proc, x86_levels[i]) == 0)
            return true;
    return false;
}

int kcache_host_levels(const char *levels[4])
{
    int n = 0;
#if defined(__x86_64__)
    unsigned a, b, c1 = 0, d1 = 0, b7 = 0, e1c = 0, xcr0 = 0, c, d;
    unsigned max = __get_cpuid_max(0, NULL);
    if (max >= 1) {
        __cpuid(1, a, b, c1, d1);
        if (c1 & (1u << 27)) { /* OSXSAVE */
            unsigned hi;
            __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(hi) : "c"(0));
        }
    }
    if (max >= 7)
        __cpuid_count(7, 0, a, b7, c, d);
    if (__get_cpuid_max(0x80000000, NULL) >= 0x80000001)
        __cpuid(0x80000001, a, b, e1c, d);
#define HAS(w, bit) (((w) >> (bit)) & 1u)
    /* v2: SSE3 SSSE3 SSE4.1 SSE4.2 POPCNT CMPXCHG16B LAHF */
    bool v2 = HAS(c1, 0) && HAS(c1, 9) && HAS(c1, 19) && HAS(c1, 20) && HAS(c1, 23) && HAS(c1, 13) && HAS(e1c, 0);
    /* v3: AVX AVX2 BMI1 BMI2 F16C FMA LZCNT MOVBE XSAVE, the YMM state saved by the OS */
    bool v3 = v2 && (xcr0 & 6) == 6 && HAS(c1, 28) && HAS(b7, 5) && HAS(b7, 3) && HAS(b7, 8) && HAS(c1, 29) &&
              HAS(c1, 12) && HAS(e1c, 5) && HAS(c1, 22) && HAS(c1, 26);
    /* v4: AVX512F BW CD DQ VL, the opmask and ZMM state saved */
    bool v4 = v3 && (xcr0 & 0xe6) == 0xe6 && HAS(b7, 16) && HAS(b7, 30) && HAS(b7, 28) && HAS(b7, 17) && HAS(b7, 31);
#undef HAS
    (void)d1;
    const bool has[4] = { v4, v3, v2, true };
    for (int i = 0; i < 4; i++)
        if (has[i])
            levels[n++] = x86_levels[i];
#else
    (void)levels;
#endif
    return n;
}

/* ---- the lookup ---- */

/* The kernel symbol of a function name, as codegen.c makes it: characters
 * outside [A-Za-z0-9_] as _XX. */
static char *symbol_of(const char *name)
{
    StrBuf sb = { 0 };
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        sb_printf(&sb,
                  (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'
                      ? "%c"
                      : "_%02X",
                  *c);
    return sb_take(&sb);
}

bool kcache_open(Kcache *kc, KcacheSlot *s, const char *dir, const char *function, const char *request,
                 const char *source, size_t source_len, const TargetOptions *to)
{
    memset(s, 0, sizeof *s);
    s->dfd = -1;
    if (!kc || !dir || !*dir)
        return false;
    bool no_compiler;
    char *ident = build_identity(kc, to, &no_compiler);
    if (!ident && !no_compiler)
        return false;
    char *machine = NULL;
    if (to->kind == TARGET_CPU && portable_level(to->proc)) {
        StrBuf m = { 0 };
        sb_printf(&m, "portable %s", to->proc);
        if (!(machine = sb_take(&m))) {
            free(ident);
            return false;
        }
    } else if (to->kind == TARGET_CPU) {
        pthread_mutex_lock(&kc->lock);
        if (!kc->machine)
            kc->machine = kcache_host_machine();
        machine = kc->machine ? strdup(kc->machine) : NULL;
        pthread_mutex_unlock(&kc->lock);
        if (!machine) {
            free(ident);
            return false;
        }
    }
    KcacheKeyParts parts = { request, source, source_len, machine, ident };
    bool ok = kcache_make_key(&parts, function, &s->key_line, &s->build, &s->name);
    free(machine);
    s->kind = to->kind;
    s->proc = to->proc && *to->proc ? to->proc : NULL;
    s->symbol = symbol_of(function);
    s->dir = strdup(dir);
    free(ident);
    if (!ok || !s->symbol || !s->dir) {
        kcache_close(kc, s);
        return false;
    }
    s->dfd = open_dir(kc, dir);
    return s->dfd >= 0;
}

/* Remove a refused entry: a symlink (never followed) or a regular file of
 * this user; anything else is left for the rename of the rebuilt one. */
static void remove_entry(const KcacheSlot *s)
{
    struct stat st;
    if (fstatat(s->dfd, s->name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        (S_ISLNK(st.st_mode) || (S_ISREG(st.st_mode) && st.st_uid == geteuid())))
        unlinkat(s->dfd, s->name, 0);
}

static bool refuse(KcacheSlot *s, const char *why)
{
    free(s->bad);
    s->bad = strdup(why);
    remove_entry(s);
    return false;
}

bool kcache_load(Kcache *kc, KcacheSlot *s, char **lowered, char **typed, char **resources, CodeObject *co)
{
    (void)kc;
    if (s->dfd < 0)
        return false;
    struct stat st, fst;
    if (fstatat(s->dfd, s->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return false; /* no entry yet (or none we can see): a plain miss */
    if (S_ISLNK(st.st_mode))
        return refuse(s, "is a symbolic link");
    if (!S_ISREG(st.st_mode))
        return refuse(s, "is not a regular file");
    int fd = openat(s->dfd, s->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? false : refuse(s, errno == ELOOP ? "is a symbolic link" : "cannot be read");
    if (fstat(fd, &fst) != 0 || !S_ISREG(fst.st_mode) || fst.st_dev != st.st_dev || fst.st_ino != st.st_ino) {
        close(fd);
        return refuse(s, "is not a regular file");
    }
    if (fst.st_uid != geteuid()) {
        close(fd);
        return refuse(s, "belongs to another user");
    }
    if ((uint64_t)fst.st_size > KCACHE_MAX_ENTRY) {
        close(fd);
        return refuse(s, "is larger than the limit of 256 MiB");
    }
    size_t size = (size_t)fst.st_size, got = 0;
    uint8_t *data = malloc(size + 1);
    if (!data) {
        close(fd);
        return false;
    }
    /* one byte more than fstat said: a file that grows is refused, not read on */
    while (got < size + 1) {
        ssize_t n = read(fd, data + got, size + 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    const char *why =
        got != size ? "changed while it was read" : kcache_parse(s, data, size, lowered, typed, resources, co);
    free(data);
    return why ? refuse(s, why) : true;
}

/* ---- the format ---- */

static const char *field(const char **p, const char *end, const char *name, const char **val, size_t *len)
{
    size_t n = strlen(name);
    if ((size_t)(end - *p) < n + 2 || memcmp(*p, name, n) != 0 || (*p)[n] != ':' || (*p)[n + 1] != ' ')
        return "is malformed";
    const char *v = *p + n + 2, *nl = memchr(v, '\n', (size_t)(end - v));
    if (!nl)
        return "is malformed";
    *val = v;
    *len = (size_t)(nl - v);
    *p = nl + 1;
    return NULL;
}

static bool same(const char *v, size_t n, const char *s)
{
    return strlen(s) == n && memcmp(v, s, n) == 0;
}

/* A decimal number of at most 12 digits (no sign, no blanks). */
static bool number(const char *v, size_t n, uint64_t *out)
{
    if (n == 0 || n > 12)
        return false;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] < '0' || v[i] > '9')
            return false;
        x = x * 10 + (uint64_t)(v[i] - '0');
    }
    *out = x;
    return true;
}

static bool identifier(const char *v, size_t n, size_t max, bool punct)
{
    if (n == 0 || n > max)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = v[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (i && c >= '0' && c <= '9') ||
                  (punct && (c == '-' || c == '.' || c == '+' || (c >= '0' && c <= '9')));
        if (!ok)
            return false;
    }
    return true;
}

static uint32_t lds_limit(TargetKind k)
{
    return target_by_kind(k)->max_static_local;
}

const char *kcache_parse(const KcacheSlot *s, const uint8_t *data, size_t size, char **lowered, char **typed,
                         char **resources, CodeObject *co)
{
    const char *p = (const char *)data, *end = p + size;
    size_t ml = strlen(KCACHE_MAGIC), sl = strlen(KCACHE_SUM);
    if (size < ml || memcmp(p, KCACHE_MAGIC, ml) != 0)
        return "is no juke cache entry of this version";
    p += ml;
    if ((size_t)(end - p) < sl + 33 || memcmp(p, KCACHE_SUM, sl) != 0 || p[sl + 32] != '\n')
        return "is malformed";
    char want[33];
    hex128(want, XXH3_128bits(p + sl + 33, (size_t)(end - p) - sl - 33));
    if (memcmp(p + sl, want, 32) != 0)
        return "failed its checksum";
    p += sl + 33;
    const char *v, *why;
    size_t n;
    uint64_t kind, lds, barrier, dyn, rng, maxg, sz[4];
    if ((why = field(&p, end, "key", &v, &n)))
        return why;
    if (!same(v, n, s->key_line))
        return "was made for another key";
    if ((why = field(&p, end, "build", &v, &n)))
        return why;
    if (s->build ? !same(v, n, s->build) : !identifier(v, n, 32, true))
        return "was built by another compiler (LLVM or device libraries)";
    if ((why = field(&p, end, "symbol", &v, &n)))
        return why;
    if (!identifier(v, n, 255, false) || !same(v, n, s->symbol))
        return "names another kernel symbol";
    const char *sym = v;
    size_t nsym = n;
    if ((why = field(&p, end, "kind", &v, &n)))
        return why;
    if (!number(v, n, &kind) || kind != (uint64_t)s->kind)
        return "is for another target";
    if ((why = field(&p, end, "proc", &v, &n)))
        return why;
    if (!identifier(v, n, 63, true) || (s->proc && !same(v, n, s->proc)))
        return "is for another processor";
    const char *proc = v;
    size_t nproc = n;
    if ((why = field(&p, end, "static_lds", &v, &n)))
        return why;
    if (!number(v, n, &lds) || lds > lds_limit(s->kind))
        return "has a static local memory size beyond the target's limit";
    if ((why = field(&p, end, "barrier", &v, &n)))
        return why;
    if (!number(v, n, &barrier) || barrier > 3)
        return "is malformed";
    if ((why = field(&p, end, "dynamic_lds", &v, &n)))
        return why;
    if (!number(v, n, &dyn) || dyn > 1)
        return "is malformed";
    rng = 0; /* written only when 1 (the kernel takes a seed), so other entries read as before */
    if ((size_t)(end - p) > 7 && memcmp(p, "random:", 7) == 0) {
        if ((why = field(&p, end, "random", &v, &n)))
            return why;
        if (!number(v, n, &rng) || rng != 1)
            return "is malformed";
    }
    if ((why = field(&p, end, "max_group", &v, &n)))
        return why;
    /* the CPU writes 0 when no group size bounds the kernel */
    if (!number(v, n, &maxg) || maxg > 1024 || (maxg == 0 && s->kind != TARGET_CPU))
        return "has a maximum group size outside 1..1024";
    if ((why = field(&p, end, "sections", &v, &n)))
        return why;
    const char *q = v, *qe = v + n;
    for (int i = 0; i < 4; i++) {
        const char *sp = i < 3 ? memchr(q, ' ', (size_t)(qe - q)) : qe;
        if (!sp || !number(q, (size_t)(sp - q), &sz[i]))
            return "is malformed";
        q = sp + (i < 3);
    }
    uint64_t rest = (uint64_t)(end - p);
    if (sz[0] > rest || sz[1] > rest - sz[0] || sz[2] > rest - sz[0] - sz[1] || sz[3] != rest - sz[0] - sz[1] - sz[2])
        return "has sections that do not add up to its size";
    const char *code = p + sz[0] + sz[1] + sz[2];
    if (memchr(p, 0, (size_t)(sz[0] + sz[1] + sz[2])))
        return "is malformed";
    if (target_by_kind(s->kind)->text_object ? sz[3] < 2 || code[sz[3] - 1] != 0 || memchr(code, 0, (size_t)sz[3] - 1)
                                             : sz[3] < 64 || memcmp(code, "\177ELF", 4) != 0)
        return "has a code section that is no code object of its target";
    if (!lowered)
        return NULL;
    memset(co, 0, sizeof *co);
    *lowered = strndup(p, (size_t)sz[0]);
    *typed = strndup(p + sz[0], (size_t)sz[1]);
    *resources = strndup(p + sz[0] + sz[1], (size_t)sz[2]);
    co->data = malloc((size_t)sz[3] + 1);
    co->kernel_symbol = strndup(sym, nsym);
    co->proc = strndup(proc, nproc);
    if (!*lowered || !*typed || !*resources || !co->data || !co->kernel_symbol || !co->proc) {
        free(*lowered);
        free(*typed);
        free(*resources);
        *lowered = *typed = *resources = NULL;
        code_object_free(co);
        return "could not be read (out of memory)";
    }
    memcpy(co->data, code, (size_t)sz[3]);
    co->data[sz[3]] = 0;
    co->size = target_by_kind(s->kind)->text_object ? (size_t)sz[3] - 1 : (size_t)sz[3]; /* text keeps its NUL */
    co->kind = s->kind;
    co->static_lds_bytes = (uint32_t)lds;
    co->uses_barrier = (barrier & 1) != 0;
    co->uses_grid_sync = (barrier & 2) != 0; /* "barrier: 3": sync_grid() too */
    co->uses_dynamic_lds = dyn != 0;
    co->uses_rng = rng != 0;
    co->max_flat_workgroup_size = (int)maxg;
    return NULL;
}

uint8_t *kcache_format(const KcacheSlot *s, const char *lowered, const char *typed, const char *resources,
                       const CodeObject *co, size_t *size)
{
    const char *l = lowered ? lowered : "", *t = typed ? typed : "", *r = resources ? resources : "";
    size_t code = target_by_kind(co->kind)->text_object ? co->size + 1 : co->size;
    StrBuf body = { 0 };
    sb_printf(&body,
              "key: %s\nbuild: %s\nsymbol: %s\nkind: %d\nproc: %s\nstatic_lds: %u\nbarrier: %d\n"
              "dynamic_lds: %d\n%smax_group: %d\nsections: %zu %zu %zu %zu\n",
              s->key_line, s->build ? s->build : "-", co->kernel_symbol ? co->kernel_symbol : "", (int)co->kind,
              co->proc && *co->proc ? co->proc : "-", co->static_lds_bytes, co->uses_barrier | co->uses_grid_sync << 1,
              co->uses_dynamic_lds, co->uses_rng ? "random: 1\n" : "", co->max_flat_workgroup_size, strlen(l),
              strlen(t), strlen(r), code);
    sb_puts(&body, l);
    sb_puts(&body, t);
    sb_puts(&body, r);
    sb_putn(&body, (const char *)co->data, code);
    if (body.failed || !body.data) {
        sb_free(&body);
        return NULL;
    }
    char sum[33];
    hex128(sum, XXH3_128bits(body.data, body.len));
    StrBuf sb = { 0 };
    sb_printf(&sb, "%s%s%s\n", KCACHE_MAGIC, KCACHE_SUM, sum);
    sb_putn(&sb, body.data, body.len);
    sb_free(&body);
    if (sb.failed || !sb.data) {
        sb_free(&sb);
        return NULL;
    }
    *size = sb.len;
    return (uint8_t *)sb_take(&sb);
}

void kcache_save(Kcache *kc, KcacheSlot *s, const char *lowered, const char *typed, const char *resources,
                 const CodeObject *co)
{
    if (s->dfd < 0)
        return;
    size_t size;
    uint8_t *data = kcache_format(s, lowered, typed, resources, co, &size);
    if (data) {
        /* a private temporary name in the directory, renamed over the entry:
         * readers see the old entry or the new one, never half of one */
        char tmp[128];
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        int fd = -1;
        for (int i = 0; i < 8 && fd < 0; i++) {
            snprintf(tmp, sizeof tmp, ".tmp-%ld-%lx-%d.jkc", (long)getpid(), (unsigned long)(ts.tv_nsec ^ (long)&ts),
                     i);
            fd = openat(s->dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            if (fd < 0 && errno != EEXIST)
                break;
        }
        if (fd >= 0) {
            size_t done = 0;
            while (done < size) {
                ssize_t n = write(fd, data + done, size - done);
                if (n < 0 && errno == EINTR)
                    continue;
                if (n <= 0)
                    break;
                done += (size_t)n;
            }
            bool ok = close(fd) == 0 && done == size;
            if (!ok || renameat(s->dfd, tmp, s->dfd, s->name) != 0)
                unlinkat(s->dfd, tmp, 0);
        }
        free(data);
    }
    if (s->bad) {
        kc_log(kc, JUKE_LOG_NOTE, "cache entry %s/%s %s; rebuilt", s->dir, s->name, s->bad);
        free(s->bad);
        s->bad = NULL;
    }
}

void kcache_close(Kcache *kc, KcacheSlot *s)
{
    if (s->bad && kc)
        kc_log(kc, JUKE_LOG_NOTE, "cache entry %s/%s %s; removed", s->dir, s->name, s->bad);
    if (s->dfd >= 0)
        close(s->dfd);
    free(s->dir);
    free(s->name);
    free(s->key_line);
    free(s->build);
    free(s->symbol);
    free(s->bad);
    memset(s, 0, sizeof *s);
    s->dfd = -1;
}
