/* builtins_info.c: the columns of builtins.def that need no typing or emit rule (printed names, math
 * functions, flags), for the parts that link without the front end's rules (the back end's tests). */
#include <string.h>

#include "builtins.h"

static const struct {
    const char *printed, *math;
    int arity;
    unsigned flags;
} info[BI__COUNT] = {
#define B(id, printed_, names, type, type_cx, flags_, math_, arity_, emit, emit_cx)                                    \
    [id] = { .printed = printed_, .math = math_, .arity = arity_, .flags = flags_ },
#include "builtins.def"
#undef B
};

const char *builtin_name(BuiltinId id)
{
    return (unsigned)id < BI__COUNT ? info[id].printed : "?";
}

unsigned builtin_flags(BuiltinId id)
{
    return (unsigned)id < BI__COUNT ? info[id].flags : 0;
}

int builtin_math_arity(const char *name)
{
    for (int i = 0; i < BI__COUNT; i++)
        if (info[i].math && strcmp(info[i].math, name) == 0)
            return info[i].arity;
    return 0;
}
