/* builtins.c: the table of built-ins, built from builtins.def, and lookups in it. Front end only. */
#include "builtins_type.h"

#include <string.h>

#define N(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define N0 NULL
const BuiltinRow builtin_rows[BI__COUNT] = {
#define B(id_, printed_, names_, type_, type_cx_, flags_, math_, arity_, emit_, emit_cx_)                              \
    [id_] = { .id = id_,                                                                                               \
              .printed = printed_,                                                                                     \
              .names = names_,                                                                                         \
              .type = type_,                                                                                           \
              .type_complex = type_cx_,                                                                                \
              .flags = flags_,                                                                                         \
              .math = math_,                                                                                           \
              .math_arity = arity_ },
#include "builtins.def"
#undef B
};
#undef N
#undef N0

/* Inference asks for every call it meets, and a lookup walks the table (some 220 names): the first byte is
 * compared before strcmp. */
const BuiltinRow *builtin_lookup(const char *name)
{
    for (int i = 0; i < BI__COUNT; i++)
        for (const char *const *nm = builtin_rows[i].names; nm && *nm; nm++)
            if (**nm == *name && strcmp(*nm, name) == 0)
                return &builtin_rows[i];
    return NULL;
}

/* No method: the typing rule of a row that no Julia name calls with such arguments. */
const Type *type_none(Infer *I, IrInst *in, const BuiltinRow *row, const char *name, const Type **a, int n)
{
    (void)row;
    return infer_no_method(I, in, name, a, n);
}
