/* astbin.c: a syntax tree as bytes, and back.
 *
 * The Base prelude is parsed when juke is built (compiler/base/prelude_tree.c) and a process loads its tree
 * from these bytes: lexing and parsing its 57 kB took ~200 instructions a byte, a fifth of a process's first
 * compile, where loading takes a few per node. The bytes hold the tree as the parser built it, so that what
 * follows (closures_lift, add_item, lowering) sees the same tree: every field of every node, the same nodes
 * shared where the parser shared them, and locations exact, so that errors in Base code and dumps still name
 * prelude lines.
 *
 * Layout (integers are LEB128, unsigned unless said):
 *   "JKAST1\0" magic, then nnodes, nslots (kid pointers of all nodes), nops (comparison operator names),
 *   nstr (bytes of the string area), the string area (NUL-terminated strings; a string is named by its
 *   offset + 1, 0 for NULL), then the nodes in pre-order, root first:
 *     kind byte, has byte (HAS_*), line (zigzag, the change from the previous node's), col,
 *     then if HAS_NAME name, HAS_QUAL qual, HAS_FLAGS flags, HAS_LIT lit, HAS_VALUE 8 bytes (little-endian
 *     ival), HAS_KIDS nkids and each kid's index + 1 (0: NULL), HAS_OPS nkids - 1 operator names.
 * A kid may name an earlier node: a node the parser shares between two parents is one node here too. */
#include "ast.h"

#include <stdlib.h>
#include <string.h>

static const char astbin_magic[8] = "JKAST1";

enum {
    HAS_NAME = 1,
    HAS_QUAL = 2,
    HAS_FLAGS = 4,
    HAS_LIT = 8,
    HAS_VALUE = 16,
    HAS_KIDS = 32, /* kids (a node without them has a NULL kids array, as the parser makes them) */
    HAS_OPS = 64,
    NO_FILE = 128, /* loc.file is NULL */
};

/* ---- node indices: which nodes were seen, by address --------------------------------------------- */

/* An open-addressing map from a node's address to its pre-order index (malloc'd; cap a power of two). */
typedef struct NodeIndex {
    const Node **keys;
    int *vals;
    int len, cap;
} NodeIndex;

static size_t node_hash(const Node *n, int cap)
{
    uintptr_t x = (uintptr_t)n >> 4;
    return (size_t)((x * 0x9E3779B97F4A7C15ull) >> 20) & (size_t)(cap - 1);
}

/* n's index, or -1 when n was not seen */
static int node_index_get(const NodeIndex *m, const Node *n)
{
    if (!m->cap)
        return -1;
    for (size_t i = node_hash(n, m->cap);; i = (i + 1) & (size_t)(m->cap - 1)) {
        if (m->keys[i] == n)
            return m->vals[i];
        if (!m->keys[i])
            return -1;
    }
}

/* Record n (not seen before) as index v; false when out of memory. */
static bool node_index_put(NodeIndex *m, const Node *n, int v)
{
    if (2 * (m->len + 1) > m->cap) {
        int cap = m->cap ? 2 * m->cap : 1024;
        NodeIndex g = { calloc((size_t)cap, sizeof(Node *)), calloc((size_t)cap, sizeof(int)), 0, cap };
        if (!g.keys || !g.vals) {
            free(g.keys);
            free(g.vals);
            return false;
        }
        for (int i = 0; i < m->cap; i++)
            if (m->keys[i])
                node_index_put(&g, m->keys[i], m->vals[i]);
        free(m->keys);
        free(m->vals);
        *m = g;
    }
    size_t i = node_hash(n, m->cap);
    while (m->keys[i])
        i = (i + 1) & (size_t)(m->cap - 1);
    m->keys[i] = n;
    m->vals[i] = v;
    m->len++;
    return true;
}

static void node_index_free(NodeIndex *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* ---- writing ---------------------------------------------------------------------------------------- */

typedef struct Writer {
    NodeIndex seen;
    PtrVec order; /* the nodes in pre-order */
    Arena scratch;
    NameMap strs; /* string → offset + 1 in the string area, as a pointer-sized integer */
    StrBuf strarea;
    const SrcFile *file;
    StrBuf *why;
    bool failed;
} Writer;

static void put_uint(StrBuf *out, uint64_t v)
{
    char b[10];
    int n = 0;
    do {
        b[n++] = (char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    sb_putn(out, b, (size_t)n);
}

/* The string's offset + 1 in the string area (0: NULL), adding it there the first time. */
static uint64_t str_ref(Writer *w, const char *s)
{
    if (!s)
        return 0;
    uintptr_t ref = (uintptr_t)namemap_get(&w->strs, s);
    if (!ref) {
        ref = w->strarea.len + 1;
        sb_putn(&w->strarea, s, strlen(s) + 1);
        const char *key = arena_strdup(&w->scratch, s);
        if (!key || !namemap_put(&w->scratch, &w->strs, key, (void *)ref))
            w->failed = true;
    }
    return ref;
}

/* Number every node reachable from root in pre-order (iteratively: as deep as any parse nests). */
static void number_nodes(Writer *w, const Node *root)
{
    PtrVec stack = { 0 };
    ptrvec_push(&w->scratch, &stack, (void *)root);
    while (stack.len && !w->scratch.failed && !w->failed) {
        const Node *n = stack.items[--stack.len];
        if (!n || node_index_get(&w->seen, n) >= 0)
            continue;
        if (!node_index_put(&w->seen, n, w->order.len)) {
            w->failed = true;
            break;
        }
        ptrvec_push(&w->scratch, &w->order, (void *)n);
        if (n->loc.file && n->loc.file != w->file) {
            sb_printf(w->why, "a node at %s:%d:%d is not in %s", n->loc.file->name, n->loc.line, n->loc.col,
                      w->file->name);
            w->failed = true;
        }
        if ((n->ops && (n->kind != AST_COMPARISON || n->nkids < 2)) || !n->kids != !n->nkids) {
            sb_printf(w->why, "a node of kind %d at line %d has operators or kids as no parser's", (int)n->kind,
                      n->loc.line);
            w->failed = true;
        }
        for (int i = n->nkids - 1; i >= 0; i--)
            ptrvec_push(&w->scratch, &stack, n->kids[i]);
    }
    if (w->scratch.failed)
        w->failed = true;
}

bool ast_save(StrBuf *out, const Node *root, const SrcFile *file, StrBuf *why)
{
    Writer w = { .file = file, .why = why };
    number_nodes(&w, root);
    StrBuf body = { 0 };
    uint64_t nslots = 0, nops = 0;
    int line = 0;
    for (int i = 0; i < w.order.len && !w.failed; i++) {
        const Node *n = w.order.items[i];
        int64_t value;
        memcpy(&value, &n->ival, sizeof value);
        int has = (n->name ? HAS_NAME : 0) | (n->qual ? HAS_QUAL : 0) | (n->flags ? HAS_FLAGS : 0) |
                  (n->lit ? HAS_LIT : 0) | (value ? HAS_VALUE : 0) | (n->kids ? HAS_KIDS : 0) | (n->ops ? HAS_OPS : 0) |
                  (n->loc.file ? 0 : NO_FILE);
        char head[2] = { (char)n->kind, (char)has };
        sb_putn(&body, head, 2);
        int64_t dl = (int64_t)n->loc.line - line;
        put_uint(&body, dl < 0 ? ((uint64_t)(-dl) << 1) - 1 : (uint64_t)dl << 1);
        line = n->loc.line;
        put_uint(&body, (uint32_t)n->loc.col);
        if (has & HAS_NAME)
            put_uint(&body, str_ref(&w, n->name));
        if (has & HAS_QUAL)
            put_uint(&body, str_ref(&w, n->qual));
        if (has & HAS_FLAGS)
            put_uint(&body, (uint32_t)n->flags);
        if (has & HAS_LIT)
            put_uint(&body, (uint32_t)n->lit);
        if (has & HAS_VALUE) {
            unsigned char b[8];
            for (int k = 0; k < 8; k++)
                b[k] = (unsigned char)((uint64_t)value >> (8 * k));
            sb_putn(&body, (const char *)b, 8);
        }
        if (has & HAS_KIDS) {
            put_uint(&body, (uint32_t)n->nkids);
            nslots += (uint64_t)n->nkids;
            for (int k = 0; k < n->nkids; k++)
                put_uint(&body, n->kids[k] ? (uint64_t)node_index_get(&w.seen, n->kids[k]) + 1 : 0);
        }
        if (has & HAS_OPS) {
            nops += (uint64_t)(n->nkids - 1);
            for (int k = 0; k + 1 < n->nkids; k++)
                put_uint(&body, str_ref(&w, n->ops[k]));
        }
    }
    bool ok = !w.failed && !body.failed && !w.strarea.failed;
    if (ok) {
        sb_putn(out, astbin_magic, sizeof astbin_magic);
        put_uint(out, (uint64_t)w.order.len);
        put_uint(out, nslots);
        put_uint(out, nops);
        put_uint(out, w.strarea.len);
        sb_putn(out, w.strarea.data ? w.strarea.data : "", w.strarea.len);
        sb_putn(out, body.data ? body.data : "", body.len);
        ok = !out->failed;
    }
    if (!ok && !why->len)
        sb_puts(why, "out of memory");
    sb_free(&body);
    sb_free(&w.strarea);
    node_index_free(&w.seen);
    arena_free(&w.scratch);
    return ok;
}

/* ---- reading ---------------------------------------------------------------------------------------- */

typedef struct Reader {
    const unsigned char *p, *end;
    bool bad;
} Reader;

static uint64_t get_uint_long(Reader *r)
{
    uint64_t v = 0;
    for (int shift = 0; r->p < r->end && shift < 64; shift += 7) {
        unsigned b = *r->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    r->bad = true;
    return 0;
}

/* Most numbers are one byte: a node's kind, column, line step, kid count and kids nearby. */
static inline uint64_t get_uint(Reader *r)
{
    if (r->p < r->end && *r->p < 0x80)
        return *r->p++;
    return get_uint_long(r);
}

/* A string reference (get_uint's) as a pointer into the string area of nstr bytes; NULL for 0. */
static const char *get_str(Reader *r, const char *strs, uint64_t nstr)
{
    uint64_t ref = get_uint(r);
    if (ref > nstr) {
        r->bad = true;
        return NULL;
    }
    return ref ? strs + ref - 1 : NULL;
}

Node *ast_load(Arena *a, const unsigned char *data, size_t len, const SrcFile *file, int line_offset)
{
    Reader r = { data + sizeof astbin_magic, data + len, false };
    if (len < sizeof astbin_magic || memcmp(data, astbin_magic, sizeof astbin_magic) != 0)
        return NULL;
    uint64_t nnodes = get_uint(&r), nslots = get_uint(&r), nops = get_uint(&r), nstr = get_uint(&r);
    if (r.bad || !nnodes || nnodes > (1u << 30) || nslots > (1u << 30) || nops > (1u << 30) ||
        nstr > (uint64_t)(r.end - r.p) || (nstr && r.p[nstr - 1] != 0))
        return NULL;
    const char *strs = (const char *)r.p;
    r.p += nstr;
    Node *nodes = arena_alloc(a, sizeof(Node) * nnodes);
    Node **slots = nslots ? arena_alloc(a, sizeof(Node *) * nslots) : NULL;
    const char **ops = nops ? arena_alloc(a, sizeof(char *) * nops) : NULL;
    if (!nodes || (nslots && !slots) || (nops && !ops))
        return NULL;
    uint64_t slot = 0, op = 0;
    int line = 0;
    for (uint64_t i = 0; i < nnodes && !r.bad; i++) {
        Node *n = &nodes[i];
        if (r.end - r.p < 2) {
            r.bad = true;
            break;
        }
        n->kind = (NodeKind)r.p[0];
        int has = r.p[1];
        r.p += 2;
        uint64_t zz = get_uint(&r);
        line += (int)(zz & 1 ? -(int64_t)((zz + 1) >> 1) : (int64_t)(zz >> 1));
        n->loc = (SrcLoc){ has & NO_FILE ? NULL : file, line + (has & NO_FILE ? 0 : line_offset), (int)get_uint(&r) };
        if (has & HAS_NAME)
            n->name = get_str(&r, strs, nstr);
        if (has & HAS_QUAL)
            n->qual = get_str(&r, strs, nstr);
        if (has & HAS_FLAGS)
            n->flags = (int)get_uint(&r);
        if (has & HAS_LIT)
            n->lit = (LitType)get_uint(&r);
        if (has & HAS_VALUE) {
            if (r.end - r.p < 8) {
                r.bad = true;
                break;
            }
            uint64_t v = 0;
            for (int k = 0; k < 8; k++)
                v |= (uint64_t)r.p[k] << (8 * k);
            r.p += 8;
            n->uval = v;
        }
        if (has & HAS_KIDS) {
            uint64_t nk = get_uint(&r);
            if (!nk || nk > nslots - slot) {
                r.bad = true;
                break;
            }
            /* an empty kids array still points somewhere, as the parser's did */
            n->kids = slots + slot;
            n->nkids = (int)nk;
            for (uint64_t k = 0; k < nk; k++) {
                uint64_t ref = get_uint(&r);
                if (ref > nnodes)
                    r.bad = true;
                else
                    slots[slot + k] = ref ? &nodes[ref - 1] : NULL;
            }
            slot += nk;
        }
        if (has & HAS_OPS) {
            uint64_t no = (uint64_t)n->nkids - 1;
            if (n->nkids < 2 || no > nops - op) {
                r.bad = true;
                break;
            }
            n->ops = ops + op;
            for (uint64_t k = 0; k < no; k++)
                ops[op + k] = get_str(&r, strs, nstr);
            op += no;
        }
    }
    if (r.bad || r.p != r.end || slot != nslots || op != nops)
        return NULL;
    return &nodes[0];
}

/* ---- comparing ---------------------------------------------------------------------------------------- */

static bool same_str(const char *x, const char *y)
{
    return x == y || (x && y && strcmp(x, y) == 0);
}

bool ast_equal(const Node *x, const SrcFile *fx, const Node *y, const SrcFile *fy, int line_offset, StrBuf *why)
{
    NodeIndex sx = { 0 }, sy = { 0 };
    Arena scratch = { 0 };
    PtrVec stack = { 0 };
    ptrvec_push(&scratch, &stack, (void *)x);
    ptrvec_push(&scratch, &stack, (void *)y);
    bool ok = true;
    int count = 0;
    while (ok && stack.len >= 2 && !scratch.failed) {
        const Node *b = stack.items[--stack.len], *a = stack.items[--stack.len];
        if (!a || !b) {
            if (a || b) {
                sb_printf(why, "a NULL kid against a node (node %d)", count);
                ok = false;
            }
            continue;
        }
        int ia = node_index_get(&sx, a), ib = node_index_get(&sy, b);
        if (ia != ib) {
            sb_printf(why, "shared nodes differ at %d:%d", a->loc.line, a->loc.col);
            ok = false;
            break;
        }
        if (ia >= 0)
            continue;
        if (!node_index_put(&sx, a, count) || !node_index_put(&sy, b, count)) {
            sb_puts(why, "out of memory");
            ok = false;
            break;
        }
        count++;
        int64_t va, vb;
        memcpy(&va, &a->ival, sizeof va);
        memcpy(&vb, &b->ival, sizeof vb);
        bool same = a->kind == b->kind && (a->loc.file == fx) == (b->loc.file == fy) &&
                    (a->loc.file == fx || a->loc.file == b->loc.file) &&
                    a->loc.line + (a->loc.file == fx ? line_offset : 0) == b->loc.line && a->loc.col == b->loc.col &&
                    same_str(a->name, b->name) && same_str(a->qual, b->qual) && a->flags == b->flags &&
                    a->lit == b->lit && va == vb && a->nkids == b->nkids && !a->kids == !b->kids && !a->ops == !b->ops;
        for (int k = 0; same && a->ops && k + 1 < a->nkids; k++)
            same = same_str(a->ops[k], b->ops[k]);
        if (!same) {
            StrBuf sa = { 0 }, sbb = { 0 };
            ast_print(&sa, a);
            ast_print(&sbb, b);
            sb_printf(why, "node %d differs: kind %d at %d:%d `%.80s` against kind %d at %d:%d `%.80s`", count,
                      (int)a->kind, a->loc.line, a->loc.col, sa.data ? sa.data : "", (int)b->kind, b->loc.line,
                      b->loc.col, sbb.data ? sbb.data : "");
            sb_free(&sa);
            sb_free(&sbb);
            ok = false;
            break;
        }
        for (int k = a->nkids - 1; k >= 0; k--) {
            ptrvec_push(&scratch, &stack, a->kids[k]);
            ptrvec_push(&scratch, &stack, b->kids[k]);
        }
    }
    if (ok && scratch.failed) {
        sb_puts(why, "out of memory");
        ok = false;
    }
    node_index_free(&sx);
    node_index_free(&sy);
    arena_free(&scratch);
    return ok;
}
