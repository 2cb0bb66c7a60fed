/* builtins_sync.c: typing rules of barriers and local memory (rows in builtins.def). */
#include "builtins_type.h"

/* sync_workgroup(): nothing. */
const Type *type_sync(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 0)
        return prim(I, TY_NOTHING);
    return infer_no_method(I, in, name, a, n);
}

/* @ROCStaticLocalArray / @ROCDynamicLocalArray(T, dims, zeroinit): a local array of T. */
const Type *type_local(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    const int *args = in->args + 1;
    if (n == 3 && a[0]->kind == TY_TYPE && ty_is_prim(a[0]->elem) && a[2]->kind == TY_BOOL) {
        int64_t dims[8];
        int nd;
        if (row->id == BI_STATIC_LOCAL) {
            bool dynamic_groupsize = false;
            nd = infer_const_dims_why(I->f, args[1], dims, 8, &dynamic_groupsize);
            if (nd < 0 && dynamic_groupsize) {
                infer_err(I, in->loc,
                          "the dims of this local array depend on @groupsize(), which this launch leaves dynamic: "
                          "launch with a static groupsize (juke run --groupsize, juke_launch_config.groupsize), "
                          "as KernelAbstractions needs a static workgroupsize here");
                return NULL;
            }
            if (nd < 0) {
                infer_err(I, in->loc,
                          "@ROCStaticLocalArray needs constant dims (an integer or a tuple of integers known "
                          "at compile time); use @ROCDynamicLocalArray for sizes known at launch");
                return NULL;
            }
            int64_t total = 1;
            for (int i = 0; i < nd; i++) {
                if (dims[i] < 0 || dims[i] > (1 << 20)) {
                    infer_err(I, in->loc, "local array dimension %lld out of range", (long long)dims[i]);
                    return NULL;
                }
                total *= dims[i];
            }
            if (total * (a[0]->elem->bits / 8) > 65536) {
                infer_err(I, in->loc,
                          "@ROCStaticLocalArray of %lld bytes exceeds the 65536 bytes of local memory a "
                          "workgroup can have",
                          (long long)(total * (a[0]->elem->bits / 8)));
                return NULL;
            }
        } else {
            if (ty_is_int(a[1]))
                nd = 1;
            else if (a[1]->kind == TY_TUPLE && all_int(a[1]->fields, a[1]->nfields))
                nd = a[1]->nfields;
            else
                return infer_no_method(I, in, "@ROCDynamicLocalArray", a, n);
        }
        in->optype = a[0]->elem;
        return ty_localarray(T(I), a[0]->elem, nd);
    }
    if (n == 3 && a[0]->kind != TY_TYPE) {
        infer_err(I, in->loc, "the first argument of @%s must be an element type such as Float32", name);
        return NULL;
    }
    return infer_no_method(I, in, name, a, n);
}

/* KernelAbstractions' @private T dims (#private(T, dims), ka.c): an array of T in the work-item's own
 * memory, its dims constant as a static local array's (an integer or a tuple, from constants, `where`
 * parameters or a static groupsize). */
const Type *type_private(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n != 2 || a[0]->kind != TY_TYPE || !ty_is_concrete(a[0]->elem) || !ty_bits_only(a[0]->elem)) {
        if (n == 2 && a[0]->kind == TY_TYPE) {
            infer_err(I, in->loc, "@private needs an isbits element type, not %s", infer_tname(I, a[0]->elem));
            return NULL;
        }
        return infer_no_method(I, in, "@private", a, n);
    }
    int64_t dims[8];
    bool dynamic_groupsize = false;
    int nd = infer_const_dims_why(I->f, in->args[2], dims, 8, &dynamic_groupsize);
    if (nd < 0) {
        infer_err(I, in->loc,
                  dynamic_groupsize
                      ? "the dims of this @private array depend on @groupsize(), which this launch leaves dynamic: "
                        "launch with a static groupsize (juke run --groupsize, juke_launch_config.groupsize)"
                      : "@private needs constant dims (an integer or a tuple of integers known at compile time: "
                        "literals, constants, `where` parameters, @groupsize() of a static launch)");
        return NULL;
    }
    int64_t total = ty_arg_size(a[0]->elem);
    for (int i = 0; i < nd; i++) {
        if (dims[i] < 0 || dims[i] > (1 << 20)) {
            infer_err(I, in->loc, "@private array dimension %lld out of range", (long long)dims[i]);
            return NULL;
        }
        total *= dims[i];
    }
    if (total > 16384) {
        infer_err(I, in->loc,
                  "@private array of %lld bytes exceeds the 16384 bytes a work-item may keep on its stack; use "
                  "@localmem or a device array",
                  (long long)total);
        return NULL;
    }
    in->optype = a[0]->elem;
    return ty_privatearray(T(I), a[0]->elem, nd);
}
