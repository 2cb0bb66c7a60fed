/* launch.c: include/juke.h's launches: the kernel for a launch's argument
 * types, its code object loaded on the device, the argument bytes, the
 * launch through the runtime (which checks its shape), streams and
 * synchronisation, and the message of a kernel exception, worded as Julia
 * words it. */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_impl.h"
#include "prelude.h"
#include "targets.h"


static void format_value(StrBuf *sb, int64_t bits, int code)
{
    switch (code) {
    case JUKE_T_FLOAT64: {
        double v;
        memcpy(&v, &bits, 8);
        sb_printf(sb, "%.17g", v);
        break;
    }
    case JUKE_T_FLOAT32: {
        uint32_t b = (uint32_t)bits;
        float v;
        memcpy(&v, &b, 4);
        sb_printf(sb, "%.9gf0", (double)v);
        break;
    }
    case JUKE_T_UINT8:
    case JUKE_T_UINT16:
    case JUKE_T_UINT32:
    case JUKE_T_UINT64: sb_printf(sb, "0x%" PRIx64, (uint64_t)bits); break;
    default: sb_printf(sb, "%" PRId64, bits);
    }
}

/* A kernel fault (runtime/abi.h, fault records): "kernel fault: SIGSEGV
 * (invalid memory access at 0x..., 4 bytes past the end of a 256-byte device
 * array) in work-group (2, 1, 1), work-item (64, 1, 1)". */
static void format_fault(StrBuf *sb, const JukeExceptionRecord *r)
{
    int sig = (int)r->aux;
    const char *name = sig == SIGSEGV  ? "SIGSEGV"
                       : sig == SIGBUS ? "SIGBUS"
                       : sig == SIGFPE ? "SIGFPE"
                       : sig == SIGILL ? "SIGILL"
                                       : "signal";
    uint64_t addr = (uint64_t)r->index[0];
    int64_t off = r->index[3], size = r->dims[0];
    sb_printf(sb, "kernel fault: %s (", name);
    if (sig == SIGFPE)
        sb_puts(sb, r->index[1] == FPE_INTDIV   ? "integer division by zero"
                    : r->index[1] == FPE_INTOVF ? "integer overflow"
                                                : "arithmetic error");
    else if (sig == SIGILL)
        sb_puts(sb, "illegal instruction");
    else if (r->index[2] == JUKE_FAULT_STACK && size)
        sb_printf(sb, "stack overflow at 0x%" PRIx64 ": a work-item needed more than its %" PRId64 " KiB of stack",
                  addr, size / 1024);
    else if (r->index[2] == JUKE_FAULT_STACK)
        sb_printf(sb, "stack overflow at 0x%" PRIx64, addr);
    else {
        sb_printf(sb, "%s at 0x%" PRIx64, sig == SIGBUS ? "bus error" : "invalid memory access", addr);
        switch (r->index[2]) {
        case JUKE_FAULT_ARRAY_AFTER:
            sb_printf(sb, ", %" PRId64 " bytes past the end of a %" PRId64 "-byte device array", off, size);
            break;
        case JUKE_FAULT_ARRAY_BEFORE:
            sb_printf(sb, ", %" PRId64 " bytes before the start of a %" PRId64 "-byte device array", off, size);
            break;
        case JUKE_FAULT_LOCAL_AFTER:
            sb_printf(sb, ", %" PRId64 " bytes past the end of the group's %" PRId64 " bytes of local memory", off,
                      size);
            break;
        case JUKE_FAULT_LOCAL_BEFORE:
            sb_printf(sb, ", %" PRId64 " bytes before the start of the group's local memory", off);
            break;
        }
    }
    sb_printf(sb, ") in work-group (%u, %u, %u), work-item (%u, %u, %u)", r->group[0], r->group[1], r->group[2],
              r->item[0], r->item[1], r->item[2]);
}

/* One list of a barrier divergence record: "  N <what>: (x, y, z), ..., …". */
static void format_items(StrBuf *sb, int64_t count, int64_t packed, uint64_t gdims, const char *what)
{
    if (count <= 0)
        return;
    uint64_t gx = gdims & 0xffff, gy = gdims >> 16 & 0xffff;
    sb_printf(sb, "\n  %" PRId64 " %s:", count, what);
    for (int i = 0; i < JUKE_PACKED_ITEMS && i < count; i++) {
        uint64_t lin = ((uint64_t)packed >> (16 * i) & 0xffff) - 1;
        if (!gx || !gy)
            break;
        sb_printf(sb, "%s (%" PRIu64 ", %" PRIu64 ", %" PRIu64 ")", i ? "," : "", lin % gx + 1, lin / gx % gy + 1,
                  lin / gx / gy + 1);
    }
    if (count > JUKE_PACKED_ITEMS)
        sb_printf(sb, " and %" PRId64 " more", count - JUKE_PACKED_ITEMS);
}

/* Julia's name of a thrown exception's type (runtime/abi.h, JukeThrownKind). */
static const char *thrown_name(uint32_t kind)
{
    static const char *const names[] = {
        [JUKE_THROWN_ERROR] = "ErrorException",   [JUKE_THROWN_ASSERTION] = "AssertionError",
        [JUKE_THROWN_ARGUMENT] = "ArgumentError", [JUKE_THROWN_BOUNDS] = "BoundsError",
        [JUKE_THROWN_DOMAIN] = "DomainError",     [JUKE_THROWN_DIVIDE] = "DivideError",
        [JUKE_THROWN_OVERFLOW] = "OverflowError", [JUKE_THROWN_INEXACT] = "InexactError",
        [JUKE_THROWN_KEY] = "KeyError",           [JUKE_THROWN_DIMENSION_MISMATCH] = "DimensionMismatch",
        [JUKE_THROWN_UNDEFVAR] = "UndefVarError", [JUKE_THROWN_METHOD] = "MethodError",
    };
    return kind < sizeof names / sizeof names[0] && names[kind] ? names[kind] : "exception";
}

/* The message a kernel exception becomes on the host; thrown: the message of a JUKE_EXC_THROWN
 * (rt_thrown_message_take), NULL if there is none. */
static char *exception_message(juke_kernel *k, const JukeExceptionRecord *r, const char *thrown)
{
    StrBuf sb = { 0 };
    sb_printf(&sb, "%s: ", k->function);
    if (r->kind == JUKE_EXC_FAULT) {
        format_fault(&sb, r);
        return sb_take(&sb);
    }
    switch (r->kind) {
    case JUKE_EXC_BOUNDS: {
        /* as Julia words it: "attempt to access 64-element ROCDeviceVector{Float32, 1} at index [65]" */
        unsigned ni = r->ndims > JUKE_EXC_MAXDIMS ? JUKE_EXC_MAXDIMS : r->ndims;
        unsigned nd = (r->aux >> 8) & 0xf, shown = nd > JUKE_EXC_MAXDIMS ? JUKE_EXC_MAXDIMS : nd;
        const char *elem = api_type_name((int)(r->aux & 0xff));
        sb_puts(&sb, "BoundsError: attempt to access ");
        if (r->aux & JUKE_BOUNDS_ALLOC) {
            sb_printf(&sb, "%" PRId64 "-element ", r->dims[1]);
            if (nd <= 2)
                sb_printf(&sb, "%s{%s, 3}", nd == 1 ? "ROCDeviceVector" : "ROCDeviceMatrix", elem);
            else
                sb_printf(&sb, "ROCDeviceArray{%s, %u, 3}", elem, nd);
            sb_printf(&sb,
                      " at index [%" PRId64 "]: the launch allocated dynamic local memory for %" PRId64
                      " element%s (shmem)",
                      r->index[0], r->dims[0], r->dims[0] == 1 ? "" : "s");
            break;
        }
        if (r->aux & JUKE_BOUNDS_TUPLE) {
            sb_printf(&sb, "NTuple{%" PRId64 ", %s}", r->dims[0], elem);
        } else {
            int as = r->aux & JUKE_BOUNDS_LOCAL ? 3 : 1;
            if (nd == 1)
                sb_printf(&sb, "%" PRId64 "-element ROCDeviceVector{%s, %d}", r->dims[0], elem, as);
            else {
                for (unsigned i = 0; i < shown; i++)
                    sb_printf(&sb, "%s%" PRId64, i ? "×" : "", r->dims[i]);
                if (nd > shown)
                    sb_puts(&sb, "×…");
                if (nd == 2)
                    sb_printf(&sb, " ROCDeviceMatrix{%s, %d}", elem, as);
                else
                    sb_printf(&sb, " ROCDeviceArray{%s, %u, %d}", elem, nd, as);
            }
        }
        sb_puts(&sb, " at index [");
        for (unsigned i = 0; i < ni; i++)
            sb_printf(&sb, "%s%" PRId64, i ? ", " : "", r->index[i]);
        sb_puts(&sb, "]");
        break;
    }
    case JUKE_EXC_INEXACT:
        sb_printf(&sb, "InexactError: %s(", api_type_name((int)r->aux));
        format_value(&sb, r->index[0], (int)r->dims[0]);
        sb_puts(&sb, ")");
        break;
    case JUKE_EXC_DIVIDE: sb_puts(&sb, "DivideError: integer division error"); break;
    case JUKE_EXC_THROWN:
        /* as Julia shows them */
        if (r->aux == JUKE_THROWN_DIVIDE)
            sb_puts(&sb, "DivideError: integer division error");
        else if (thrown && r->aux == JUKE_THROWN_ERROR)
            sb_puts(&sb, thrown); /* Julia shows error("msg") as its message alone */
        else if (thrown)
            sb_printf(&sb, r->aux == JUKE_THROWN_DOMAIN && thrown[0] ? "%s %s" : "%s: %s", thrown_name(r->aux),
                      thrown); /* "DomainError with -1.5:\nmsg" */
        else if (r->index[0] < 0)
            sb_printf(&sb, "%s (its message was lost: the print buffer was full)", thrown_name(r->aux));
        else
            sb_puts(&sb, thrown_name(r->aux));
        break;
    case JUKE_EXC_TRAP: sb_puts(&sb, "trap() reached: the kernel stopped"); break;
    case JUKE_EXC_DIMENSION:
        sb_puts(&sb, "DimensionMismatch: new dimensions (");
        for (uint32_t d = 0; d < r->ndims && d < JUKE_EXC_MAXDIMS; d++)
            sb_printf(&sb, "%s%lld", d ? ", " : "", (long long)r->index[d]);
        sb_printf(&sb, "%s) must be consistent with array length %lld", r->ndims == 1 ? "," : "",
                  (long long)r->dims[0]);
        break;
    case JUKE_EXC_TIMEOUT:
        sb_printf(&sb, "run-time limit of %g s exceeded: the kernel was cancelled in this loop",
                  (double)r->index[0] * 1e-6);
        break;
    case JUKE_EXC_BARRIER:
        sb_puts(&sb, "barrier divergence: not every work-item of the workgroup reached this barrier");
        break;
    default: sb_printf(&sb, "unknown kernel exception (kind %u)", r->kind);
    }
    sb_printf(&sb, "\n  at %s:%u:%u\n  in workgroup (%u, %u, %u), work-item (%u, %u, %u)",
              r->line & JUKE_EXC_LINE_BASE ? fe_base_name : k->module->name, r->line & ~JUKE_EXC_LINE_BASE, r->col,
              r->group[0], r->group[1], r->group[2], r->item[0], r->item[1], r->item[2]);
    if (r->kind == JUKE_EXC_BARRIER) {
        uint64_t gd = (uint64_t)r->dims[3];
        format_items(&sb, r->index[0], r->index[1], gd, "wait here");
        format_items(&sb, r->index[2], r->index[3], gd, "have returned");
        if (r->dims[0] > 0) {
            StrBuf what = { 0 };
            sb_printf(&what, "wait at another barrier, at %s:%u:%u", k->module->name,
                      (unsigned)((uint64_t)r->dims[2] >> 32), (unsigned)(r->dims[2] & 0xffffffff));
            char *w = sb_take(&what);
            format_items(&sb, r->dims[0], r->dims[1], gd, w ? w : "wait at another barrier");
            free(w);
        }
    }
    /* the source line, when we have it */
    const SrcFile *f = &k->module->fe->file;
    const char *p = f->text;
    for (unsigned l = 1; p && l < r->line && *p; p++)
        if (*p == '\n')
            l++;
    if (p && *p && r->line) {
        const char *e = strchr(p, '\n');
        sb_printf(&sb, "\n  %u | %.*s", r->line, (int)(e ? e - p : (long)strlen(p)), p);
    }
    return sb_take(&sb);
}

static juke_status kernel_loaded(juke_kernel *k, juke_device *dev, RtFunction **fn)
{
    pthread_mutex_lock(&k->load_lock);
    for (int i = 0; i < k->nloaded; i++)
        if (k->loaded[i].dev == dev) {
            *fn = k->loaded[i].fn;
            pthread_mutex_unlock(&k->load_lock);
            return JUKE_OK;
        }
    RtModule *mod = NULL;
    RtFunction *f = NULL;
    char *err = NULL;
    double t0 = api_trace(k->ctx) ? trace_now_us() : 0;
    int rc = rt_module_load(dev->rt, k->co.data, k->co.size, &mod, &err);
    if (api_trace(k->ctx))
        trace_host(k->ctx->trace, "load", "module load", t0, trace_now_us() - t0, NULL);
    if (rc != 0 || rt_function_get(mod, k->co.kernel_symbol, &f, &err) != 0) {
        if (mod)
            rt_module_unload(mod);
        pthread_mutex_unlock(&k->load_lock);
        juke_status st = api_fail(k->ctx, JUKE_ERR_DEVICE, "loading %s on %s: %s", k->function, rt_device_name(dev->rt),
                                  err ? err : "failed");
        free(err);
        return st;
    }
    if (k->nloaded == k->capl) {
        int nc = k->capl ? k->capl * 2 : 4;
        Loaded *nl = realloc(k->loaded, sizeof(Loaded) * (size_t)nc);
        if (!nl) {
            rt_module_unload(mod);
            pthread_mutex_unlock(&k->load_lock);
            return api_fail(k->ctx, JUKE_ERR_NOMEM, "out of memory");
        }
        k->loaded = nl;
        k->capl = nc;
    }
    k->loaded[k->nloaded++] = (Loaded){ dev, mod, f };
    *fn = f;
    pthread_mutex_unlock(&k->load_lock);
    return JUKE_OK;
}

enum { ARG_NAME_MAX = 256 };

static juke_status arg_type_names(juke_context *ctx, const juke_arg *args, int nargs, char names[][ARG_NAME_MAX])
{
    for (int i = 0; i < nargs; i++) {
        if (args[i].is_array) {
            juke_array *a = args[i].v.array;
            if (!a)
                return api_fail(ctx, JUKE_ERR_ARGUMENT, "argument %d: NULL array", i + 1);
            snprintf(names[i], ARG_NAME_MAX, "Array{%s,%d}", a->elem == JUKE_VALUE ? a->eltype : api_type_name(a->elem),
                     a->ndims);
        } else if (args[i].type == JUKE_VALUE) {
            const char *t = args[i].v.value.type;
            if (!t || strlen(t) >= ARG_NAME_MAX || (args[i].v.value.size && !args[i].v.value.bytes))
                return api_fail(ctx, JUKE_ERR_ARGUMENT,
                                "argument %d: a JUKE_VALUE needs its type (under %d bytes) "
                                "and, unless it has no bits, its bytes",
                                i + 1, ARG_NAME_MAX);
            snprintf(names[i], ARG_NAME_MAX, "%s", t);
        } else {
            if (args[i].type < JUKE_BOOL || args[i].type > JUKE_FLOAT64)
                return api_fail(ctx, JUKE_ERR_ARGUMENT, "argument %d: unknown scalar type %d", i + 1,
                                (int)args[i].type);
            snprintf(names[i], ARG_NAME_MAX, "%s", api_type_name(args[i].type));
        }
    }
    return JUKE_OK;
}

/* The first argument (from 0) that passes a device array of 2^31 elements or more, as itself or inside a value
 * (a struct of arrays), with that array's length in *len; -1 when there is none. */
static int first_wide_arg(juke_module *m, const juke_arg *args, int nargs, int64_t *len)
{
    for (int i = 0; i < nargs; i++) {
        const juke_array *a = args[i].is_array ? args[i].v.array : NULL;
        if (a && a->length >= ((int64_t)1 << 31)) {
            *len = a->length;
            return i;
        }
        if (!a && !api_value_fits32(m, &args[i], len))
            return i;
    }
    return -1;
}

/* The launch-time class of the arguments (API_VARIANT_*): INDEX32 when
 * every device array they pass has fewer than 2^31 elements (then each dim
 * does too, and every in-bounds linear index fits in 31 bits). */
static unsigned arg_class(juke_module *m, const juke_arg *args, int nargs)
{
    int64_t len;
    return first_wide_arg(m, args, nargs, &len) < 0 ? API_VARIANT_INDEX32 : API_VARIANT_GENERAL;
}

/* API_VARIANT_SAMESHAPE when two or more device arrays are given and all have the first's dims (a launch's
 * class: memcopy, vadd, saxpy and broadcasts have it). */
static unsigned shape_class(const juke_arg *args, int nargs)
{
    const juke_array *first = NULL;
    int narrays = 0;
    for (int i = 0; i < nargs; i++) {
        const juke_array *a = args[i].is_array ? args[i].v.array : NULL;
        if (!a)
            continue;
        narrays++;
        if (!first)
            first = a;
        else if (a->ndims != first->ndims || memcmp(a->dims, first->dims, sizeof a->dims[0] * (size_t)a->ndims))
            return API_VARIANT_GENERAL;
    }
    return narrays >= 2 ? API_VARIANT_SAMESHAPE : API_VARIANT_GENERAL;
}

/* API_VARIANT_SMALLGRID when every dimension of the launch's grid has at most SMALL_GRID_MAX workgroups
 * (an ndrange of up to 3 dimensions: at most that many work-items, so no more groups). */
static unsigned grid_class(const juke_launch_config *cfg)
{
    if (cfg->ndims > 3)
        return API_VARIANT_GENERAL;
    for (uint32_t d = 0; d < 3; d++) {
        uint64_t n = cfg->ndims ? (d < cfg->ndims ? cfg->ndrange[d] : 1) : cfg->gridsize[d];
        if (n > SMALL_GRID_MAX)
            return API_VARIANT_GENERAL;
    }
    return API_VARIANT_SMALLGRID;
}

/* juke_kernel_for; a @kernel's hidden argument, the ndrange, has ndims
 * dimensions (0: given only the visible arguments, api.c picks 1). A launch
 * that gives the groupsize (non-NULL) makes it static, as KernelAbstractions'
 * static workgroupsize: the hidden argument's type carries it, Val{G} fields
 * after the ndrange's (no bytes), so the kernel is specialised on it (ka.c).
 * An offset ndrange wraps that tuple and the offsets' NTuple{ndims,Int64} in
 * the prelude's __KaOffset, an index map (non-NULL map) that tuple and the
 * map's array in its __KaMap. */
static juke_status kernel_for(juke_device *dev, juke_module *m, const char *function, const juke_arg *args, int nargs,
                              uint32_t ndims, const uint32_t *groupsize, bool offset, const juke_array *map,
                              unsigned launch_class, juke_kernel **out)
{
    if (out)
        *out = NULL;
    if (!dev || !m || !out || (nargs && !args) || nargs < 0 || nargs > 64 || (ndims && nargs == 64))
        return api_fail(dev ? dev->ctx : m ? m->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_kernel_for: bad argument");
    function = api_function(m, function);
    char names[65][ARG_NAME_MAX];
    const char *tn[65];
    juke_status st = arg_type_names(m->ctx, args, nargs, names);
    if (st)
        return st;
    /* the visible arguments' class (the ndrange's is no array); the same-shape and small-grid variants
     * (launch_class) for juke_launch only: a kernel handle's later launches may give other shapes */
    unsigned variant = arg_class(m, args, nargs) | launch_class;
    for (int i = 0; i < nargs; i++) {
        tn[i] = names[i];
        if (args[i].is_array && args[i].v.array->dev != dev)
            return api_fail(m->ctx, JUKE_ERR_ARGUMENT, "argument %d: the array lives on another device", i + 1);
    }
    if (ndims) {
        char ints[8 * JUKE_NDRANGE_MAX] = "", vals[64] = "";
        for (uint32_t d = 1; d < ndims; d++)
            snprintf(ints + strlen(ints), sizeof ints - strlen(ints), ",Int64");
        for (uint32_t d = 0; groupsize && ndims <= 3 && d < ndims; d++)
            snprintf(vals + strlen(vals), sizeof vals - strlen(vals), ",Val{%u}", groupsize[d] ? groupsize[d] : 1);
        if (offset)
            snprintf(names[nargs], ARG_NAME_MAX, "__KaOffset{Tuple{Int64%s%s},Tuple{Int64%s}}", ints, vals, ints);
        else if (map)
            snprintf(names[nargs], ARG_NAME_MAX, "__KaMap{Tuple{Int64%s},Array{%s,%d}}", vals, map->eltype, map->ndims);
        else
            snprintf(names[nargs], ARG_NAME_MAX, "Tuple{Int64%s%s}", ints, vals);
        tn[nargs] = names[nargs];
        nargs++;
    }
    juke_options o;
    pthread_mutex_lock(&m->ctx->lock);
    o = m->ctx->opts;
    pthread_mutex_unlock(&m->ctx->lock);
    o.target = dev->target;
    st = api_compile_kernel(m, function, tn, nargs, &o, variant, false, out);
    /* a kernel of fewer facts is right for the class too: a build without the compiler takes it from
     * the disk cache when no kernel of this variant was saved there (without the same-shape fact, then
     * without the small grid's, then the general kernel) */
    unsigned fewer[3] = { variant & ~(unsigned)API_VARIANT_SAMESHAPE,
                          variant & ~(unsigned)(API_VARIANT_SAMESHAPE | API_VARIANT_SMALLGRID), API_VARIANT_GENERAL };
    for (int t = 0; st && !JUKE_HAVE_COMPILER && t < 3; t++)
        if (fewer[t] != (t ? fewer[t - 1] : variant))
            st = api_compile_kernel(m, function, tn, nargs, &o, fewer[t], false, out);
    return st;
}

juke_status juke_kernel_for(juke_device *dev, juke_module *m, const char *function, const juke_arg *args, int nargs,
                            juke_kernel **out)
{
    return kernel_for(dev, m, function, args, nargs, 0, NULL, false, NULL, API_VARIANT_GENERAL, out);
}

/* An ndrange of more than 3 dimensions launches linearly (juke.h): groups of
 * the work-items of KernelAbstractions' threads_to_workgroupsize(G, ndrange),
 * one after another over cld(ndrange, that shape). The kernel finds the same
 * shape again from its group's size (ka.c: the shaping of its own product
 * is itself). */
static juke_status ndrange_shape_linear(juke_device *dev, juke_kernel *k, const juke_launch_config *cfg,
                                        uint32_t grid[3], uint32_t group[3], bool *empty)
{
    const char *f = k->function;
    if (cfg->groupsize[1] > 1 || cfg->groupsize[2] > 1)
        return api_fail(dev->ctx, JUKE_ERR_ARGUMENT,
                        "%s: an ndrange of %u dimensions launches linearly: give its groupsize as one number", f,
                        cfg->ndims);
    uint32_t lim = 256;
    if (juke_kernel_max_groupsize(k, dev, &lim) != JUKE_OK || lim == 0)
        lim = 1;
    uint64_t threads = cfg->groupsize[0] ? cfg->groupsize[0] : (lim < 256 ? lim : 256);
    uint64_t shape = 1, groups = 1;
    *empty = false;
    for (uint32_t d = 0; d < cfg->ndims; d++) {
        uint64_t n = cfg->ndrange[d], x = threads / shape < n ? threads / shape : n;
        *empty = *empty || n == 0;
        if (x == 0)
            x = 1;
        shape *= x;
        groups *= (n + x - 1) / x;
        if (groups > UINT32_MAX)
            return api_fail(dev->ctx, JUKE_ERR_ARGUMENT,
                            "%s: an ndrange of %u dimensions needs more than 2^32-1 workgroups of %llu", f, cfg->ndims,
                            (unsigned long long)shape);
    }
    group[0] = (uint32_t)shape, group[1] = group[2] = 1;
    grid[0] = groups ? (uint32_t)groups : 1, grid[1] = grid[2] = 1;
    return JUKE_OK;
}

/* The shape of a launch over KernelAbstractions' ndrange (juke.h): whole
 * groups covering it; *empty when it holds no work-item. */
static juke_status ndrange_shape(juke_device *dev, juke_kernel *k, const juke_launch_config *cfg, uint32_t grid[3],
                                 uint32_t group[3], bool *empty)
{
    const char *f = k->function;
    if (cfg->ndims > JUKE_NDRANGE_MAX)
        return api_fail(dev->ctx, JUKE_ERR_ARGUMENT, "%s: an ndrange of %u dimensions (1 to %d)", f, cfg->ndims,
                        JUKE_NDRANGE_MAX);
    if (cfg->gridsize[0] || cfg->gridsize[1] || cfg->gridsize[2])
        return api_fail(dev->ctx, JUKE_ERR_ARGUMENT,
                        "%s: give an ndrange or a gridsize, not both (the grid covers the ndrange)", f);
    if (cfg->ndims > 3)
        return ndrange_shape_linear(dev, k, cfg, grid, group, empty);
    int nd = (int)cfg->ndims;
    uint64_t range[3] = { 1, 1, 1 };
    *empty = false;
    for (int d = 0; d < nd; d++) {
        range[d] = cfg->ndrange[d];
        *empty = *empty || range[d] == 0;
    }
    if (cfg->groupsize[0] || cfg->groupsize[1] || cfg->groupsize[2]) {
        for (int d = 0; d < 3; d++) {
            group[d] = cfg->groupsize[d] ? cfg->groupsize[d] : 1;
            if (d >= nd && group[d] != 1)
                return api_fail(dev->ctx, JUKE_ERR_ARGUMENT,
                                "%s: groupsize %u in dimension %d, past the ndrange's %d dimension%s", f, group[d],
                                d + 1, nd, nd == 1 ? "" : "s");
        }
    } else {
        static const uint32_t shapes[3][3] = { { 256, 1, 1 }, { 16, 16, 1 }, { 8, 8, 4 } };
        uint32_t lim = 256;
        if (juke_kernel_max_groupsize(k, dev, &lim) != JUKE_OK || lim == 0)
            lim = 1;
        for (int d = 0; d < 3; d++) {
            group[d] = shapes[nd - 1][d];
            if (range[d] && group[d] > range[d])
                group[d] = (uint32_t)range[d];
        }
        while ((uint64_t)group[0] * group[1] * group[2] > lim) {
            int big = group[1] > group[0] ? 1 : 0;
            big = group[2] > group[big] ? 2 : big;
            group[big] = (group[big] + 1) / 2;
        }
    }
    for (int d = 0; d < 3; d++) {
        uint64_t g = (range[d] + group[d] - 1) / group[d];
        if (g > UINT32_MAX)
            return api_fail(dev->ctx, JUKE_ERR_ARGUMENT,
                            "%s: an ndrange of %llu in dimension %d needs more than 2^32-1 workgroups of %u", f,
                            (unsigned long long)range[d], d + 1, group[d]);
        grid[d] = g ? (uint32_t)g : 1;
    }
    return JUKE_OK;
}

/* A seed for a launch that names none: the clock and a count of such launches, mixed by SplitMix64
 * (Steele et al., 2014), so two launches in one clock tick still differ. */
static uint64_t fresh_seed(juke_context *ctx)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t n = __atomic_add_fetch(&ctx->launches_seeded, 1, __ATOMIC_RELAXED);
    uint64_t z = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + n * 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* cfg with an index-map ndrange (juke.h: ndrange_map) as the 1-D ndrange of the map's length, in *out, after
 * KernelAbstractions' checks: a map of indices on dev, and a static 1-D workgroupsize. */
static juke_status index_map_config(juke_context *ctx, const char *function, juke_device *dev,
                                    const juke_launch_config *cfg, juke_launch_config *out)
{
    const juke_array *map = cfg->ndrange_map;
    const char *t = map->elem == JUKE_VALUE ? map->eltype : api_type_name(map->elem);
    if (map->dev != dev)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "%s: the index map (ndrange_map) lives on another device", function);
    if (map->elem != JUKE_VALUE ||
        !(strncmp(t, "NTuple{", 7) == 0 || strncmp(t, "Tuple{", 6) == 0 || strncmp(t, "CartesianIndex{", 15) == 0))
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        "%s: an index map (ndrange_map) holds CartesianIndex{N} or NTuple{N} of integers, not %s "
                        "(KernelAbstractions' ArgumentError)",
                        function, t);
    if (cfg->ndims > 1 || (cfg->ndims == 1 && cfg->ndrange[0] != (uint64_t)map->length))
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        "%s: an index map (ndrange_map) is the whole ndrange: give ndims 0 (or 1 and its length)",
                        function);
    if (!cfg->groupsize[0] || cfg->groupsize[1] > 1 || cfg->groupsize[2] > 1)
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        "%s: an index-map ndrange needs a static 1-D workgroupsize (groupsize X), as "
                        "KernelAbstractions does",
                        function);
    *out = *cfg;
    out->ndims = 1;
    out->ndrange[0] = (uint64_t)map->length;
    memset(out->ndrange_offset, 0, sizeof out->ndrange_offset);
    return JUKE_OK;
}

/* Launch k's function fn, loaded on dev, with arguments the caller checked
 * (their count, types and devices): the configuration's checks, the
 * argument bytes (runtime/abi.h), the launch, and its exception as a
 * message. The launch shape is checked once, by rt_launch_on; only a failure
 * asks rt_check_launch again, to call a bad shape a bad argument. */
static juke_status launch_loaded(juke_device *dev, juke_kernel *k, RtFunction *fn, const juke_arg *args, int nargs,
                                 const juke_launch_config *cfg)
{
    juke_context *ctx = dev->ctx;
    const char *function = k->function;
    if (!(cfg->timeout_s >= 0) || cfg->timeout_s > 1e9)
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        "%s: run-time limit %g s: expected 0 (none) or positive seconds up to 1e9", function,
                        cfg->timeout_s);
    uint32_t grid[3], group[3];
    int64_t wide_len;
    int wide = k->to.index32 ? first_wide_arg(k->module, args, nargs, &wide_len) : -1;
    if (wide >= 0)
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        "%s was compiled with 32-bit indices (index_bits 32), but argument %d %s %" PRId64
                        " elements (2^31 or more): compile it with index_bits 0 or launch it with juke_launch",
                        function, wide + 1, args[wide].is_array ? "has" : "holds an array of", wide_len);
    if (k->to.same_shape && shape_class(args, nargs) != API_VARIANT_SAMESHAPE) {
        int first = -1;
        for (int i = 0; i < nargs; i++)
            if (args[i].is_array && args[i].v.array) {
                const juke_array *a = args[i].v.array;
                if (first < 0)
                    first = i;
                else if (a->ndims != args[first].v.array->ndims ||
                         memcmp(a->dims, args[first].v.array->dims, sizeof a->dims[0] * (size_t)a->ndims))
                    return api_fail(ctx, JUKE_ERR_ARGUMENT,
                                    "%s was compiled for arrays of one shape (same_shape), but argument %d's shape "
                                    "differs from argument %d's: compile it without same_shape or launch it with "
                                    "juke_launch",
                                    function, i + 1, first + 1);
            }
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        "%s was compiled for arrays of one shape (same_shape), but the launch gives fewer than two "
                        "arrays: compile it without same_shape or launch it with juke_launch",
                        function);
    }
    juke_launch_config mapped;
    if (k->ka_ndims && k->ka_map != (cfg->ndrange_map != NULL))
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        k->ka_map ? "%s was compiled for an index-map ndrange, the launch gives none (ndrange_map)"
                                  : "%s was compiled for an ndrange of sizes, the launch gives an index map "
                                    "(ndrange_map): launch it with juke_launch",
                        function);
    if (k->ka_map) {
        const juke_array *map = cfg->ndrange_map;
        char want[ARG_NAME_MAX];
        snprintf(want, sizeof want, ",Array{%s,%d}}", map->elem == JUKE_VALUE ? map->eltype : "", map->ndims);
        const char *have = k->argtypes[k->nargs - 1];
        size_t hl = strlen(have), wl = strlen(want);
        if (hl < wl || strcmp(have + hl - wl, want) != 0)
            return api_fail(ctx, JUKE_ERR_ARGUMENT, "%s was compiled for the index map of %s, the launch gives %s",
                            function, have, want + 1);
        juke_status st = index_map_config(ctx, function, dev, cfg, &mapped);
        if (st)
            return st;
        cfg = &mapped;
    }
    if (k->ka_ndims && cfg->ndims != (uint32_t)k->ka_ndims)
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        cfg->ndims ? "%s was compiled for a %d-dimensional ndrange, the launch gives %u dimensions"
                                   : "%s is a KernelAbstractions @kernel compiled for a %d-dimensional ndrange: "
                                     "the launch must give one (juke_launch_config.ndims, ndrange)%.0u",
                        function, k->ka_ndims, cfg->ndims);
    for (uint32_t d = 0; k->ka_ndims && !k->ka_offset && d < cfg->ndims && d < JUKE_NDRANGE_MAX; d++)
        if (cfg->ndrange_offset[d])
            return api_fail(ctx, JUKE_ERR_ARGUMENT,
                            "%s was compiled for an ndrange that starts at 1, the launch gives an offset ndrange "
                            "(ndrange_offset): launch it with juke_launch",
                            function);
    if (cfg->ndims) {
        bool empty = false;
        juke_status st = ndrange_shape(dev, k, cfg, grid, group, &empty);
        if (st || empty)
            return st; /* KernelAbstractions runs nothing on an empty ndrange */
        for (int d = 0; k->ka_groupsize[0] && d < 3; d++)
            if (group[d] != (k->ka_groupsize[d] ? k->ka_groupsize[d] : 1))
                return api_fail(ctx, JUKE_ERR_ARGUMENT,
                                "%s was compiled for the static groupsize (%u, %u, %u), the launch gives (%u, %u, %u)",
                                function, k->ka_groupsize[0], k->ka_groupsize[1] ? k->ka_groupsize[1] : 1,
                                k->ka_groupsize[2] ? k->ka_groupsize[2] : 1, group[0], group[1], group[2]);
    } else {
        for (int d = 0; d < 3; d++) {
            grid[d] = cfg->gridsize[d] ? cfg->gridsize[d] : 1;
            group[d] = cfg->groupsize[d] ? cfg->groupsize[d] : 1;
        }
    }
    for (int d = 0; k->to.small_grid && d < 3; d++)
        if (grid[d] > SMALL_GRID_MAX)
            return api_fail(ctx, JUKE_ERR_ARGUMENT,
                            "%s was compiled for grids of at most 2^20 workgroups a dimension (small_grid), but the "
                            "launch gives %u in dimension %d: compile it without small_grid or launch it with "
                            "juke_launch",
                            function, grid[d], d + 1);
    if (k->co.uses_dynamic_lds && cfg->shmem == 0) {
        char *why = NULL;
        juke_status st = rt_check_launch(fn, grid, group, cfg->shmem, &why) != 0
                             ? api_fail(ctx, JUKE_ERR_ARGUMENT, "%s: %s", function, why ? why : "bad launch shape")
                             : api_fail(ctx, JUKE_ERR_ARGUMENT,
                                        "%s uses @ROCDynamicLocalArray but the launch gives no "
                                        "dynamic local memory (shmem = 0)",
                                        function);
        free(why);
        return st;
    }
    if (k->co.uses_grid_sync && !cfg->cooperative)
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        "%s calls sync_grid(), which only a cooperative launch can pass (every workgroup resident "
                        "at once): launch it with cooperative = true (juke run --cooperative)",
                        function);
    if (cfg->stream && cfg->stream->dev != dev)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "%s: the launch's stream belongs to another device", function);
    uint8_t storage[66][16 + 16 * JUKE_NDRANGE_MAX]; /* an array's bytes, or the hidden ndrange's */
    RtArg rargs[66];
    int nr = 0;      /* ghost arguments have no parameter in the code object */
    int vfirst = -1; /* the vararg's first argument in rargs (k->vararg_from) */
    for (int i = 0; i < nargs; i++) {
        if (i == k->vararg_from)
            vfirst = nr;
        if (args[i].type == JUKE_VALUE && !args[i].is_array) {
            if (args[i].v.value.size != k->argsize[i])
                return api_fail(ctx, JUKE_ERR_ARGUMENT, "%s: argument %d (%s) is %zu bytes, but the type takes %u",
                                function, i + 1, k->argtypes[i], args[i].v.value.size, k->argsize[i]);
            if (k->argsize[i])
                rargs[nr++] = (RtArg){ args[i].v.value.bytes, k->argsize[i], k->argalign[i] };
            continue;
        }
        if (args[i].is_array) {
            juke_array *a = args[i].v.array;
            memcpy(storage[i], &a->ptr, 8);
            memcpy(storage[i] + 8, a->dims, 8 * (size_t)a->ndims);
            memcpy(storage[i] + 8 + 8 * a->ndims, &a->length, 8);
            rargs[nr++] = (RtArg){ storage[i], (uint32_t)JUKE_ARRAY_ARG_SIZE(a->ndims), 8 };
        } else {
            size_t sz = juke_sizeof(args[i].type);
            if (args[i].type == JUKE_FLOAT32)
                memcpy(storage[i], &args[i].v.f32, 4);
            else if (args[i].type == JUKE_FLOAT64)
                memcpy(storage[i], &args[i].v.f64, 8);
            else if (args[i].type == JUKE_FLOAT16)
                memcpy(storage[i], &args[i].v.f16, 2);
            else if (args[i].type == JUKE_BOOL)
                storage[i][0] = args[i].v.i != 0;
            else
                memcpy(storage[i], &args[i].v.u, sz); /* little-endian: the low bytes */
            rargs[nr++] = (RtArg){ storage[i], (uint32_t)sz, (uint32_t)sz };
        }
    }
    if (k->ka_ndims) { /* the hidden ndrange, an NTuple{N,Int64}, then an offset ndrange's NTuple{N,Int64} or an
                          index map's array (its descriptor, docs/abi.md) */
        int nd = k->ka_ndims;
        uint32_t size = (uint32_t)(8 * nd * (k->ka_offset ? 2 : 1));
        for (int d = 0; d < nd; d++) {
            memcpy(storage[nargs] + 8 * d, &cfg->ndrange[d], 8);
            memcpy(storage[nargs] + 8 * (nd + d), &cfg->ndrange_offset[d], 8);
        }
        const juke_array *map = cfg->ndrange_map;
        if (k->ka_map) {
            memcpy(storage[nargs] + 8, &map->ptr, 8);
            memcpy(storage[nargs] + 16, map->dims, 8 * (size_t)map->ndims);
            memcpy(storage[nargs] + 16 + 8 * map->ndims, &map->length, 8);
            size = 8 + (uint32_t)JUKE_ARRAY_ARG_SIZE(map->ndims);
        }
        rargs[nr++] = (RtArg){ storage[nargs], size, 8 };
    }
    /* a vararg f(g, x...) is one tuple parameter: its values laid out as the tuple's fields (each at its own
     * alignment, the tuple at the largest), as the code object reads it */
    uint8_t vbytes[4096] __attribute__((aligned(16)));
    if (vfirst >= 0 && vfirst < nr) {
        uint32_t off = 0, align = 1;
        for (int i = vfirst; i < nr; i++) {
            uint32_t al = rargs[i].align ? rargs[i].align : 1;
            off = (off + al - 1) / al * al;
            if (off + rargs[i].size > sizeof vbytes)
                return api_fail(ctx, JUKE_ERR_ARGUMENT, "%s: the vararg's values take more than %zu bytes", function,
                                sizeof vbytes);
            memcpy(vbytes + off, rargs[i].data, rargs[i].size);
            off += rargs[i].size;
            align = al > align ? al : align;
        }
        off = (off + align - 1) / align * align;
        rargs[vfirst] = (RtArg){ vbytes, off, align };
        nr = vfirst + 1;
    }
    if (k->co.uses_rng) { /* the kernel's last explicit argument: __juke_seed (docs/abi.md) */
        uint64_t seed = cfg->seeded ? cfg->seed : fresh_seed(ctx);
        memcpy(storage[nargs + 1], &seed, 8);
        rargs[nr++] = (RtArg){ storage[nargs + 1], 8, 8 };
    }
    JukeExceptionRecord exc;
    char *err = NULL;
    int rc;
    unsigned coop = cfg->cooperative ? RT_LAUNCH_COOPERATIVE : 0;
    /* dev->lock guards last_async only; the runtime serialises the launches */
    if (cfg->async) {
        pthread_mutex_lock(&dev->lock);
        rc = rt_launch_on(fn, cfg->stream ? cfg->stream->rt : NULL, rargs, nr, grid, group, cfg->shmem, coop,
                          cfg->timeout_s, &exc, &err);
        dev->last_async = k;
        pthread_mutex_unlock(&dev->lock);
    } else {
        rc = rt_launch_on(fn, cfg->stream ? cfg->stream->rt : NULL, rargs, nr, grid, group, cfg->shmem,
                          RT_LAUNCH_SYNC | coop, cfg->timeout_s, &exc, &err);
    }
    if (rc == 1) {
        free(err);
        char *thrown = rt_thrown_message_take(dev->rt);
        api_set_error(ctx, exception_message(k, &exc, thrown));
        free(thrown);
        return JUKE_ERR_KERNEL;
    }
    if (rc != 0) {
        char *why = NULL;
        juke_status st;
        if (rt_check_launch(fn, grid, group, cfg->shmem, &why) != 0)
            st = api_fail(ctx, JUKE_ERR_ARGUMENT, "%s: %s", function, why ? why : "bad launch shape");
        else
            st = api_fail(ctx, JUKE_ERR_DEVICE, "launching %s: %s", function, err ? err : "failed");
        free(why);
        free(err);
        return st;
    }
    return JUKE_OK;
}

static juke_status launch(juke_device *dev, juke_module *m, const char *function, const juke_arg *args, int nargs,
                          const juke_launch_config *cfg)
{
    if (!cfg || !dev || !m || !function)
        return api_fail(dev ? dev->ctx
                        : m ? m->ctx
                            : NULL,
                        JUKE_ERR_ARGUMENT, "juke_launch: NULL %s",
                        !dev        ? "device"
                        : !m        ? "module"
                        : !function ? "function name"
                                    : "launch configuration");
    function = api_function(m, function);
    if (nargs < 0 || nargs > 64 || (nargs && !args))
        return api_fail(dev->ctx, JUKE_ERR_ARGUMENT,
                        "juke_launch: %d arguments%s (0 to 64, and a non-NULL array of them)", nargs,
                        nargs && !args ? " but a NULL argument array" : "");
    juke_context *ctx = dev->ctx;
    juke_launch_config mapped;
    if (cfg->ndrange_map) {
        juke_status st = index_map_config(ctx, function, dev, cfg, &mapped);
        if (st)
            return st;
        cfg = &mapped;
    }
    uint32_t ka_ndims = 0;
    if (api_is_ka_kernel(m, function)) {
        if (cfg->ndims < 1 || cfg->ndims > JUKE_NDRANGE_MAX)
            return api_fail(ctx, JUKE_ERR_ARGUMENT,
                            "%s is a KernelAbstractions @kernel: launch it with an ndrange of 1 to %d dimensions "
                            "(juke_launch_config.ndims and ndrange; juke run --ndrange)",
                            function, JUKE_NDRANGE_MAX);
        ka_ndims = cfg->ndims;
    }
    /* the launch memo: a repeated launch finds its kernel without the cache key */
    uint16_t sig[64];
    for (int i = 0; i < nargs; i++)
        sig[i] = args[i].is_array && args[i].v.array
                     ? (uint16_t)(0x8000 | (args[i].v.array->elem << 4) | args[i].v.array->ndims)
                     : (uint16_t)args[i].type;
    size_t flen = strlen(function);
    unsigned launch_class = shape_class(args, nargs) | grid_class(cfg);
    unsigned variant = arg_class(m, args, nargs) | launch_class;
    unsigned gen = __atomic_load_n(&ctx->opts_gen, __ATOMIC_RELAXED);
    juke_kernel *k = NULL;
    RtFunction *fn = NULL;
    /* a @kernel's entries differ by the ndrange's dimensions: kept out of the memo */
    bool memo_ok = flen < sizeof dev->memo[0].function && !ctx->env_dumpdir && !ka_ndims;
    for (int i = 0; i < nargs; i++) /* the signature does not say which type a value (or element) has */
        if ((!args[i].is_array && args[i].type == JUKE_VALUE) ||
            (args[i].is_array && args[i].v.array && args[i].v.array->elem == JUKE_VALUE))
            memo_ok = false;
    if (memo_ok) {
        pthread_mutex_lock(&dev->lock);
        for (int e = 0; e < dev->nmemo; e++) {
            struct LaunchMemo *lm = &dev->memo[e];
            if (lm->m == m && lm->nargs == nargs && lm->gen == gen && lm->variant == variant &&
                memcmp(lm->function, function, flen + 1) == 0 &&
                memcmp(lm->sig, sig, sizeof(uint16_t) * (size_t)nargs) == 0) {
                k = lm->k;
                fn = lm->fn;
                break;
            }
        }
        pthread_mutex_unlock(&dev->lock);
    }
    juke_status st;
    if (!k) {
        bool static_group = cfg->groupsize[0] || cfg->groupsize[1] || cfg->groupsize[2];
        bool offset = false;
        for (uint32_t d = 0; d < ka_ndims; d++)
            offset = offset || cfg->ndrange_offset[d];
        st = kernel_for(dev, m, function, args, nargs, ka_ndims, static_group ? cfg->groupsize : NULL, offset,
                        cfg->ndrange_map, launch_class, &k);
        if (st)
            return st;
    } else {
        for (int i = 0; i < nargs; i++)
            if (args[i].is_array && args[i].v.array->dev != dev)
                return api_fail(ctx, JUKE_ERR_ARGUMENT, "argument %d: the array lives on another device", i + 1);
    }
    if (!fn) {
        st = kernel_loaded(k, dev, &fn);
        if (st)
            return st;
        pthread_mutex_lock(&ctx->lock);
        memo_ok = memo_ok && !ctx->opts.dump_dir; /* dumps are written at every launch: no shortcut */
        pthread_mutex_unlock(&ctx->lock);
        if (memo_ok) {
            pthread_mutex_lock(&dev->lock);
            struct LaunchMemo *lm = &dev->memo[dev->next_memo];
            dev->next_memo = (dev->next_memo + 1) % 16;
            if (dev->nmemo < 16)
                dev->nmemo++;
            lm->m = m;
            memcpy(lm->function, function, flen + 1);
            lm->nargs = nargs;
            lm->gen = gen;
            memcpy(lm->sig, sig, sizeof(uint16_t) * (size_t)nargs);
            lm->variant = variant;
            lm->k = k;
            lm->fn = fn;
            pthread_mutex_unlock(&dev->lock);
        }
    }
    return launch_loaded(dev, k, fn, args, nargs, cfg);
}

static void trace_call(Trace *tr, const char *cat, const char *name, double start_us, const juke_stream *s,
                       juke_status st);

/* Wait for a stream of dev (NULL: the device's own) and report a pending kernel exception. */
static juke_status sync_device(juke_device *dev, RtStream *stream)
{
    JukeExceptionRecord exc;
    char *err = NULL;
    int rc = stream ? rt_stream_synchronize(stream, &exc, &err) : rt_synchronize(dev->rt, &exc, &err);
    if (rc == 1) {
        free(err);
        pthread_mutex_lock(&dev->lock);
        juke_kernel *k = dev->last_async;
        pthread_mutex_unlock(&dev->lock);
        char *thrown = rt_thrown_message_take(dev->rt);
        if (k) {
            api_set_error(dev->ctx, exception_message(k, &exc, thrown));
            free(thrown);
            return JUKE_ERR_KERNEL;
        }
        free(thrown);
        return api_fail(dev->ctx, JUKE_ERR_KERNEL, "a kernel raised an exception (kind %u) at line %u:%u", exc.kind,
                        exc.line, exc.col);
    }
    if (rc != 0) {
        juke_status st = api_fail(dev->ctx, JUKE_ERR_DEVICE, "synchronize: %s", err ? err : "failed");
        free(err);
        return st;
    }
    return JUKE_OK;
}

juke_status juke_device_synchronize(juke_device *dev)
{
    if (!dev)
        return api_fail(NULL, JUKE_ERR_ARGUMENT, "juke_device_synchronize: NULL device");
    Trace *tr = api_trace(dev->ctx);
    double t0 = tr ? trace_now_us() : 0;
    juke_status st = sync_device(dev, NULL);
    if (tr)
        trace_call(tr, "sync", "synchronize", t0, NULL, st);
    return st;
}

juke_status juke_device_set_heap_size(juke_device *dev, uint64_t bytes)
{
    if (!dev)
        return api_fail(NULL, JUKE_ERR_ARGUMENT, "juke_device_set_heap_size: NULL device");
    char *err = NULL;
    if (rt_device_set_heap_size(dev->rt, bytes, &err) != 0) {
        juke_status st = api_fail(dev->ctx, JUKE_ERR_ARGUMENT, "%s", err ? err : "bad heap size");
        free(err);
        return st;
    }
    return JUKE_OK;
}

uint64_t juke_device_heap_size(juke_device *dev)
{
    return dev ? rt_device_heap_size(dev->rt) : 0;
}

juke_status juke_stream_create(juke_device *dev, juke_stream **out)
{
    if (out)
        *out = NULL;
    if (!dev || !out)
        return api_fail(dev ? dev->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_stream_create: NULL argument");
    juke_stream *s = calloc(1, sizeof *s);
    char *err = NULL;
    if (!s)
        return api_fail(dev->ctx, JUKE_ERR_NOMEM, "out of memory");
    if (rt_stream_create(dev->rt, &s->rt, &err) != 0) {
        free(s);
        juke_status st = api_fail(dev->ctx, JUKE_ERR_DEVICE, "%s", err ? err : "cannot create a stream");
        free(err);
        return st;
    }
    s->dev = dev;
    pthread_mutex_lock(&dev->lock);
    bool ok = api_push((void **)&dev->streams, &dev->nstreams, &dev->capstreams, s);
    pthread_mutex_unlock(&dev->lock);
    if (!ok) {
        rt_stream_destroy(s->rt);
        free(s);
        return api_fail(dev->ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    *out = s;
    return JUKE_OK;
}

void juke_stream_destroy(juke_stream *s)
{
    if (!s)
        return;
    juke_device *dev = s->dev;
    pthread_mutex_lock(&dev->lock);
    api_remove((void **)dev->streams, &dev->nstreams, s);
    pthread_mutex_unlock(&dev->lock);
    rt_stream_destroy(s->rt);
    free(s);
}

juke_status juke_stream_synchronize(juke_stream *s)
{
    if (!s)
        return api_fail(NULL, JUKE_ERR_ARGUMENT, "juke_stream_synchronize: NULL stream");
    Trace *tr = api_trace(s->dev->ctx);
    double t0 = tr ? trace_now_us() : 0;
    juke_status st = sync_device(s->dev, s->rt);
    if (tr)
        trace_call(tr, "sync", "synchronize stream", t0, s, st);
    return st;
}

/* A call of juke_launch / a synchronisation on the host track of the trace,
 * from start_us to now; only called when tracing is on. */
static void trace_call(Trace *tr, const char *cat, const char *name, double start_us, const juke_stream *s,
                       juke_status st)
{
    char args[96];
    snprintf(args, sizeof args, "\"stream\": %s, \"status\": %d", s ? "\"own\"" : "\"device\"", (int)st);
    trace_host(tr, cat, name, start_us, trace_now_us() - start_us, args);
}

juke_status juke_launch(juke_device *dev, juke_module *m, const char *function, const juke_arg *args, int nargs,
                        const juke_launch_config *cfg)
{
    Trace *tr = dev ? api_trace(dev->ctx) : NULL;
    if (__builtin_expect(tr == NULL, 1))
        return launch(dev, m, function, args, nargs, cfg);
    double t0 = trace_now_us();
    juke_status st = launch(dev, m, function, args, nargs, cfg);
    trace_call(tr, "launch", function ? function : "?", t0, cfg ? cfg->stream : NULL, st);
    return st;
}

/* ---- kernel handles ---- */

/* fn, k loaded on dev, for juke_kernel_launch: checks that dev runs k's
 * target, loads k there once, and publishes it as k's fast device. */
static juke_status kernel_on_device(juke_kernel *k, juke_device *dev, RtFunction **fn)
{
    const TargetInfo *t = NULL;
    const char *proc = NULL;
    StrBuf err = { 0 };
    bool same = target_parse(dev->target, &t, &proc, &err) && t->kind == k->to.kind &&
                (!proc || !k->to.proc || strcmp(proc, k->to.proc) == 0);
    sb_free(&err);
    if (!same)
        return api_fail(k->ctx, JUKE_ERR_ARGUMENT, "%s was compiled for %s, but %s runs %s", k->function,
                        k->to.proc ? k->to.proc : target_by_kind(k->to.kind)->name, rt_device_name(dev->rt),
                        dev->target);
    juke_status st = kernel_loaded(k, dev, fn);
    if (st)
        return st;
    FastLoad *f = malloc(sizeof *f);
    if (!f)
        return JUKE_OK; /* no shortcut, still a launch */
    pthread_mutex_lock(&k->load_lock);
    *f = (FastLoad){ dev, *fn, k->fast_all };
    k->fast_all = f;
    __atomic_store_n(&k->fast, f, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&k->load_lock);
    return JUKE_OK;
}

/* What argument i should have been, for messages: k's type as given. */
static juke_status wrong_arg(juke_kernel *k, int i, const juke_arg *a)
{
    char got[ARG_NAME_MAX] = "";
    arg_type_names(k->ctx, a, 1, (char(*)[ARG_NAME_MAX])got);
    return api_fail(k->ctx, JUKE_ERR_ARGUMENT, "%s: argument %d is a %s, but the kernel was compiled for %s",
                    k->function, i + 1, got, k->argtypes[i]);
}

juke_status juke_kernel_get(juke_module *m, const char *function, const char *const *argtypes, int nargs,
                            juke_device *dev, juke_kernel **out)
{
    if (out)
        *out = NULL;
    if (!m || !dev || !out)
        return api_fail(m     ? m->ctx
                        : dev ? dev->ctx
                              : NULL,
                        JUKE_ERR_ARGUMENT, "juke_kernel_get: NULL %s",
                        !m     ? "module"
                        : !dev ? "device"
                               : "out");
    if (dev->ctx != m->ctx)
        return api_fail(m->ctx, JUKE_ERR_ARGUMENT,
                        "juke_kernel_get: the module and the device belong to different contexts");
    juke_options o;
    pthread_mutex_lock(&m->ctx->lock);
    o = m->ctx->opts;
    pthread_mutex_unlock(&m->ctx->lock);
    o.target = dev->target;
    juke_kernel *k;
    juke_status st =
        api_compile_kernel(m, api_function(m, function), argtypes, nargs, &o, API_VARIANT_GENERAL, false, &k);
    if (st)
        return st;
    RtFunction *fn;
    st = kernel_on_device(k, dev, &fn);
    if (st)
        return st;
    *out = k;
    return JUKE_OK;
}

/* juke_kernel_global_set (to_device) and juke_kernel_global_get. */
static juke_status kernel_global_copy(juke_kernel *k, juke_device *dev, const char *name, void *host, size_t bytes,
                                      bool to_device)
{
    const char *what = to_device ? "juke_kernel_global_set" : "juke_kernel_global_get";
    if (!k || !dev || !name || (bytes && !host))
        return api_fail(k     ? k->ctx
                        : dev ? dev->ctx
                              : NULL,
                        JUKE_ERR_ARGUMENT, "%s: NULL %s", what,
                        !k      ? "kernel"
                        : !dev  ? "device"
                        : !name ? "name"
                                : "host buffer");
    RtFunction *fn;
    juke_status st = kernel_loaded(k, dev, &fn);
    if (st != JUKE_OK)
        return st;
    void *p = NULL;
    size_t size = 0;
    char *err = NULL;
    if (rt_module_global(rt_function_module(fn), name, &p, &size, &err) != 0) {
        st = api_fail(k->ctx, JUKE_ERR_ARGUMENT, "%s: %s: %s (a kernel names it with get_global_pointer(Val(:%s), T))",
                      what, k->function, err ? err : "no such global", name);
        free(err);
        return st;
    }
    if (size != bytes)
        return api_fail(k->ctx, JUKE_ERR_ARGUMENT, "%s: the global `%s` of %s has %zu bytes, not %zu", what, name,
                        k->function, size, bytes);
    int rc = to_device ? rt_upload(dev->rt, p, host, bytes, &err) : rt_download(dev->rt, host, p, bytes, &err);
    if (rc != 0) {
        st = api_fail(k->ctx, JUKE_ERR_DEVICE, "%s: %s", what, err ? err : "copy failed");
        free(err);
        return st;
    }
    return JUKE_OK;
}

juke_status juke_kernel_global_set(juke_kernel *k, juke_device *dev, const char *name, const void *host, size_t bytes)
{
    return kernel_global_copy(k, dev, name, (void *)host, bytes, true);
}

juke_status juke_kernel_global_get(juke_kernel *k, juke_device *dev, const char *name, void *host, size_t bytes)
{
    return kernel_global_copy(k, dev, name, host, bytes, false);
}

juke_status juke_kernel_launch(juke_kernel *k, juke_device *dev, const juke_arg *args, int nargs,
                               const juke_launch_config *cfg)
{
    if (!k || !dev || !cfg || (nargs && !args))
        return api_fail(k     ? k->ctx
                        : dev ? dev->ctx
                              : NULL,
                        JUKE_ERR_ARGUMENT, "juke_kernel_launch: NULL %s",
                        !k     ? "kernel"
                        : !dev ? "device"
                        : !cfg ? "launch configuration"
                               : "argument array");
    int visible = k->nargs - (k->ka_ndims ? 1 : 0); /* a @kernel's ndrange comes from cfg */
    if (nargs != visible)
        return api_fail(k->ctx, JUKE_ERR_ARGUMENT, "%s: %d argument%s given, the kernel was compiled for %d",
                        k->function, nargs, nargs == 1 ? "" : "s", visible);
    for (int i = 0; i < nargs; i++) {
        const juke_arg *a = &args[i];
        if (a->is_array) {
            const juke_array *arr = a->v.array;
            if (!arr)
                return api_fail(k->ctx, JUKE_ERR_ARGUMENT, "%s: argument %d: NULL array", k->function, i + 1);
            if (k->sig[i] != (uint16_t)(0x8000 | arr->elem << 4 | arr->ndims))
                return wrong_arg(k, i, a);
            if (arr->dev != dev)
                return api_fail(k->ctx, JUKE_ERR_ARGUMENT, "%s: argument %d: the array lives on another device",
                                k->function, i + 1);
        } else if (a->type == JUKE_VALUE) {
            if (!a->v.value.type || !api_value_matches(a->v.value.type, k->argtypes[i]))
                return wrong_arg(k, i, a);
        } else if (k->sig[i] != (uint16_t)a->type) {
            return wrong_arg(k, i, a);
        }
    }
    RtFunction *fn;
    const FastLoad *f = __atomic_load_n(&k->fast, __ATOMIC_ACQUIRE);
    if (f && f->dev == dev) {
        fn = f->fn;
    } else {
        if (dev->ctx != k->ctx)
            return api_fail(k->ctx, JUKE_ERR_ARGUMENT, "%s: the kernel and the device belong to different contexts",
                            k->function);
        juke_status st = kernel_on_device(k, dev, &fn);
        if (st)
            return st;
    }
    return launch_loaded(dev, k, fn, args, nargs, cfg);
}

/* ---- events ---- */

juke_status juke_event_create(juke_device *dev, juke_event **out)
{
    if (out)
        *out = NULL;
    if (!dev || !out)
        return api_fail(dev ? dev->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_event_create: NULL argument");
    juke_event *e = calloc(1, sizeof *e);
    if (!e)
        return api_fail(dev->ctx, JUKE_ERR_NOMEM, "out of memory");
    char *err = NULL;
    if (rt_event_create(dev->rt, &e->rt, &err) != 0) {
        free(e);
        juke_status st = api_fail(dev->ctx, JUKE_ERR_DEVICE, "juke_event_create: %s", err ? err : "failed");
        free(err);
        return st;
    }
    e->dev = dev;
    pthread_mutex_lock(&dev->lock);
    bool ok = api_push((void **)&dev->events, &dev->nevents, &dev->capevents, e);
    pthread_mutex_unlock(&dev->lock);
    if (!ok) {
        rt_event_destroy(e->rt);
        free(e);
        return api_fail(dev->ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    *out = e;
    return JUKE_OK;
}

void juke_event_destroy(juke_event *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&e->dev->lock);
    api_remove((void **)e->dev->events, &e->dev->nevents, e);
    pthread_mutex_unlock(&e->dev->lock);
    rt_event_destroy(e->rt);
    free(e);
}

static juke_status event_failed(juke_device *dev, const char *who, char *err)
{
    juke_status st = api_fail(dev->ctx, JUKE_ERR_DEVICE, "%s: %s", who, err ? err : "failed");
    free(err);
    return st;
}

juke_status juke_event_record(juke_event *e, juke_stream *s)
{
    if (!e)
        return api_fail(NULL, JUKE_ERR_ARGUMENT, "juke_event_record: NULL event");
    if (s && s->dev != e->dev)
        return api_fail(e->dev->ctx, JUKE_ERR_ARGUMENT, "juke_event_record: the stream belongs to another device");
    char *err = NULL;
    if (rt_event_record(e->rt, s ? s->rt : NULL, &err) != 0)
        return event_failed(e->dev, "juke_event_record", err);
    __atomic_store_n(&e->recorded, true, __ATOMIC_RELEASE);
    return JUKE_OK;
}

juke_status juke_event_synchronize(juke_event *e)
{
    if (!e)
        return api_fail(NULL, JUKE_ERR_ARGUMENT, "juke_event_synchronize: NULL event");
    if (!__atomic_load_n(&e->recorded, __ATOMIC_ACQUIRE))
        return api_fail(e->dev->ctx, JUKE_ERR_ARGUMENT, "juke_event_synchronize: the event was never recorded");
    char *err = NULL;
    if (rt_event_synchronize(e->rt, &err) != 0)
        return event_failed(e->dev, "juke_event_synchronize", err);
    return JUKE_OK;
}

juke_status juke_event_elapsed_ms(juke_event *start, juke_event *end, float *ms)
{
    if (!start || !end || !ms)
        return api_fail(start ? start->dev->ctx
                        : end ? end->dev->ctx
                              : NULL,
                        JUKE_ERR_ARGUMENT, "juke_event_elapsed_ms: NULL argument");
    if (start->dev != end->dev)
        return api_fail(start->dev->ctx, JUKE_ERR_ARGUMENT,
                        "juke_event_elapsed_ms: the events belong to different devices");
    if (!__atomic_load_n(&start->recorded, __ATOMIC_ACQUIRE) || !__atomic_load_n(&end->recorded, __ATOMIC_ACQUIRE))
        return api_fail(start->dev->ctx, JUKE_ERR_ARGUMENT, "juke_event_elapsed_ms: the %s event was never recorded",
                        !start->recorded ? "start" : "end");
    char *err = NULL;
    if (rt_event_elapsed_ms(start->rt, end->rt, ms, &err) != 0)
        return event_failed(start->dev, "juke_event_elapsed_ms", err);
    return JUKE_OK;
}

juke_status juke_kernel_max_groupsize(juke_kernel *k, juke_device *dev, uint32_t *out)
{
    if (!k || !dev || !out)
        return api_fail(k     ? k->ctx
                        : dev ? dev->ctx
                              : NULL,
                        JUKE_ERR_ARGUMENT, "juke_kernel_max_groupsize: NULL argument");
    RtFunction *fn;
    const FastLoad *f = __atomic_load_n(&k->fast, __ATOMIC_ACQUIRE);
    if (f && f->dev == dev) {
        fn = f->fn;
    } else {
        juke_status st = kernel_on_device(k, dev, &fn);
        if (st)
            return st;
    }
    uint32_t lim = rt_device_max_group_size(dev->rt), kl = rt_function_info(fn)->max_group_size;
    *out = kl && kl < lim ? kl : lim;
    return JUKE_OK;
}

bool juke_kernel_from_disk_cache(const juke_kernel *k)
{
    return k && k->from_disk;
}
