/* common.c: arena, growable buffers and diagnostics shared by every module. */
#include "common.h"

#include <pthread.h>

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ArenaBlock {
    ArenaBlock *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
};

#define ARENA_BLOCK_MIN (64 * 1024)

void *arena_alloc(Arena *a, size_t size)
{
    if (size > SIZE_MAX / 4) { /* a wrapped size computation: fail rather than round to 0 */
        a->failed = true;
        return NULL;
    }
    size = (size + 15) & ~(size_t)15;
    ArenaBlock *b = a->head;
    if (!b || b->size - b->used < size) {
        size_t min = a->al && a->al->block_min ? a->al->block_min : ARENA_BLOCK_MIN;
        size_t bsize = size > min ? size : min;
        b = a->al ? a->al->fn(a->al->ud, NULL, 0, sizeof(ArenaBlock) + bsize) : malloc(sizeof(ArenaBlock) + bsize);
        if (!b) {
            a->failed = true;
            return NULL;
        }
        b->size = bsize;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

char *arena_strdup(Arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = n >= 0 ? arena_alloc(a, (size_t)n + 1) : NULL;
    if (p)
        vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

void arena_free(Arena *a)
{
    ArenaBlock *b = a->head;
    while (b) {
        ArenaBlock *next = b->next;
        if (a->al)
            a->al->fn(a->al->ud, b, sizeof(ArenaBlock) + b->size, 0);
        else
            free(b);
        b = next;
    }
    a->head = NULL;
    a->failed = false;
}

void *arena_grow(Arena *a, void *items, int len, int *cap, size_t elem, int first)
{
    if (len < *cap)
        return items;
    int nc = *cap ? *cap * 2 : first;
    void *p = arena_alloc(a, elem * (size_t)nc);
    if (!p)
        return NULL;
    if (len)
        memcpy(p, items, elem * (size_t)len);
    *cap = nc;
    return p;
}

void ptrvec_push(Arena *a, PtrVec *v, void *item)
{
    void **items = arena_grow(a, v->items, v->len, &v->cap, sizeof(void *), 8);
    if (!items)
        return;
    v->items = items;
    v->items[v->len++] = item;
}

/* ---- NameMap: open addressing, linear probing ---- */

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The slot holding key, or the empty slot where it would go. */
static int namemap_slot(const char **keys, int cap, const char *key)
{
    int i = (int)(name_hash(key) & (uint32_t)(cap - 1));
    while (keys[i] && strcmp(keys[i], key) != 0)
        i = (i + 1) & (cap - 1);
    return i;
}

void *namemap_get(const NameMap *m, const char *key)
{
    if (!m->cap)
        return NULL;
    int i = namemap_slot(m->keys, m->cap, key);
    return m->keys[i] ? m->vals[i] : NULL;
}

bool namemap_reserve(Arena *a, NameMap *m, int n)
{
    if (2 * (m->len + n) <= m->cap)
        return true;
    int cap = m->cap ? 2 * m->cap : 16;
    while (2 * (m->len + n) > cap)
        cap *= 2;
    const char **keys = arena_alloc(a, sizeof(char *) * (size_t)cap);
    void **vals = arena_alloc(a, sizeof(void *) * (size_t)cap);
    if (!keys || !vals)
        return false;
    for (int i = 0; i < m->cap; i++)
        if (m->keys[i]) {
            int k = namemap_slot(keys, cap, m->keys[i]);
            keys[k] = m->keys[i];
            vals[k] = m->vals[i];
        }
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return true;
}

bool namemap_put(Arena *a, NameMap *m, const char *key, void *val)
{
    if (!namemap_reserve(a, m, 1))
        return false;
    int i = namemap_slot(m->keys, m->cap, key);
    if (!m->keys[i]) {
        m->keys[i] = key;
        m->len++;
    }
    m->vals[i] = val;
    return true;
}

/* ---- StrBuf ---- */

static bool sb_reserve(StrBuf *sb, size_t extra)
{
    if (sb->failed)
        return false;
    if (sb->len + extra + 1 <= sb->cap)
        return true;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *d = realloc(sb->data, cap);
    if (!d) {
        sb->failed = true;
        return false;
    }
    sb->data = d;
    sb->cap = cap;
    return true;
}

void sb_putn(StrBuf *sb, const char *s, size_t n)
{
    if (!sb_reserve(sb, n))
        return;
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

void sb_puts(StrBuf *sb, const char *s)
{
    sb_putn(sb, s, strlen(s));
}

void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n > 0 && sb_reserve(sb, (size_t)n)) {
        vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap2);
        sb->len += (size_t)n;
    }
    va_end(ap2);
}

void sb_printf(StrBuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

char *sb_take(StrBuf *sb)
{
    char *d = sb->data;
    if (!d)
        d = calloc(1, 1);
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb->failed = false;
    return d;
}

void sb_free(StrBuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb->failed = false;
}

/* ---- diagnostics ---- */

/* The source line holding loc, with a caret under the column:
 *     4 |     x[i + 1] = 1f0
 *       |     ^                                                          */
enum { DIAG_CONTEXT = 100 };

static void diag_context(StrBuf *sb, SrcLoc loc)
{
    if (!loc.file || !loc.file->text || loc.line <= 0)
        return;
    const char *p = loc.file->text;
    for (int l = 1; l < loc.line && *p; p++)
        if (*p == '\n')
            l++;
    const char *e = p;
    while (*e && *e != '\n')
        e++;
    /* a long line is clipped to DIAG_CONTEXT bytes either side of the caret
     * (not splitting a UTF-8 character), marked with … where cut */
    int col = loc.col < 1 ? 1 : loc.col; /* a location made by a rewrite may lack a column (fuzz_parse) */
    const char *caret = col - 1 < e - p ? p + col - 1 : e;
    const char *from = caret - p > DIAG_CONTEXT ? caret - DIAG_CONTEXT : p;
    const char *to = e - caret > DIAG_CONTEXT ? caret + DIAG_CONTEXT : e;
    while (from > p && (*from & 0xC0) == 0x80)
        from--;
    while (to < e && (*to & 0xC0) == 0x80)
        to++;
    int w = snprintf(NULL, 0, "%d", loc.line);
    sb_printf(sb, " %d | %s", loc.line, from > p ? "…" : "");
    sb_putn(sb, from, (size_t)(to - from));
    sb_printf(sb, "%s\n %*s | %s", to < e ? "…" : "", w, "", from > p ? " " : "");
    for (const char *c = from; c < caret; c++)
        sb_putn(sb, *c == '\t' ? "\t" : " ", 1);
    sb_puts(sb, "^\n");
}

static void diag_emit(Diags *d, DiagKind kind, bool note, SrcLoc loc, const char *fmt, va_list ap)
{
    int max = d->max_errors ? d->max_errors : 20;
    if (!note) {
        d->nerrors++;
        if (!d->first_kind)
            d->first_kind = kind;
        if (d->nerrors > max)
            return;
    } else if (d->nerrors > max) {
        return;
    }
    const char *what = note                                                                    ? "note"
                       : (kind == DIAG_USER || kind == DIAG_NOMEM || kind == DIAG_UNSUPPORTED) ? "error"
                       : kind == DIAG_INVALID_IR                                               ? "invalid IR"
                                                 : "internal compiler error";
    if (loc.file)
        sb_printf(&d->text, "%s:%d:%d: %s: ", loc.file->name, loc.line, loc.col, what);
    else
        sb_printf(&d->text, "juke: %s: ", what);
    sb_vprintf(&d->text, fmt, ap);
    sb_puts(&d->text, "\n");
    diag_context(&d->text, loc);
}

void diag_verror(Diags *d, DiagKind kind, SrcLoc loc, const char *fmt, va_list ap)
{
    diag_emit(d, kind, false, loc, fmt, ap);
}

void diag_error(Diags *d, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_emit(d, DIAG_USER, false, loc, fmt, ap);
    va_end(ap);
}

void diag_kind_error(Diags *d, DiagKind kind, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_emit(d, kind, false, loc, fmt, ap);
    va_end(ap);
}

void diag_note(Diags *d, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_emit(d, DIAG_USER, true, loc, fmt, ap);
    va_end(ap);
}

void diag_plain(Diags *d, DiagKind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    SrcLoc none = { 0 };
    diag_emit(d, kind, false, none, fmt, ap);
    va_end(ap);
}

void diag_append(Diags *d, const char *text, int nerrors, DiagKind kind)
{
    if (!d->first_kind && nerrors)
        d->first_kind = kind;
    d->nerrors += nerrors;
    sb_puts(&d->text, text);
}

void diag_reset(Diags *d)
{
    sb_free(&d->text);
    d->nerrors = 0;
    d->first_kind = 0;
}

/* ---- bounded reads ---- */

JkReadStatus jk_read_file(const char *path, size_t limit, char **data, size_t *len, StrBuf *why)
{
    *data = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        sb_printf(why, "%s", strerror(errno));
        return JK_READ_OPEN;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        sb_printf(why, "%s", strerror(errno));
        close(fd);
        return JK_READ_IO;
    }
    if (!S_ISREG(st.st_mode)) {
        sb_printf(why, "not a regular file");
        close(fd);
        return JK_READ_IO;
    }
    if ((uint64_t)st.st_size > limit) {
        sb_printf(why, "file too large (%llu bytes, limit %llu)", (unsigned long long)st.st_size,
                  (unsigned long long)limit);
        close(fd);
        return JK_READ_IO;
    }
    /* read to the end rather than st_size bytes: /proc files report size 0,
     * and a file growing meanwhile is still cut at the limit */
    size_t most = limit < SIZE_MAX / 4 ? limit + 1 : SIZE_MAX / 4; /* one byte past the limit tells it was passed */
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap + 1);
    JkReadStatus rs = buf ? JK_READ_OK : JK_READ_NOMEM;
    while (buf) {
        if (n == cap) {
            size_t ncap = cap < most / 2 ? cap * 2 : most;
            char *nb = ncap > cap ? realloc(buf, ncap + 1) : NULL;
            if (!nb) {
                rs = ncap > cap ? JK_READ_NOMEM : JK_READ_IO;
                if (ncap <= cap)
                    sb_printf(why, "file too large (more than %llu bytes, limit %llu)", (unsigned long long)limit,
                              (unsigned long long)limit);
                break;
            }
            buf = nb;
            cap = ncap;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            sb_printf(why, "%s", strerror(errno));
            rs = JK_READ_IO;
            break;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (rs == JK_READ_NOMEM)
        sb_printf(why, "out of memory");
    if (rs != JK_READ_OK) {
        free(buf);
        return rs;
    }
    buf[n] = 0;
    *data = buf;
    *len = n;
    return JK_READ_OK;
}

/* ---- stack depth ---- */

static const char *stack_limit_uncached(void)
{
    pthread_attr_t attr;
    void *low;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return NULL;
    int rc = pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
    if (rc != 0 || !low || size == 0)
        return NULL;
    /* a quarter of a small stack, 64 KiB of a large one: enough for
     * formatting the diagnostic and unwinding from the deepest check */
    size_t margin = size / 4 < 64 * 1024 ? size / 4 : 64 * 1024;
    return (const char *)low + margin;
}

const char *jk_stack_limit(void)
{
    /* A thread's stack stays where it is, so each thread asks once: for the main thread glibc reads
     * /proc/self/maps, ~0.1 ms, and every module load asked twice (~3 % of a small kernel's compile).
     * Per thread, so no lock; a thread's storage starts unset. */
    static _Thread_local const char *limit;
    static _Thread_local bool known;
    if (!known) {
        limit = stack_limit_uncached();
        known = true;
    }
    return limit;
}
