/* ir.c: building, printing and verifying juke's lowered and typed IR. */
#include "ir.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first instructions and slots come with the function, so that f->insts
 * and f->slots are never NULL: when growing them later fails, ir_emit and
 * ir_new_slot return index 0, which stays a valid (if meaningless) place to
 * write until the arena's failed flag is seen at the stage boundary. */
IrFunc *ir_func_new(Arena *a, const char *name, SrcLoc loc)
{
    IrFunc *f = arena_alloc(a, sizeof(IrFunc) + sizeof(IrInst) * 8 + sizeof(IrSlot) * 4);
    if (f) {
        f->name = name;
        f->loc = loc;
        f->insts = (IrInst *)(f + 1);
        f->cap = 8;
        f->slots = (IrSlot *)(f->insts + 8);
        f->slotcap = 4;
    }
    return f;
}

int ir_emit(Arena *a, IrFunc *f, IrOp op, SrcLoc loc)
{
    IrInst *insts = arena_grow(a, f->insts, f->ninsts, &f->cap, sizeof(IrInst), 32);
    if (!insts)
        return 0; /* the arena's failed flag is checked at the stage boundary */
    f->insts = insts;
    IrInst *in = &f->insts[f->ninsts];
    memset(in, 0, sizeof *in);
    in->op = op;
    in->loc = loc;
    in->slot = -1;
    in->label = -1;
    return f->ninsts++;
}

int ir_new_slot(Arena *a, IrFunc *f, const char *name, SrcLoc loc)
{
    IrSlot *slots = arena_grow(a, f->slots, f->nslots, &f->slotcap, sizeof(IrSlot), 16);
    if (!slots)
        return 0;
    f->slots = slots;
    IrSlot *s = &f->slots[f->nslots];
    memset(s, 0, sizeof *s);
    s->name = name;
    s->loc = loc;
    return f->nslots++;
}

int ir_new_label(IrFunc *f)
{
    return f->nlabels++;
}

void ir_set_args(Arena *a, IrFunc *f, int inst, const int *args, int nargs)
{
    int *copy = nargs ? arena_alloc(a, sizeof(int) * (size_t)nargs) : NULL;
    if (nargs && !copy)
        return;
    if (nargs)
        memcpy(copy, args, sizeof(int) * (size_t)nargs);
    f->insts[inst].args = copy;
    f->insts[inst].nargs = nargs;
}

/* ---- printing ----
 * Names, constants and slot reads are shown inline where they are used, as
 * Julia's @code_lowered shows them; the remaining statements are numbered in
 * order (%1, %2, ...). */

static bool ir_inline(const IrInst *in)
{
    return in->op == IR_NAME || in->op == IR_CONST || in->op == IR_SLOT;
}

static void print_const(StrBuf *sb, const IrInst *in)
{
    switch (in->lit) {
    case LIT_NONE: sb_puts(sb, in->name ? in->name : "nothing"); break;
    case LIT_FLOAT16: sb_puts(sb, "Float16(π)"); break;
    case LIT_FLOAT32:
    case LIT_FLOAT64: {
        /* the shortest digits that read back to the same value, as Julia prints floats */
        char buf[64];
        bool f32 = in->lit == LIT_FLOAT32;
        for (int prec = f32 ? 6 : 15; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, in->fval);
            double back = strtod(buf, NULL);
            if (f32 ? (float)back == (float)in->fval : back == in->fval)
                break;
        }
        if (f32) {
            /* 1.5f0 style: Julia writes the exponent after f */
            char *e = strchr(buf, 'e');
            if (e) {
                *e = 0;
                sb_printf(sb, "%sf%d", buf, atoi(e + 1));
            } else {
                sb_printf(sb, "%sf0", buf);
            }
        } else {
            sb_puts(sb, buf);
            if (!strpbrk(buf, ".eEn"))
                sb_puts(sb, ".0");
        }
        break;
    }
    case LIT_UINT8:
    case LIT_UINT16:
    case LIT_UINT32:
    case LIT_UINT64: sb_printf(sb, "0x%" PRIx64, in->uval); break;
    default: sb_printf(sb, "%" PRId64, in->ival); break;
    }
}

static void print_value(StrBuf *sb, const IrFunc *f, const int *num, int v)
{
    if (v < 0 || v >= f->ninsts) {
        sb_puts(sb, "%?");
        return;
    }
    const IrInst *in = &f->insts[v];
    if (in->op == IR_NAME)
        sb_puts(sb, in->name);
    else if (in->op == IR_CONST)
        print_const(sb, in);
    else if (in->op == IR_SLOT)
        sb_puts(sb, f->slots[in->slot].name);
    else
        sb_printf(sb, "%%%d", num[v]);
}

void ir_print(StrBuf *sb, const IrFunc *f)
{
    int *num = calloc((size_t)f->ninsts + 1, sizeof(int));
    if (!num) {
        sb->failed = true;
        return;
    }
    int k = 0;
    for (int i = 0; i < f->ninsts; i++)
        if (f->insts[i].op == IR_CALL || f->insts[i].op == IR_GETFIELD || f->insts[i].op == IR_TUPLE)
            num[i] = ++k;
    /* Labels print as L1, L2, ... in order of appearance; a run of adjacent labels
     * is one place (printed once), and a label no goto names is not printed. */
    int *rep = calloc((size_t)f->nlabels + 1, sizeof(int));  /* label -> first label of its run */
    int *lnum = calloc((size_t)f->nlabels + 1, sizeof(int)); /* representative -> printed number */
    if (!rep || !lnum) {
        free(num);
        free(rep);
        free(lnum);
        sb->failed = true;
        return;
    }
    for (int i = 0, run = -1; i < f->ninsts; i++) {
        const IrInst *in = &f->insts[i];
        if (in->op == IR_LABEL && in->label >= 0 && in->label < f->nlabels) {
            if (run < 0)
                run = in->label;
            rep[in->label] = run;
        } else if (!ir_inline(in)) {
            run = -1;
        }
    }
    for (int i = 0; i < f->ninsts; i++) {
        const IrInst *in = &f->insts[i];
        if ((in->op == IR_GOTO || in->op == IR_GOTOIFNOT) && in->label >= 0 && in->label < f->nlabels)
            lnum[rep[in->label]] = -1; /* named by a goto */
    }
    int nl = 0;
    for (int i = 0; i < f->ninsts; i++) {
        const IrInst *in = &f->insts[i];
        if (in->op == IR_LABEL && in->label >= 0 && in->label < f->nlabels && rep[in->label] == in->label &&
            lnum[in->label] == -1)
            lnum[in->label] = ++nl;
    }
    sb_printf(sb, "%s(", f->name);
    for (int i = 0; i < f->nparams; i++) {
        sb_printf(sb, "%s%s", i ? ", " : "", f->slots[i].name);
        if (f->typed) {
            sb_puts(sb, "::");
            ty_print(sb, f->slots[i].type);
        }
    }
    sb_puts(sb, ")");
    if (f->loc.file)
        sb_printf(sb, " @ %s:%d", f->loc.file->name, f->loc.line);
    sb_puts(sb, "\n");
    int lastline = -1;
    for (int i = 0; i < f->ninsts; i++) {
        const IrInst *in = &f->insts[i];
        if (ir_inline(in))
            continue;
        size_t start = sb->len;
        if (in->op == IR_LABEL) {
            if (in->label < 0 || in->label >= f->nlabels || rep[in->label] != in->label || lnum[in->label] <= 0)
                continue;
            sb_printf(sb, "  L%d:", lnum[in->label]);
        } else {
            char nb[16] = "";
            if (in->op == IR_CALL || in->op == IR_GETFIELD || in->op == IR_TUPLE)
                snprintf(nb, sizeof nb, "%%%d", num[i]);
            sb_printf(sb, "  %5s ", nb);
        }
        switch (in->op) {
        case IR_ASSIGN:
            sb_printf(sb, "  %s = ", f->slots[in->slot].name);
            print_value(sb, f, num, in->args[0]);
            break;
        case IR_CALL: {
            sb_puts(sb, "= ");
            if (in->flags & IRF_INBOUNDS)
                sb_puts(sb, "@inbounds ");
            if (in->callee && (in->flags & IRF_SELFCALL)) { /* a closure called: invoke (%3)(x) */
                sb_puts(sb, "invoke (");
                print_value(sb, f, num, in->args[0]);
                sb_puts(sb, ")");
            } else if (in->callee) {
                sb_printf(sb, "invoke %s", in->callee->method->name);
            } else {
                print_value(sb, f, num, in->args[0]);
            }
            sb_puts(sb, "(");
            if (in->name) { /* #print and #throw: the format first */
                sb_puts(sb, "\"");
                for (const char *c = in->name; *c; c++)
                    sb_puts(sb, *c == '\n' ? "\\n" : *c == '"' ? "\\\"" : (char[2]){ *c, 0 });
                sb_puts(sb, in->nargs > 1 ? "\", " : "\"");
            }
            for (int a = 1; a < in->nargs; a++) {
                if (a > 1)
                    sb_puts(sb, ", ");
                print_value(sb, f, num, in->args[a]);
            }
            sb_puts(sb, ")");
            break;
        }
        case IR_GETFIELD:
            sb_puts(sb, "= ");
            print_value(sb, f, num, in->args[0]);
            sb_printf(sb, ".%s", in->name);
            break;
        case IR_TUPLE:
            sb_puts(sb, "= (");
            for (int a = 0; a < in->nargs; a++) {
                if (a)
                    sb_puts(sb, ", ");
                print_value(sb, f, num, in->args[a]);
            }
            sb_puts(sb, in->nargs == 1 ? ",)" : ")");
            break;
        case IR_GOTO:
            sb_printf(sb, "  goto L%d", in->label >= 0 && in->label < f->nlabels ? lnum[rep[in->label]] : in->label);
            break;
        case IR_GOTOIFNOT:
            sb_printf(sb, "  goto L%d if not ",
                      in->label >= 0 && in->label < f->nlabels ? lnum[rep[in->label]] : in->label);
            print_value(sb, f, num, in->args[0]);
            break;
        case IR_RETURN:
            sb_puts(sb, "  return ");
            if (in->nargs)
                print_value(sb, f, num, in->args[0]);
            else
                sb_puts(sb, "nothing");
            break;
        default: break;
        }
        if (f->typed && in->type && in->op != IR_GOTO && in->op != IR_GOTOIFNOT && in->op != IR_LABEL &&
            in->op != IR_RETURN) {
            sb_puts(sb, "::");
            ty_print(sb, in->type);
        }
        if (in->op != IR_LABEL && in->loc.line != lastline) {
            size_t w = 0; /* columns, not bytes: ÷ and ≤ are one column each */
            for (size_t b = start; b < sb->len && sb->data; b++)
                w += ((unsigned char)sb->data[b] & 0xc0) != 0x80;
            sb_printf(sb, "%*s# line %d", w < 44 ? (int)(44 - w) : 1, "", in->loc.line);
            lastline = in->loc.line;
        }
        sb_puts(sb, "\n");
    }
    free(num);
    free(rep);
    free(lnum);
}

bool ir_verify(const IrFunc *f, Diags *d)
{
    bool ok = true;
    char *label_seen = calloc((size_t)f->nlabels + 1, 1);
    if (!label_seen)
        return false;
    for (int i = 0; i < f->ninsts; i++) {
        const IrInst *in = &f->insts[i];
        for (int a = 0; a < in->nargs; a++) {
            int v = in->args[a];
            if (v < 0 || v >= f->ninsts || v == i) {
                diag_kind_error(d, DIAG_INVALID_IR, in->loc, "%s: instruction %d uses undefined value %d", f->name, i,
                                v);
                ok = false;
            }
        }
        if ((in->op == IR_SLOT || in->op == IR_ASSIGN) && (in->slot < 0 || in->slot >= f->nslots)) {
            diag_kind_error(d, DIAG_INVALID_IR, in->loc, "%s: instruction %d uses slot %d of %d", f->name, i, in->slot,
                            f->nslots);
            ok = false;
        }
        if (in->op == IR_LABEL || in->op == IR_GOTO || in->op == IR_GOTOIFNOT) {
            if (in->label < 0 || in->label >= f->nlabels) {
                diag_kind_error(d, DIAG_INVALID_IR, in->loc, "%s: instruction %d names label %d of %d", f->name, i,
                                in->label, f->nlabels);
                ok = false;
            } else if (in->op == IR_LABEL) {
                if (label_seen[in->label]) {
                    diag_kind_error(d, DIAG_INVALID_IR, in->loc, "%s: label L%d defined twice", f->name, in->label);
                    ok = false;
                }
                label_seen[in->label] = 1;
            }
        }
        if (in->op == IR_ASSIGN && in->nargs != 1) {
            diag_kind_error(d, DIAG_INVALID_IR, in->loc, "%s: assignment without a value", f->name);
            ok = false;
        }
        if (f->typed && in->op != IR_LABEL && in->op != IR_GOTO && in->op != IR_GOTOIFNOT && in->op != IR_RETURN &&
            in->op != IR_ASSIGN && !in->type) {
            diag_kind_error(d, DIAG_INVALID_IR, in->loc, "%s: value %d has no type after inference", f->name, i);
            ok = false;
        }
        /* each built-in row's contract (builtins.def): a typed call names a user function or a built-in that
         * code generation knows, and carries an operand type where the row needs one */
        if (f->typed && in->op == IR_CALL && !in->callee && in->type &&
            (in->builtin == BI_NONE || (builtin_flags(in->builtin) & BF_FRONT))) {
            diag_kind_error(d, DIAG_INVALID_IR, in->loc, "%s: call %d is not resolved after inference (%s)", f->name, i,
                            builtin_name(in->builtin));
            ok = false;
        }
        if (f->typed && in->op == IR_CALL && !in->callee && (builtin_flags(in->builtin) & BF_OPTYPE) && !in->optype) {
            diag_kind_error(d, DIAG_INVALID_IR, in->loc, "%s: built-in %s (value %d) has no operand type", f->name,
                            builtin_name(in->builtin), i);
            ok = false;
        }
    }
    for (int i = 0; i < f->ninsts; i++) {
        const IrInst *in = &f->insts[i];
        if ((in->op == IR_GOTO || in->op == IR_GOTOIFNOT) && in->label >= 0 && in->label < f->nlabels &&
            !label_seen[in->label]) {
            diag_kind_error(d, DIAG_INVALID_IR, in->loc, "%s: goto to undefined label L%d", f->name, in->label);
            ok = false;
        }
    }
    free(label_seen);
    return ok;
}
