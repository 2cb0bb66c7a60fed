/* common.h: what every module of the compiler shares: the arena, growable
 * buffers, source locations and diagnostics. Internal; never installed. */
#ifndef JUKE_COMMON_H
#define JUKE_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- arena: one per compilation (and one per loaded source) ----------
 * Everything allocated from an arena is freed at once by arena_free. An
 * allocation that fails returns NULL and sets arena->failed; callers check
 * the flag at stage boundaries rather than after every allocation. */
typedef struct ArenaBlock ArenaBlock;

/* Where an arena's blocks come from, Lua's model (lua_Alloc): fn(ud, NULL, 0,
 * n) allocates n bytes, fn(ud, p, n, 0) frees p of n bytes; NULL = failure.
 * block_min, when not 0, replaces the 64 KiB minimum block size: 1 makes
 * every arena_alloc call one call of fn, which the failing-allocator test
 * (tests/test_alloc.c) uses to fail each allocation of a compile in turn. */
typedef void *(*JkAllocFn)(void *ud, void *ptr, size_t oldsize, size_t newsize);
typedef struct JkAllocator {
    JkAllocFn fn;
    void *ud;
    size_t block_min;
} JkAllocator;

typedef struct Arena {
    ArenaBlock *head;
    bool failed;
    const JkAllocator *al; /* NULL: malloc and free */
} Arena;

void *arena_alloc(Arena *a, size_t size); /* zeroed, 16-byte aligned */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void arena_free(Arena *a);
/* Room for one more element in an arena array of len elements of elem bytes
 * with capacity *cap (first: the capacity of a new array; it doubles after):
 * returns items itself when there is room, else a larger copy (the old
 * storage is left to the arena), or NULL when out of memory (*cap unchanged). */
void *arena_grow(Arena *a, void *items, int len, int *cap, size_t elem, int first);

/* A growable array of pointers kept in an arena (old storage is abandoned
 * to the arena on growth). */
typedef struct PtrVec {
    void **items;
    int len, cap;
} PtrVec;
void ptrvec_push(Arena *a, PtrVec *v, void *item);

/* A hash map from names to pointers in an arena, for the lookups by name that
 * a linear scan would make quadratic in the size of a source. Keys are not
 * copied: they must live as long as the map (arena strings do). */
typedef struct NameMap {
    const char **keys;
    void **vals;
    int len, cap; /* cap: 0 or a power of two, at most half full */
} NameMap;
void *namemap_get(const NameMap *m, const char *key); /* NULL if absent */
/* Add or replace key's value; false (and a->failed) when out of memory. */
bool namemap_put(Arena *a, NameMap *m, const char *key, void *val);
/* Room for n more keys without growing; false (and a->failed) when out of memory. */
bool namemap_reserve(Arena *a, NameMap *m, int n);

/* A growable malloc'd string, for dumps and messages that outlive arenas.
 * On allocation failure the buffer sets .failed and keeps what it has. */
typedef struct StrBuf {
    char *data;
    size_t len, cap;
    bool failed;
} StrBuf;
void sb_puts(StrBuf *sb, const char *s);
void sb_putn(StrBuf *sb, const char *s, size_t n);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap);
char *sb_take(StrBuf *sb); /* the malloc'd string (never NULL unless OOM); buffer reset */
void sb_free(StrBuf *sb);

/* ---- bounded reads of regular files --------------------------------- */
/* Default caps, settable per context (juke_options.max_source_bytes): a
 * source of 256 MiB is thousands of times any real kernel file, and loading
 * it costs about 130 bytes of memory per byte; an .npy array is read whole
 * into host memory (then copied to the device), and 16 GiB is past what one
 * argument of a device with 141 GiB needs while still fitting common hosts. */
#define JK_MAX_SOURCE_BYTES ((size_t)256 << 20)
#define JK_MAX_NPY_BYTES ((size_t)16 << 30)
/* JK_READ_OPEN: could not open it (why: strerror); JK_READ_IO: anything after. */
typedef enum JkReadStatus { JK_READ_OK = 0, JK_READ_OPEN = -1, JK_READ_IO = -2, JK_READ_NOMEM = -3 } JkReadStatus;
/* Read the regular file at path whole into *data (malloc'd, NUL-terminated,
 * *len bytes). FIFOs, devices and directories are refused without blocking
 * ("not a regular file"), and so is a file of more than limit bytes ("file
 * too large (N bytes, limit M)"); the message goes to why, without the path. */
JkReadStatus jk_read_file(const char *path, size_t limit, char **data, size_t *len, StrBuf *why);

/* ---- stack depth ------------------------------------------------------
 * Recursive walks (parser, lowering) stop with "expression too deeply nested
 * for the available stack" before the calling thread's stack runs out; a host
 * may call juke from a thread of 256 KiB or less. */
/* The address below which this thread's stack is too low to recurse further,
 * keeping a margin for the code that reports the error; NULL if unknown. */
const char *jk_stack_limit(void);
static inline bool jk_stack_exhausted(const char *limit)
{
    return limit && (const char *)__builtin_frame_address(0) < limit;
}

/* ---- source files and locations ------------------------------------- */
typedef struct SrcFile {
    const char *name; /* as given by the user: "vadd.jl", "<string>" */
    const char *text; /* NUL-terminated */
    size_t len;
} SrcFile;

/* A location is a file plus 1-based line and column (columns count bytes). */
typedef struct SrcLoc {
    const SrcFile *file;
    int line, col;
} SrcLoc;

/* ---- diagnostics ------------------------------------------------------
 * Three kinds, as GPUCompiler.jl has them: a user error (bad kernel source or
 * arguments), invalid IR (a verifier found a broken invariant) and an
 * internal compiler error. Messages are formatted at once as
 *   file:line:col: error: message
 *      4 |     x[i + 1] = 1f0
 *        |     ^
 * and appended to the sink; compilation goes on where it can to report more. */
typedef enum DiagKind { DIAG_USER = 1, DIAG_INVALID_IR, DIAG_INTERNAL, DIAG_NOMEM, DIAG_UNSUPPORTED } DiagKind;

typedef struct Diags {
    StrBuf text; /* all messages, each ending in a newline */
    int nerrors;
    DiagKind first_kind; /* kind of the first error (0 if none) */
    int max_errors;      /* stop recording after this many (0 = 20) */
} Diags;

void diag_error(Diags *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_verror(Diags *d, DiagKind kind, SrcLoc loc, const char *fmt, va_list ap);
void diag_kind_error(Diags *d, DiagKind kind, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A note attached to the previous error (no "error:" prefix, still with caret). */
void diag_note(Diags *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Messages recorded in another Diags (text, nerrors errors, the first of kind), added as they are. */
void diag_append(Diags *d, const char *text, int nerrors, DiagKind kind);
/* An error with no source location ("juke: error: ..."). */
void diag_plain(Diags *d, DiagKind kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_reset(Diags *d);

#define JK_ARRAY_LEN(a) ((int)(sizeof(a) / sizeof((a)[0])))

#endif
