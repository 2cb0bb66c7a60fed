/* builtins_info.c: the columns of builtins.def that need no typing or emit rule (printed names, math
 * functions), for the parts that link without the front end's rules (the back end's tests). */
#include <string.h>

#include "builtins.h"

static const struct {
    const char *printed, *math;
    int arity;
} info[BI__COUNT] = {
#define B(id, printed_, names, type, type_cx, flags, math_, arity_, emit, emit_cx)                               \
    [id] = {.printed = printed_, .math = math_, .arity = arity_},
#include "builtins.def"
#undef B
};

const char *builtin_name(BuiltinId id)
{
    return (unsigned)id < BI__COUNT ? info[id].printed : "?";
}

int builtin_math_arity(const char *name)
{
    for (int i = 0; i < BI__COUNT; i++)
        if (info[i].math && strcmp(info[i].math, name) == 0)
            return info[i].arity;
    return 0;
}
