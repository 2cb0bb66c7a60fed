/* builtins_print_emit.c: emit rules (LLVM IR) of printing, throwing and execution control (rows in
 * builtins.def). A print writes one record into the print area of the exception buffer
 * (runtime/abi.h), reserved whole with one atomic add; NVPTX prints with vprintf instead. A throw writes
 * the exception record and its message as a record of the print area, then ends the work-item. */
#include <string.h>

#include "codegen_impl.h"
#include "printfmt.h"

/* The record's fixed part (runtime/abi.h, JukePrintRecord). */
_Static_assert(sizeof(JukePrintRecord) == 40 && offsetof(JukePrintRecord, group) == 8 &&
                   offsetof(JukePrintRecord, item) == 20 && offsetof(JukePrintRecord, nargs) == 32 &&
                   offsetof(JukePrintRecord, flags) == 34 && offsetof(JukePrintRecord, done) == 36,
               "the record header below writes these offsets");
_Static_assert(offsetof(JukePrintHeader, used) == 8 && offsetof(JukePrintHeader, lost) == 16 &&
                   offsetof(JukePrintHeader, lost_bytes) == 24,
               "the print header's fields at these offsets");

static LLVMValueRef byte_ptr(CG *g, LLVMValueRef base, LLVMValueRef off)
{
    return LLVMBuildGEP2(g->b, i8(g), base, &off, 1, "");
}

static void store_at(CG *g, LLVMValueRef base, int64_t off, LLVMValueRef v, unsigned align)
{
    LLVMSetAlignment(LLVMBuildStore(g->b, v, byte_ptr(g, base, ci64(g, off))), align);
}

/* A value as the record's 8-byte argument: integers sign- or zero-extended, floats' bits. */
static LLVMValueRef arg_bits(CG *g, LLVMValueRef v, const Type *t)
{
    if (ty_is_float(t)) {
        LLVMValueRef bits = LLVMBuildBitCast(g->b, v, LLVMIntTypeInContext(g->ctx, t->bits), "");
        return t->bits == 64 ? bits : LLVMBuildZExt(g->b, bits, i64(g), "");
    }
    LLVMValueRef x = v;
    if (LLVMGetIntTypeWidth(LLVMTypeOf(x)) == 64)
        return x;
    return (t->flags & TF_SIGNED) ? LLVMBuildSExt(g->b, x, i64(g), "") : LLVMBuildZExt(g->b, x, i64(g), "");
}

/* Write a record of format fmt and the call's arguments into the print area; flags: JukePrintRecord's.
 * Returns its byte offset in the data area (an i64), or -1 when the area was full (then counted lost). */
static LLVMValueRef write_record(CG *g, IrInst *in, const char *fmt, unsigned flags)
{
    int n = in->nargs - 1;
    size_t flen = strlen(fmt);
    int64_t types_bytes = (n + 7) & ~7, args_off = 40 + types_bytes, fmt_off = args_off + 8 * (int64_t)n;
    int64_t size = fmt_off + (int64_t)((flen + 7) & ~(size_t)7);
    LLVMValueRef exc = g->tc->cur_exc;
    LLVMValueRef hdr = byte_ptr(g, exc, ci64(g, JUKE_PRINT_HEADER_OFFSET));
    LLVMValueRef cap = LLVMBuildLoad2(g->b, i64(g), hdr, "");
    LLVMSetAlignment(cap, 8);
    LLVMValueRef old = LLVMBuildAtomicRMW(g->b, LLVMAtomicRMWBinOpAdd, byte_ptr(g, hdr, ci64(g, 8)), ci64(g, size),
                                          LLVMAtomicOrderingMonotonic, 0);
    LLVMValueRef end = LLVMBuildAdd(g->b, old, ci64(g, size), "");
    LLVMValueRef fits = LLVMBuildICmp(g->b, LLVMIntULE, end, cap, "");
    LLVMBasicBlockRef wr = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "print.write");
    LLVMBasicBlockRef lost = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "print.lost");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "print.done");
    LLVMBuildCondBr(g->b, fits, wr, lost);

    LLVMPositionBuilderAtEnd(g->b, lost);
    LLVMBuildAtomicRMW(g->b, LLVMAtomicRMWBinOpAdd, byte_ptr(g, hdr, ci64(g, 16)), ci32(g, 1),
                       LLVMAtomicOrderingMonotonic, 0);
    LLVMBuildAtomicRMW(g->b, LLVMAtomicRMWBinOpAdd, byte_ptr(g, hdr, ci64(g, 24)), ci64(g, size),
                       LLVMAtomicOrderingMonotonic, 0);
    LLVMBuildBr(g->b, done);

    LLVMPositionBuilderAtEnd(g->b, wr);
    LLVMValueRef rec = byte_ptr(g, exc, LLVMBuildAdd(g->b, old, ci64(g, JUKE_PRINT_DATA_OFFSET), ""));
    store_at(g, rec, 0, ci32(g, size), 8);
    store_at(g, rec, 4, ci32(g, (int64_t)flen), 4);
    for (int d = 0; d < 3; d++) {
        store_at(g, rec, 8 + 4 * d, LLVMBuildAdd(g->b, g->ops->workgroup_id(g->tc, g->b, d), ci32(g, 1), ""), 4);
        store_at(g, rec, 20 + 4 * d, LLVMBuildAdd(g->b, g->ops->workitem_id(g->tc, g->b, d), ci32(g, 1), ""), 4);
    }
    LLVMTypeRef i16t = LLVMInt16TypeInContext(g->ctx);
    store_at(g, rec, 32, LLVMConstInt(i16t, (unsigned)n, 0), 8);
    store_at(g, rec, 34, LLVMConstInt(i16t, flags, 0), 2);
    for (int k = 0; k < n; k++) {
        const Type *t = aty(g, in, k);
        store_at(g, rec, 40 + k, LLVMConstInt(i8(g), (unsigned)type_code(t), 0), 1);
        store_at(g, rec, args_off + 8 * k, arg_bits(g, arg(g, in, k), t), 8);
    }
    for (size_t k = 0; k < flen; k += 8) {
        uint64_t word = 0;
        for (size_t j = 0; j < 8 && k + j < flen; j++)
            word |= (uint64_t)(unsigned char)fmt[k + j] << (8 * j); /* every target is little-endian */
        store_at(g, rec, fmt_off + (int64_t)k, LLVMConstInt(i64(g), word, 0), 8);
    }
    LLVMBuildFence(g->b, LLVMAtomicOrderingRelease, 0, "");
    store_at(g, rec, 36, ci32(g, JUKE_PRINT_DONE), 4);
    LLVMBuildBr(g->b, done);

    LLVMPositionBuilderAtEnd(g->b, done);
    LLVMValueRef off = LLVMBuildPhi(g->b, i64(g), "");
    LLVMValueRef vals[2] = { old, ci64(g, -1) };
    LLVMBasicBlockRef from[2] = { wr, lost };
    LLVMAddIncoming(off, vals, from, 2);
    return off;
}

/* Does this work-item print in mode m (AMDGPU.jl's execution gate)? NULL: all do. */
static LLVMValueRef print_gate(CG *g, PrintMode m)
{
    if (m == PRINT_LANE)
        return NULL;
    LLVMValueRef x = LLVMBuildZExt(g->b, g->ops->workitem_id(g->tc, g->b, 0), i64(g), "");
    if (m == PRINT_WAVE) {
        LLVMValueRef ws = emit_wavefrontsize(g, NULL);
        if (LLVMGetIntTypeWidth(LLVMTypeOf(ws)) < 64)
            ws = LLVMBuildZExt(g->b, ws, i64(g), "");
        return LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildURem(g->b, x, ws, ""), ci64(g, 0), "");
    }
    LLVMValueRef first = LLVMBuildICmp(g->b, LLVMIntEQ, x, ci64(g, 0), "");
    if (m == PRINT_GROUP)
        return first;
    LLVMValueRef gx = g->ops->workgroup_id(g->tc, g->b, 0);
    return LLVMBuildAnd(g->b, first, LLVMBuildICmp(g->b, LLVMIntEQ, gx, ci32(g, 0), ""), "");
}

/* NVPTX: the record's format as vprintf's (length modifiers that match the values passed, %J as a C
 * conversion close to Julia's print) and the values, as vprintf reads them. */
static void nvptx_print(CG *g, IrInst *in, const char *fmt)
{
    StrBuf sb = { 0 };
    LLVMValueRef vals[64];
    int nv = 0, next = 0;
    size_t pos = 0, lit = 0;
    PrintConv c;
    while (printfmt_next(fmt, &pos, &c)) {
        sb_putn(&sb, fmt + lit, c.start - lit);
        lit = c.end;
        if (next >= in->nargs - 1)
            break;
        const Type *t = aty(g, in, next);
        LLVMValueRef v = arg(g, in, next);
        next++;
        char spec[48];
        size_t k = 0;
        for (size_t i = c.start; i < c.end - 1 && k < sizeof spec - 8; i++)
            if (!strchr("hlqjztL", fmt[i]))
                spec[k++] = fmt[i];
        spec[k] = '\0';
        char conv = c.conv;
        if (conv == 'J' || conv == 'R' || conv == 's') {
            if (t->kind == TY_BOOL) {
                LLVMValueRef tr = LLVMBuildGlobalStringPtr(g->b, "true", ""),
                             fa = LLVMBuildGlobalStringPtr(g->b, "false", "");
                vals[nv++] = LLVMBuildSelect(g->b, LLVMBuildTrunc(g->b, v, i1(g), ""), tr, fa, "");
                sb_printf(&sb, "%ss", spec);
                continue;
            }
            conv = ty_is_float(t) ? 'g' : (t->flags & TF_SIGNED) ? 'd' : 'x';
            if (conv == 'x')
                sb_printf(&sb, "0x%s0%dllx", spec, t->bits / 4);
        }
        if (strchr("diuxXo", conv)) {
            if (!(c.conv == 'J' || c.conv == 'R' || c.conv == 's') || conv != 'x')
                sb_printf(&sb, "%sll%c", spec, conv);
            vals[nv++] = ty_is_float(t) ? LLVMBuildFPToSI(g->b, v, i64(g), "") : arg_bits(g, v, t);
        } else if (conv == 'c') {
            sb_printf(&sb, "%sc", spec);
            vals[nv++] = LLVMBuildTrunc(g->b, arg_bits(g, v, t), i32(g), "");
        } else {
            sb_printf(&sb, "%s%c", spec, conv);
            LLVMTypeRef d = LLVMDoubleTypeInContext(g->ctx);
            vals[nv++] = ty_is_float(t)           ? LLVMBuildFPExt(g->b, v, d, "")
                         : (t->flags & TF_SIGNED) ? LLVMBuildSIToFP(g->b, v, d, "")
                                                  : LLVMBuildUIToFP(g->b, v, d, "");
        }
    }
    sb_puts(&sb, fmt + lit);
    LLVMValueRef fp = LLVMBuildGlobalStringPtr(g->b, sb.data ? sb.data : "", "");
    sb_free(&sb);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(g->ctx, 0);
    LLVMValueRef buf = LLVMConstNull(ptr);
    if (nv) {
        LLVMTypeRef ft[64];
        for (int i = 0; i < nv; i++)
            ft[i] = LLVMTypeOf(vals[i]);
        LLVMTypeRef st = LLVMStructTypeInContext(g->ctx, ft, (unsigned)nv, 0);
        LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
        LLVMPositionBuilder(g->b, g->entry, LLVMGetFirstInstruction(g->entry));
        buf = LLVMBuildAlloca(g->b, st, "printf.args");
        LLVMPositionBuilderAtEnd(g->b, here);
        for (int i = 0; i < nv; i++)
            LLVMBuildStore(g->b, vals[i], LLVMBuildStructGEP2(g->b, st, buf, (unsigned)i, ""));
    }
    LLVMTypeRef pt[2] = { ptr, ptr };
    LLVMTypeRef fty = LLVMFunctionType(i32(g), pt, 2, 0);
    LLVMValueRef f = llvm_declare(g->tc, "vprintf", fty);
    LLVMValueRef args[2] = { fp, buf };
    LLVMBuildCall2(g->b, fty, f, args, 2, "");
}

LLVMValueRef emit_print(CG *g, IrInst *in)
{
    LLVMValueRef gate = print_gate(g, (PrintMode)in->ival);
    LLVMBasicBlockRef after = NULL;
    if (gate) {
        LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "print");
        after = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "print.after");
        LLVMBuildCondBr(g->b, gate, yes, after);
        LLVMPositionBuilderAtEnd(g->b, yes);
    }
    if (g->tc->opts->kind == TARGET_NVPTX)
        nvptx_print(g, in, in->name ? in->name : "");
    else
        write_record(g, in, in->name ? in->name : "", 0);
    if (after) {
        LLVMBuildBr(g->b, after);
        LLVMPositionBuilderAtEnd(g->b, after);
    }
    return unit_v(g);
}

/* Claim the exception record (the protocol of docs/abi.md), write the kind and the offset of its message,
 * then end the work-item; later code goes into a block nothing reaches. */
static void raise_kind(CG *g, IrInst *in, int kind, int aux, bool message)
{
    LLVMBasicBlockRef done = exc_claim(g);
    LLVMValueRef off = message ? write_record(g, in, in->name ? in->name : "", JUKE_PRINT_MESSAGE) : ci64(g, 0);
    LLVMValueRef head[5] = { ci32(g, kind), exc_line(g, in->loc), ci32(g, in->loc.col), ci32(g, 0), ci32(g, aux) };
    LLVMValueRef index[JUKE_EXC_MAXDIMS], dims[JUKE_EXC_MAXDIMS];
    for (int k = 0; k < JUKE_EXC_MAXDIMS; k++) {
        index[k] = k == 0 ? off : ci64(g, 0);
        dims[k] = ci64(g, 0);
    }
    exc_fill_and_exit(g, done, head, index, dims);
    LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->ctx, g->fn, "after.raise"));
}

LLVMValueRef emit_throw(CG *g, IrInst *in)
{
    raise_kind(g, in, JUKE_EXC_THROWN, (int)in->ival, true);
    return unit_v(g);
}

/* trap() raises a kernel exception on every target; debugtrap(), endpgm(), sendmsg(), sendmsghalt(),
 * device_sleep(), memtime() and memrealtime() are the target's (TargetOps.exec_control), a compile error
 * where it has none. */
LLVMValueRef emit_control(CG *g, IrInst *in)
{
    if (in->builtin == BI_TRAP) {
        raise_kind(g, in, JUKE_EXC_TRAP, 0, false);
        return unit_v(g);
    }
    LLVMValueRef a[2] = { ci32(g, 0), ci32(g, 0) };
    for (int k = 1; k < in->nargs && k <= 2; k++)
        a[k - 1] = LLVMBuildTrunc(g->b, arg_bits(g, arg(g, in, k - 1), aty(g, in, k - 1)), i32(g), "");
    for (int k = 0; k < 2; k++)
        if (!LLVMIsAConstantInt(a[k])) {
            diag_error(g->d, in->loc, "%s takes integer constants", builtin_name(in->builtin));
            g->failed = true;
            return unit_v(g);
        }
    LLVMValueRef v = g->ops->exec_control ? g->ops->exec_control(g->tc, g->b, in->builtin, a) : NULL;
    if (!v) {
        const TargetInfo *ti = target_by_kind(g->tc->opts->kind);
        diag_error(g->d, in->loc, "%s() is an AMDGPU intrinsic: target %s has no %s", builtin_name(in->builtin),
                   ti ? ti->name : "?", builtin_name(in->builtin));
        g->failed = true;
    }
    if (v && (in->builtin == BI_MEMTIME || in->builtin == BI_MEMREALTIME))
        return v;
    return unit_v(g);
}
