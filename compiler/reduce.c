/* reduce.c: sum, maximum, minimum and mapreduce(f, op, A) as two generated
 * kernels. The first launch gives each workgroup a strided share of A: each
 * work-item folds its elements, the wavefront folds its lanes (wfred for
 * + * max min & |, a shfl_down tree for any other op), and the workgroup folds
 * its wavefronts' values through local memory into one partial per group. The
 * second launch folds the partials the same way in one workgroup.
 *
 * The accumulator has init's type; without init, sum's and prod's of A's
 * element type as Julia widens them (Bool and integers narrower than 64 bits to
 * Int64 or UInt64), the others A's element type. As in Julia, init must be
 * op's neutral element: every work-item starts from it. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "arrayops.h"

/* Workgroups of the first launch at most: enough to fill a GPU (each work-item then folds a strided share); on
 * the CPU, whose workgroups run as loops over fibers switched at every wavefront operation and barrier, a few
 * (each folds more in its plain loop). The second launch's one workgroup folds the partials. */
enum { RED_GROUP = 256, RED_MAX_GROUPS_GPU = 1024, RED_MAX_GROUPS_CPU = 8 };

/* The body of `name(args) = ...` for a function given as Julia text: a name ("abs", "+"), or an anonymous
 * function "x -> x * x" / "(a, b) -> a + 2b". */
static bool function_text(StrBuf *sb, const char *name, const char *text, int arity)
{
    const char *arrow = strstr(text, "->");
    if (arrow) {
        const char *p = text;
        while (*p == ' ')
            p++;
        bool paren = *p == '(';
        sb_printf(sb, "%s%s%.*s%s =%s\n", name, paren ? "" : "(", (int)(arrow - p), p, paren ? "" : ")", arrow + 2);
        return true;
    }
    bool ident = *text != 0, oper = *text != 0;
    for (const char *q = text; *q; q++) {
        if (*q == '\n' || *q == ';')
            return false;
        ident =
            ident && (isalnum((unsigned char)*q) || *q == '_' || *q == '.' || *q == '!' || (unsigned char)*q >= 0x80);
        oper = oper && strchr("+-*/^&|<>=!%\\", *q);
    }
    if (oper && arity == 2)
        sb_printf(sb, "%s(a, b) = a %s b\n", name, text);
    else if (ident)
        sb_printf(sb, arity == 1 ? "%s(x) = %s(x)\n" : "%s(a, b) = %s(a, b)\n", name, text);
    else
        return false;
    return true;
}

/* The wavefront reduction of op, when the hardware has it (wfred). */
static const char *wfred_op(const char *op)
{
    static const char *ops[] = { "+", "*", "max", "min", "&", "|" };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(op, ops[i]) == 0)
            return ops[i];
    return NULL;
}

static void fold_function(StrBuf *sb, const char *name, bool map, const char *wf)
{
    sb_printf(sb,
              "function %s(out, a, init::T) where {T}\n"
              "    tid = workitemIdx().x\n"
              "    gsz = workgroupDim().x\n"
              "    i = tid + (workgroupIdx().x - 1) * gsz\n"
              "    stride = gsz * gridGroupDim().x\n"
              "    acc = init\n"
              "    while i <= length(a)\n"
              "        @inbounds acc = T(juke_op(acc, %s))\n"
              "        i += stride\n"
              "    end\n",
              name, map ? "juke_f(a[i])" : "a[i]");
    if (wf)
        sb_printf(sb, "    acc = wfred(%s, acc)\n", wf);
    else
        sb_puts(sb, "    ws = Int(wavefrontsize())\n"
                    "    off = ws ÷ 2\n"
                    "    while off > 0\n"
                    "        acc = T(juke_op(acc, shfl_down(acc, off)))\n"
                    "        off = off ÷ 2\n"
                    "    end\n");
    sb_puts(sb, "    shared = @ROCStaticLocalArray(T, 32, false)\n"
                "    w = Int(wavefrontsize())\n"
                "    if (tid - 1) % w == 0\n"
                "        @inbounds shared[(tid - 1) ÷ w + 1] = acc\n"
                "    end\n"
                "    sync_workgroup()\n"
                "    if tid == 1\n"
                "        r = @inbounds shared[1]\n"
                "        for k in 2:cld(gsz, w)\n"
                "            r = T(juke_op(r, @inbounds shared[k]))\n"
                "        end\n"
                "        @inbounds out[workgroupIdx().x] = r\n"
                "    end\n"
                "    return\n"
                "end\n\n");
}

static juke_type sum_type(juke_type t)
{
    switch (t) {
    case JUKE_BOOL:
    case JUKE_INT8:
    case JUKE_INT16:
    case JUKE_INT32: return JUKE_INT64;
    case JUKE_UINT8:
    case JUKE_UINT16:
    case JUKE_UINT32: return JUKE_UINT64;
    default: return t;
    }
}

/* op's neutral element of type t as a scalar argument, for the ops that have one */
static bool neutral(const char *op, juke_type t, juke_arg *out)
{
    memset(out, 0, sizeof *out);
    out->type = t;
    bool sgn = t >= JUKE_INT8 && t <= JUKE_INT64;
    int bits = (int)juke_sizeof(t) * 8;
    if (strcmp(op, "+") == 0 || strcmp(op, "|") == 0)
        return true; /* zeros: 0, 0.0f, +0.0 (Julia's sum starts from zero(T)) */
    if (strcmp(op, "*") == 0) {
        if (t == JUKE_FLOAT32)
            out->v.f32 = 1.0f;
        else if (t == JUKE_FLOAT64)
            out->v.f64 = 1.0;
        else if (t == JUKE_FLOAT16)
            out->v.f16 = 0x3c00;
        else
            out->v.u = 1;
        return true;
    }
    if (strcmp(op, "&") == 0) {
        if (aops_is_float(t))
            return false;
        out->v.u = t == JUKE_BOOL ? 1 : ~0ull;
        return true;
    }
    bool max = strcmp(op, "max") == 0;
    if (!max && strcmp(op, "min") != 0)
        return false;
    /* max starts from the least value (-Inf for floats), min from the greatest */
    if (t == JUKE_FLOAT32)
        out->v.f32 = max ? -__builtin_inff() : __builtin_inff();
    else if (t == JUKE_FLOAT64)
        out->v.f64 = max ? -__builtin_inf() : __builtin_inf();
    else if (t == JUKE_FLOAT16)
        out->v.f16 = max ? 0xfc00 : 0x7c00;
    else if (t == JUKE_BOOL)
        out->v.u = max ? 0 : 1;
    else if (sgn)
        out->v.i = max ? (int64_t)(~0ull << (bits - 1)) : (int64_t)(~0ull >> (65 - bits));
    else
        out->v.u = max ? 0 : ~0ull >> (64 - bits);
    return true;
}

/* The generated module's source for f and op, *src malloc'd. */
static juke_status reduce_source(juke_context *ctx, const char *f, const char *op, char **src)
{
    StrBuf sb = { 0 };
    sb_printf(&sb, "# mapreduce(%s, %s, A)\n", f, op);
    if (!function_text(&sb, "juke_f", f, 1) || !function_text(&sb, "juke_op", op, 2)) {
        sb_free(&sb);
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        "juke_mapreduce: f and op are one Julia function each: a name (abs, +, max) or x -> ...");
    }
    sb_puts(&sb, "\n");
    fold_function(&sb, "juke_mapreduce!", true, wfred_op(op));
    fold_function(&sb, "juke_reduce!", false, wfred_op(op));
    *src = sb_take(&sb);
    return *src ? JUKE_OK : api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
}

juke_status juke_mapreduce(juke_device *dev, const char *f, const char *op, juke_array *a, const juke_arg *init,
                           juke_arg *result)
{
    juke_context *ctx = dev ? dev->ctx : a ? a->dev->ctx : NULL;
    if (result)
        memset(result, 0, sizeof *result);
    if (!dev || !a || !op || !result)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_mapreduce: NULL argument");
    if (!f)
        f = "identity";
    if (a->dev != dev)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_mapreduce: the array is on another device");
    if (a->elem == JUKE_VALUE)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_mapreduce: reductions take arrays of numbers, not of %s",
                        a->eltype);
    juke_arg start;
    if (init) {
        if (init->is_array || init->type == JUKE_VALUE || !aops_type_name(init->type))
            return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_mapreduce: init is a number");
        start = *init;
    } else {
        bool widen = strcmp(op, "+") == 0 || strcmp(op, "*") == 0;
        if (!neutral(op, widen ? sum_type(a->elem) : a->elem, &start))
            return api_fail(ctx, JUKE_ERR_ARGUMENT,
                            "juke_mapreduce: %s has no neutral element juke knows: pass init (Julia's "
                            "mapreduce(f, op, A; init))",
                            op);
    }
    if (a->length == 0) {
        if (!init && (strcmp(op, "max") == 0 || strcmp(op, "min") == 0))
            return api_fail(ctx, JUKE_ERR_ARGUMENT,
                            "juke_mapreduce: ArgumentError: reducing over an empty collection is not allowed; "
                            "consider supplying `init` to the reducer");
        *result = start;
        return JUKE_OK;
    }
    char *src;
    juke_status st = reduce_source(ctx, f, op, &src);
    if (st != JUKE_OK)
        return st;
    juke_module *m;
    st = aops_module(ctx, "juke_mapreduce.jl", src, &m);
    free(src);
    if (st != JUKE_OK)
        return st;
    int64_t groups = (a->length + RED_GROUP - 1) / RED_GROUP;
    int64_t max_groups = rt_device_kind(dev->rt) == RT_CPU ? RED_MAX_GROUPS_CPU : RED_MAX_GROUPS_GPU;
    if (groups > max_groups)
        groups = max_groups;
    juke_array *partial = NULL, *final = NULL;
    st = juke_array_create(dev, start.type, 1, &groups, &partial);
    int64_t one = 1;
    if (st == JUKE_OK)
        st = juke_array_create(dev, start.type, 1, &one, &final);
    if (st == JUKE_OK) {
        juke_arg args[3] = { juke_arg_array(partial), juke_arg_array(a), start };
        juke_launch_config cfg = { .groupsize = { RED_GROUP, 1, 1 }, .gridsize = { (uint32_t)groups, 1, 1 } };
        st = juke_launch(dev, m, "juke_mapreduce!", args, 3, &cfg);
        if (st == JUKE_OK) {
            juke_arg args2[3] = { juke_arg_array(final), juke_arg_array(partial), start };
            cfg.gridsize[0] = 1;
            st = juke_launch(dev, m, "juke_reduce!", args2, 3, &cfg);
        }
    }
    uint64_t bits = 0;
    if (st == JUKE_OK)
        st = juke_array_download(final, &bits, juke_sizeof(start.type));
    if (st == JUKE_OK) {
        result->type = start.type;
        if (start.type == JUKE_FLOAT32)
            memcpy(&result->v.f32, &bits, 4);
        else if (start.type == JUKE_FLOAT64)
            memcpy(&result->v.f64, &bits, 8);
        else if (start.type == JUKE_FLOAT16)
            result->v.f16 = (uint16_t)bits;
        else if (start.type >= JUKE_INT8 && start.type <= JUKE_INT64) {
            int sh = 64 - 8 * (int)juke_sizeof(start.type); /* sign-extend */
            result->v.i = (int64_t)(bits << sh) >> sh;
        } else
            result->v.u = bits;
    }
    juke_array_free(partial);
    juke_array_free(final);
    return st;
}

juke_status juke_mapreduce_source(juke_context *ctx, const char *f, const char *op, char **out)
{
    if (out)
        *out = NULL;
    if (!ctx)
        return JUKE_ERR_ARGUMENT;
    if (!op || !out)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_mapreduce_source: NULL argument");
    return reduce_source(ctx, f ? f : "identity", op, out);
}

juke_status juke_sum(juke_device *dev, juke_array *a, juke_arg *result)
{
    return juke_mapreduce(dev, "identity", "+", a, NULL, result);
}

juke_status juke_maximum(juke_device *dev, juke_array *a, juke_arg *result)
{
    return juke_mapreduce(dev, "identity", "max", a, NULL, result);
}

juke_status juke_minimum(juke_device *dev, juke_array *a, juke_arg *result)
{
    return juke_mapreduce(dev, "identity", "min", a, NULL, result);
}
