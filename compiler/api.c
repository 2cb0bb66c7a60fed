/* api.c: include/juke.h's handles: errors, contexts and options, modules,
 * the IR printers, the one flat pipeline (api_compile_kernel) from a source
 * function and argument types to a code object with the in-memory kernel
 * cache (the disk cache is kcache.c), devices and arrays. Launches are
 * launch.c. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "closures.h"
#include "codegen.h"
#include "dumps.h"
#include "frontend.h"
#include "juke.h"
#include "api_impl.h"
#include "arrayops.h"
#include "kcache.h"
#include "prelude.h"

/* ---- small helpers ---- */

bool api_push(void **items, int *n, int *cap, void *item)
{
    void **v = *(void ***)items;
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 8;
        void **nv = realloc(v, sizeof(void *) * (size_t)nc);
        if (!nv)
            return false;
        v = nv;
        *cap = nc;
        *(void ***)items = v;
    }
    v[(*n)++] = item;
    return true;
}

void api_remove(void **items, int *n, void *item)
{
    for (int i = 0; i < *n; i++)
        if (items[i] == item) {
            memmove(&items[i], &items[i + 1], sizeof(void *) * (size_t)(*n - i - 1));
            (*n)--;
            return;
        }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void api_set_error(juke_context *ctx, char *msg)
{
    if (!ctx) {
        free(msg);
        return;
    }
    pthread_t self = pthread_self();
    pthread_mutex_lock(&ctx->lock);
    for (int i = 0; i < ctx->nerrors; i++)
        if (pthread_equal(ctx->errors[i].tid, self)) {
            /* the most recent failure goes last: eviction takes the oldest */
            free(ctx->errors[i].msg);
            memmove(ctx->errors + i, ctx->errors + i + 1, sizeof(ThreadError) * (size_t)(ctx->nerrors - i - 1));
            ctx->errors[ctx->nerrors - 1] = (ThreadError){ self, msg };
            pthread_mutex_unlock(&ctx->lock);
            return;
        }
    if (ctx->nerrors == JUKE_MAX_ERROR_THREADS) {
        /* the thread that failed longest ago gives up its message */
        free(ctx->errors[0].msg);
        memmove(ctx->errors, ctx->errors + 1, sizeof(ThreadError) * (size_t)(ctx->nerrors - 1));
        ctx->nerrors--;
    }
    if (ctx->nerrors == ctx->caperrors) {
        int nc = ctx->caperrors ? ctx->caperrors * 2 : 8;
        ThreadError *ne = realloc(ctx->errors, sizeof(ThreadError) * (size_t)nc);
        if (!ne) {
            pthread_mutex_unlock(&ctx->lock);
            free(msg);
            return;
        }
        ctx->errors = ne;
        ctx->caperrors = nc;
    }
    ctx->errors[ctx->nerrors++] = (ThreadError){ self, msg };
    pthread_mutex_unlock(&ctx->lock);
}

juke_status api_fail(juke_context *ctx, juke_status st, const char *fmt, ...)
{
    StrBuf sb = { 0 };
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    api_set_error(ctx, sb_take(&sb));
    return st;
}

static juke_status fail_diags(juke_context *ctx, Diags *d)
{
    juke_status st = d->first_kind == DIAG_INVALID_IR    ? JUKE_ERR_INVALID_IR
                     : d->first_kind == DIAG_INTERNAL    ? JUKE_ERR_INTERNAL
                     : d->first_kind == DIAG_NOMEM       ? JUKE_ERR_NOMEM
                     : d->first_kind == DIAG_UNSUPPORTED ? JUKE_ERR_UNSUPPORTED
                                                         : JUKE_ERR_COMPILE;
    char *msg = sb_take(&d->text);
    size_t n = msg ? strlen(msg) : 0;
    if (n && msg[n - 1] == '\n')
        msg[n - 1] = 0;
    api_set_error(ctx, msg);
    d->nerrors = 0;
    return st;
}

const char *juke_errmsg(juke_context *ctx)
{
    if (!ctx)
        return "juke: no context (NULL juke_context)";
    const char *r = "";
    pthread_t self = pthread_self();
    pthread_mutex_lock(&ctx->lock);
    for (int i = 0; i < ctx->nerrors; i++)
        if (pthread_equal(ctx->errors[i].tid, self) && ctx->errors[i].msg)
            r = ctx->errors[i].msg;
    pthread_mutex_unlock(&ctx->lock);
    return r;
}

void juke_free(void *p)
{
    free(p);
}

const char *juke_version(void)
{
    return JUKE_VERSION_STRING;
}

const char *juke_build_id(void)
{
    return jk_source_id;
}

const char *juke_status_name(juke_status s)
{
    static const char *names[] = { "ok",           "compile error", "invalid IR",       "internal compiler error",
                                   "bad argument", "device error",  "kernel exception", "out of memory",
                                   "I/O error",    "unsupported" };
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown status";
}

static char *xstrdup(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* ---- contexts ---- */

juke_context *juke_context_create_with_allocator(juke_alloc_fn alloc, void *ud)
{
    juke_context *ctx = juke_context_create();
    if (ctx && alloc) {
        ctx->alloc.fn = alloc;
        ctx->alloc.ud = ud;
    }
    return ctx;
}

void juke_options_default(juke_options *o)
{
    memset(o, 0, sizeof *o);
    o->target = target_default_spec;
    o->opt_level = 3;
    o->code_object_version = 5;
}

juke_context *juke_context_create(void)
{
    juke_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->kc = kcache_new();
    if (!ctx->kc) {
        free(ctx);
        return NULL;
    }
    pthread_mutex_init(&ctx->lock, NULL);
    juke_options_default(&ctx->opts);
    const char *dd = getenv("JUKE_DUMP_DIR");
    if (dd && *dd)
        ctx->env_dumpdir = strdup(dd);
    const char *tp = getenv("JUKE_TRACE");
    if (tp && *tp)
        api_trace_start(ctx, tp); /* no way to fail here: a bad path stays untraced */
    const char *cd = getenv("JUKE_CACHE_DIR");
    if (cd && *cd)
        ctx->env_cachedir = strdup(cd);
    const char *mc = getenv("JUKE_MERGE_CHECKS");
    if (mc && *mc)
        ctx->env_merge_checks = strcmp(mc, "0") ? 1 : -1;
    for (int i = 0; i < target_count() && i < JK_ARRAY_LEN(ctx->env_devlibs); i++) {
        const char *name = target_at(i)->devlib_env, *v = name ? getenv(name) : NULL;
        if (v && *v)
            ctx->env_devlibs[i] = strdup(v);
    }
    const char *spawn = getenv("JUKE_LLD_SPAWN"), *nomemfd = getenv("JUKE_LLD_NO_MEMFD");
    if (nomemfd && *nomemfd && *nomemfd != '0')
        ctx->env_linker = JUKE_LINK_SPAWN_TMPDIR;
    else if (spawn && *spawn && *spawn != '0')
        ctx->env_linker = JUKE_LINK_SPAWN;
    const char *threads = getenv("JUKE_CPU_THREADS");
    if (threads && *threads) {
        char *end;
        long v = strtol(threads, &end, 10);
        if (*end == '\0' && v >= 1 && v <= 1024)
            ctx->env_cpu_threads = (int)v;
    }
    return ctx;
}

static void kernel_free(juke_kernel *k);
static void device_free(juke_device *dev);

void juke_context_destroy(juke_context *ctx)
{
    if (!ctx)
        return;
    aops_free(ctx->aops);
    for (int i = 0; i < ctx->nkernels; i++)
        kernel_free(ctx->kernels[i]);
    for (int i = 0; i < ctx->narrays; i++) {
        juke_array *a = ctx->arrays[i];
        if (!a->borrowed)
            rt_free(a->dev->rt, a->ptr);
        free(a);
    }
    for (int i = 0; i < ctx->ndevices; i++)
        device_free(ctx->devices[i]);
    for (int i = 0; i < ctx->nmodules; i++) {
        fe_module_free(ctx->modules[i]->fe);
        cmemo_free(&ctx->modules[i]->memo);
        free(ctx->modules[i]->name);
        free(ctx->modules[i]);
    }
    for (int i = 0; i < ctx->nerrors; i++)
        free(ctx->errors[i].msg);
    free(ctx->errors);
    free(ctx->kernels);
    free(ctx->arrays);
    free(ctx->devices);
    free(ctx->modules);
    free(ctx->opt_target);
    free(ctx->opt_devlibs);
    free(ctx->opt_dumpdir);
    free(ctx->opt_cachedir);
    free(ctx->env_dumpdir);
    free(ctx->env_cachedir);
    for (int i = 0; i < JK_ARRAY_LEN(ctx->env_devlibs); i++)
        free(ctx->env_devlibs[i]);
    char *terr = NULL;
    if (ctx->trace && trace_finish(ctx->trace, &terr) != 0)
        kcache_log(ctx->kc, JUKE_LOG_WARNING, terr ? terr : "the trace could not be written");
    free(terr);
    kcache_free(ctx->kc);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

void juke_set_log_callback(juke_context *ctx, juke_log_fn fn, void *user)
{
    if (ctx)
        kcache_set_log(ctx->kc, fn, user);
}

void juke_set_print_callback(juke_context *ctx, juke_print_fn fn, void *user)
{
    if (!ctx)
        return;
    pthread_mutex_lock(&ctx->lock);
    ctx->print_fn = fn;
    ctx->print_user = user;
    pthread_mutex_unlock(&ctx->lock);
}

/* The runtime's print sink of every device of a context: the context's callback, or stdout / stderr. */
static void api_print_sink(void *user, int stream, const char *text, size_t len)
{
    juke_context *ctx = user;
    pthread_mutex_lock(&ctx->lock);
    juke_print_fn fn = ctx->print_fn;
    void *u = ctx->print_user;
    pthread_mutex_unlock(&ctx->lock);
    if (fn) {
        fn(u, stream, text, len);
        return;
    }
    FILE *f = stream == 2 ? stderr : stdout;
    fwrite(text, 1, len, f);
    fflush(f);
}

/* The one check of juke_options' numbers, for every entry point that takes
 * options (the target itself then checks what depends on the processor). */
static juke_status check_options(juke_context *ctx, const juke_options *o)
{
    if (o->opt_level < 0 || o->opt_level > 3)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "optimisation level %d out of range (0 to 3)", o->opt_level);
    if (o->code_object_version && o->code_object_version != 4 && o->code_object_version != 5)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "code object version %d not supported (4 or 5)",
                        o->code_object_version);
    if (o->wavefront_size && o->wavefront_size != 32 && o->wavefront_size != 64)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "wavefront size %d not supported (32 or 64)", o->wavefront_size);
    if (o->debuginfo != JUKE_DEBUGINFO_SOURCE && o->debuginfo != JUKE_DEBUGINFO_NONE)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "debuginfo %d unknown (JUKE_DEBUGINFO_SOURCE or _NONE)", o->debuginfo);
    if (o->linker < JUKE_LINK_AUTO || o->linker > JUKE_LINK_SPAWN_TMPDIR)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "linker %d unknown (JUKE_LINK_AUTO, _SPAWN or _SPAWN_TMPDIR)",
                        o->linker);
    if (o->index_bits != 0 && o->index_bits != 32 && o->index_bits != 64)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "index_bits %d not supported (0, 32 or 64)", o->index_bits);
    if (o->cpu_threads < 0 || o->cpu_threads > 1024)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "cpu_threads %d out of range (0 to 1024)", o->cpu_threads);
    return JUKE_OK;
}

juke_status juke_set_options(juke_context *ctx, const juke_options *o)
{
    if (!ctx || !o)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_set_options: NULL argument");
    juke_status st = check_options(ctx, o);
    if (!st && o->trace_path)
        st = api_trace_start(ctx, o->trace_path);
    if (st)
        return st;
    pthread_mutex_lock(&ctx->lock);
    free(ctx->opt_target);
    free(ctx->opt_devlibs);
    free(ctx->opt_dumpdir);
    free(ctx->opt_cachedir);
    ctx->opts = *o;
    ctx->opt_target = xstrdup(o->target ? o->target : target_default_spec);
    ctx->opt_devlibs = xstrdup(o->device_libs);
    ctx->opt_dumpdir = xstrdup(o->dump_dir);
    ctx->opt_cachedir = xstrdup(o->cache_dir);
    ctx->opts.cache_dir = ctx->opt_cachedir;
    __atomic_add_fetch(&ctx->opts_gen, 1, __ATOMIC_RELAXED);
    ctx->opts.target = ctx->opt_target;
    ctx->opts.device_libs = ctx->opt_devlibs;
    ctx->opts.dump_dir = ctx->opt_dumpdir;
    ctx->opts.trace_path = NULL; /* the trace keeps its own copy */
    pthread_mutex_unlock(&ctx->lock);
    return JUKE_OK;
}

/* ---- modules ---- */

static juke_status load_text(juke_context *ctx, const char *name, const char *source, size_t len, juke_module **out);

juke_status juke_module_load_string(juke_context *ctx, const char *name, const char *source, juke_module **out)
{
    if (out)
        *out = NULL;
    if (!ctx || !source || !out)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_module_load_string: NULL argument");
    return load_text(ctx, name, source, strlen(source), out);
}

/* Load source text of len bytes (NUL bytes inside are reported with their location). */
static juke_status load_text(juke_context *ctx, const char *name, const char *source, size_t len, juke_module **out)
{
    Diags d = { 0 };
    double t0 = api_trace(ctx) ? trace_now_us() : 0;
    FeModule *fe = fe_load_with(ctx->alloc.fn ? &ctx->alloc : NULL, name ? name : "<string>", source, len, &d);
    if (api_trace(ctx))
        trace_host(ctx->trace, "compile", "parse", t0, trace_now_us() - t0, NULL);
    if (!fe)
        return fail_diags(ctx, &d);
    diag_reset(&d);
    juke_module *m = calloc(1, sizeof *m);
    if (!m || !(m->name = strdup(name ? name : "<string>"))) {
        free(m);
        fe_module_free(fe);
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    m->ctx = ctx;
    m->fe = fe;
    pthread_mutex_lock(&ctx->lock);
    bool ok = api_push((void **)&ctx->modules, &ctx->nmodules, &ctx->capmodules, m);
    pthread_mutex_unlock(&ctx->lock);
    if (!ok) {
        fe_module_free(fe);
        free(m->name);
        free(m);
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    *out = m;
    return JUKE_OK;
}

juke_status juke_module_load_file(juke_context *ctx, const char *path, juke_module **out)
{
    if (out)
        *out = NULL;
    if (!ctx || !path || !out)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_module_load_file: NULL argument");
    pthread_mutex_lock(&ctx->lock);
    size_t limit = ctx->opts.max_source_bytes ? ctx->opts.max_source_bytes : JK_MAX_SOURCE_BYTES;
    pthread_mutex_unlock(&ctx->lock);
    char *text;
    size_t len;
    StrBuf why = { 0 };
    JkReadStatus rs = jk_read_file(path, limit, &text, &len, &why);
    if (rs != JK_READ_OK) {
        juke_status st = api_fail(ctx, rs == JK_READ_NOMEM ? JUKE_ERR_NOMEM : JUKE_ERR_IO, "could not read %s: %s",
                                  path, why.data ? why.data : "read error");
        sb_free(&why);
        return st;
    }
    juke_status st = load_text(ctx, path, text, len, out);
    free(text);
    return st;
}

void juke_module_free(juke_module *m)
{
    if (!m)
        return;
    juke_context *ctx = m->ctx;
    pthread_mutex_lock(&ctx->lock);
    for (int i = ctx->nkernels - 1; i >= 0; i--)
        if (ctx->kernels[i]->module == m) {
            juke_kernel *k = ctx->kernels[i];
            for (int d = 0; d < ctx->ndevices; d++) {
                juke_device *dv = ctx->devices[d];
                pthread_mutex_lock(&dv->lock);
                if (dv->last_async == k)
                    dv->last_async = NULL;
                for (int e = 0; e < dv->nmemo; e++)
                    if (dv->memo[e].k == k)
                        dv->memo[e].m = NULL;
                pthread_mutex_unlock(&dv->lock);
            }
            api_remove((void **)ctx->kernels, &ctx->nkernels, k);
            kernel_free(k);
        }
    api_remove((void **)ctx->modules, &ctx->nmodules, m);
    pthread_mutex_unlock(&ctx->lock);
    fe_module_free(m->fe);
    cmemo_free(&m->memo);
    free(m->name);
    free(m);
}

int juke_module_function_count(const juke_module *m)
{
    return m ? m->fe->nuser_funcs : 0;
}

const char *juke_module_function_name(const juke_module *m, int i)
{
    return m && i >= 0 && i < m->fe->nuser_funcs ? m->fe->funcs[i]->name : NULL;
}

/* ---- front end ---- */

static juke_status parse_types(juke_context *ctx, FeCompilation *c, const char *const *argtypes, int nargs,
                               const Type **out)
{
    if (nargs < 0 || nargs > 64 || (nargs && !argtypes))
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "bad argument type list (%d types)", nargs);
    for (int i = 0; i < nargs; i++) {
        StrBuf err = { 0 };
        out[i] = argtypes[i] ? ty_parse(c->types, argtypes[i], &err) : NULL;
        if (!out[i]) {
            juke_status st = api_fail(ctx, JUKE_ERR_ARGUMENT, "argument type %d (\"%s\"): %s", i + 1,
                                      argtypes[i] ? argtypes[i] : "(null)", err.data ? err.data : "missing");
            sb_free(&err);
            return st;
        }
        sb_free(&err);
    }
    return JUKE_OK;
}

/* A compilation of m with the argument types parsed into its type table.
 * A malformed type is a bad argument (JUKE_ERR_ARGUMENT), not an error in
 * the source. On success the caller frees *out with fe_compilation_free. */
static juke_status new_compilation(juke_module *m, const char *const *argtypes, int nargs, Diags *d,
                                   FeCompilation **out, const Type **types)
{
    FeCompilation *c = fe_compilation_new(m->fe, d);
    if (!c)
        return api_fail(m->ctx, JUKE_ERR_NOMEM, "out of memory");
    juke_status st = parse_types(m->ctx, c, argtypes, nargs, types);
    if (st) {
        fe_compilation_free(c);
        return st;
    }
    *out = c;
    return JUKE_OK;
}

const char *api_function(const juke_module *m, const char *function)
{
    return m && function ? fe_kernel_name(m->fe, function) : function;
}

static juke_status check_function(juke_module *m, const char *function)
{
    if (!function)
        return api_fail(m->ctx, JUKE_ERR_ARGUMENT, "no function name given");
    if (!fe_find_func(m->fe, function)) {
        const ClInner *in[8];
        int n = fe_inner_named(m->fe, function, in, 8);
        if (n > 1 || (n == 1 && !in[0]->lifted)) {
            StrBuf sb = { 0 };
            for (int i = 0; i < n && i < 8; i++)
                sb_printf(&sb, "%s%s at line %d", i ? ", " : "", in[i]->qname ? in[i]->qname : in[i]->name,
                          in[i]->loc.line);
            juke_status st =
                n > 1 ? api_fail(m->ctx, JUKE_ERR_COMPILE,
                                 "`%s` names %d functions defined inside others in %s (%s): launch one by that name",
                                 function, n, m->name, sb.data ? sb.data : "", in[0]->name)
                      : api_fail(m->ctx, JUKE_ERR_COMPILE,
                                 "`%s` (%s) is defined inside a function and cannot be launched from the host: it "
                                 "captures a static parameter of the function around it, or its parameters have "
                                 "defaults or keywords",
                                 function, sb.data ? sb.data : "");
            sb_free(&sb);
            return st;
        }
        StrBuf sb = { 0 };
        for (int i = 0; i < m->fe->nuser_funcs; i++)
            if (m->fe->funcs[i]->name[0] != '#')
                sb_printf(&sb, "%s%s", sb.len ? ", " : "", m->fe->funcs[i]->name);
        for (int i = 0; i < m->fe->inner.len; i++) {
            const ClInner *r = m->fe->inner.items[i];
            if (r->lifted && r->qname)
                sb_printf(&sb, "%s%s", sb.len ? ", " : "", r->qname);
        }
        juke_status st = api_fail(m->ctx, JUKE_ERR_COMPILE, "UndefVarError: `%s` not defined in %s (it defines: %s)",
                                  function, m->name, sb.data ? sb.data : "no functions");
        sb_free(&sb);
        return st;
    }
    return JUKE_OK;
}

/* The first argument a launch gives of the kernel's vararg, `f(g, x...)` or `x::Vararg{T,N}` last (the code
 * object takes the vararg's values as one tuple parameter), or -1: a kernel of one method, not a @kernel. */
static int kernel_vararg_from(const juke_module *m, const char *function, int nargs)
{
    GenericFunc *g = function ? fe_find_func(m->fe, function) : NULL;
    if (!g || g->nmethods != 1 || !g->methods[0]->vararg)
        return -1; /* a @kernel's vararg takes the hidden ndrange too (ka.c) */
    int fixed = g->methods[0]->nparams - 1;
    return nargs >= fixed ? fixed : -1;
}

bool api_is_ka_kernel(const juke_module *m, const char *function)
{
    GenericFunc *g = function ? fe_find_func(m->fe, function) : NULL;
    return g && g->nmethods && (g->methods[0]->flags & FN_KA);
}

/* Is s the type of a @kernel's hidden argument, as launch.c spells it: the ndrange's NTuple{N,Int64}, then
 * N Val{G} of a static groupsize ("Tuple{Int64,Int64,Val{16},Val{16}}")? */
static bool is_ndrange_type_name(const char *s)
{
    if (strncmp(s, "__KaOffset{", 11) == 0 || strncmp(s, "__KaMap{", 8) == 0)
        return true; /* (an offset or index-map ndrange's, which only launch.c writes) */
    if (strncmp(s, "Tuple{Int64", 11) != 0)
        return false;
    s += 11;
    for (;;) {
        if (strcmp(s, "}") == 0)
            return true;
        if (strncmp(s, ",Int64", 6) == 0) {
            s += 6;
        } else if (strncmp(s, ",Val{", 5) == 0 && s[5] >= '0' && s[5] <= '9') {
            s += 5;
            while (*s >= '0' && *s <= '9')
                s++;
            if (*s++ != '}')
                return false;
        } else {
            return false;
        }
    }
}

/* The dimensions of the ndrange a @kernel compiled without one is given: those of its first array
 * argument (KernelAbstractions users launch with ndrange = size(A)), 1 without arrays. */
static int default_ndrange_dims(const juke_module *m, const char *const *argtypes, int nargs)
{
    Diags d = { 0 };
    FeCompilation *c = fe_compilation_new(m->fe, &d);
    int nd = 1;
    for (int i = 0; c && i < nargs; i++) {
        const Type *t = argtypes[i] ? ty_parse(c->types, argtypes[i], NULL) : NULL;
        if (t && t->kind == TY_ARRAY) {
            nd = t->ndims;
            break;
        }
    }
    if (c)
        fe_compilation_free(c);
    diag_reset(&d);
    return nd;
}

/* A @kernel given the types of its visible arguments only: those of a launch
 * on an ndrange of default_ndrange_dims (its hidden last argument, ka.c), in buf. */
static int with_ndrange_type(const juke_module *m, const char *function, const char *const **argtypes, int nargs,
                             const char **buf)
{
    if (!api_is_ka_kernel(m, function) || nargs < 0 || nargs >= 64 || (nargs && !*argtypes))
        return nargs;
    GenericFunc *g = fe_find_func(m->fe, function);
    /* a @kernel with defaults has methods of several arities (kwargs.c): the types end in the hidden
     * argument's when a method takes exactly them and the last is its tuple (the ndrange's Int64s, then a
     * static groupsize's Val{G}s: launch.c) */
    bool takes_more = false, takes_these = false;
    for (int i = 0; i < g->nmethods; i++) {
        takes_more = takes_more || g->methods[i]->nparams == nargs + 1;
        takes_these = takes_these || g->methods[i]->nparams == nargs;
    }
    const char *last = nargs ? (*argtypes)[nargs - 1] : "";
    bool ends_in_ndrange = is_ndrange_type_name(last);
    if (!takes_more || (takes_these && ends_in_ndrange))
        return nargs;
    for (int i = 0; i < nargs; i++)
        buf[i] = (*argtypes)[i];
    static const char *const ndranges[] = { "Tuple{Int64}", "Tuple{Int64,Int64}", "Tuple{Int64,Int64,Int64}",
                                            "Tuple{Int64,Int64,Int64,Int64}", "Tuple{Int64,Int64,Int64,Int64,Int64}" };
    int nd = default_ndrange_dims(m, *argtypes, nargs);
    buf[nargs] = ndranges[nd >= 1 && nd <= JK_ARRAY_LEN(ndranges) ? nd - 1 : 0];
    *argtypes = buf;
    return nargs + 1;
}

/* Specialise function on the argument types, then print the lowered IR of
 * the method dispatch picked (typed false) or the typed IR of every
 * specialisation (typed true) into *out (malloc'd). */
static juke_status print_specialised(juke_module *m, const char *function, const char *const *argtypes, int nargs,
                                     bool typed, char **out)
{
    Diags d = { 0 };
    FeCompilation *c;
    const Type *types[64];
    const char *withnd[64];
    nargs = with_ndrange_type(m, function, &argtypes, nargs, withnd);
    juke_status st = new_compilation(m, argtypes, nargs, &d, &c, types);
    if (st)
        return st;
    Spec *s = fe_specialize(c, function, types, nargs, (SrcLoc){ 0 });
    if (s) {
        StrBuf sb = { 0 };
        if (typed)
            fe_print_typed(&sb, c);
        else
            ir_print(&sb, s->method->lowered);
        st = sb.failed ? api_fail(m->ctx, JUKE_ERR_NOMEM, "out of memory") : JUKE_OK;
        *out = st ? NULL : sb_take(&sb);
        sb_free(&sb);
    } else {
        st = fail_diags(m->ctx, &d);
    }
    fe_compilation_free(c);
    diag_reset(&d);
    return st;
}

juke_status juke_lowered(juke_module *m, const char *function, const char *const *argtypes, int nargs, char **out)
{
    if (out)
        *out = NULL;
    if (!m || !out)
        return api_fail(m ? m->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_lowered: NULL argument");
    function = api_function(m, function);
    juke_status st = check_function(m, function);
    if (st)
        return st;
    if (nargs > 0)
        return print_specialised(m, function, argtypes, nargs, false, out);
    /* without types: every method, as @code_lowered shows a generic function */
    GenericFunc *g = fe_find_func(m->fe, function);
    for (int i = 0; i < g->nmethods; i++) {
        Diags d = { 0 };
        if (!fe_lower_lazily(m->fe, g->methods[i], &d))
            return fail_diags(m->ctx, &d);
        if (g->methods[i]->deferred) { /* the errors loading kept for when it is used: now */
            diag_append(&d, g->methods[i]->deferred, g->methods[i]->deferred_nerrors, g->methods[i]->deferred_kind);
            return fail_diags(m->ctx, &d);
        }
    }
    StrBuf sb = { 0 };
    for (int i = 0; i < g->nmethods; i++) {
        if (i)
            sb_puts(&sb, "\n");
        ir_print(&sb, g->methods[i]->lowered);
    }
    if (sb.failed) {
        sb_free(&sb);
        return api_fail(m->ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    *out = sb_take(&sb);
    return JUKE_OK;
}

juke_status juke_typed(juke_module *m, const char *function, const char *const *argtypes, int nargs, char **out)
{
    if (out)
        *out = NULL;
    if (!m || !out)
        return api_fail(m ? m->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_typed: NULL argument");
    function = api_function(m, function);
    juke_status st = check_function(m, function);
    return st ? st : print_specialised(m, function, argtypes, nargs, true, out);
}

/* ---- the pipeline ---- */

/* Frees what cg_compile put in a CodeObject (in every build, with or without LLVM). */
void code_object_free(CodeObject *co)
{
    if (!co)
        return;
    free(co->proc);
    free(co->data);
    free(co->kernel_symbol);
    free(co->llvm_unopt);
    free(co->llvm_opt);
    free(co->llvm_opt_kernel);
    free(co->asm_text);
    free(co->resources);
    memset(co, 0, sizeof *co);
}


/* The target spec's kind and processor, from the registry (targets.c). */
static bool parse_target(const char *target, TargetOptions *to, StrBuf *err)
{
    const TargetInfo *t;
    if (!target_parse(target, &t, &to->proc, err))
        return false;
    to->kind = t->kind;
    return true;
}

/* A type as the cache key writes it: no spaces, and the aliases spelt out at any depth (Vector{T} is
 * Array{T,1}, Matrix{T} Array{T,2}, ROCArray Array, Int Int64, UInt UInt64: Tuple{Vector{Int},Int} is
 * Tuple{Array{Int64,1},Int64}), so one type written two ways finds one kernel, here and in the disk cache
 * (a launch spells a hidden __KaMap's map as Array{T,N} where a caller may have written Vector{T}). Only
 * whole names are read: Interval and MyVector stay. Nothing is cut: two types that differ anywhere have
 * different keys. */
static bool canon_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '!' ||
           (unsigned char)c >= 0x80;
}

static void canon_span(StrBuf *sb, const char *p, const char *end)
{
    static const struct {
        const char *alias;
        int nd;
    } arrays[] = { { "Vector", 1 }, { "Matrix", 2 }, { "ROCVector", 1 }, { "ROCMatrix", 2 } };
    while (p < end) {
        if (!canon_ident_char(*p) || (*p >= '0' && *p <= '9')) {
            /* a qualified or symbol name's part (Base.Vector, :Int) is not an alias of ours: copied whole */
            bool keep = *p == '.' || *p == ':';
            sb_putn(sb, p++, 1);
            while (keep && p < end && canon_ident_char(*p))
                sb_putn(sb, p++, 1);
            continue;
        }
        const char *q = p;
        while (q < end && canon_ident_char(*q))
            q++;
        size_t n = (size_t)(q - p);
        int alias = -1;
        for (int i = 0; i < 4; i++)
            if (strlen(arrays[i].alias) == n && memcmp(p, arrays[i].alias, n) == 0)
                alias = i;
        const char *close = NULL;
        if (alias >= 0 && q < end && *q == '{') { /* the matching brace of a one-parameter alias */
            int depth = 0;
            for (const char *c = q; c < end && !close; c++)
                if (*c == '{')
                    depth++;
                else if (*c == '}' && --depth == 0)
                    close = c;
            for (const char *c = q + 1, *d0 = c; close && c < close; c++) /* a comma at depth 1: not the alias */
                if (*c == ',') {
                    int d = 0;
                    for (const char *e = d0; e < c; e++)
                        d += *e == '{' ? 1 : *e == '}' ? -1 : 0;
                    if (d == 0)
                        close = NULL;
                }
        }
        if (close) {
            sb_puts(sb, "Array{");
            canon_span(sb, q + 1, close);
            sb_printf(sb, ",%d}", arrays[alias].nd);
            p = close + 1;
        } else if (n == 8 && memcmp(p, "ROCArray", 8) == 0) {
            sb_puts(sb, "Array");
            p = q;
        } else if ((n == 3 && memcmp(p, "Int", 3) == 0) || (n == 4 && memcmp(p, "UInt", 4) == 0)) {
            sb_putn(sb, p, n);
            sb_puts(sb, "64");
            p = q;
        } else {
            sb_putn(sb, p, n);
            p = q;
        }
    }
}

static void canon_type(StrBuf *sb, const char *t)
{
    StrBuf tmp = { 0 };
    for (const char *p = t; *p; p++)
        if (*p != ' ' && *p != '\t')
            sb_putn(&tmp, p, 1);
    if (tmp.failed) {
        /* out of memory: a key that fails, never a shorter one */
        sb->failed = true;
        sb_free(&tmp);
        return;
    }
    if (tmp.data)
        canon_span(sb, tmp.data, tmp.data + tmp.len);
    sb_free(&tmp);
}

uint16_t api_arg_signature(const char *type)
{
    StrBuf sb = { 0 };
    canon_type(&sb, type);
    uint16_t sig = API_SIG_NONE;
    const char *t = sb.failed ? NULL : sb.data;
    int nd = 0;
    char elem[16];
    if (t && sscanf(t, "Array{%15[A-Za-z0-9],%d}", elem, &nd) == 2 && nd >= 1 && nd <= 8) {
        for (int e = JUKE_BOOL; e <= JUKE_COMPLEXF64; e++)
            if (strcmp(elem, api_type_name(e)) == 0)
                sig = (uint16_t)(0x8000 | e << 4 | nd);
    } else if (t) {
        for (int e = JUKE_BOOL; e <= JUKE_FLOAT64; e++)
            if (strcmp(t, api_type_name(e)) == 0)
                sig = (uint16_t)e;
    }
    sb_free(&sb);
    return sig;
}

static char *cache_key(const char *function, const char *const *argtypes, int nargs, const juke_options *o,
                       unsigned variant, int merge_checks)
{
    StrBuf sb = { 0 };
    /* the count too: one type "A,B" and the two types A and B spell alike */
    sb_printf(&sb, "%s/%d(", function, nargs);
    for (int i = 0; i < nargs; i++) {
        if (i)
            sb_puts(&sb, ",");
        canon_type(&sb, argtypes[i]);
    }
    sb_printf(&sb, ")|%s|O%d|cov%d|w%d|%s", o->target ? o->target : target_default_spec, o->opt_level,
              o->code_object_version, o->wavefront_size, o->device_libs ? o->device_libs : "");
    /* the dumps differ, not the code */
    if (o->debuginfo == JUKE_DEBUGINFO_NONE)
        sb_puts(&sb, "|g0");
    if (variant & API_VARIANT_INDEX32)
        sb_puts(&sb, "|i32");
    if (variant & API_VARIANT_SAMESHAPE)
        sb_puts(&sb, "|ss");
    if (variant & API_VARIANT_SMALLGRID)
        sb_puts(&sb, "|g20");
    if (merge_checks)
        sb_printf(&sb, "|mc%d", merge_checks);
    if (sb.failed) {
        sb_free(&sb);
        return NULL;
    }
    return sb_take(&sb);
}

static const char *code_object_ext(TargetKind k)
{
    return target_by_kind(k)->ext;
}

static juke_status write_dumps_if_asked(juke_kernel *k, const juke_options *o)
{
    const char *dir = o->dump_dir ? o->dump_dir : k->ctx->env_dumpdir;
    return dir ? juke_kernel_write_dumps(k, dir) : JUKE_OK;
}

/* The front end: a compilation with its argument types (new_compilation) →
 * lowered and typed IR, printed into *lowered and *typed where they are not
 * NULL. Errors are left in d; *mismatch (if not NULL) says whether no method
 * of function took the types at all. */
static bool run_front_end(FeCompilation *c, const char *function, const Type **types, int nargs, Diags *d,
                          char **lowered, char **typed, bool *mismatch)
{
    Spec *s = fe_specialize(c, function, types, nargs, (SrcLoc){ 0 });
    if (mismatch)
        *mismatch = !s && c->nspecs == 0 && d->first_kind == DIAG_USER;
    if (!s || !fe_check_kernel(c, s))
        return false;
    if (lowered) {
        StrBuf sb = { 0 };
        ir_print(&sb, s->method->lowered);
        *lowered = sb_take(&sb);
    }
    if (typed) {
        StrBuf sb = { 0 };
        fe_print_typed(&sb, c);
        *typed = sb_take(&sb);
    }
    return true;
}

/* The pipeline: the front end (run_front_end) → code object. */
static bool run_pipeline(FeCompilation *c, const char *function, const Type **types, int nargs, const TargetOptions *to,
                         Diags *d, char **lowered, char **typed, CodeObject *co, double *ms_frontend, bool *mismatch)
{
    double t0 = now_ms();
    if (!run_front_end(c, function, types, nargs, d, lowered, typed, mismatch))
        return false;
    if (ms_frontend)
        *ms_frontend = now_ms() - t0;
    return cg_compile(d, c->types, c->specs, c->nspecs, to, co);
}

/* Whether a method of function has nargs parameters (kernels have no varargs). */
static bool takes_nargs(juke_module *m, const char *function, int nargs)
{
    const GenericFunc *g = fe_find_func(m->fe, function);
    for (int i = 0; g && i < g->nmethods; i++)
        if (g->methods[i]->nparams == nargs)
            return true;
    return false;
}

/* The stages of k's compile that began at start_us (trace_now_us's clock) on
 * the trace: run_pipeline and cg_compile run them back to back, so each
 * starts where the one before ended. */
static void trace_compile_stages(Trace *tr, const juke_kernel *k, double start_us)
{
    const char *names[] = { "infer", "LLVM IR", "optimise", "code object", "link" };
    double ms[] = { k->ms_frontend, k->co.ms_codegen, k->co.ms_optimize, k->co.ms_emit - k->co.ms_link, k->co.ms_link };
    char args[160];
    snprintf(args, sizeof args, "\"kernel\": \"%.100s\"", k->function);
    double s = start_us;
    for (int i = 0; i < 5; i++) {
        if (i < 4 || ms[i] > 0)
            trace_host(tr, "compile", names[i], s, ms[i] * 1e3, args);
        s += ms[i] * 1e3;
    }
}

/* A runtime-only build cannot compile for this host's CPU: a kernel compiled ahead of time elsewhere for
 * a portable x86-64 level that this CPU runs (target "cpu:x86-64-v3", kcache.h) serves, the best level
 * first. Fills k's code and dumps and names the level as its processor. */
static bool load_portable_cpu(juke_module *m, const char *function, const char *const *argtypes, int nargs,
                              const juke_options *o, unsigned variant, const char *cdir, juke_kernel *k)
{
    juke_context *ctx = m->ctx;
    const char *levels[4];
    int n = kcache_host_levels(levels);
    for (int i = 0; i < n; i++) {
        char spec[32];
        snprintf(spec, sizeof spec, "cpu:%s", levels[i]);
        juke_options po = *o;
        po.target = spec;
        char *key = cache_key(function, argtypes, nargs, &po, variant, ctx->env_merge_checks);
        TargetOptions to = k->to;
        to.proc = levels[i];
        KcacheSlot s;
        bool hit = key && kcache_open(ctx->kc, &s, cdir, function, key, m->fe->file.text, m->fe->file.len, &to) &&
                   kcache_load(ctx->kc, &s, &k->lowered, &k->typed, &k->resources, &k->co);
        kcache_close(ctx->kc, &s);
        free(key);
        if (hit) {
            free(k->to_proc);
            k->to_proc = strdup(levels[i]);
            k->to.proc = k->to_proc;
            return true;
        }
    }
    return false;
}

/* source function + argument types + options → a compiled kernel (cached). */
juke_status api_compile_kernel(juke_module *m, const char *function, const char *const *argtypes, int nargs,
                               const juke_options *o, unsigned variant, bool want_asm, juke_kernel **out)
{
    juke_context *ctx = m->ctx;
    juke_status st = check_function(m, function);
    if (st)
        return st;
    if (nargs < 0 || nargs > 64 || (nargs && !argtypes))
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "bad argument type list (%d types)", nargs);
    for (int i = 0; i < nargs; i++)
        if (!argtypes[i])
            return api_fail(ctx, JUKE_ERR_ARGUMENT, "argument type %d is NULL", i + 1);
    const char *withnd[64];
    nargs = with_ndrange_type(m, function, &argtypes, nargs, withnd);
    char *key = cache_key(function, argtypes, nargs, o, variant, ctx->env_merge_checks);
    if (!key)
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    double t_mem = trace_now_us();
    pthread_mutex_lock(&ctx->lock);
    for (int i = 0; i < ctx->nkernels; i++)
        if (ctx->kernels[i]->module == m && strcmp(ctx->kernels[i]->key, key) == 0) {
            juke_kernel *k = ctx->kernels[i];
            pthread_mutex_unlock(&ctx->lock);
            if (api_trace(ctx))
                trace_host(ctx->trace, "cache", "cache hit (memory)", t_mem, trace_now_us() - t_mem, NULL);
            free(key);
            *out = k;
            return write_dumps_if_asked(k, o);
        }
    pthread_mutex_unlock(&ctx->lock);
    if (api_trace(ctx))
        trace_host(ctx->trace, "cache", "cache miss (memory)", t_mem, trace_now_us() - t_mem, NULL);

    TargetOptions to = { 0 };
    StrBuf terr = { 0 };
    if (!parse_target(o->target, &to, &terr)) {
        st = api_fail(ctx, JUKE_ERR_ARGUMENT, "%s", terr.data);
        sb_free(&terr);
        free(key);
        return st;
    }
    Diags d = { 0 };
    FeCompilation *c;
    const Type *types[64];
    st = new_compilation(m, argtypes, nargs, &d, &c, types);
    if (st) {
        diag_reset(&d);
        free(key);
        return st;
    }
    to.opt_level = o->opt_level;
    to.code_object_version = o->code_object_version ? o->code_object_version : 5;
    to.wavefront_size = o->wavefront_size;
    /* WMMA runs in waves of 32, as on gfx11: the CPU forms them for a file that uses it (base/wmma.jl) */
    if (!to.wavefront_size && to.kind == TARGET_CPU && m->fe->ast && (m->fe->ast->flags & FILE_WMMA))
        to.wavefront_size = 32;
    to.devlib_dir = o->device_libs;
    for (int i = 0; !to.devlib_dir && i < target_count() && i < JK_ARRAY_LEN(ctx->env_devlibs); i++)
        if (target_at(i)->kind == to.kind)
            to.devlib_dir = ctx->env_devlibs[i];
    to.linker = o->linker ? o->linker : ctx->env_linker;
    to.skip_asm = !want_asm && !(o->dump_dir || ctx->env_dumpdir);
    to.skip_llvm_text = to.skip_asm;
    to.debug_lines = o->debuginfo == JUKE_DEBUGINFO_SOURCE;
    to.index32 = (variant & API_VARIANT_INDEX32) != 0;
    to.same_shape = (variant & API_VARIANT_SAMESHAPE) != 0;
    to.small_grid = (variant & API_VARIANT_SMALLGRID) != 0;
    to.merge_checks = ctx->env_merge_checks;

    juke_kernel *k = calloc(1, sizeof *k);
    if (!k) {
        fe_compilation_free(c);
        free(key);
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    k->ctx = ctx;
    k->module = m;
    k->key = key;
    k->function = strdup(function);
    k->argtypes = calloc((size_t)nargs + 1, sizeof(char *));
    k->nargs = nargs;
    const Type *ctxt = api_is_ka_kernel(m, function) && nargs ? types[nargs - 1] : NULL;
    if (ctxt && ctxt->kind == TY_STRUCT && ctxt->name && ctxt->nfields == 2 &&
        (strcmp(ctxt->name, "__KaOffset") == 0 || strcmp(ctxt->name, "__KaMap") == 0)) {
        /* an offset ndrange (the context tuple and the offsets) or an index map (the tuple and the map) */
        k->ka_offset = ctxt->name[4] == 'O';
        k->ka_map = !k->ka_offset;
        ctxt = ctxt->fields[0];
    }
    if (ctxt && ctxt->kind == TY_TUPLE) {
        for (int i = 0; i < ctxt->nfields; i++) { /* the ndrange's; Val{G}: a static groupsize */
            if (ctxt->fields[i]->kind == TY_INT64)
                k->ka_ndims++;
            else if (i - k->ka_ndims < 3 && ctxt->fields[i]->nparams == 1)
                k->ka_groupsize[i - k->ka_ndims] = (uint32_t)ctxt->fields[i]->params[0]->ival;
        }
    }
    k->to = to;
    k->to_proc = xstrdup(to.proc);
    k->to_devlibs = xstrdup(to.devlib_dir);
    k->to.proc = k->to_proc;
    k->to.devlib_dir = k->to_devlibs;
    pthread_mutex_init(&k->load_lock, NULL);
    bool copied = k->function && k->argtypes && (!to.proc || k->to_proc) && (!to.devlib_dir || k->to_devlibs);
    for (int i = 0; copied && i < nargs; i++) {
        copied = (k->argtypes[i] = strdup(argtypes[i])) != NULL;
        k->sig[i] = api_arg_signature(argtypes[i]);
        k->argsize[i] = ty_is_ghost(types[i]) ? 0 : (uint32_t)ty_arg_size(types[i]);
        k->argalign[i] = (uint32_t)ty_arg_align(types[i]);
    }
    k->vararg_from = kernel_vararg_from(m, function, nargs);
    if (!copied) {
        fe_compilation_free(c);
        kernel_free(k);
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    const char *cdir = o->cache_dir ? o->cache_dir : ctx->env_cachedir;
    KcacheSlot slot;
    kcache_open(ctx->kc, &slot, cdir, function, key, m->fe->file.text, m->fe->file.len, &k->to);
    double t_disk = trace_now_us();
    bool disk_hit = kcache_load(ctx->kc, &slot, &k->lowered, &k->typed, &k->resources, &k->co);
    if (!disk_hit && slot.dfd >= 0 && !slot.build && to.kind == TARGET_CPU && (!to.proc || !strcmp(to.proc, "native")))
        disk_hit = load_portable_cpu(m, function, argtypes, nargs, o, variant, cdir, k);
    if (cdir && api_trace(ctx))
        trace_host(ctx->trace, "cache", disk_hit ? "cache hit (disk)" : "cache miss (disk)", t_disk,
                   trace_now_us() - t_disk, NULL);
    if (disk_hit) {
        k->from_disk = true;
        fe_compilation_free(c);
        kcache_close(ctx->kc, &slot);
        goto loaded;
    }
    bool mismatch = false;
    double t_build = trace_now_us();
    /* A compile that makes no listing (for a launch) makes neither the lowered and typed texts nor the line
     * information that only the listings show (the code object is the same without it, target.h):
     * ensure_front_texts and ensure_listing make them when asked, compiling again with k->to. A disk cache
     * entry keeps the texts with the code object, so they are made for it. */
    TargetOptions build = k->to;
    bool texts = !to.skip_llvm_text || slot.dfd >= 0;
    if (to.skip_asm && to.skip_llvm_text)
        build.debug_lines = false;
    bool built = run_pipeline(c, function, types, nargs, &build, &d, texts ? &k->lowered : NULL,
                              texts ? &k->typed : NULL, &k->co, &k->ms_frontend, &mismatch);
    if (built && api_trace(ctx))
        trace_compile_stages(ctx->trace, k, t_build);
    fe_compilation_free(c);
    if (!built) {
        /* no method of the kernel takes this many arguments: the caller's
         * mistake, not the source's (a type no method takes may be either) */
        st = fail_diags(ctx, &d);
        if (st == JUKE_ERR_COMPILE && mismatch && !takes_nargs(m, function, nargs))
            st = JUKE_ERR_ARGUMENT;
        diag_reset(&d);
        kernel_free(k);
        kcache_close(ctx->kc, &slot);
        return st;
    }
    diag_reset(&d);
    {
        StrBuf sb = { 0 };
        sb_puts(&sb, k->co.resources ? k->co.resources : "");
        sb_printf(&sb, "compile time:      front end %.2f ms, LLVM IR %.2f ms, optimise %.2f ms, code object %.2f ms\n",
                  k->ms_frontend, k->co.ms_codegen, k->co.ms_optimize, k->co.ms_emit);
        k->resources = sb_take(&sb);
    }
    kcache_save(ctx->kc, &slot, k->lowered, k->typed, k->resources, &k->co);
    kcache_close(ctx->kc, &slot);
loaded:
    pthread_mutex_lock(&ctx->lock);
    /* another thread may have compiled the same kernel meanwhile: keep the first */
    for (int i = 0; i < ctx->nkernels; i++)
        if (ctx->kernels[i]->module == m && strcmp(ctx->kernels[i]->key, key) == 0) {
            juke_kernel *first = ctx->kernels[i];
            pthread_mutex_unlock(&ctx->lock);
            kernel_free(k);
            *out = first;
            return write_dumps_if_asked(first, o);
        }
    k->id = ++ctx->next_kernel_id;
    bool ok = api_push((void **)&ctx->kernels, &ctx->nkernels, &ctx->capkernels, k);
    pthread_mutex_unlock(&ctx->lock);
    if (!ok) {
        kernel_free(k);
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    *out = k;
    return write_dumps_if_asked(k, o);
}

/* The listings of a kernel compiled without them (for a launch, or read from the disk cache): the assembly
 * and the LLVM texts, made by compiling again; NULL when the kernel has none of them. */
static const char *ensure_listing(juke_kernel *k, juke_dump which)
{
    pthread_mutex_lock(&k->load_lock);
    if (!k->co.asm_text || !k->co.llvm_unopt) {
        TargetOptions to = k->to;
        to.skip_asm = false;
        to.skip_llvm_text = false;
        CodeObject co;
        Diags d = { 0 };
        FeCompilation *c;
        const Type *types[64];
        if (new_compilation(k->module, (const char *const *)k->argtypes, k->nargs, &d, &c, types) == JUKE_OK) {
            if (run_pipeline(c, k->function, types, k->nargs, &to, &d, NULL, NULL, &co, NULL, NULL)) {
                if (!k->co.asm_text) {
                    k->co.asm_text = co.asm_text;
                    co.asm_text = NULL;
                }
                if (!k->co.llvm_unopt) {
                    free(k->co.llvm_opt);
                    free(k->co.llvm_opt_kernel);
                    k->co.llvm_unopt = co.llvm_unopt;
                    k->co.llvm_opt = co.llvm_opt;
                    k->co.llvm_opt_kernel = co.llvm_opt_kernel;
                    co.llvm_unopt = co.llvm_opt = co.llvm_opt_kernel = NULL;
                }
                code_object_free(&co);
            }
            fe_compilation_free(c);
        }
        diag_reset(&d);
    }
    const char *r = which == JUKE_DUMP_ASM        ? k->co.asm_text
                    : which == JUKE_DUMP_LLVM_RAW ? k->co.llvm_unopt
                    : which == JUKE_DUMP_LLVM     ? k->co.llvm_opt_kernel
                                                  : k->co.llvm_opt;
    pthread_mutex_unlock(&k->load_lock);
    return r;
}

/* The lowered and typed IR of a kernel compiled without them (for a launch): the front end run again; NULL
 * when the kernel has none. */
static const char *ensure_front_texts(juke_kernel *k, juke_dump which)
{
    pthread_mutex_lock(&k->load_lock);
    if (!k->lowered || !k->typed) {
        Diags d = { 0 };
        FeCompilation *c;
        const Type *types[64];
        if (new_compilation(k->module, (const char *const *)k->argtypes, k->nargs, &d, &c, types) == JUKE_OK) {
            char *lowered = NULL, *typed = NULL;
            if (run_front_end(c, k->function, types, k->nargs, &d, &lowered, &typed, NULL)) {
                /* a text already handed out stays as it is */
                if (!k->lowered)
                    k->lowered = lowered, lowered = NULL;
                if (!k->typed)
                    k->typed = typed, typed = NULL;
            }
            free(lowered);
            free(typed);
            fe_compilation_free(c);
        }
        diag_reset(&d);
    }
    const char *r = which == JUKE_DUMP_LOWERED ? k->lowered : k->typed;
    pthread_mutex_unlock(&k->load_lock);
    return r;
}

static void kernel_free(juke_kernel *k)
{
    if (!k)
        return;
    for (int i = 0; i < k->nloaded; i++)
        rt_module_unload(k->loaded[i].mod);
    free(k->loaded);
    for (FastLoad *f = k->fast_all, *next; f; f = next) {
        next = f->next;
        free(f);
    }
    free(k->key);
    free(k->function);
    free(k->lowered);
    free(k->typed);
    free(k->resources);
    for (int i = 0; k->argtypes && i < k->nargs; i++)
        free(k->argtypes[i]);
    free(k->argtypes);
    free(k->to_proc);
    free(k->to_devlibs);
    code_object_free(&k->co);
    if (k->ctx)
        pthread_mutex_destroy(&k->load_lock);
    free(k);
}

juke_status juke_compile(juke_module *m, const char *function, const char *const *argtypes, int nargs,
                         const juke_options *opts, juke_kernel **out)
{
    if (out)
        *out = NULL;
    if (!m || !out)
        return api_fail(m ? m->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_compile: NULL argument");
    function = api_function(m, function);
    juke_options o;
    if (opts) {
        o = *opts;
        if (!o.target)
            o.target = target_default_spec;
    } else {
        pthread_mutex_lock(&m->ctx->lock);
        o = m->ctx->opts;
        pthread_mutex_unlock(&m->ctx->lock);
    }
    juke_status st = check_options(m->ctx, &o);
    if (st)
        return st;
    /* a repeat of an earlier call finds its kernel without the cache key (cmemo.c) */
    bool memo = function && nargs >= 0 && nargs <= 64 && (!nargs || argtypes);
    for (int i = 0; memo && i < nargs; i++)
        memo = argtypes[i] != NULL;
    unsigned variant = (o.index_bits == 32 ? API_VARIANT_INDEX32 : API_VARIANT_GENERAL) |
                       (o.same_shape ? API_VARIANT_SAMESHAPE : API_VARIANT_GENERAL) |
                       (o.small_grid ? API_VARIANT_SMALLGRID : API_VARIANT_GENERAL);
    uint64_t h = memo ? cmemo_hash(function, argtypes, nargs, &o, (int)variant) : 0;
    if (memo) {
        double t_mem = api_trace(m->ctx) ? trace_now_us() : 0;
        pthread_mutex_lock(&m->ctx->lock);
        juke_kernel *k = cmemo_find(&m->memo, h, function, argtypes, nargs, &o, (int)variant);
        pthread_mutex_unlock(&m->ctx->lock);
        if (k) {
            if (api_trace(m->ctx))
                trace_host(m->ctx->trace, "cache", "cache hit (memory)", t_mem, trace_now_us() - t_mem, NULL);
            *out = k;
            return write_dumps_if_asked(k, &o);
        }
    }
    /* the assembly listing is made on demand (juke_kernel_dump): a compile is the code object */
    st = api_compile_kernel(m, function, argtypes, nargs, &o, variant, false, out);
    if (!st && memo) {
        pthread_mutex_lock(&m->ctx->lock);
        cmemo_add(&m->memo, h, function, argtypes, nargs, &o, (int)variant, *out);
        pthread_mutex_unlock(&m->ctx->lock);
    }
    return st;
}

const char *juke_kernel_dump(juke_kernel *k, juke_dump which)
{
    if (!k)
        return NULL;
    switch (which) {
    case JUKE_DUMP_LOWERED:
    case JUKE_DUMP_TYPED: return ensure_front_texts(k, which);
    case JUKE_DUMP_LLVM_RAW:
    case JUKE_DUMP_LLVM:
    case JUKE_DUMP_LLVM_MODULE:
    case JUKE_DUMP_ASM: return ensure_listing(k, which);
    case JUKE_DUMP_RESOURCES: return k->resources;
    default: return NULL;
    }
}

const void *juke_kernel_code_object(juke_kernel *k, size_t *size)
{
    if (size)
        *size = k ? k->co.size : 0;
    return k ? k->co.data : NULL;
}

const char *juke_kernel_symbol(juke_kernel *k)
{
    return k ? k->co.kernel_symbol : NULL;
}

juke_status juke_kernel_write_dumps(juke_kernel *k, const char *dir)
{
    if (!k || !dir)
        return api_fail(k ? k->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_kernel_write_dumps: NULL argument");
    ensure_listing(k, JUKE_DUMP_ASM);
    ensure_front_texts(k, JUKE_DUMP_LOWERED);
    DumpSet ds = { k->lowered, k->typed,   k->co.llvm_unopt,           k->co.llvm_opt, k->co.asm_text, k->resources,
                   k->co.data, k->co.size, code_object_ext(k->co.kind) };
    char *err = NULL;
    if (dumps_write_dir(dir, k->function, k->key, &ds, &err) != 0) {
        /* dumps_write_dir's messages start with "juke: " already */
        const char *msg = err ? err : "writing dumps failed";
        juke_status st = api_fail(k->ctx, JUKE_ERR_IO, "%s", strncmp(msg, "juke: ", 6) == 0 ? msg + 6 : msg);
        free(err);
        return st;
    }
    return JUKE_OK;
}

/* ---- devices and arrays ---- */

juke_status juke_device_open(juke_context *ctx, const char *spec, juke_device **out)
{
    if (out)
        *out = NULL;
    if (!ctx || !out)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_device_open: NULL argument");
    RtDevice *rt = NULL;
    char *err = NULL, *why = NULL;
    pthread_mutex_lock(&ctx->lock);
    int threads = ctx->opts.cpu_threads ? ctx->opts.cpu_threads : ctx->env_cpu_threads;
    pthread_mutex_unlock(&ctx->lock);
    if (rt_device_open(spec ? spec : "auto", threads, &rt, &why, &err) != 0) {
        juke_status st = api_fail(ctx, JUKE_ERR_DEVICE, "%s", err ? err : "could not open the device");
        free(err);
        free(why);
        return st;
    }
    free(why);
    juke_device *dev = calloc(1, sizeof *dev);
    if (!dev) {
        rt_device_close(rt);
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    dev->ctx = ctx;
    dev->rt = rt;
    RtKind kind = rt_device_kind(rt);
    /* HIP reports e.g. "gfx90a:sramecc+:xnack-": the processor is the part before ':' */
    const char *arch = kind == RT_CPU ? "cpu" : rt_device_arch(rt);
    dev->target = strndup(arch, strcspn(arch, ":"));
    pthread_mutex_init(&dev->lock, NULL);
    api_trace_attach(dev);
    rt_device_set_print_sink(rt, &(RtPrintSink){ api_print_sink, ctx });
    pthread_mutex_lock(&ctx->lock);
    bool ok = api_push((void **)&ctx->devices, &ctx->ndevices, &ctx->capdevices, dev);
    pthread_mutex_unlock(&ctx->lock);
    if (!ok) {
        device_free(dev);
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    *out = dev;
    return JUKE_OK;
}

static void device_free(juke_device *dev)
{
    for (int i = 0; i < dev->nevents; i++) {
        rt_event_destroy(dev->events[i]->rt);
        free(dev->events[i]);
    }
    free(dev->events);
    for (int i = 0; i < dev->nstreams; i++) {
        rt_stream_destroy(dev->streams[i]->rt);
        free(dev->streams[i]);
    }
    free(dev->streams);
    rt_device_close(dev->rt);
    free(dev->target);
    pthread_mutex_destroy(&dev->lock);
    free(dev);
}

void juke_device_close(juke_device *dev)
{
    if (!dev)
        return;
    juke_context *ctx = dev->ctx;
    pthread_mutex_lock(&ctx->lock);
    for (int i = ctx->narrays - 1; i >= 0; i--)
        if (ctx->arrays[i]->dev == dev) {
            juke_array *a = ctx->arrays[i];
            if (!a->borrowed)
                rt_free(dev->rt, a->ptr);
            api_remove((void **)ctx->arrays, &ctx->narrays, a);
            free(a);
        }
    for (int i = 0; i < ctx->nkernels; i++) {
        juke_kernel *k = ctx->kernels[i];
        pthread_mutex_lock(&k->load_lock);
        for (int j = k->nloaded - 1; j >= 0; j--)
            if (k->loaded[j].dev == dev) {
                rt_module_unload(k->loaded[j].mod);
                k->loaded[j] = k->loaded[--k->nloaded];
            }
        /* a later device may reuse this one's address */
        if (k->fast && k->fast->dev == dev)
            __atomic_store_n(&k->fast, NULL, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&k->load_lock);
    }
    api_remove((void **)ctx->devices, &ctx->ndevices, dev);
    pthread_mutex_unlock(&ctx->lock);
    device_free(dev);
}

const char *juke_device_name(juke_device *dev)
{
    return dev ? rt_device_name(dev->rt) : NULL;
}

/* juke.h's juke_type and abi.h's JukeTypeCode are one numbering: the API
 * passes a juke_type where the ABI records a JukeTypeCode. */
_Static_assert((int)JUKE_BOOL == JUKE_T_BOOL && (int)JUKE_INT8 == JUKE_T_INT8 && (int)JUKE_INT16 == JUKE_T_INT16 &&
                   (int)JUKE_INT32 == JUKE_T_INT32 && (int)JUKE_INT64 == JUKE_T_INT64 &&
                   (int)JUKE_UINT8 == JUKE_T_UINT8 && (int)JUKE_UINT16 == JUKE_T_UINT16 &&
                   (int)JUKE_UINT32 == JUKE_T_UINT32 && (int)JUKE_UINT64 == JUKE_T_UINT64 &&
                   (int)JUKE_FLOAT16 == JUKE_T_FLOAT16 && (int)JUKE_FLOAT32 == JUKE_T_FLOAT32 &&
                   (int)JUKE_FLOAT64 == JUKE_T_FLOAT64 && (int)JUKE_COMPLEXF32 == JUKE_T_COMPLEXF32 &&
                   (int)JUKE_COMPLEXF64 == JUKE_T_COMPLEXF64,
               "juke_type (juke.h) and JukeTypeCode (runtime/abi.h) must agree");

size_t juke_sizeof(juke_type t)
{
    switch (t) {
    case JUKE_BOOL:
    case JUKE_INT8:
    case JUKE_UINT8: return 1;
    case JUKE_INT16:
    case JUKE_UINT16:
    case JUKE_FLOAT16: return 2;
    case JUKE_INT32:
    case JUKE_UINT32:
    case JUKE_FLOAT32: return 4;
    case JUKE_INT64:
    case JUKE_UINT64:
    case JUKE_FLOAT64:
    case JUKE_COMPLEXF32: return 8;
    case JUKE_COMPLEXF64: return 16;
    default: return 0;
    }
}

static const char *type_names[] = { "?",       "Bool",    "Int8",    "Int16",      "Int32",
                                    "Int64",   "UInt8",   "UInt16",  "UInt32",     "UInt64",
                                    "Float16", "Float32", "Float64", "ComplexF32", "ComplexF64" };

const char *api_type_name(int t)
{
    return t >= 1 && t <= JUKE_COMPLEXF64 ? type_names[t] : "?";
}

/* Check an array's element type and dims for `who` (a function's name) and
 * return its length in *len. */
static juke_status check_shape(juke_context *ctx, const char *who, juke_type elem, int ndims, const int64_t *dims,
                               int64_t *len)
{
    if (!juke_sizeof(elem))
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "%s: unknown element type %d", who, (int)elem);
    if (ndims < 1 || ndims > 8)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "%s: %d dimensions (1 to 8 supported)", who, ndims);
    *len = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0 || (dims[i] && *len > INT64_MAX / 16 / dims[i]))
            return api_fail(ctx, JUKE_ERR_ARGUMENT, "%s: dimension %d is %" PRId64 "%s", who, i + 1, dims[i],
                            dims[i] < 0 ? ": dimensions cannot be negative"
                                        : ": the array would exceed the address space");
        *len *= dims[i];
    }
    return JUKE_OK;
}

juke_status juke_array_create(juke_device *dev, juke_type elem, int ndims, const int64_t *dims, juke_array **out)
{
    if (out)
        *out = NULL;
    if (!dev || !out || (ndims && !dims))
        return api_fail(dev ? dev->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_array_create: NULL argument");
    juke_context *ctx = dev->ctx;
    int64_t len;
    juke_status st0 = check_shape(ctx, "juke_array_create", elem, ndims, dims, &len);
    if (st0)
        return st0;
    juke_array *a = calloc(1, sizeof *a);
    if (!a)
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    size_t bytes = (size_t)len * juke_sizeof(elem);
    char *err = NULL;
    if (rt_alloc(dev->rt, bytes ? bytes : 1, &a->ptr, &err) != 0) {
        free(a);
        juke_status st = api_fail(ctx, JUKE_ERR_DEVICE, "allocating %zu bytes on %s: %s", bytes,
                                  rt_device_name(dev->rt), err ? err : "failed");
        free(err);
        return st;
    }
    a->dev = dev;
    a->elem = elem;
    a->ndims = ndims;
    memcpy(a->dims, dims, sizeof(int64_t) * (size_t)ndims);
    a->length = len;
    pthread_mutex_lock(&ctx->lock);
    bool ok = api_push((void **)&ctx->arrays, &ctx->narrays, &ctx->caparrays, a);
    pthread_mutex_unlock(&ctx->lock);
    if (!ok) {
        rt_free(dev->rt, a->ptr);
        free(a);
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    *out = a;
    return JUKE_OK;
}

void juke_array_free(juke_array *a)
{
    if (!a)
        return;
    juke_context *ctx = a->dev->ctx;
    pthread_mutex_lock(&ctx->lock);
    api_remove((void **)ctx->arrays, &ctx->narrays, a);
    pthread_mutex_unlock(&ctx->lock);
    if (!a->borrowed)
        rt_free(a->dev->rt, a->ptr);
    free(a);
}

int64_t juke_array_length(const juke_array *a)
{
    return a ? a->length : 0;
}

static juke_status array_copy(juke_array *a, void *host, size_t bytes, bool up)
{
    if (!a || (!host && bytes))
        return api_fail(a ? a->dev->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_array_%s: NULL argument",
                        up ? "upload" : "download");
    size_t need = (size_t)a->length * api_elsize(a);
    if (bytes != need)
        return api_fail(a->dev->ctx, JUKE_ERR_ARGUMENT, "juke_array_%s: %zu bytes given, the array holds %zu",
                        up ? "upload" : "download", bytes, need);
    char *err = NULL;
    double t0 = api_trace(a->dev->ctx) ? trace_now_us() : 0;
    int rc = up ? rt_upload(a->dev->rt, a->ptr, host, bytes, &err) : rt_download(a->dev->rt, host, a->ptr, bytes, &err);
    if (api_trace(a->dev->ctx)) {
        char args[48];
        snprintf(args, sizeof args, "\"bytes\": %zu", bytes);
        trace_host(a->dev->ctx->trace, "copy", up ? "upload" : "download", t0, trace_now_us() - t0, args);
    }
    if (rc != 0) {
        juke_status st =
            api_fail(a->dev->ctx, JUKE_ERR_DEVICE, "copy %s device: %s", up ? "to" : "from", err ? err : "failed");
        free(err);
        return st;
    }
    return JUKE_OK;
}

juke_status juke_array_upload(juke_array *a, const void *host, size_t bytes)
{
    return array_copy(a, (void *)host, bytes, true);
}
juke_status juke_array_download(juke_array *a, void *host, size_t bytes)
{
    return array_copy(a, host, bytes, false);
}


juke_status juke_array_wrap(juke_device *dev, void *devptr, juke_type elem, int ndims, const int64_t *dims,
                            juke_array **out)
{
    if (out)
        *out = NULL;
    if (!dev || !out || !dims)
        return api_fail(dev ? dev->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_array_wrap: NULL argument");
    juke_context *ctx = dev->ctx;
    int64_t len;
    juke_status st = check_shape(ctx, "juke_array_wrap", elem, ndims, dims, &len);
    if (st)
        return st;
    if (!devptr && len)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "juke_array_wrap: NULL pointer for %" PRId64 " elements", len);
    if ((uintptr_t)devptr % juke_sizeof(elem))
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        "juke_array_wrap: pointer %p is not aligned to its %zu-byte %s elements", devptr,
                        juke_sizeof(elem), api_type_name(elem));
    juke_array *a = calloc(1, sizeof *a);
    if (!a)
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    *a = (juke_array){ .dev = dev, .ptr = devptr, .elem = elem, .ndims = ndims, .length = len, .borrowed = true };
    memcpy(a->dims, dims, sizeof(int64_t) * (size_t)ndims);
    pthread_mutex_lock(&ctx->lock);
    bool ok = api_push((void **)&ctx->arrays, &ctx->narrays, &ctx->caparrays, a);
    pthread_mutex_unlock(&ctx->lock);
    if (!ok) {
        free(a);
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    *out = a;
    return JUKE_OK;
}

/* Host buffers for fills and copies between devices go in pieces of this
 * many bytes: a fill of a huge array must not need as much host memory. */
enum { STAGE_BYTES = 1 << 20 };

juke_status juke_array_fill(juke_array *a, const void *value)
{
    if (!a || !value)
        return api_fail(a ? a->dev->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_array_fill: NULL argument");
    size_t es = api_elsize(a), total = (size_t)a->length * es;
    size_t chunk = total < STAGE_BYTES ? total : STAGE_BYTES / es * es;
    if (!total)
        return JUKE_OK;
    uint8_t *buf = malloc(chunk);
    if (!buf)
        return api_fail(a->dev->ctx, JUKE_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < chunk; i += es)
        memcpy(buf + i, value, es);
    char *err = NULL;
    for (size_t done = 0; done < total; done += chunk) {
        size_t n = total - done < chunk ? total - done : chunk;
        if (rt_upload(a->dev->rt, (uint8_t *)a->ptr + done, buf, n, &err) != 0) {
            free(buf);
            juke_status st = api_fail(a->dev->ctx, JUKE_ERR_DEVICE, "juke_array_fill: %s", err ? err : "copy failed");
            free(err);
            return st;
        }
    }
    free(buf);
    return JUKE_OK;
}

/* Check that [off, off + count) lies within a (`what`: "destination", "source"). */
static juke_status check_range(juke_context *ctx, const char *who, const char *what, const juke_array *a, int64_t off,
                               int64_t count)
{
    if (off < 0 || count < 0 || off > a->length || count > a->length - off)
        return api_fail(ctx, JUKE_ERR_ARGUMENT,
                        "%s: %s elements [%" PRId64 ", %" PRId64 ") (offset %" PRId64 ", count %" PRId64
                        ") lie outside its %" PRId64 " elements",
                        who, what, off, off + count, off, count, a->length);
    return JUKE_OK;
}

static juke_status copy_failed(juke_context *ctx, const char *who, char *err)
{
    juke_status st = api_fail(ctx, JUKE_ERR_DEVICE, "%s: %s", who, err ? err : "copy failed");
    free(err);
    return st;
}

juke_status juke_array_copy_from_host(juke_array *dst, int64_t dst_offset, const void *src, int64_t count)
{
    static const char who[] = "juke_array_copy_from_host";
    if (!dst || (!src && count))
        return api_fail(dst ? dst->dev->ctx : NULL, JUKE_ERR_ARGUMENT, "%s: NULL argument", who);
    juke_status st = check_range(dst->dev->ctx, who, "destination", dst, dst_offset, count);
    if (st || !count)
        return st;
    size_t es = api_elsize(dst);
    char *err = NULL;
    if (rt_upload(dst->dev->rt, (uint8_t *)dst->ptr + (size_t)dst_offset * es, src, (size_t)count * es, &err) != 0)
        return copy_failed(dst->dev->ctx, who, err);
    return JUKE_OK;
}

juke_status juke_array_copy_to_host(void *dst, const juke_array *src, int64_t src_offset, int64_t count)
{
    static const char who[] = "juke_array_copy_to_host";
    if (!src || (!dst && count))
        return api_fail(src ? src->dev->ctx : NULL, JUKE_ERR_ARGUMENT, "%s: NULL argument", who);
    juke_status st = check_range(src->dev->ctx, who, "source", src, src_offset, count);
    if (st || !count)
        return st;
    size_t es = api_elsize(src);
    char *err = NULL;
    if (rt_download(src->dev->rt, dst, (uint8_t *)src->ptr + (size_t)src_offset * es, (size_t)count * es, &err) != 0)
        return copy_failed(src->dev->ctx, who, err);
    return JUKE_OK;
}

juke_status juke_array_copy(juke_array *dst, int64_t dst_offset, const juke_array *src, int64_t src_offset,
                            int64_t count)
{
    static const char who[] = "juke_array_copy";
    if (!dst || !src)
        return api_fail(dst ? dst->dev->ctx : src ? src->dev->ctx : NULL, JUKE_ERR_ARGUMENT, "%s: NULL argument", who);
    juke_context *ctx = dst->dev->ctx;
    if (src->dev->ctx != ctx)
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "%s: the arrays belong to different contexts", who);
    if (src->elem != dst->elem || (src->elem == JUKE_VALUE && strcmp(src->eltype, dst->eltype) != 0))
        return api_fail(ctx, JUKE_ERR_ARGUMENT, "%s: a %s source and a %s destination (copies do not convert)", who,
                        src->elem == JUKE_VALUE ? src->eltype : api_type_name(src->elem),
                        dst->elem == JUKE_VALUE ? dst->eltype : api_type_name(dst->elem));
    juke_status st = check_range(ctx, who, "source", src, src_offset, count);
    if (!st)
        st = check_range(ctx, who, "destination", dst, dst_offset, count);
    if (st || !count)
        return st;
    size_t es = api_elsize(dst), total = (size_t)count * es;
    uint8_t *d = (uint8_t *)dst->ptr + (size_t)dst_offset * es;
    const uint8_t *s = (const uint8_t *)src->ptr + (size_t)src_offset * es;
    char *err = NULL;
    /* the drivers' copies, like memcpy, leave overlapping ranges undefined */
    bool overlap = s < d + total && d < s + total;
    if (src->dev == dst->dev && !overlap) {
        if (rt_memcpy_d2d(dst->dev->rt, d, s, total, &err) != 0)
            return copy_failed(ctx, who, err);
        return JUKE_OK;
    }
    /* two devices, or overlapping ranges: through host memory, a piece at a
     * time (forward pieces would overwrite an overlapping source, so one piece) */
    size_t chunk = total < STAGE_BYTES || overlap ? total : STAGE_BYTES;
    uint8_t *buf = malloc(chunk);
    if (!buf)
        return api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    for (size_t done = 0; done < total; done += chunk) {
        size_t n = total - done < chunk ? total - done : chunk;
        if (rt_download(src->dev->rt, buf, s + done, n, &err) != 0 ||
            rt_upload(dst->dev->rt, d + done, buf, n, &err) != 0) {
            free(buf);
            return copy_failed(ctx, who, err);
        }
    }
    free(buf);
    return JUKE_OK;
}

int juke_array_ndims(const juke_array *a)
{
    return a ? a->ndims : 0;
}

int64_t juke_array_size(const juke_array *a, int d)
{
    if (!a || d < 1)
        return 0;
    return d <= a->ndims ? a->dims[d - 1] : 1;
}

juke_type juke_array_eltype(const juke_array *a)
{
    return a ? a->elem : (juke_type)0;
}
void *juke_array_pointer(const juke_array *a)
{
    return a ? a->ptr : NULL;
}
juke_device *juke_array_device(const juke_array *a)
{
    return a ? a->dev : NULL;
}

/* ---- the timeline (trace.c) ---- */

/* RtTrace's callback: a kernel's span on the device that ran it. */
static void trace_kernel_span(void *user, const RtStream *stream, const char *name, double start_us, double end_us)
{
    juke_device *dev = user;
    Trace *tr = api_trace(dev->ctx);
    if (tr)
        trace_device(tr, dev, rt_device_name(dev->rt), stream, "kernel", name, start_us, end_us - start_us, NULL);
}

void api_trace_attach(juke_device *dev)
{
    if (api_trace(dev->ctx))
        rt_device_set_trace(dev->rt, &(RtTrace){ trace_kernel_span, dev });
}

juke_status api_trace_start(juke_context *ctx, const char *path)
{
    char *err = NULL;
    pthread_mutex_lock(&ctx->lock);
    Trace *tr = ctx->trace;
    if (tr && strcmp(trace_path(tr), path) == 0) {
        pthread_mutex_unlock(&ctx->lock);
        return JUKE_OK;
    }
    int rc = 0;
    if (tr)
        rc = trace_retarget(tr, path, &err);
    else if ((tr = trace_new(path, &err)) != NULL) {
        __atomic_store_n(&ctx->trace, tr, __ATOMIC_RELEASE);
        for (int i = 0; i < ctx->ndevices; i++)
            api_trace_attach(ctx->devices[i]);
    } else
        rc = -1;
    pthread_mutex_unlock(&ctx->lock);
    if (rc != 0) {
        /* dumps.c's messages start "juke: ", as the command prints them; here the caller adds its own */
        const char *why = err && strncmp(err, "juke: ", 6) == 0 ? err + 6 : err;
        juke_status st =
            err ? api_fail(ctx, JUKE_ERR_IO, "trace: %s", why) : api_fail(ctx, JUKE_ERR_NOMEM, "out of memory");
        free(err);
        return st;
    }
    return JUKE_OK;
}
