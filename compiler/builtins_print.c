/* builtins_print.c: the printing family. The formats of @rocprintf / @rocprint / @rocprintln and of
 * thrown exceptions' messages (printfmt.h: lowering calls them), and the typing rules of printing,
 * throwing and the execution-control intrinsics (rows in builtins.def). */
#include <stdio.h>
#include <string.h>

#include "builtins_type.h"
#include "printfmt.h"

bool printfmt_next(const char *fmt, size_t *pos, PrintConv *c)
{
    size_t i = *pos;
    for (;;) {
        const char *p = strchr(fmt + i, '%');
        if (!p)
            return false;
        i = (size_t)(p - fmt);
        if (p[1] == '%') {
            i += 2;
            continue;
        }
        break;
    }
    c->start = i++;
    c->conv = '?';
    bool ok = true;
    while (fmt[i] && strchr("-+ #0", fmt[i]))
        i++;
    while (fmt[i] && ((fmt[i] >= '0' && fmt[i] <= '9') || fmt[i] == '.' || fmt[i] == '*')) {
        if (fmt[i] == '*')
            ok = false;
        i++;
    }
    while (fmt[i] && strchr("hlqjztL", fmt[i]))
        i++;
    if (fmt[i]) {
        if (ok && strchr("diuxXoeEfFgGaAcsJR", fmt[i]))
            c->conv = fmt[i];
        i++;
    }
    c->end = i;
    *pos = i;
    return true;
}

/* Append s to sb as literal text of a format: % doubled. */
static void put_literal(StrBuf *sb, const char *s)
{
    for (; *s; s++)
        sb_puts(sb, *s == '%' ? "%%" : (char[2]){ *s, 0 });
}

static bool push_val(Arena *a, Node ***vals, int *n, int *cap, Node *v)
{
    Node **nv = arena_grow(a, *vals, *n, cap, sizeof(Node *), 8);
    if (!nv)
        return false;
    *vals = nv;
    (*vals)[(*n)++] = v;
    return true;
}

/* An interpolation, string(parts...) as the lexer writes "a $x b". */
static bool is_interpolation(const Node *k)
{
    return k->kind == AST_CALL && k->kids[0]->kind == AST_IDENT && strcmp(k->kids[0]->name, "string") == 0 &&
           (!k->kids[0]->qual || strcmp(k->kids[0]->qual, "Base") == 0);
}

static bool add_parts(Arena *a, StrBuf *sb, Node *const *parts, int n, Node ***vals, int *nv, int *cap)
{
    for (int i = 0; i < n; i++) {
        Node *k = parts[i];
        if (k->kind == AST_STRING)
            put_literal(sb, k->name);
        else if (k->kind == AST_SYMBOL)
            put_literal(sb, k->name);
        else if (is_interpolation(k)) {
            if (!add_parts(a, sb, k->kids + 1, k->nkids - 1, vals, nv, cap))
                return false;
        } else {
            sb_puts(sb, "%J");
            if (!push_val(a, vals, nv, cap, k))
                return false;
        }
    }
    return true;
}

static bool finish(Arena *a, Diags *d, SrcLoc loc, StrBuf *sb, Node **vals, int nv, PrintFormat *out)
{
    if (nv > 60) {
        diag_error(d, loc, "too many values to print (%d; at most 60)", nv);
        sb_free(sb);
        return false;
    }
    out->fmt = arena_strndup(a, sb->data ? sb->data : "", sb->len);
    sb_free(sb);
    out->vals = vals;
    out->nvals = nv;
    return out->fmt != NULL;
}

bool printfmt_message(Arena *a, Diags *d, Node *const *parts, int n, const char *prefix, PrintFormat *out)
{
    StrBuf sb = { 0 };
    Node **vals = NULL;
    int nv = 0, cap = 0;
    if (prefix)
        put_literal(&sb, prefix);
    if (!add_parts(a, &sb, parts, n, &vals, &nv, &cap)) {
        sb_free(&sb);
        return false;
    }
    out->mode = PRINT_LANE;
    return finish(a, d, n ? parts[0]->loc : (SrcLoc){ 0 }, &sb, vals, nv, out);
}

/* @rocprintf: the user's format, each %s of a string literal folded into the text. */
static bool printf_format(Arena *a, Diags *d, const Node *m, const Node *f, Node *const *args, int n, PrintFormat *out)
{
    StrBuf sb = { 0 };
    Node **vals = NULL;
    int nv = 0, cap = 0, next = 0;
    size_t pos = 0, lit = 0;
    PrintConv c;
    const char *fmt = f->name;
    while (printfmt_next(fmt, &pos, &c)) {
        sb_putn(&sb, fmt + lit, c.start - lit);
        lit = c.end;
        if (c.conv == '?' || c.conv == 'J' || c.conv == 'R') {
            diag_error(d, f->loc,
                       "@rocprintf: unsupported conversion \"%.*s\" (juke prints %%d %%i %%u %%x %%X %%o %%c %%s %%f "
                       "%%F %%e %%E %%g %%G %%a %%A and %%%%, with flags, width and precision)",
                       (int)(c.end - c.start), fmt + c.start);
            goto fail;
        }
        if (next >= n) {
            diag_error(d, m->loc, "@rocprintf: the format has more conversions than the %d argument%s given", n,
                       n == 1 ? "" : "s");
            goto fail;
        }
        Node *v = args[next++];
        if (v->kind == AST_STRING && c.conv == 's') {
            /* a constant string: its text, with the spec's flags, width and precision */
            char spec[48], text[1024];
            size_t k = 0;
            for (size_t i = c.start; i < c.end - 1 && k < sizeof spec - 3; i++)
                if (!strchr("hlqjztL", fmt[i]))
                    spec[k++] = fmt[i];
            spec[k++] = 's';
            spec[k] = '\0';
            int len = snprintf(text, sizeof text, spec, v->name);
            if (len >= (int)sizeof text) {
                diag_error(d, v->loc, "@rocprintf: a %%s string longer than %d bytes", (int)sizeof text - 1);
                goto fail;
            }
            put_literal(&sb, text);
        } else if (v->kind == AST_STRING || is_interpolation(v)) {
            diag_error(d, v->loc, "@rocprintf: %%%c takes a number, not a string", c.conv);
            goto fail;
        } else {
            sb_putn(&sb, fmt + c.start, c.end - c.start);
            if (!push_val(a, &vals, &nv, &cap, v))
                goto fail;
        }
    }
    sb_puts(&sb, fmt + lit);
    if (next < n) {
        diag_error(d, args[next]->loc, "@rocprintf: %d argument%s given but the format has %d conversion%s", n,
                   n == 1 ? "" : "s", next, next == 1 ? "" : "s");
        goto fail;
    }
    return finish(a, d, m->loc, &sb, vals, nv, out);
fail:
    sb_free(&sb);
    return false;
}

bool printfmt_macro(Arena *a, Diags *d, const Node *m, PrintFormat *out)
{
    static const char *const modes[] = {
        [PRINT_LANE] = "lane", [PRINT_WAVE] = "wave", [PRINT_GROUP] = "group", [PRINT_GRID] = "grid"
    };
    Node *const *k = m->kids;
    int n = m->nkids;
    /* AMDGPU.jl's default: once per workgroup; KernelAbstractions' @print and CUDA's @cuprintf (C's printf,
     * as old KernelAbstractions examples call CUDAnative.@cuprintf): every work-item */
    bool cuda = strcmp(m->name, "cuprintf") == 0;
    /* CUDA.jl's @cuprint / @cuprintln: @rocprint's interpolation, from every work-item */
    bool cuprint = strcmp(m->name, "cuprint") == 0 || strcmp(m->name, "cuprintln") == 0;
    out->mode = strcmp(m->name, "print") == 0 || cuda || cuprint ? PRINT_LANE : PRINT_GROUP;
    if (n > 0 && k[0]->kind == AST_SYMBOL) {
        int found = -1;
        for (int i = 0; i < 4; i++)
            if (strcmp(k[0]->name, modes[i]) == 0)
                found = i;
        if (found < 0) {
            diag_error(d, k[0]->loc, "@%s: unknown mode :%s (expected :lane, :wave, :group or :grid)", m->name,
                       k[0]->name);
            return false;
        }
        out->mode = (PrintMode)found;
        k++;
        n--;
    }
    if (strcmp(m->name, "rocprintf") == 0 || cuda) {
        if (n == 0 || k[0]->kind != AST_STRING) {
            diag_error(d, n ? k[0]->loc : m->loc,
                       n && is_interpolation(k[0])
                           ? "@rocprintf: the format cannot interpolate values ($x); pass them as arguments "
                             "to conversions such as %%d"
                           : "@rocprintf: the format must be a string literal");
            return false;
        }
        PrintMode mode = out->mode;
        bool ok = printf_format(a, d, m, k[0], k + 1, n - 1, out);
        out->mode = mode;
        return ok;
    }
    StrBuf sb = { 0 };
    Node **vals = NULL;
    int nv = 0, cap = 0;
    if (n == 0 &&
        (strcmp(m->name, "rocprint") == 0 || strcmp(m->name, "print") == 0 || strcmp(m->name, "cuprint") == 0)) {
        diag_error(d, m->loc, "@%s takes what to print: @%s \"x = $x\"", m->name, m->name);
        return false;
    }
    if (!add_parts(a, &sb, k, n, &vals, &nv, &cap)) {
        sb_free(&sb);
        return false;
    }
    if (strcmp(m->name, "rocprintln") == 0 || strcmp(m->name, "cuprintln") == 0)
        sb_puts(&sb, "\n");
    return finish(a, d, m->loc, &sb, vals, nv, out);
}

/* ---- typing rules ---- */

/* #print(values...) and #throw(values...) (lowering calls them by id; the format is in->name): each value
 * a number or Bool, each integer conversion taking an integer. Nothing. */
const Type *type_print(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)name;
    in->builtin = row->id;
    const char *fmt = in->name ? in->name : "";
    size_t pos = 0;
    PrintConv c;
    for (int i = 0; i < n; i++) {
        bool has = printfmt_next(fmt, &pos, &c);
        if (!ty_is_prim(a[i])) {
            infer_err(I, in->loc, "cannot print a value of type %s: kernels print numbers and Bool",
                      infer_tname(I, a[i]));
            return NULL;
        }
        if (has && strchr("diuxXoc", c.conv) && ty_is_float(a[i])) {
            infer_err(I, in->loc, "@rocprintf: %%%c takes an integer; argument %d is a %s", c.conv, i + 1,
                      infer_tname(I, a[i]));
            return NULL;
        }
    }
    return prim(I, TY_NOTHING);
}

/* trap(), debugtrap(), endpgm(): nothing; sendmsg(x[, y]) / sendmsghalt(x[, y]), device_sleep(x): integer
 * constants, nothing; memtime(), memrealtime(): UInt64. */
const Type *type_control(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    in->builtin = row->id;
    bool msg = row->id == BI_SENDMSG || row->id == BI_SENDMSGHALT, sleep = row->id == BI_DEVICE_SLEEP;
    if (n == 0 && (row->id == BI_MEMTIME || row->id == BI_MEMREALTIME))
        return prim(I, TY_UINT64);
    if (!msg && !sleep && n == 0)
        return prim(I, TY_NOTHING);
    /* the operands must be constants by code generation (LLVM folds Int32(2)) */
    if ((msg && (n == 1 || n == 2) && all_int(a, n)) || (sleep && n == 1 && ty_is_int(a[0])))
        return prim(I, TY_NOTHING);
    return infer_no_method(I, in, name, a, n);
}
