/* broadcast.c: fused broadcasts. "c .= a .* b .+ 2f0" over named arrays and
 * scalars becomes one generated kernel, as Julia's broadcast fuses the dots
 * of an expression into one loop. When every array operand has the
 * destination's length (no dimension expanded), each work-item does
 * BC_PER_ITEM elements, a workgroup's share strided by its size so that each
 * round of loads is contiguous across the work-items, and it loads all its
 * operands before it stores (more loads in flight: a memory-bound broadcast
 * otherwise waits out one load's latency per element):
 *
 *   function juke_broadcast!(c, a, b)             # the operands, in the caller's order
 *       juke_g = workgroupDim().x
 *       juke_i1 = workitemIdx().x + (workgroupIdx().x - 1) * juke_g * 4
 *       juke_i2 = juke_i1 + juke_g; ...
 *       juke_n = length(c)
 *       if juke_i4 <= juke_n                       # the whole share: no test per element
 *           @inbounds bc1_a = a[juke_i1]; ...     # every operand of every element first
 *           @inbounds c[juke_i1] = bc1_a * bc1_b + 2f0; ...
 *       else                                       # the last workgroup's tail
 *           if juke_i1 <= juke_n ... end; ...
 *       end
 *       return
 *   end
 *
 * Loads before stores is Julia's order too: an operand that is the
 * destination itself is read at the element being written, and Julia copies
 * any other operand that may alias the destination before it broadcasts.
 * Otherwise (an operand expanded along a singleton dimension) one element per
 * work-item:
 *
 *   function juke_broadcast!(c, a, b)
 *       juke_i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x
 *       if juke_i <= length(c)
 *           juke_r = juke_i - 1                    # the destination's Cartesian index
 *           juke_n1 = size(c, 1); ...
 *           juke_I1 = juke_r % juke_n1 + 1; ...
 *           @inbounds bc_a = a[juke_i]             # an operand of c's shape: its linear index
 *           @inbounds bc_b = b[juke_I1, 1]         # a singleton dimension reads index 1
 *           @inbounds c[juke_i] = bc_a * bc_b + 2f0  # the expression, its dots dropped
 *       end
 *       return
 *   end
 *
 * Julia's rules (Base.Broadcast's check_broadcast_axes against the
 * destination): each dimension of an operand is 1 or the destination's, a
 * dimension past an array's last is 1, and an operand has no more non-singleton
 * dimensions than the destination. Which dimensions are expanded is part of the
 * source, so each pattern is its own kernel, cached like any other. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "arrayops.h"

/* Elements per work-item of a broadcast whose operands all have the destination's shape. */
enum { BC_PER_ITEM = 4 };

/* In the right-hand side (Bcast.rhs), where an array operand's element variable takes its element's
 * number: "bc" BC_SLOT "_a" reads bc_a (one element per work-item) or bc2_a (the second of BC_PER_ITEM). */
#define BC_SLOT "\x01"

/* The expression's text with each dotted operator and call undotted, each
 * array operand's name replaced by its loaded element, and the destination
 * split off. */
typedef struct Bcast {
    const char *expr;
    char dest[64];
    StrBuf rhs;
    const juke_named_arg *ops;
    int nops;
    int dest_op; /* the destination's index in ops */
    bool linear; /* every array operand has the destination's shape: bc_source_linear's kernel */
} Bcast;

static bool ident_start(int c)
{
    return isalpha(c) || c == '_' || c >= 0x80;
}

static bool ident_char(int c)
{
    return isalnum(c) || c == '_' || c == '!' || c >= 0x80;
}

static int find_op(const Bcast *b, const char *name, size_t n)
{
    for (int i = 0; i < b->nops; i++)
        if (strlen(b->ops[i].name) == n && memcmp(b->ops[i].name, name, n) == 0)
            return i;
    return -1;
}

static bool is_array_op(const Bcast *b, int i)
{
    return i >= 0 && b->ops[i].value.is_array;
}

/* A message about the expression: its column, the expression and a caret, as a source error reads. */
static juke_status bc_fail(juke_context *ctx, const Bcast *b, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static juke_status bc_fail(juke_context *ctx, const Bcast *b, size_t col, const char *fmt, ...)
{
    StrBuf sb = { 0 };
    sb_printf(&sb, "juke_broadcast:1:%zu: error: ", col + 1);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    sb_printf(&sb, "\n 1 | %s\n   | %*s^", b->expr, (int)col, "");
    api_set_error(ctx, sb_take(&sb));
    return JUKE_ERR_ARGUMENT;
}

/* Whether the token before position p (skipping blanks) names an array operand. */
static bool array_before(const Bcast *b, const char *s, size_t p)
{
    while (p > 0 && s[p - 1] == ' ')
        p--;
    size_t end = p;
    while (p > 0 && ident_char((unsigned char)s[p - 1]))
        p--;
    return end > p && is_array_op(b, find_op(b, s + p, end - p));
}

/* Whether the token after position p (skipping blanks) names an array operand. */
static bool array_after(const Bcast *b, const char *s, size_t p)
{
    while (s[p] == ' ')
        p++;
    size_t start = p;
    while (ident_char((unsigned char)s[p]))
        p++;
    return p > start && is_array_op(b, find_op(b, s + start, p - start));
}

/* expr := ["@."] dest ".=" rhs | "@." dest "=" rhs */
static juke_status bc_parse(juke_context *ctx, Bcast *b)
{
    const char *s = b->expr;
    size_t p = 0;
    bool all_dotted = false;
    while (s[p] == ' ')
        p++;
    if (strncmp(s + p, "@.", 2) == 0) {
        all_dotted = true;
        p += 2;
        while (s[p] == ' ')
            p++;
    }
    size_t dstart = p;
    while (ident_char((unsigned char)s[p]) && s[p] != '!')
        p++;
    size_t dlen = p - dstart;
    while (s[p] == ' ')
        p++;
    if (dlen == 0 || !ident_start((unsigned char)s[dstart]))
        return bc_fail(ctx, b, dstart, "expected the destination array's name: \"c .= a .* b\"");
    if (strncmp(s + p, ".=", 2) == 0)
        p += 2;
    else if (all_dotted && s[p] == '=' && s[p + 1] != '=')
        p += 1;
    else
        return bc_fail(ctx, b, p, "expected \".=\": a broadcast assigns into its destination, \"c .= a .* b\"");
    if (dlen >= sizeof b->dest)
        return bc_fail(ctx, b, dstart, "the destination's name is too long");
    memcpy(b->dest, s + dstart, dlen);
    b->dest[dlen] = 0;
    b->dest_op = find_op(b, b->dest, dlen);
    if (b->dest_op < 0)
        return bc_fail(ctx, b, dstart, "no operand named %s was given", b->dest);
    if (!b->ops[b->dest_op].value.is_array)
        return bc_fail(ctx, b, dstart, "the destination %s is a scalar: a broadcast writes into an array", b->dest);
    size_t rstart = p;
    while (s[rstart] == ' ')
        rstart++;
    if (!s[rstart])
        return bc_fail(ctx, b, rstart, "expected an expression after \".=\"");
    /* the right-hand side, token by token */
    p = rstart;
    while (s[p]) {
        unsigned char c = (unsigned char)s[p];
        if (isdigit(c) ||
            (c == '.' && isdigit((unsigned char)s[p + 1]))) { /* a number literal: 2, 2.5, 2f0, 1e-3, 0x1f */
            size_t q = p;
            while (isalnum((unsigned char)s[q]) || s[q] == '.' || s[q] == '_' ||
                   ((s[q] == '-' || s[q] == '+') && q > p && (s[q - 1] == 'e' || s[q - 1] == 'f') &&
                    !(s[p] == '0' && s[p + 1] == 'x'))) {
                if (s[q] == '.' &&
                    (s[q + 1] == '*' || s[q + 1] == '+' || s[q + 1] == '-' || s[q + 1] == '/' || s[q + 1] == '^'))
                    break; /* "2.* a" is Julia's syntax error; "2 .* a" is meant */
                q++;
            }
            sb_putn(&b->rhs, s + p, q - p);
            p = q;
        } else if (ident_start(c)) {
            size_t q = p;
            while (ident_char((unsigned char)s[q]) && !(s[q] == '!' && s[q + 1] == '='))
                q++;
            int op = find_op(b, s + p, q - p);
            if (op >= 0 && b->ops[op].value.is_array)
                sb_printf(&b->rhs, "bc" BC_SLOT "_%.*s", (int)(q - p), s + p);
            else
                sb_putn(&b->rhs, s + p, q - p);
            p = q;
            if (s[p] == '.' && s[p + 1] == '(') /* f.(x): the call, on elements */
                p++;
        } else if (c == '.' && s[p + 1] && strchr("+-*/^\\<>=!&|%", s[p + 1])) { /* a dotted operator: undotted */
            p++;
            while (s[p] && strchr("+-*/^\\<>=!&|%", s[p]))
                sb_putn(&b->rhs, s + p++, 1);
        } else if (c == '.' && (unsigned char)s[p + 1] == 0xc3 && (unsigned char)s[p + 2] == 0xb7) { /* .÷ */
            sb_putn(&b->rhs, s + p + 1, 2);
            p += 3;
        } else if (!all_dotted && (c == '*' || c == '/' || c == '^' || c == '\\') && s[p + 1] != '=' &&
                   (array_before(b, s, p) || array_after(b, s, p + 1))) {
            return bc_fail(ctx, b, p, "%c on an array is linear algebra in Julia, not elementwise: write .%c", c, c);
        } else if (c == ';' || c == '\n') {
            return bc_fail(ctx, b, p, "a broadcast is one expression");
        } else {
            sb_putn(&b->rhs, s + p, 1);
            p++;
        }
    }
    return JUKE_OK;
}

static void dims_text(StrBuf *sb, const juke_array *a)
{
    if (a->ndims == 1) {
        sb_printf(sb, "%lld-element", (long long)a->dims[0]);
        return;
    }
    for (int d = 0; d < a->ndims; d++)
        sb_printf(sb, "%s%lld", d ? "×" : "", (long long)a->dims[d]);
}

/* Check each array operand against the destination (Julia's check_broadcast_axes). */
static juke_status bc_check_shapes(juke_context *ctx, const Bcast *b)
{
    const juke_array *dst = b->ops[b->dest_op].value.v.array;
    for (int i = 0; i < b->nops; i++) {
        if (!b->ops[i].value.is_array)
            continue;
        const juke_array *a = b->ops[i].value.v.array;
        if (!a)
            return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_broadcast: operand %s is a NULL array", b->ops[i].name);
        if (a->dev != dst->dev)
            return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_broadcast: operand %s is on another device than %s",
                            b->ops[i].name, b->dest);
        int nd = a->ndims > dst->ndims ? a->ndims : dst->ndims;
        for (int d = 0; d < nd; d++) {
            int64_t ad = d < a->ndims ? a->dims[d] : 1, cd = d < dst->ndims ? dst->dims[d] : 1;
            if (ad != 1 && ad != cd) {
                StrBuf sb = { 0 };
                sb_printf(&sb,
                          "juke_broadcast: DimensionMismatch: array could not be broadcast to match destination: "
                          "%s is ",
                          b->ops[i].name);
                dims_text(&sb, a);
                sb_printf(&sb, ", %s is ", b->dest);
                dims_text(&sb, dst);
                sb_printf(&sb, " (dimension %d: %lld vs %lld)", d + 1, (long long)ad, (long long)cd);
                api_set_error(ctx, sb_take(&sb));
                return JUKE_ERR_ARGUMENT;
            }
        }
    }
    return JUKE_OK;
}

/* Whether array a is read at the destination's linear index: it has the destination's length and every
 * dimension it has is the destination's (trailing singletons aside). */
static bool same_shape(const juke_array *a, const juke_array *dst)
{
    return a->length == dst->length;
}

/* The right-hand side with each operand's element variable for element k (1..BC_PER_ITEM), 0 for the
 * one-element kernel's bc_a. */
static void put_rhs(StrBuf *sb, const Bcast *b, int k)
{
    for (const char *p = b->rhs.data ? b->rhs.data : ""; *p; p++) {
        if (*p != BC_SLOT[0])
            sb_putn(sb, p, 1);
        else if (k)
            sb_printf(sb, "%d", k);
    }
}

/* Element k's loads of every array operand and its store, at index juke_i<k>, indented by ind. */
static void put_loads(StrBuf *sb, const Bcast *b, int k, const char *ind)
{
    for (int i = 0; i < b->nops; i++)
        if (b->ops[i].value.is_array)
            sb_printf(sb, "%s@inbounds bc%d_%s = %s[juke_i%d]\n", ind, k, b->ops[i].name, b->ops[i].name, k);
}

static void put_store(StrBuf *sb, const Bcast *b, int k, const char *ind)
{
    sb_printf(sb, "%s@inbounds %s[juke_i%d] = ", ind, b->dest, k);
    put_rhs(sb, b, k);
    sb_puts(sb, "\n");
}

/* The kernel whose array operands all have the destination's shape: BC_PER_ITEM elements per work-item. */
static void bc_source_linear(StrBuf *sb, const Bcast *b)
{
    sb_puts(sb, "    juke_g = workgroupDim().x\n");
    sb_printf(sb, "    juke_i1 = workitemIdx().x + (workgroupIdx().x - 1) * juke_g * %d\n", BC_PER_ITEM);
    for (int k = 2; k <= BC_PER_ITEM; k++)
        sb_printf(sb, "    juke_i%d = juke_i%d + juke_g\n", k, k - 1);
    sb_printf(sb, "    juke_n = length(%s)\n    if juke_i%d <= juke_n\n", b->dest, BC_PER_ITEM);
    for (int k = 1; k <= BC_PER_ITEM; k++)
        put_loads(sb, b, k, "        ");
    for (int k = 1; k <= BC_PER_ITEM; k++)
        put_store(sb, b, k, "        ");
    sb_puts(sb, "    else\n");
    for (int k = 1; k <= BC_PER_ITEM; k++) {
        sb_printf(sb, "        if juke_i%d <= juke_n\n", k);
        put_loads(sb, b, k, "            ");
        put_store(sb, b, k, "            ");
        sb_puts(sb, "        end\n");
    }
    sb_puts(sb, "    end\n");
}

/* Whether every array operand has the destination's shape (bc_source_linear's kernel). */
static bool bc_linear(const Bcast *b)
{
    const juke_array *dst = b->ops[b->dest_op].value.v.array;
    for (int i = 0; i < b->nops; i++)
        if (b->ops[i].value.is_array && !same_shape(b->ops[i].value.v.array, dst))
            return false;
    return true;
}

static char *bc_source(const Bcast *b)
{
    const juke_array *dst = b->ops[b->dest_op].value.v.array;
    StrBuf sb = { 0 };
    sb_printf(&sb, "# %s\nfunction juke_broadcast!(", b->expr);
    for (int i = 0; i < b->nops; i++)
        sb_printf(&sb, "%s%s", i ? ", " : "", b->ops[i].name);
    sb_puts(&sb, ")\n");
    if (b->linear) {
        bc_source_linear(&sb, b);
        sb_puts(&sb, "    return\nend\n");
        return sb_take(&sb);
    }
    sb_puts(&sb, "    juke_i = workitemIdx().x + (workgroupIdx().x - 1) * workgroupDim().x\n");
    sb_printf(&sb, "    if juke_i <= length(%s)\n", b->dest);
    sb_puts(&sb, "        juke_r = juke_i - 1\n");
    for (int d = 0; d < dst->ndims; d++) {
        sb_printf(&sb, "        juke_n%d = size(%s, %d)\n", d + 1, b->dest, d + 1);
        sb_printf(&sb, "        juke_I%d = juke_r %% juke_n%d + 1\n", d + 1, d + 1);
        if (d + 1 < dst->ndims)
            sb_printf(&sb, "        juke_r = juke_r ÷ juke_n%d\n", d + 1);
    }
    for (int i = 0; i < b->nops; i++) {
        if (!b->ops[i].value.is_array)
            continue;
        const juke_array *a = b->ops[i].value.v.array;
        sb_printf(&sb, "        @inbounds bc_%s = %s[", b->ops[i].name, b->ops[i].name);
        if (same_shape(a, dst)) {
            sb_puts(&sb, "juke_i");
        } else {
            for (int d = 0; d < a->ndims; d++) {
                if (d >= dst->ndims || a->dims[d] == 1)
                    sb_printf(&sb, "%s1", d ? ", " : "");
                else
                    sb_printf(&sb, "%sjuke_I%d", d ? ", " : "", d + 1);
            }
        }
        sb_puts(&sb, "]\n");
    }
    sb_printf(&sb, "        @inbounds %s[juke_i] = ", b->dest);
    put_rhs(&sb, b, 0);
    sb_puts(&sb, "\n    end\n    return\nend\n");
    return sb_take(&sb);
}

/* Parse, check and generate; *src is malloc'd. */
static juke_status bc_prepare(juke_context *ctx, const char *expr, const juke_named_arg *ops, int nops, Bcast *b,
                              char **src)
{
    *src = NULL;
    memset(b, 0, sizeof *b);
    if (!ctx)
        return JUKE_ERR_ARGUMENT;
    if (!expr || (nops > 0 && !ops) || nops < 0)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_broadcast: NULL argument");
    b->expr = expr;
    b->ops = ops;
    b->nops = nops;
    for (int i = 0; i < nops; i++) {
        const char *n = ops[i].name;
        bool ok = n && ident_start((unsigned char)n[0]) && strlen(n) < 64;
        for (const char *q = n; ok && *q; q++)
            ok = ident_char((unsigned char)*q) && *q != '!';
        if (!ok)
            return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_broadcast: operand %d's name \"%s\" is not a Julia name",
                            i + 1, n ? n : "(null)");
        for (int j = 0; j < i; j++)
            if (strcmp(ops[j].name, n) == 0)
                return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_broadcast: two operands are named %s", n);
    }
    juke_status st = bc_parse(ctx, b);
    if (st == JUKE_OK)
        st = bc_check_shapes(ctx, b);
    if (st == JUKE_OK)
        b->linear = bc_linear(b);
    if (st == JUKE_OK && !(*src = bc_source(b)))
        st = api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    sb_free(&b->rhs);
    return st;
}

static juke_status bc_args(const juke_named_arg *ops, int nops, juke_arg **args)
{
    *args = calloc((size_t)nops + 1, sizeof **args);
    if (!*args)
        return JUKE_ERR_NOMEM;
    for (int i = 0; i < nops; i++)
        (*args)[i] = ops[i].value;
    return JUKE_OK;
}

juke_status juke_broadcast_source(juke_context *ctx, const char *expr, const juke_named_arg *ops, int nops, char **out)
{
    if (out)
        *out = NULL;
    if (!out)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_broadcast_source: NULL argument");
    Bcast b;
    return bc_prepare(ctx, expr, ops, nops, &b, out);
}

/* The broadcast's kernel module (loaded once per context) and its launch arguments: what both the launch
 * and the kernel handle need. */
static juke_status bc_setup(juke_context *ctx, const char *expr, const juke_named_arg *ops, int nops, Bcast *b,
                            juke_module **m, juke_arg **args)
{
    char *src;
    juke_status st = bc_prepare(ctx, expr, ops, nops, b, &src);
    *m = NULL;
    *args = NULL;
    if (st == JUKE_OK)
        st = aops_module(ctx, "juke_broadcast.jl", src, m);
    free(src);
    if (st == JUKE_OK && bc_args(ops, nops, args) != JUKE_OK)
        st = api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    return st;
}

juke_status juke_broadcast_kernel(juke_context *ctx, juke_device *dev, const char *expr, const juke_named_arg *ops,
                                  int nops, juke_kernel **out)
{
    if (!ctx && dev)
        ctx = dev->ctx;
    if (out)
        *out = NULL;
    if (!dev || !out)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_broadcast_kernel: NULL argument");
    Bcast b;
    juke_module *m;
    juke_arg *args;
    juke_status st = bc_setup(ctx, expr, ops, nops, &b, &m, &args);
    if (st == JUKE_OK)
        st = juke_kernel_for(dev, m, "juke_broadcast!", args, nops, out);
    free(args);
    return st;
}

juke_status juke_broadcast(juke_context *ctx, juke_device *dev, const char *expr, const juke_named_arg *ops, int nops)
{
    if (!ctx && dev)
        ctx = dev->ctx;
    if (!dev)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_broadcast: NULL argument");
    Bcast b;
    juke_module *m;
    juke_arg *args;
    juke_status st = bc_setup(ctx, expr, ops, nops, &b, &m, &args);
    if (st == JUKE_OK) {
        /* the linear kernel's work-item does BC_PER_ITEM elements */
        int64_t n = ops[b.dest_op].value.v.array->length;
        st = aops_launch_1d(dev, m, "juke_broadcast!", args, nops, b.linear ? (n + BC_PER_ITEM - 1) / BC_PER_ITEM : n,
                            false, 0);
    }
    free(args);
    return st;
}
