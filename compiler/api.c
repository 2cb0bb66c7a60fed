/* api.c: include/juke.h, the embedding API: contexts, modules, the kernel
 * cache, and the one flat pipeline (compile_kernel) from a source function
 * and argument types to a loaded, launchable code object. */
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

#include "codegen.h"
#include "dumps.h"
#include "frontend.h"
#include "juke.h"
#include "runtime.h"

typedef struct ThreadError {
    pthread_t tid;
    char *msg;
} ThreadError;

typedef struct Loaded {
    juke_device *dev;
    RtModule *mod;
    RtFunction *fn;
} Loaded;

struct juke_kernel {
    juke_context *ctx;
    juke_module *module;
    char *key;
    char *function;
    int id;                 /* <kernel>_<id> in dump directories */
    char *lowered, *typed, *resources;
    CodeObject co;
    double ms_frontend;
    /* what it was compiled from, to compile again for the assembly when a
     * kernel compiled for a launch (without it) is asked for it */
    char **argtypes;
    int nargs;
    TargetOptions to;
    char *to_proc, *to_devlibs;
    Loaded *loaded;
    int nloaded, capl;
    pthread_mutex_t load_lock;
};

struct juke_module {
    juke_context *ctx;
    FeModule *fe;
    char *name;
};

struct juke_device {
    juke_context *ctx;
    RtDevice *rt;
    char *target;           /* what kernels are compiled for: "gfx90a", "sm_90", "cpu" */
    pthread_mutex_t lock;
    juke_kernel *last_async; /* the last kernel launched asynchronously, for exceptions at synchronize */
    juke_stream **streams;
    int nstreams, capstreams;
    /* Recent launches: (module, function, argument signature, options
     * generation) → kernel and loaded function, so a repeated launch skips
     * building the cache key (a few strcmps instead of string formatting). */
    struct LaunchMemo {
        juke_module *m;
        char function[64];
        int nargs;
        unsigned gen;
        uint16_t sig[64];
        juke_kernel *k;
        RtFunction *fn;
    } memo[16];
    int nmemo, next_memo;
};

struct juke_stream {
    juke_device *dev;
    RtStream *rt;
};

struct juke_array {
    juke_device *dev;
    void *ptr;
    juke_type elem;
    int ndims;
    int64_t dims[8];
    int64_t length;
};

struct juke_context {
    pthread_mutex_t lock;
    juke_options opts;
    char *opt_target, *opt_devlibs, *opt_dumpdir, *opt_cachedir;
    char *env_dumpdir, *env_cachedir;
    ThreadError *errors;
    int nerrors, caperrors;
    juke_module **modules;
    int nmodules, capmodules;
    juke_kernel **kernels;
    int nkernels, capkernels;
    juke_device **devices;
    int ndevices, capdevices;
    juke_array **arrays;
    int narrays, caparrays;
    int next_kernel_id;
    JkAllocator alloc;      /* the host's allocator for the front end's arenas (fn NULL: malloc) */
    unsigned opts_gen;      /* bumped by juke_set_options: launch memos of older options are stale */
};

/* ---- small helpers ---- */

static bool push(void **items, int *n, int *cap, void *item)
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

static void remove_item(void **items, int *n, void *item)
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

static void set_error_str(juke_context *ctx, char *msg)
{
    if (!ctx) {
        free(msg);
        return;
    }
    pthread_t self = pthread_self();
    pthread_mutex_lock(&ctx->lock);
    for (int i = 0; i < ctx->nerrors; i++)
        if (pthread_equal(ctx->errors[i].tid, self)) {
            free(ctx->errors[i].msg);
            ctx->errors[i].msg = msg;
            pthread_mutex_unlock(&ctx->lock);
            return;
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
    ctx->errors[ctx->nerrors++] = (ThreadError){self, msg};
    pthread_mutex_unlock(&ctx->lock);
}

static juke_status fail(juke_context *ctx, juke_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static juke_status fail(juke_context *ctx, juke_status st, const char *fmt, ...)
{
    StrBuf sb = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    set_error_str(ctx, sb_take(&sb));
    return st;
}

static juke_status fail_diags(juke_context *ctx, Diags *d)
{
    juke_status st = d->first_kind == DIAG_INVALID_IR ? JUKE_ERR_INVALID_IR
                     : d->first_kind == DIAG_INTERNAL ? JUKE_ERR_INTERNAL
                     : d->first_kind == DIAG_NOMEM    ? JUKE_ERR_NOMEM : JUKE_ERR_COMPILE;
    char *msg = sb_take(&d->text);
    size_t n = msg ? strlen(msg) : 0;
    if (n && msg[n - 1] == '\n')
        msg[n - 1] = 0;
    set_error_str(ctx, msg);
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

void juke_free(void *p) { free(p); }

const char *juke_version(void) { return JUKE_VERSION_STRING; }

const char *juke_status_name(juke_status s)
{
    static const char *names[] = {"ok", "compile error", "invalid IR", "internal compiler error", "bad argument",
                                  "device error", "kernel exception", "out of memory", "I/O error", "unsupported"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown status";
}

static char *xstrdup(const char *s) { return s ? strdup(s) : NULL; }

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
    o->target = "gfx90a";
    o->opt_level = 3;
    o->code_object_version = 5;
}

juke_context *juke_context_create(void)
{
    juke_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    pthread_mutex_init(&ctx->lock, NULL);
    juke_options_default(&ctx->opts);
    const char *dd = getenv("JUKE_DUMP_DIR");
    if (dd && *dd)
        ctx->env_dumpdir = strdup(dd);
    const char *cd = getenv("JUKE_CACHE_DIR");
    if (cd && *cd)
        ctx->env_cachedir = strdup(cd);
    return ctx;
}

static void kernel_free(juke_kernel *k);
static void device_free(juke_device *dev);

void juke_context_destroy(juke_context *ctx)
{
    if (!ctx)
        return;
    for (int i = 0; i < ctx->nkernels; i++)
        kernel_free(ctx->kernels[i]);
    for (int i = 0; i < ctx->narrays; i++) {
        juke_array *a = ctx->arrays[i];
        rt_free(a->dev->rt, a->ptr);
        free(a);
    }
    for (int i = 0; i < ctx->ndevices; i++)
        device_free(ctx->devices[i]);
    for (int i = 0; i < ctx->nmodules; i++) {
        fe_module_free(ctx->modules[i]->fe);
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
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

juke_status juke_set_options(juke_context *ctx, const juke_options *o)
{
    if (!ctx || !o)
        return fail(ctx, JUKE_ERR_ARGUMENT, "juke_set_options: NULL argument");
    if (o->opt_level < 0 || o->opt_level > 3)
        return fail(ctx, JUKE_ERR_ARGUMENT, "optimisation level %d out of range (0 to 3)", o->opt_level);
    if (o->code_object_version && o->code_object_version != 4 && o->code_object_version != 5)
        return fail(ctx, JUKE_ERR_ARGUMENT, "code object version %d not supported (4 or 5)", o->code_object_version);
    if (o->wavefront_size && o->wavefront_size != 32 && o->wavefront_size != 64)
        return fail(ctx, JUKE_ERR_ARGUMENT, "wavefront size %d not supported (32 or 64)", o->wavefront_size);
    pthread_mutex_lock(&ctx->lock);
    free(ctx->opt_target);
    free(ctx->opt_devlibs);
    free(ctx->opt_dumpdir);
    free(ctx->opt_cachedir);
    ctx->opts = *o;
    ctx->opt_target = xstrdup(o->target ? o->target : "gfx90a");
    ctx->opt_devlibs = xstrdup(o->device_libs);
    ctx->opt_dumpdir = xstrdup(o->dump_dir);
    ctx->opt_cachedir = xstrdup(o->cache_dir);
    ctx->opts.cache_dir = ctx->opt_cachedir;
    __atomic_add_fetch(&ctx->opts_gen, 1, __ATOMIC_RELAXED);
    ctx->opts.target = ctx->opt_target;
    ctx->opts.device_libs = ctx->opt_devlibs;
    ctx->opts.dump_dir = ctx->opt_dumpdir;
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
        return fail(ctx, JUKE_ERR_ARGUMENT, "juke_module_load_string: NULL argument");
    return load_text(ctx, name, source, strlen(source), out);
}

/* Load source text of len bytes (NUL bytes inside are reported with their location). */
static juke_status load_text(juke_context *ctx, const char *name, const char *source, size_t len, juke_module **out)
{
    Diags d = {0};
    FeModule *fe = fe_load_with(ctx->alloc.fn ? &ctx->alloc : NULL, name ? name : "<string>", source, len, &d);
    if (!fe)
        return fail_diags(ctx, &d);
    diag_reset(&d);
    juke_module *m = calloc(1, sizeof *m);
    if (!m || !(m->name = strdup(name ? name : "<string>"))) {
        free(m);
        fe_module_free(fe);
        return fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    m->ctx = ctx;
    m->fe = fe;
    pthread_mutex_lock(&ctx->lock);
    bool ok = push((void **)&ctx->modules, &ctx->nmodules, &ctx->capmodules, m);
    pthread_mutex_unlock(&ctx->lock);
    if (!ok) {
        fe_module_free(fe);
        free(m->name);
        free(m);
        return fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    *out = m;
    return JUKE_OK;
}

juke_status juke_module_load_file(juke_context *ctx, const char *path, juke_module **out)
{
    if (out)
        *out = NULL;
    if (!ctx || !path || !out)
        return fail(ctx, JUKE_ERR_ARGUMENT, "juke_module_load_file: NULL argument");
    pthread_mutex_lock(&ctx->lock);
    size_t limit = ctx->opts.max_source_bytes ? ctx->opts.max_source_bytes : JK_MAX_SOURCE_BYTES;
    pthread_mutex_unlock(&ctx->lock);
    char *text;
    size_t len;
    StrBuf why = {0};
    JkReadStatus rs = jk_read_file(path, limit, &text, &len, &why);
    if (rs != JK_READ_OK) {
        juke_status st = fail(ctx, rs == JK_READ_NOMEM ? JUKE_ERR_NOMEM : JUKE_ERR_IO, "could not read %s: %s", path,
                              why.data ? why.data : "read error");
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
                if (dv->last_async == k)
                    dv->last_async = NULL;
                pthread_mutex_lock(&dv->lock);
                for (int e = 0; e < dv->nmemo; e++)
                    if (dv->memo[e].k == k)
                        dv->memo[e].m = NULL;
                pthread_mutex_unlock(&dv->lock);
            }
            remove_item((void **)ctx->kernels, &ctx->nkernels, k);
            kernel_free(k);
        }
    remove_item((void **)ctx->modules, &ctx->nmodules, m);
    pthread_mutex_unlock(&ctx->lock);
    fe_module_free(m->fe);
    free(m->name);
    free(m);
}

int juke_module_function_count(const juke_module *m) { return m ? m->fe->nfuncs : 0; }

const char *juke_module_function_name(const juke_module *m, int i)
{
    return m && i >= 0 && i < m->fe->nfuncs ? m->fe->funcs[i]->name : NULL;
}

/* ---- front end ---- */

static juke_status parse_types(juke_context *ctx, FeCompilation *c, const char *const *argtypes, int nargs,
                               const Type **out)
{
    if (nargs < 0 || nargs > 64 || (nargs && !argtypes))
        return fail(ctx, JUKE_ERR_ARGUMENT, "bad argument type list (%d types)", nargs);
    for (int i = 0; i < nargs; i++) {
        StrBuf err = {0};
        out[i] = argtypes[i] ? ty_parse(c->types, argtypes[i], &err) : NULL;
        if (!out[i]) {
            juke_status st = fail(ctx, JUKE_ERR_ARGUMENT, "argument type %d (\"%s\"): %s", i + 1,
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
        return fail(m->ctx, JUKE_ERR_NOMEM, "out of memory");
    juke_status st = parse_types(m->ctx, c, argtypes, nargs, types);
    if (st) {
        fe_compilation_free(c);
        return st;
    }
    *out = c;
    return JUKE_OK;
}

static juke_status check_function(juke_module *m, const char *function)
{
    if (!function)
        return fail(m->ctx, JUKE_ERR_ARGUMENT, "no function name given");
    if (!fe_find_func(m->fe, function)) {
        StrBuf sb = {0};
        for (int i = 0; i < m->fe->nfuncs; i++)
            sb_printf(&sb, "%s%s", i ? ", " : "", m->fe->funcs[i]->name);
        juke_status st = fail(m->ctx, JUKE_ERR_COMPILE, "UndefVarError: `%s` not defined in %s (it defines: %s)",
                              function, m->name, sb.data ? sb.data : "no functions");
        sb_free(&sb);
        return st;
    }
    return JUKE_OK;
}

/* Specialise function on the argument types, then print the lowered IR of
 * the method dispatch picked (typed false) or the typed IR of every
 * specialisation (typed true) into *out (malloc'd). */
static juke_status print_specialised(juke_module *m, const char *function, const char *const *argtypes, int nargs,
                                     bool typed, char **out)
{
    Diags d = {0};
    FeCompilation *c;
    const Type *types[64];
    juke_status st = new_compilation(m, argtypes, nargs, &d, &c, types);
    if (st)
        return st;
    Spec *s = fe_specialize(c, function, types, nargs, (SrcLoc){0});
    if (s) {
        StrBuf sb = {0};
        if (typed)
            fe_print_typed(&sb, c);
        else
            ir_print(&sb, s->method->lowered);
        st = sb.failed ? fail(m->ctx, JUKE_ERR_NOMEM, "out of memory") : JUKE_OK;
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
        return fail(m ? m->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_lowered: NULL argument");
    juke_status st = check_function(m, function);
    if (st)
        return st;
    if (nargs > 0)
        return print_specialised(m, function, argtypes, nargs, false, out);
    /* without types: every method, as @code_lowered shows a generic function */
    GenericFunc *g = fe_find_func(m->fe, function);
    StrBuf sb = {0};
    for (int i = 0; i < g->nmethods; i++) {
        if (i)
            sb_puts(&sb, "\n");
        ir_print(&sb, g->methods[i]->lowered);
    }
    if (sb.failed) {
        sb_free(&sb);
        return fail(m->ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    *out = sb_take(&sb);
    return JUKE_OK;
}

juke_status juke_typed(juke_module *m, const char *function, const char *const *argtypes, int nargs, char **out)
{
    if (out)
        *out = NULL;
    if (!m || !out)
        return fail(m ? m->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_typed: NULL argument");
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



static bool parse_target(const char *target, TargetOptions *to, StrBuf *err)
{
    if (!target || !*target)
        target = "gfx90a";
    if (strcmp(target, "cpu") == 0 || strncmp(target, "cpu:", 4) == 0) {
        to->kind = TARGET_CPU;
        to->proc = target[3] == ':' ? target + 4 : NULL;
    } else if (strncmp(target, "sm_", 3) == 0 || strcmp(target, "nvptx") == 0) {
        to->kind = TARGET_NVPTX;
        to->proc = strcmp(target, "nvptx") == 0 ? NULL : target;
    } else if (strncmp(target, "gfx", 3) == 0 || strcmp(target, "amdgpu") == 0) {
        to->kind = TARGET_AMDGPU;
        to->proc = strcmp(target, "amdgpu") == 0 ? NULL : target;
    } else {
        sb_printf(err, "unknown target \"%s\"; known targets: %s, %s, cpu", target, target_known_procs(TARGET_AMDGPU),
                  target_known_procs(TARGET_NVPTX));
        return false;
    }
    if (to->proc && to->kind != TARGET_CPU && !target_proc_known(to->kind, to->proc)) {
        sb_printf(err, "unknown %s target \"%s\"; known targets: %s", to->kind == TARGET_AMDGPU ? "AMDGPU" : "NVPTX",
                  target, target_known_procs(to->kind));
        return false;
    }
    return true;
}

/* A type as the cache key writes it: no spaces, and the aliases spelt out
 * (Vector{T} is Array{T,1}, Matrix{T} Array{T,2}, Int Int64), so one type
 * written two ways finds one kernel. */
static void canon_type(StrBuf *sb, const char *t)
{
    char buf[256];
    size_t n = 0;
    for (const char *p = t; *p && n + 1 < sizeof buf; p++)
        if (*p != ' ' && *p != '\t')
            buf[n++] = *p;
    buf[n] = 0;
    static const struct { const char *alias; int nd; } arrays[] = {
        {"Vector{", 1}, {"Matrix{", 2}, {"ROCVector{", 1}, {"ROCMatrix{", 2}};
    for (int i = 0; i < 4; i++) {
        size_t l = strlen(arrays[i].alias);
        if (strncmp(buf, arrays[i].alias, l) == 0 && n > l && buf[n - 1] == '}') {
            buf[n - 1] = 0;
            sb_puts(sb, "Array{");
            canon_type(sb, buf + l);
            sb_printf(sb, ",%d}", arrays[i].nd);
            return;
        }
    }
    if (strncmp(buf, "ROCArray{", 9) == 0) {
        sb_printf(sb, "Array{%s", buf + 9);
        return;
    }
    if (strncmp(buf, "Array{Int,", 10) == 0 || strncmp(buf, "Array{UInt,", 11) == 0) {
        sb_printf(sb, "Array{%sInt64,%s", buf[6] == 'U' ? "U" : "", strchr(buf, ',') + 1);
        return;
    }
    sb_puts(sb, strcmp(buf, "Int") == 0 ? "Int64" : strcmp(buf, "UInt") == 0 ? "UInt64" : buf);
}

static char *cache_key(const char *function, const char *const *argtypes, int nargs, const juke_options *o)
{
    StrBuf sb = {0};
    sb_printf(&sb, "%s(", function);
    for (int i = 0; i < nargs; i++) {
        if (i)
            sb_puts(&sb, ",");
        canon_type(&sb, argtypes[i]);
    }
    sb_printf(&sb, ")|%s|O%d|cov%d|w%d|%s", o->target ? o->target : "gfx90a", o->opt_level, o->code_object_version,
              o->wavefront_size, o->device_libs ? o->device_libs : "");
    return sb_take(&sb);
}

static const char *code_object_ext(TargetKind k) { return k == TARGET_AMDGPU ? "hsaco" : k == TARGET_NVPTX ? "ptx" : "so"; }

static juke_status write_dumps_if_asked(juke_kernel *k, const juke_options *o)
{
    const char *dir = o->dump_dir ? o->dump_dir : k->ctx->env_dumpdir;
    return dir ? juke_kernel_write_dumps(k, dir) : JUKE_OK;
}

/* The pipeline: a compilation with its argument types (new_compilation) →
 * lowered and typed IR → code object. Errors are left in d. */
static bool run_pipeline(FeCompilation *c, const char *function, const Type **types, int nargs,
                         const TargetOptions *to, Diags *d, char **lowered, char **typed, CodeObject *co,
                         double *ms_frontend)
{
    double t0 = now_ms();
    Spec *s = fe_specialize(c, function, types, nargs, (SrcLoc){0});
    if (!s || !fe_check_kernel(c, s))
        return false;
    if (lowered) {
        StrBuf sb = {0};
        ir_print(&sb, s->method->lowered);
        *lowered = sb_take(&sb);
    }
    if (typed) {
        StrBuf sb = {0};
        fe_print_typed(&sb, c);
        *typed = sb_take(&sb);
    }
    if (ms_frontend)
        *ms_frontend = now_ms() - t0;
    return cg_compile(d, c->types, c->specs, c->nspecs, to, co);
}

/* ---- the on-disk kernel cache ----
 * One file per kernel, named by the function and a hash of the cache key,
 * the module's source text and juke's version:
 *   JUKE-KERNEL-CACHE 1
 *   key: vadd!(Vector{Float32},...)|gfx90a|O3|...
 *   symbol / kind / proc / static_lds / barrier / dynamic_lds / max_group lines
 *   sections: LOWERED TYPED RESOURCES CODE   (byte counts)
 *   the four sections' bytes
 * A file whose key line differs (a hash collision) or that is malformed is
 * ignored and rewritten. */
static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 1099511628211ULL;
    return h;
}

static char *cache_path(juke_module *m, const char *dir, const char *function, const char *key)
{
    uint64_t h = 14695981039346656037ULL;
    h = fnv1a(h, key, strlen(key) + 1);
    h = fnv1a(h, m->fe->file.text, m->fe->file.len);
    h = fnv1a(h, JUKE_VERSION_STRING, sizeof JUKE_VERSION_STRING);
    StrBuf sb = {0};
    sb_printf(&sb, "%s/", dir);
    for (const char *c = function; *c; c++)
        sb_printf(&sb, (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'
                           ? "%c" : "_%02X", (unsigned char)*c);
    sb_printf(&sb, "-%016" PRIx64 ".jkc", h);
    return sb_take(&sb);
}

static bool cache_load(juke_kernel *k, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    StrBuf sb = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sb_putn(&sb, buf, n);
    fclose(f);
    bool ok = false;
    char *p = sb.data, *end = sb.data + sb.len;
    char key[4096], sym[256], proc[64];
    int kind, barrier, dyn, maxg;
    unsigned lds;
    size_t nl, nt, nr, nc;
    int used = 0;
    if (!p || sscanf(p, "JUKE-KERNEL-CACHE 1\nkey: %4095[^\n]\nsymbol: %255s\nkind: %d\nproc: %63s\nstatic_lds: %u\n"
                        "barrier: %d\ndynamic_lds: %d\nmax_group: %d\nsections: %zu %zu %zu %zu\n%n",
                     key, sym, &kind, proc, &lds, &barrier, &dyn, &maxg, &nl, &nt, &nr, &nc, &used) != 12 || !used)
        goto out;
    p += used;
    if (strcmp(key, k->key) != 0 || nl > (size_t)(end - p) || nt > (size_t)(end - p) - nl ||
        nr > (size_t)(end - p) - nl - nt || nc != (size_t)(end - p) - nl - nt - nr || nc == 0)
        goto out;
    k->lowered = strndup(p, nl);
    k->typed = strndup(p + nl, nt);
    k->resources = strndup(p + nl + nt, nr);
    k->co.data = malloc(nc + 1);
    k->co.kernel_symbol = strdup(sym);
    k->co.proc = strdup(proc);
    if (!k->lowered || !k->typed || !k->resources || !k->co.data || !k->co.kernel_symbol || !k->co.proc)
        goto out;
    memcpy(k->co.data, p + nl + nt + nr, nc);
    k->co.data[nc] = 0; /* PTX is text */
    k->co.size = kind == TARGET_NVPTX ? nc - 1 : nc;
    k->co.kind = (TargetKind)kind;
    k->co.static_lds_bytes = lds;
    k->co.uses_barrier = barrier != 0;
    k->co.uses_dynamic_lds = dyn != 0;
    k->co.max_flat_workgroup_size = maxg;
    ok = true;
out:
    sb_free(&sb);
    return ok;
}

static void cache_save(juke_kernel *k, const char *dir, const char *path)
{
    char *err = NULL;
    if (dumps_mkdirs(dir, &err) != 0) {
        free(err);
        return;
    }
    StrBuf sb = {0};
    const char *l = k->lowered ? k->lowered : "", *t = k->typed ? k->typed : "", *r = k->resources ? k->resources : "";
    size_t code = k->co.kind == TARGET_NVPTX ? k->co.size + 1 : k->co.size; /* PTX keeps its NUL */
    sb_printf(&sb, "JUKE-KERNEL-CACHE 1\nkey: %s\nsymbol: %s\nkind: %d\nproc: %s\nstatic_lds: %u\nbarrier: %d\n"
                   "dynamic_lds: %d\nmax_group: %d\nsections: %zu %zu %zu %zu\n",
              k->key, k->co.kernel_symbol, (int)k->co.kind, k->co.proc && *k->co.proc ? k->co.proc : "-",
              k->co.static_lds_bytes, k->co.uses_barrier, k->co.uses_dynamic_lds, k->co.max_flat_workgroup_size,
              strlen(l), strlen(t), strlen(r), code);
    sb_puts(&sb, l);
    sb_puts(&sb, t);
    sb_puts(&sb, r);
    sb_putn(&sb, (const char *)k->co.data, code);
    if (!sb.failed)
        dumps_write_file_atomic(path, sb.data, sb.len, &err); /* a cache that cannot be written is no error */
    free(err);
    sb_free(&sb);
}

/* source function + argument types + options → a compiled kernel (cached). */
static juke_status compile_kernel(juke_module *m, const char *function, const char *const *argtypes, int nargs,
                                  const juke_options *o, bool want_asm, juke_kernel **out)
{
    juke_context *ctx = m->ctx;
    juke_status st = check_function(m, function);
    if (st)
        return st;
    if (nargs < 0 || nargs > 64 || (nargs && !argtypes))
        return fail(ctx, JUKE_ERR_ARGUMENT, "bad argument type list (%d types)", nargs);
    for (int i = 0; i < nargs; i++)
        if (!argtypes[i])
            return fail(ctx, JUKE_ERR_ARGUMENT, "argument type %d is NULL", i + 1);
    char *key = cache_key(function, argtypes, nargs, o);
    if (!key)
        return fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    pthread_mutex_lock(&ctx->lock);
    for (int i = 0; i < ctx->nkernels; i++)
        if (ctx->kernels[i]->module == m && strcmp(ctx->kernels[i]->key, key) == 0) {
            juke_kernel *k = ctx->kernels[i];
            pthread_mutex_unlock(&ctx->lock);
            free(key);
            *out = k;
            return write_dumps_if_asked(k, o);
        }
    pthread_mutex_unlock(&ctx->lock);

    TargetOptions to = {0};
    StrBuf terr = {0};
    if (!parse_target(o->target, &to, &terr)) {
        st = fail(ctx, JUKE_ERR_ARGUMENT, "%s", terr.data);
        sb_free(&terr);
        free(key);
        return st;
    }
    Diags d = {0};
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
    to.devlib_dir = o->device_libs;
    to.skip_asm = !want_asm && !(o->dump_dir || ctx->env_dumpdir);

    juke_kernel *k = calloc(1, sizeof *k);
    if (!k) {
        fe_compilation_free(c);
        free(key);
        return fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    k->ctx = ctx;
    k->module = m;
    k->key = key;
    k->function = strdup(function);
    k->argtypes = calloc((size_t)nargs + 1, sizeof(char *));
    k->nargs = nargs;
    k->to = to;
    k->to_proc = xstrdup(to.proc);
    k->to_devlibs = xstrdup(to.devlib_dir);
    k->to.proc = k->to_proc;
    k->to.devlib_dir = k->to_devlibs;
    pthread_mutex_init(&k->load_lock, NULL);
    bool copied = k->function && k->argtypes && (!to.proc || k->to_proc) && (!to.devlib_dir || k->to_devlibs);
    for (int i = 0; copied && i < nargs; i++)
        copied = (k->argtypes[i] = strdup(argtypes[i])) != NULL;
    if (!copied) {
        fe_compilation_free(c);
        kernel_free(k);
        return fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    const char *cdir = o->cache_dir ? o->cache_dir : ctx->env_cachedir;
    char *cpath = cdir ? cache_path(m, cdir, function, key) : NULL;
    if (cpath && cache_load(k, cpath)) {
        fe_compilation_free(c);
        free(cpath);
        goto loaded;
    }
    bool built = run_pipeline(c, function, types, nargs, &k->to, &d, &k->lowered, &k->typed, &k->co, &k->ms_frontend);
    fe_compilation_free(c);
    if (!built) {
        st = fail_diags(ctx, &d);
        diag_reset(&d);
        kernel_free(k);
        free(cpath);
        return st;
    }
    diag_reset(&d);
    {
        StrBuf sb = {0};
        sb_puts(&sb, k->co.resources ? k->co.resources : "");
        sb_printf(&sb, "compile time:      front end %.2f ms, LLVM IR %.2f ms, optimise %.2f ms, code object %.2f ms\n",
                  k->ms_frontend, k->co.ms_codegen, k->co.ms_optimize, k->co.ms_emit);
        k->resources = sb_take(&sb);
    }
    if (cpath) {
        cache_save(k, cdir, cpath);
        free(cpath);
    }
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
    bool ok = push((void **)&ctx->kernels, &ctx->nkernels, &ctx->capkernels, k);
    pthread_mutex_unlock(&ctx->lock);
    if (!ok) {
        kernel_free(k);
        return fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    *out = k;
    return write_dumps_if_asked(k, o);
}

/* The assembly of a kernel compiled without it (for a launch): compile again. */
static void ensure_asm(juke_kernel *k)
{
    pthread_mutex_lock(&k->load_lock);
    if (!k->co.asm_text) {
        TargetOptions to = k->to;
        to.skip_asm = false;
        CodeObject co;
        Diags d = {0};
        FeCompilation *c;
        const Type *types[64];
        if (new_compilation(k->module, (const char *const *)k->argtypes, k->nargs, &d, &c, types) == JUKE_OK) {
            if (run_pipeline(c, k->function, types, k->nargs, &to, &d, NULL, NULL, &co, NULL)) {
                k->co.asm_text = co.asm_text;
                co.asm_text = NULL;
                code_object_free(&co);
            }
            fe_compilation_free(c);
        }
        diag_reset(&d);
    }
    pthread_mutex_unlock(&k->load_lock);
}

static void kernel_free(juke_kernel *k)
{
    if (!k)
        return;
    for (int i = 0; i < k->nloaded; i++)
        rt_module_unload(k->loaded[i].mod);
    free(k->loaded);
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
        return fail(m ? m->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_compile: NULL argument");
    juke_options o;
    if (opts) {
        o = *opts;
        if (!o.target)
            o.target = "gfx90a";
    } else {
        pthread_mutex_lock(&m->ctx->lock);
        o = m->ctx->opts;
        pthread_mutex_unlock(&m->ctx->lock);
    }
    if (o.opt_level < 0 || o.opt_level > 3)
        return fail(m->ctx, JUKE_ERR_ARGUMENT, "optimisation level %d out of range (0 to 3)", o.opt_level);
    if (o.code_object_version && o.code_object_version != 4 && o.code_object_version != 5)
        return fail(m->ctx, JUKE_ERR_ARGUMENT, "code object version %d not supported (4 or 5)", o.code_object_version);
    /* the assembly listing is made on demand (juke_kernel_dump): a compile is the code object */
    return compile_kernel(m, function, argtypes, nargs, &o, false, out);
}

const char *juke_kernel_dump(juke_kernel *k, juke_dump which)
{
    if (!k)
        return NULL;
    switch (which) {
    case JUKE_DUMP_LOWERED: return k->lowered;
    case JUKE_DUMP_TYPED: return k->typed;
    case JUKE_DUMP_LLVM_RAW: return k->co.llvm_unopt;
    case JUKE_DUMP_LLVM: return k->co.llvm_opt_kernel;
    case JUKE_DUMP_LLVM_MODULE: return k->co.llvm_opt;
    case JUKE_DUMP_ASM:
        ensure_asm(k);
        return k->co.asm_text;
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

const char *juke_kernel_symbol(juke_kernel *k) { return k ? k->co.kernel_symbol : NULL; }

juke_status juke_kernel_write_dumps(juke_kernel *k, const char *dir)
{
    if (!k || !dir)
        return fail(k ? k->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_kernel_write_dumps: NULL argument");
    ensure_asm(k);
    DumpSet ds = {k->lowered, k->typed, k->co.llvm_unopt, k->co.llvm_opt, k->co.asm_text, k->resources,
                  k->co.data, k->co.size, code_object_ext(k->co.kind)};
    char *err = NULL;
    if (dumps_write_dir(dir, k->function, k->id, &ds, &err) != 0) {
        /* dumps_write_dir's messages start with "juke: " already */
        const char *msg = err ? err : "writing dumps failed";
        juke_status st = fail(k->ctx, JUKE_ERR_IO, "%s", strncmp(msg, "juke: ", 6) == 0 ? msg + 6 : msg);
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
        return fail(ctx, JUKE_ERR_ARGUMENT, "juke_device_open: NULL argument");
    RtDevice *rt = NULL;
    char *err = NULL, *why = NULL;
    if (rt_device_open(spec ? spec : "auto", &rt, &why, &err) != 0) {
        juke_status st = fail(ctx, JUKE_ERR_DEVICE, "%s", err ? err : "could not open the device");
        free(err);
        free(why);
        return st;
    }
    free(why);
    juke_device *dev = calloc(1, sizeof *dev);
    if (!dev) {
        rt_device_close(rt);
        return fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    dev->ctx = ctx;
    dev->rt = rt;
    RtKind kind = rt_device_kind(rt);
    /* HIP reports e.g. "gfx90a:sramecc+:xnack-": the processor is the part before ':' */
    const char *arch = kind == RT_CPU ? "cpu" : rt_device_arch(rt);
    dev->target = strndup(arch, strcspn(arch, ":"));
    pthread_mutex_init(&dev->lock, NULL);
    pthread_mutex_lock(&ctx->lock);
    bool ok = push((void **)&ctx->devices, &ctx->ndevices, &ctx->capdevices, dev);
    pthread_mutex_unlock(&ctx->lock);
    if (!ok) {
        device_free(dev);
        return fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    }
    *out = dev;
    return JUKE_OK;
}

static void device_free(juke_device *dev)
{
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
            rt_free(dev->rt, a->ptr);
            remove_item((void **)ctx->arrays, &ctx->narrays, a);
            free(a);
        }
    for (int i = 0; i < ctx->nkernels; i++) {
        juke_kernel *k = ctx->kernels[i];
        for (int j = k->nloaded - 1; j >= 0; j--)
            if (k->loaded[j].dev == dev) {
                rt_module_unload(k->loaded[j].mod);
                k->loaded[j] = k->loaded[--k->nloaded];
            }
    }
    remove_item((void **)ctx->devices, &ctx->ndevices, dev);
    pthread_mutex_unlock(&ctx->lock);
    device_free(dev);
}

const char *juke_device_name(juke_device *dev) { return dev ? rt_device_name(dev->rt) : NULL; }

size_t juke_sizeof(juke_type t)
{
    switch (t) {
    case JUKE_BOOL: case JUKE_INT8: case JUKE_UINT8: return 1;
    case JUKE_INT16: case JUKE_UINT16: case JUKE_FLOAT16: return 2;
    case JUKE_INT32: case JUKE_UINT32: case JUKE_FLOAT32: return 4;
    case JUKE_INT64: case JUKE_UINT64: case JUKE_FLOAT64: return 8;
    default: return 0;
    }
}

static const char *type_names[] = {"?", "Bool", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32",
                                   "UInt64", "Float16", "Float32", "Float64"};

static const char *jtype_name(int t) { return t >= 1 && t <= JUKE_FLOAT64 ? type_names[t] : "?"; }

juke_status juke_array_create(juke_device *dev, juke_type elem, int ndims, const int64_t *dims, juke_array **out)
{
    if (out)
        *out = NULL;
    if (!dev || !out || (ndims && !dims))
        return fail(dev ? dev->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_array_create: NULL argument");
    juke_context *ctx = dev->ctx;
    if (!juke_sizeof(elem))
        return fail(ctx, JUKE_ERR_ARGUMENT, "juke_array_create: unknown element type %d", (int)elem);
    if (ndims < 1 || ndims > 8)
        return fail(ctx, JUKE_ERR_ARGUMENT, "juke_array_create: %d dimensions (1 to 8 supported)", ndims);
    int64_t len = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0 || (dims[i] && len > INT64_MAX / 16 / dims[i]))
            return fail(ctx, JUKE_ERR_ARGUMENT, "juke_array_create: dimension %d is %" PRId64 "%s", i + 1, dims[i],
                        dims[i] < 0 ? ": dimensions cannot be negative" : ": the array would exceed the address space");
        len *= dims[i];
    }
    juke_array *a = calloc(1, sizeof *a);
    if (!a)
        return fail(ctx, JUKE_ERR_NOMEM, "out of memory");
    size_t bytes = (size_t)len * juke_sizeof(elem);
    char *err = NULL;
    if (rt_alloc(dev->rt, bytes ? bytes : 1, &a->ptr, &err) != 0) {
        free(a);
        juke_status st = fail(ctx, JUKE_ERR_DEVICE, "allocating %zu bytes on %s: %s", bytes, rt_device_name(dev->rt),
                              err ? err : "failed");
        free(err);
        return st;
    }
    a->dev = dev;
    a->elem = elem;
    a->ndims = ndims;
    memcpy(a->dims, dims, sizeof(int64_t) * (size_t)ndims);
    a->length = len;
    pthread_mutex_lock(&ctx->lock);
    bool ok = push((void **)&ctx->arrays, &ctx->narrays, &ctx->caparrays, a);
    pthread_mutex_unlock(&ctx->lock);
    if (!ok) {
        rt_free(dev->rt, a->ptr);
        free(a);
        return fail(ctx, JUKE_ERR_NOMEM, "out of memory");
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
    remove_item((void **)ctx->arrays, &ctx->narrays, a);
    pthread_mutex_unlock(&ctx->lock);
    rt_free(a->dev->rt, a->ptr);
    free(a);
}

int64_t juke_array_length(const juke_array *a) { return a ? a->length : 0; }

static juke_status array_copy(juke_array *a, void *host, size_t bytes, bool up)
{
    if (!a || (!host && bytes))
        return fail(a ? a->dev->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_array_%s: NULL argument", up ? "upload" : "download");
    size_t need = (size_t)a->length * juke_sizeof(a->elem);
    if (bytes != need)
        return fail(a->dev->ctx, JUKE_ERR_ARGUMENT, "juke_array_%s: %zu bytes given, the array holds %zu",
                    up ? "upload" : "download", bytes, need);
    char *err = NULL;
    int rc = up ? rt_upload(a->dev->rt, a->ptr, host, bytes, &err) : rt_download(a->dev->rt, host, a->ptr, bytes, &err);
    if (rc != 0) {
        juke_status st = fail(a->dev->ctx, JUKE_ERR_DEVICE, "copy %s device: %s", up ? "to" : "from", err ? err : "failed");
        free(err);
        return st;
    }
    return JUKE_OK;
}

juke_status juke_array_upload(juke_array *a, const void *host, size_t bytes) { return array_copy(a, (void *)host, bytes, true); }
juke_status juke_array_download(juke_array *a, void *host, size_t bytes) { return array_copy(a, host, bytes, false); }

/* ---- launching ---- */

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
    case JUKE_T_UINT8: case JUKE_T_UINT16: case JUKE_T_UINT32: case JUKE_T_UINT64:
        sb_printf(sb, "0x%" PRIx64, (uint64_t)bits);
        break;
    default:
        sb_printf(sb, "%" PRId64, bits);
    }
}

/* The message a kernel exception becomes on the host. */
static char *exception_message(juke_kernel *k, const JukeExceptionRecord *r)
{
    StrBuf sb = {0};
    sb_printf(&sb, "%s: ", k->function);
    switch (r->kind) {
    case JUKE_EXC_BOUNDS: {
        /* as Julia words it: "attempt to access 64-element ROCDeviceVector{Float32, 1} at index [65]" */
        unsigned ni = r->ndims > JUKE_EXC_MAXDIMS ? JUKE_EXC_MAXDIMS : r->ndims;
        unsigned nd = (r->aux >> 8) & 0xf, shown = nd > JUKE_EXC_MAXDIMS ? JUKE_EXC_MAXDIMS : nd;
        const char *elem = jtype_name((int)(r->aux & 0xff));
        sb_puts(&sb, "BoundsError: attempt to access ");
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
        sb_printf(&sb, "InexactError: %s(", jtype_name((int)r->aux));
        format_value(&sb, r->index[0], (int)r->dims[0]);
        sb_puts(&sb, ")");
        break;
    case JUKE_EXC_DIVIDE:
        sb_puts(&sb, "DivideError: integer division error");
        break;
    default:
        sb_printf(&sb, "unknown kernel exception (kind %u)", r->kind);
    }
    sb_printf(&sb, "\n  at %s:%u:%u\n  in workgroup (%u, %u, %u), work-item (%u, %u, %u)", k->module->name, r->line,
              r->col, r->group[0], r->group[1], r->group[2], r->item[0], r->item[1], r->item[2]);
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
    if (rt_module_load(dev->rt, k->co.data, k->co.size, &mod, &err) != 0 ||
        rt_function_get(mod, k->co.kernel_symbol, &f, &err) != 0) {
        if (mod)
            rt_module_unload(mod);
        pthread_mutex_unlock(&k->load_lock);
        juke_status st = fail(k->ctx, JUKE_ERR_DEVICE, "loading %s on %s: %s", k->function, rt_device_name(dev->rt),
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
            return fail(k->ctx, JUKE_ERR_NOMEM, "out of memory");
        }
        k->loaded = nl;
        k->capl = nc;
    }
    k->loaded[k->nloaded++] = (Loaded){dev, mod, f};
    *fn = f;
    pthread_mutex_unlock(&k->load_lock);
    return JUKE_OK;
}

static juke_status arg_type_names(juke_context *ctx, const juke_arg *args, int nargs, char names[][32])
{
    for (int i = 0; i < nargs; i++) {
        if (args[i].is_array) {
            juke_array *a = args[i].v.array;
            if (!a)
                return fail(ctx, JUKE_ERR_ARGUMENT, "argument %d: NULL array", i + 1);
            snprintf(names[i], 32, "Array{%s,%d}", jtype_name(a->elem), a->ndims);
        } else {
            if (args[i].type < JUKE_BOOL || args[i].type > JUKE_FLOAT64)
                return fail(ctx, JUKE_ERR_ARGUMENT, "argument %d: unknown scalar type %d", i + 1, (int)args[i].type);
            snprintf(names[i], 32, "%s", jtype_name(args[i].type));
        }
    }
    return JUKE_OK;
}

juke_status juke_kernel_for(juke_device *dev, juke_module *m, const char *function, const juke_arg *args, int nargs,
                            juke_kernel **out)
{
    if (out)
        *out = NULL;
    if (!dev || !m || !out || (nargs && !args) || nargs < 0 || nargs > 64)
        return fail(dev ? dev->ctx : m ? m->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_kernel_for: bad argument");
    char names[64][32];
    const char *tn[64];
    juke_status st = arg_type_names(m->ctx, args, nargs, names);
    if (st)
        return st;
    for (int i = 0; i < nargs; i++) {
        tn[i] = names[i];
        if (args[i].is_array && args[i].v.array->dev != dev)
            return fail(m->ctx, JUKE_ERR_ARGUMENT, "argument %d: the array lives on another device", i + 1);
    }
    juke_options o;
    pthread_mutex_lock(&m->ctx->lock);
    o = m->ctx->opts;
    pthread_mutex_unlock(&m->ctx->lock);
    o.target = dev->target;
    return compile_kernel(m, function, tn, nargs, &o, false, out);
}

juke_status juke_launch(juke_device *dev, juke_module *m, const char *function, const juke_arg *args, int nargs,
                        const juke_launch_config *cfg)
{
    if (!cfg || !dev || !m || !function)
        return fail(dev ? dev->ctx : m ? m->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_launch: NULL %s",
                    !dev ? "device" : !m ? "module" : !function ? "function name" : "launch configuration");
    if (nargs < 0 || nargs > 64 || (nargs && !args))
        return fail(dev->ctx, JUKE_ERR_ARGUMENT, "juke_launch: %d arguments%s (0 to 64, and a non-NULL array of them)",
                    nargs, nargs && !args ? " but a NULL argument array" : "");
    juke_context *ctx = dev->ctx;
    /* the launch memo: a repeated launch finds its kernel without the cache key */
    uint16_t sig[64];
    for (int i = 0; i < nargs; i++)
        sig[i] = args[i].is_array && args[i].v.array
                     ? (uint16_t)(0x8000 | (args[i].v.array->elem << 4) | args[i].v.array->ndims)
                     : (uint16_t)args[i].type;
    size_t flen = strlen(function);
    unsigned gen = __atomic_load_n(&ctx->opts_gen, __ATOMIC_RELAXED);
    juke_kernel *k = NULL;
    RtFunction *fn = NULL;
    bool memo_ok = flen < sizeof dev->memo[0].function && !ctx->env_dumpdir;
    if (memo_ok) {
        pthread_mutex_lock(&dev->lock);
        for (int e = 0; e < dev->nmemo; e++) {
            struct LaunchMemo *lm = &dev->memo[e];
            if (lm->m == m && lm->nargs == nargs && lm->gen == gen && memcmp(lm->function, function, flen + 1) == 0 &&
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
        st = juke_kernel_for(dev, m, function, args, nargs, &k);
        if (st)
            return st;
    } else {
        for (int i = 0; i < nargs; i++)
            if (args[i].is_array && args[i].v.array->dev != dev)
                return fail(ctx, JUKE_ERR_ARGUMENT, "argument %d: the array lives on another device", i + 1);
    }
    uint32_t grid[3], group[3];
    uint64_t threads = 1;
    for (int d = 0; d < 3; d++) {
        grid[d] = cfg->gridsize[d] ? cfg->gridsize[d] : 1;
        group[d] = cfg->groupsize[d] ? cfg->groupsize[d] : 1;
        threads *= group[d];
    }
    uint32_t devmax = rt_device_max_group_size(dev->rt);
    if (devmax && threads > devmax)
        return fail(ctx, JUKE_ERR_ARGUMENT, "%s: groupsize %u×%u×%u = %" PRIu64 " work-items exceeds the device's limit of %u",
                    function, group[0], group[1], group[2], threads, devmax);
    if (k->co.max_flat_workgroup_size && threads > (uint64_t)k->co.max_flat_workgroup_size)
        return fail(ctx, JUKE_ERR_ARGUMENT, "%s: groupsize %" PRIu64 " exceeds the kernel's limit of %d", function, threads,
                    k->co.max_flat_workgroup_size);
    uint64_t lds = (uint64_t)k->co.static_lds_bytes + cfg->shmem;
    uint32_t ldsmax = rt_device_max_local_bytes(dev->rt);
    if (ldsmax && lds > ldsmax)
        return fail(ctx, JUKE_ERR_ARGUMENT,
                    "%s: %" PRIu64 " bytes of local memory (%u static + %u dynamic) exceed the device's %u bytes per workgroup",
                    function, lds, k->co.static_lds_bytes, cfg->shmem, ldsmax);
    if (k->co.uses_dynamic_lds && cfg->shmem == 0)
        return fail(ctx, JUKE_ERR_ARGUMENT, "%s uses @ROCDynamicLocalArray but the launch gives no dynamic local memory (shmem = 0)",
                    function);
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
            lm->k = k;
            lm->fn = fn;
            pthread_mutex_unlock(&dev->lock);
        }
    }
    /* argument bytes (runtime/abi.h) */
    uint8_t storage[64][16 + 8 * 8];
    RtArg rargs[64];
    for (int i = 0; i < nargs; i++) {
        if (args[i].is_array) {
            juke_array *a = args[i].v.array;
            memcpy(storage[i], &a->ptr, 8);
            memcpy(storage[i] + 8, a->dims, 8 * (size_t)a->ndims);
            memcpy(storage[i] + 8 + 8 * a->ndims, &a->length, 8);
            rargs[i] = (RtArg){storage[i], (uint32_t)JUKE_ARRAY_ARG_SIZE(a->ndims), 8};
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
            rargs[i] = (RtArg){storage[i], (uint32_t)sz, (uint32_t)sz};
        }
    }
    JukeExceptionRecord exc;
    char *err = NULL;
    pthread_mutex_lock(&dev->lock);
    if (cfg->stream && cfg->stream->dev != dev) {
        pthread_mutex_unlock(&dev->lock);
        return fail(ctx, JUKE_ERR_ARGUMENT, "%s: the launch's stream belongs to another device", function);
    }
    int rc = rt_launch_on(fn, cfg->stream ? cfg->stream->rt : NULL, rargs, nargs, grid, group, cfg->shmem, !cfg->async,
                          &exc, &err);
    if (cfg->async)
        dev->last_async = k;
    pthread_mutex_unlock(&dev->lock);
    if (rc == 1) {
        free(err);
        set_error_str(ctx, exception_message(k, &exc));
        return JUKE_ERR_KERNEL;
    }
    if (rc != 0) {
        st = fail(ctx, JUKE_ERR_DEVICE, "launching %s: %s", function, err ? err : "failed");
        free(err);
        return st;
    }
    return JUKE_OK;
}

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
        if (k) {
            set_error_str(dev->ctx, exception_message(k, &exc));
            return JUKE_ERR_KERNEL;
        }
        return fail(dev->ctx, JUKE_ERR_KERNEL, "a kernel raised an exception (kind %u) at line %u:%u", exc.kind, exc.line,
                    exc.col);
    }
    if (rc != 0) {
        juke_status st = fail(dev->ctx, JUKE_ERR_DEVICE, "synchronize: %s", err ? err : "failed");
        free(err);
        return st;
    }
    return JUKE_OK;
}

juke_status juke_device_synchronize(juke_device *dev)
{
    if (!dev)
        return fail(NULL, JUKE_ERR_ARGUMENT, "juke_device_synchronize: NULL device");
    return sync_device(dev, NULL);
}

juke_status juke_stream_create(juke_device *dev, juke_stream **out)
{
    if (out)
        *out = NULL;
    if (!dev || !out)
        return fail(dev ? dev->ctx : NULL, JUKE_ERR_ARGUMENT, "juke_stream_create: NULL argument");
    juke_stream *s = calloc(1, sizeof *s);
    char *err = NULL;
    if (!s)
        return fail(dev->ctx, JUKE_ERR_NOMEM, "out of memory");
    if (rt_stream_create(dev->rt, &s->rt, &err) != 0) {
        free(s);
        juke_status st = fail(dev->ctx, JUKE_ERR_DEVICE, "%s", err ? err : "cannot create a stream");
        free(err);
        return st;
    }
    s->dev = dev;
    pthread_mutex_lock(&dev->lock);
    bool ok = push((void **)&dev->streams, &dev->nstreams, &dev->capstreams, s);
    pthread_mutex_unlock(&dev->lock);
    if (!ok) {
        rt_stream_destroy(s->rt);
        free(s);
        return fail(dev->ctx, JUKE_ERR_NOMEM, "out of memory");
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
    remove_item((void **)dev->streams, &dev->nstreams, s);
    pthread_mutex_unlock(&dev->lock);
    rt_stream_destroy(s->rt);
    free(s);
}

juke_status juke_stream_synchronize(juke_stream *s)
{
    if (!s)
        return fail(NULL, JUKE_ERR_ARGUMENT, "juke_stream_synchronize: NULL stream");
    return sync_device(s->dev, s->rt);
}
