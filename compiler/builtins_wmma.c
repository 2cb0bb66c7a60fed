/* builtins_wmma.c: typing rule of the matrix-core multiply (a row in builtins.def); the fragments, their
 * loads and stores are Julia (compiler/base/wmma.jl). AMDGPU.jl's WMMA.mma(a, b, c): A and B fragments of
 * 16 Float16, a C fragment of 8 Float32, the result a C fragment. */
#include "builtins_type.h"

#include <string.h>

/* Is t base/wmma.jl's WMMA_Fragment holding n values of kind k? */
static bool wmma_fragment(const Type *t, TypeKind k, int n)
{
    if (t->kind != TY_STRUCT || !t->name || strcmp(t->name, "WMMA_Fragment") != 0 || t->nfields != 1)
        return false;
    const Type *d = t->fields[0];
    if (d->kind != TY_TUPLE || d->nfields != n)
        return false;
    for (int i = 0; i < n; i++)
        if (d->fields[i]->kind != k)
            return false;
    return true;
}

/* wmma_mma(a, b, c) (WMMA.mma): D = A * B + C of 16x16 tiles, Float16 products summed in Float32. */
const Type *type_wmma_mma(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    if (n == 3 && wmma_fragment(a[0], TY_FLOAT16, 16) && wmma_fragment(a[1], TY_FLOAT16, 16) &&
        wmma_fragment(a[2], TY_FLOAT32, 8))
        return a[2];
    return infer_no_method(I, in, name, a, n);
}
