/* runtime.c: the backend-independent half of juke's runtime: opening a
 * device by its spec, dispatch to the backend (RtBackend in backend.h),
 * function handles, launch-shape checks and the AMDGPU kernarg packer. */
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"

int rt_vfail(char **err, const char *fmt, va_list ap)
{
    if (err) {
        char *s = NULL;
        if (vasprintf(&s, fmt, ap) < 0)
            s = NULL;
        *err = s;
    }
    return -1;
}

int rt_fail(char **err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rt_vfail(err, fmt, ap);
    va_end(ap);
    return -1;
}

static char *rt_strdup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *rt_strdup_printf(const char *fmt, ...)
{
    va_list ap;
    char *s = NULL;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    return s;
}

/* Set *short_why (if short_why) to a malloc'd formatted few words. */
static void rt_set_why(char **short_why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rt_set_why(char **short_why, const char *fmt, ...)
{
    if (!short_why)
        return;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(short_why, fmt, ap) < 0)
        *short_why = NULL;
    va_end(ap);
}

/* ---- GPU drivers ----------------------------------------------------------- */

void *rt_driver_load(const RtDriver *d, const RtDriverSym *syms, size_t nsyms, char **short_why, char **err)
{
    const char *env = getenv(d->env);
    bool from_env = env && *env;
    const char *tried = from_env ? env : d->names[0];
    char *first_err = NULL;
    void *lib = NULL;
    /* The first name's dlerror is the telling one: later names are fallbacks
     * (and their dlopen calls overwrite dlerror's buffer, hence the copy). */
    for (size_t i = 0; i < (from_env ? 1 : d->nnames) && !lib; i++) {
        lib = dlopen(from_env ? env : d->names[i], RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (!lib && i == 0) {
            const char *e = dlerror();
            first_err = e ? strdup(e) : NULL;
        }
    }
    if (!lib) {
        if (from_env)
            rt_set_why(short_why, "%s not loadable", d->env);
        else
            rt_set_why(short_why, "%s not found", d->names[0]);
        rt_fail(err, "%s: the %s (%s) could not be loaded: %s", d->no_gpu, d->what, tried,
                first_err ? first_err : "not found");
        free(first_err);
        return NULL;
    }
    free(first_err);
    for (size_t i = 0; i < nsyms; i++) {
        *syms[i].slot = dlsym(lib, syms[i].name);
        if (!*syms[i].slot) {
            dlclose(lib);
            rt_set_why(short_why, "%s lacks %s", tried, syms[i].name);
            rt_fail(err, "%s: %s is not a usable %s: missing symbol %s", d->no_gpu, tried, d->what, syms[i].name);
            return NULL;
        }
    }
    return lib;
}

int rt_driver_check_devices(const RtDriver *d, int index, int e_init, const char *init_why, int e_count,
                            const char *count_why, int count, char **short_why, char **err)
{
    if (e_init != 0) {
        rt_set_why(short_why, "%s failed: %s", d->init, init_why);
        return rt_fail(err, "%s: %s failed: %s", d->no_gpu, d->init, init_why);
    }
    if (e_count != 0 || count <= 0) {
        rt_set_why(short_why, "%s found 0 devices", d->count);
        if (e_count != 0)
            return rt_fail(err, "%s: %s failed: %s", d->no_gpu, d->count, count_why);
        return rt_fail(err, "%s: %s found 0 devices", d->no_gpu, d->count);
    }
    if (index >= count)
        return rt_fail(err, "%s %s:%d: %s found %d device%s", d->no_gpu, d->spec, index, d->count, count,
                       count == 1 ? "" : "s");
    return 0;
}

/* ---- device specs ---------------------------------------------------------- */

/* "hip" -> 0, "hip:3" -> 3; -1 for a malformed index. */
static int rt_parse_index(const char *rest)
{
    if (*rest == '\0')
        return 0;
    if (*rest != ':' || rest[1] == '\0')
        return -1;
    char *end;
    errno = 0;
    long v = strtol(rest + 1, &end, 10);
    if (*end != '\0' || errno || v < 0 || v > 4096 || rest[1] == '-' || rest[1] == '+' || rest[1] == ' ')
        return -1;
    return (int)v;
}

static RtDevice *rt_device_new(void)
{
    RtDevice *dev = calloc(1, sizeof *dev);
    if (dev) {
        pthread_mutex_init(&dev->lock, NULL);
        pthread_mutex_init(&dev->heap_lock, NULL);
        dev->heap_request = JUKE_HEAP_DEFAULT_BYTES;
    }
    return dev;
}

static void rt_spans_flush(RtDevice *dev, bool all, const RtStream *only);

static void rt_device_delete(RtDevice *dev)
{
    free(dev->thrown_message);
    pthread_mutex_destroy(&dev->lock);
    pthread_mutex_destroy(&dev->heap_lock);
    free(dev);
}

/* Every device backend, in the order "auto" tries them: AMD GPUs first, the
 * CPU, always there, last. */
static const RtBackend *const rt_backends[] = { &rt_hip_backend, &rt_cuda_backend, &rt_cpu_backend };
enum { RT_NBACKENDS = sizeof rt_backends / sizeof rt_backends[0] };

const char *rt_backend_spec(int i)
{
    return i >= 0 && i < RT_NBACKENDS ? rt_backends[i]->spec : NULL;
}

/* Try one backend on a fresh device; NULL on failure with *err / *short_why. */
static RtDevice *rt_try_open(const RtBackend *be, int index, int cpu_threads, const char *arch, char **short_why,
                             char **err)
{
    RtDevice *dev = rt_device_new();
    if (!dev) {
        rt_fail(err, "out of memory opening a device");
        return NULL;
    }
    dev->cpu_threads = cpu_threads;
    if (arch)
        snprintf(dev->arch, sizeof dev->arch, "%s", arch);
    if (be->open(dev, index, short_why, err) != 0) {
        rt_device_delete(dev);
        return NULL;
    }
    return dev;
}

/* "auto": the first backend that opens, with a line saying why the ones
 * before it could not ("auto: no AMD GPU (libamdhip64.so not found); using ..."). */
static RtDevice *rt_open_auto(int cpu_threads, char **chosen_why, char **err)
{
    char *why[RT_NBACKENDS] = { 0 };
    RtDevice *dev = NULL;
    int i = 0;
    for (; i < RT_NBACKENDS && !dev; i++) {
        char *e = NULL;
        bool last = i == RT_NBACKENDS - 1;
        dev = rt_try_open(rt_backends[i], 0, cpu_threads, NULL, &why[i], last ? err : &e);
        free(e);
    }
    if (dev && chosen_why) {
        char line[512];
        size_t len = (size_t)snprintf(line, sizeof line, "auto:");
        for (int j = 0; j < i - 1 && len < sizeof line; j++)
            len += (size_t)snprintf(line + len, sizeof line - len, " %s (%s);", rt_backends[j]->absent,
                                    why[j] ? why[j] : "?");
        *chosen_why = rt_strdup_printf("%s using %s", line, dev->name);
    }
    for (int j = 0; j < RT_NBACKENDS; j++)
        free(why[j]);
    return dev;
}

int rt_device_open(const char *spec, int cpu_threads, RtDevice **out, char **chosen_why, char **err)
{
    if (chosen_why)
        *chosen_why = NULL;
    if (err)
        *err = NULL;
    *out = NULL;
    if (!spec)
        spec = "auto";
    RtDevice *dev = NULL;
    const RtBackend *be = NULL;
    int index = 0;
    const char *arch = NULL;
    size_t an = strlen(rt_amdemu_backend.spec);
    if (strncmp(spec, rt_amdemu_backend.spec, an) == 0 && (spec[an] == '\0' || spec[an] == ':')) {
        be = &rt_amdemu_backend;
        arch = spec[an] ? spec + an + 1 : NULL;
    }
    for (int i = 0; i < RT_NBACKENDS && !be; i++) {
        size_t n = strlen(rt_backends[i]->spec);
        if (strncmp(spec, rt_backends[i]->spec, n) != 0)
            continue;
        if (spec[n] == '\0' || (rt_backends[i]->indexed && (index = rt_parse_index(spec + n)) >= 0))
            be = rt_backends[i];
    }
    if (be) {
        dev = rt_try_open(be, index, cpu_threads, arch, NULL, err);
    } else if (strcmp(spec, "auto") == 0) {
        dev = rt_open_auto(cpu_threads, chosen_why, err);
    } else {
        char list[256];
        size_t len = 0;
        for (int i = 0; i < RT_NBACKENDS && len < sizeof list; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, rt_backends[i]->indexed ? "%s, %s:N, " : "%s, ",
                                    rt_backends[i]->spec, rt_backends[i]->spec);
        return rt_fail(err, "unknown device '%s': expected %sor auto", spec, list);
    }
    if (!dev)
        return -1;
    *out = dev;
    return 0;
}

void rt_device_close(RtDevice *dev)
{
    if (!dev)
        return;
    rt_device_set_trace(dev, NULL); /* reads the spans still pending, frees their events */
    if (dev->heap)
        dev->be->free(dev, dev->heap);
    dev->be->close(dev);
    rt_device_delete(dev);
}

RtKind rt_device_kind(const RtDevice *dev)
{
    return dev->be->kind;
}
const char *rt_device_name(const RtDevice *dev)
{
    return dev->name;
}
const char *rt_device_arch(const RtDevice *dev)
{
    return dev->arch;
}
uint32_t rt_device_max_group_size(const RtDevice *dev)
{
    return dev->max_group_size;
}
uint32_t rt_device_max_local_bytes(const RtDevice *dev)
{
    return dev->max_local_bytes;
}
int rt_cpu_threads(const RtDevice *dev)
{
    return dev->be->kind == RT_CPU ? dev->cpu_threads : 0;
}

/* ---- memory ------------------------------------------------------------ */

int rt_alloc(RtDevice *dev, size_t bytes, void **devptr, char **err)
{
    *devptr = NULL;
    /* A zero-byte array still needs a distinct, freeable pointer. */
    return dev->be->alloc(dev, bytes ? bytes : 1, devptr, err);
}

void rt_free(RtDevice *dev, void *devptr)
{
    if (devptr)
        dev->be->free(dev, devptr);
}

RtModule *rt_function_module(RtFunction *f)
{
    return f->mod;
}

int rt_module_global(RtModule *m, const char *name, void **devptr, size_t *bytes, char **err)
{
    if (!m->dev->be->global_get)
        return rt_fail(err, "%s devices cannot reach a code object's globals", m->dev->be->spec);
    return m->dev->be->global_get(m, name, devptr, bytes, err);
}

int rt_upload(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err)
{
    return bytes ? dev->be->upload(dev, dst, src, bytes, err) : 0;
}

int rt_download(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err)
{
    return bytes ? dev->be->download(dev, dst, src, bytes, err) : 0;
}

int rt_memcpy_d2d(RtDevice *dev, void *dst, const void *src, size_t bytes, char **err)
{
    return bytes ? dev->be->d2d(dev, dst, src, bytes, err) : 0;
}

/* ---- modules and functions ---------------------------------------------- */

int rt_module_load(RtDevice *dev, const void *image, size_t size, RtModule **out, char **err)
{
    *out = NULL;
    if (!image || size == 0)
        return rt_fail(err, "empty code object");
    RtModule *m = calloc(1, sizeof *m);
    if (!m)
        return rt_fail(err, "out of memory loading a code object");
    m->dev = dev;
    pthread_mutex_init(&m->lock, NULL);
    if (dev->be->module_load(m, image, size, err) != 0) {
        pthread_mutex_destroy(&m->lock);
        free(m);
        return -1;
    }
    m->uses_heap = memmem(image, size, JUKE_HEAP_MARKER, strlen(JUKE_HEAP_MARKER)) != NULL;
    *out = m;
    return 0;
}

void rt_module_unload(RtModule *m)
{
    if (!m)
        return;
    RtFunction *f = m->functions;
    while (f) {
        RtFunction *next = f->next;
        if (m->dev->be->function_free)
            m->dev->be->function_free(f);
        free(f);
        f = next;
    }
    m->dev->be->module_unload(m);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

/* The same name gives the same handle: functions live until the module goes. */
int rt_function_get(RtModule *m, const char *name, RtFunction **out, char **err)
{
    *out = NULL;
    pthread_mutex_lock(&m->lock);
    for (RtFunction *f = m->functions; f; f = f->next) {
        if (strcmp(f->info.name, name) == 0) {
            *out = f;
            pthread_mutex_unlock(&m->lock);
            return 0;
        }
    }
    RtFunction *f = calloc(1, sizeof *f);
    if (!f) {
        pthread_mutex_unlock(&m->lock);
        return rt_fail(err, "out of memory");
    }
    f->mod = m;
    if (m->dev->be->function_get(f, name, err) != 0) {
        free(f);
        pthread_mutex_unlock(&m->lock);
        return -1;
    }
    snprintf(f->info.name, sizeof f->info.name, "%s", name);
    f->next = m->functions;
    m->functions = f;
    pthread_mutex_unlock(&m->lock);
    *out = f;
    return 0;
}

const RtFunctionInfo *rt_function_info(const RtFunction *f)
{
    return &f->info;
}

/* ---- launches ------------------------------------------------------------- */

/* Decimal digits of v into buf (at least 40 bytes). */
static const char *rt_u128_str(unsigned __int128 v, char *buf)
{
    char *p = buf + 39;
    *p = '\0';
    do {
        *--p = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    return p;
}

int rt_check_launch(const RtFunction *f, const uint32_t grid[3], const uint32_t group[3], uint32_t shmem_bytes,
                    char **err)
{
    const RtDevice *dev = f->mod->dev;
    if (group[0] == 0 || group[1] == 0 || group[2] == 0)
        return rt_fail(err, "groupsize %u×%u×%u has a zero dimension", group[0], group[1], group[2]);
    uint64_t items = (uint64_t)group[0] * group[1] * group[2];
    if (items > dev->max_group_size)
        return rt_fail(err, "groupsize %u×%u×%u = %llu work-items exceeds the device's limit of %u", group[0], group[1],
                       group[2], (unsigned long long)items, dev->max_group_size);
    if (f->info.max_group_size && items > f->info.max_group_size)
        return rt_fail(err, "groupsize %llu exceeds the kernel's limit of %u", (unsigned long long)items,
                       f->info.max_group_size);
    uint64_t lds = (((uint64_t)f->info.static_lds_bytes + 15) & ~(uint64_t)15) + shmem_bytes;
    if (lds > dev->max_local_bytes)
        return rt_fail(err,
                       "%llu bytes of local memory (%u static + %u dynamic) exceed the device's %u bytes per workgroup",
                       (unsigned long long)lds, f->info.static_lds_bytes, shmem_bytes, dev->max_local_bytes);
    /* Grid limits, so that no count wraps: CUDA takes gridDim.x < 2^31 and
     * y, z < 2^16 workgroups; HIP's dispatch packet holds the work-items per
     * dimension in 32 bits; the CPU hands out 32-bit work-item and group ids. */
    static const uint32_t cuda_groups[3] = { 0x7fffffffu, 65535u, 65535u };
    const char *who = dev->be->kind == RT_CUDA ? "CUDA" : dev->be->kind == RT_HIP ? "HIP" : "the CPU device";
    for (int d = 0; d < 3; d++) {
        if (dev->be->kind == RT_CUDA && grid[d] > cuda_groups[d])
            return rt_fail(err, "gridsize %u×%u×%u: %u workgroups in %c exceed CUDA's limit of %u", grid[0], grid[1],
                           grid[2], grid[d], "xyz"[d], cuda_groups[d]);
        uint64_t dim_items = (uint64_t)grid[d] * group[d];
        if (dev->be->kind != RT_CUDA && dim_items > UINT32_MAX)
            return rt_fail(
                err,
                "gridsize %u×%u×%u of groupsize %u×%u×%u: %llu work-items in %c exceed %s's limit of "
                "2^32-1 (%s)",
                grid[0], grid[1], grid[2], group[0], group[1], group[2], (unsigned long long)dim_items, "xyz"[d], who,
                dev -> be -> kind == RT_HIP ? "the dispatch packet's grid size is 32-bit" : "work-item ids are 32-bit");
    }
    /* Julia's Int (Int64) numbers the work-items of a launch. */
    unsigned __int128 total = (unsigned __int128)grid[0] * grid[1] * grid[2] * items;
    if (total > (unsigned __int128)INT64_MAX) {
        char buf[40];
        return rt_fail(err, "gridsize %u×%u×%u of groupsize %u×%u×%u: %s work-items in all exceed the limit of 2^63-1",
                       grid[0], grid[1], grid[2], group[0], group[1], group[2], rt_u128_str(total, buf));
    }
    return 0;
}

int rt_poll_stream(int (*query)(void *), void *stream, int not_ready, double timeout_s)
{
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* start by spinning briefly (short kernels), then sleep up to 1 ms a turn */
    long nap_ns = 1000;
    for (;;) {
        int e = query(stream);
        if (e != not_ready)
            return e;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) * 1e-9 >= timeout_s)
            return not_ready;
        struct timespec nap = { 0, nap_ns };
        nanosleep(&nap, NULL);
        if (nap_ns < 1000000)
            nap_ns *= 2;
    }
}

int rt_exception_take(RtDevice *dev, JukeExceptionRecord *rec, JukeExceptionRecord *exc)
{
    int raised = __atomic_load_n(&rec->flag, __ATOMIC_ACQUIRE) == 2;
    rt_print_drain(dev, rec, raised ? rec : NULL);
    if (raised && exc)
        memcpy(exc, (const void *)rec, sizeof *exc);
    memset(rec, 0, sizeof *rec);
    return raised;
}

struct RtStream {
    RtDevice *dev;
    void *native;
};

int rt_stream_create(RtDevice *dev, RtStream **out, char **err)
{
    if (err)
        *err = NULL;
    RtStream *s = calloc(1, sizeof *s);
    if (!s)
        return rt_fail(err, "out of memory");
    s->dev = dev;
    if (dev->be->stream_create(dev, &s->native, err) != 0) {
        free(s);
        return -1;
    }
    *out = s;
    return 0;
}

void rt_stream_destroy(RtStream *s)
{
    if (!s)
        return;
    if (s->dev->spans)
        rt_spans_flush(s->dev, false, s); /* the stream's spans, before their events' stream goes */
    s->dev->be->stream_destroy(s->dev, s->native);
    free(s);
}

int rt_stream_synchronize(RtStream *s, JukeExceptionRecord *exc, char **err)
{
    if (err)
        *err = NULL;
    int rc = s->dev->be->synchronize(s->dev, s->native, exc, err);
    if (s->dev->spans)
        rt_spans_flush(s->dev, false, s);
    return rc;
}

struct RtEvent {
    RtDevice *dev;
    void *native;
    bool recorded; /* the drivers call an unrecorded event an error of their own words */
};

int rt_event_create(RtDevice *dev, RtEvent **out, char **err)
{
    if (err)
        *err = NULL;
    RtEvent *e = calloc(1, sizeof *e);
    if (!e)
        return rt_fail(err, "out of memory");
    e->dev = dev;
    if (dev->be->event_create(dev, &e->native, err) != 0) {
        free(e);
        return -1;
    }
    *out = e;
    return 0;
}

void rt_event_destroy(RtEvent *e)
{
    if (!e)
        return;
    e->dev->be->event_destroy(e->dev, e->native);
    free(e);
}

int rt_event_record(RtEvent *e, RtStream *s, char **err)
{
    if (err)
        *err = NULL;
    if (s && s->dev != e->dev)
        return rt_fail(err, "the event and the stream belong to different devices");
    if (e->dev->be->event_record(e->dev, e->native, s ? s->native : NULL, err) != 0)
        return -1;
    e->recorded = true;
    return 0;
}

int rt_event_synchronize(RtEvent *e, char **err)
{
    if (err)
        *err = NULL;
    if (!e->recorded)
        return rt_fail(err, "the event was never recorded");
    return e->dev->be->event_synchronize(e->dev, e->native, err);
}

int rt_event_elapsed_ms(RtEvent *start, RtEvent *end, float *ms, char **err)
{
    if (err)
        *err = NULL;
    if (start->dev != end->dev)
        return rt_fail(err, "the two events belong to different devices");
    if (!start->recorded || !end->recorded)
        return rt_fail(err, "the %s event was never recorded", !start->recorded ? "start" : "end");
    if (end->dev->be->event_synchronize(end->dev, end->native, err) != 0)
        return -1;
    return start->dev->be->event_elapsed(start->dev, start->native, end->native, ms, err);
}

/* ---- device spans of GPU kernels, for the timeline ----------------------
 * A GPU runs a kernel after its launch returns, so the kernel's span on the
 * device comes from two events recorded around it on its stream. They are read
 * at the next synchronisation (of the device, or of that stream) and put on
 * the host's clock (CLOCK_MONOTONIC) through a reference event, recorded on
 * the device's own stream when idle and waited for when the first traced kernel was launched:
 * it completed between the record and the wait's return, and is placed
 * half way. The error of that placement is half of one wait's latency (a few
 * microseconds); the span's length is the events' own resolution. Tracing is
 * best effort: a driver that refuses an event costs the span, never the launch. */
typedef struct RtSpan {
    char *name;
    const RtStream *stream;
    void *start, *end; /* native events */
} RtSpan;

typedef struct RtSpans {
    void *ref;     /* the reference event, NULL until the first span */
    double ref_us; /* host time when the wait for ref returned */
    RtSpan *v;
    int n, cap;
} RtSpans;

enum { RT_SPANS_MAX = 4096 }; /* pending spans read early past this many */

static void rt_span_drop(RtDevice *dev, RtSpan *sp)
{
    if (sp->start)
        dev->be->event_destroy(dev, sp->start);
    if (sp->end)
        dev->be->event_destroy(dev, sp->end);
    free(sp->name);
}

/* Read the pending spans (all, or those of stream `only`: NULL is the
 * device's own) and report them; the others stay pending. Runs after a
 * synchronisation, so the events are complete; event_elapsed waits otherwise. */
static void rt_spans_flush(RtDevice *dev, bool all, const RtStream *only)
{
    RtSpans *sp = dev->spans;
    int keep = 0;
    for (int i = 0; i < sp->n; i++) {
        RtSpan *s = &sp->v[i];
        if (!all && s->stream != only) {
            sp->v[keep++] = *s;
            continue;
        }
        float a = 0, b = 0;
        char *e = NULL;
        if (dev->trace.kernel && dev->be->event_elapsed(dev, sp->ref, s->start, &a, &e) == 0 &&
            dev->be->event_elapsed(dev, sp->ref, s->end, &b, &e) == 0)
            dev->trace.kernel(dev->trace.user, s->stream, s->name, sp->ref_us + a * 1e3, sp->ref_us + b * 1e3);
        free(e);
        rt_span_drop(dev, s);
    }
    sp->n = keep;
}

/* Events for one span: the reference first, when this is the device's first. */
static bool rt_spans_begin(RtDevice *dev, void *native, RtSpan *out)
{
    char *e = NULL;
    if (!dev->spans && !(dev->spans = calloc(1, sizeof *dev->spans)))
        return false;
    RtSpans *sp = dev->spans;
    if (!sp->ref) {
        void *ref = NULL;
        if (dev->be->event_create(dev, &ref, &e) != 0)
            goto fail;
        double before = 0;
        for (int pass = 0; pass < 2; pass++) { /* the first drains the work queued before: then it is idle */
            before = rt_now_us();
            if (dev->be->event_record(dev, ref, NULL, &e) != 0 || dev->be->event_synchronize(dev, ref, &e) != 0) {
                dev->be->event_destroy(dev, ref);
                goto fail;
            }
        }
        sp->ref = ref;
        sp->ref_us = (before + rt_now_us()) / 2; /* the event completed between the two */
    }
    if (sp->n == RT_SPANS_MAX)
        rt_spans_flush(dev, true, NULL);
    if (sp->n == sp->cap) {
        int cap = sp->cap ? 2 * sp->cap : 64;
        RtSpan *v = realloc(sp->v, (size_t)cap * sizeof *v);
        if (!v)
            return false;
        sp->v = v;
        sp->cap = cap;
    }
    *out = (RtSpan){ 0 };
    if (dev->be->event_create(dev, &out->start, &e) != 0 || dev->be->event_create(dev, &out->end, &e) != 0 ||
        dev->be->event_record(dev, out->start, native, &e) != 0) {
        rt_span_drop(dev, out);
        goto fail;
    }
    return true;
fail:
    free(e);
    return false;
}

/* ---- the device heap (runtime/abi.h) ---- */

int rt_device_set_heap_size(RtDevice *dev, uint64_t bytes, char **err)
{
    if (bytes < JUKE_HEAP_STATE_BYTES + 32 || bytes > JUKE_HEAP_MAX_BYTES)
        return rt_fail(err, "device heap of %" PRIu64 " bytes: it must hold %u to %llu bytes", bytes,
                       JUKE_HEAP_STATE_BYTES + 32, (unsigned long long)JUKE_HEAP_MAX_BYTES);
    pthread_mutex_lock(&dev->heap_lock);
    dev->heap_request = bytes;
    void *old = dev->heap_bytes != bytes ? dev->heap : NULL;
    if (old) { /* the next launch that needs a heap makes one of the new size */
        dev->heap = NULL;
        dev->heap_bytes = 0;
        if (dev->exc_host)
            memset((uint8_t *)dev->exc_host + JUKE_HEAP_DESC_OFFSET, 0, 16);
    }
    pthread_mutex_unlock(&dev->heap_lock);
    if (old)
        dev->be->free(dev, old);
    return 0;
}

uint64_t rt_device_heap_size(RtDevice *dev)
{
    pthread_mutex_lock(&dev->heap_lock);
    uint64_t n = dev->heap_request;
    pthread_mutex_unlock(&dev->heap_lock);
    return n;
}

/* Make the device's heap if it has none: allocate it, set up its state, and tell kernels where it is. */
static int rt_heap_ready(RtDevice *dev, char **err)
{
    int rc = 0;
    pthread_mutex_lock(&dev->heap_lock);
    if (!dev->heap && dev->exc_host) {
        void *h = NULL;
        uint64_t state[JUKE_HEAP_STATE_BYTES / 8] = { JUKE_HEAP_STATE_BYTES };
        if ((rc = dev->be->alloc(dev, dev->heap_request, &h, err)) == 0 &&
            (rc = dev->be->upload(dev, h, state, sizeof state, err)) != 0)
            dev->be->free(dev, h);
        if (rc == 0) {
            dev->heap = h;
            dev->heap_bytes = dev->heap_request;
            uint64_t desc[2] = { (uint64_t)(uintptr_t)h, dev->heap_bytes };
            memcpy((uint8_t *)dev->exc_host + JUKE_HEAP_DESC_OFFSET, desc, sizeof desc);
        }
    }
    pthread_mutex_unlock(&dev->heap_lock);
    return rc;
}

/* A GPU launch between two events; the span is read at synchronisation. */
static int rt_launch_timed(RtFunction *f, RtStream *st, const RtArg *args, int nargs, const uint32_t grid[3],
                           const uint32_t group[3], uint32_t shmem_bytes, unsigned flags, double timeout_s,
                           JukeExceptionRecord *exc, char **err)
{
    bool sync = flags & RT_LAUNCH_SYNC;
    RtDevice *dev = f->mod->dev;
    void *native = st ? st->native : NULL;
    RtSpan s;
    bool timed = rt_spans_begin(dev, native, &s);
    int rc = dev->be->launch(f, native, args, nargs, grid, group, shmem_bytes, flags, timeout_s, exc, err);
    if (!timed)
        return rc;
    char *e = NULL;
    if (rc != 0 || dev->be->event_record(dev, s.end, native, &e) != 0 || !(s.name = strdup(f->info.name))) {
        free(e);
        rt_span_drop(dev, &s);
        return rc;
    }
    s.stream = st;
    dev->spans->v[dev->spans->n++] = s;
    if (sync)
        rt_spans_flush(dev, false, st);
    return rc;
}

int rt_launch(RtFunction *f, const RtArg *args, int nargs, const uint32_t grid[3], const uint32_t group[3],
              uint32_t shmem_bytes, bool sync, JukeExceptionRecord *exc, char **err)
{
    return rt_launch_on(f, NULL, args, nargs, grid, group, shmem_bytes, sync, 0, exc, err);
}

int rt_launch_on(RtFunction *f, RtStream *st, const RtArg *args, int nargs, const uint32_t grid[3],
                 const uint32_t group[3], uint32_t shmem_bytes, unsigned flags, double timeout_s,
                 JukeExceptionRecord *exc, char **err)
{
    bool sync = flags & RT_LAUNCH_SYNC;
    if (err)
        *err = NULL;
    if (st && st->dev != f->mod->dev)
        return rt_fail(err, "launch of %s: the stream belongs to another device", f->info.name);
    char *why = NULL;
    if (rt_check_launch(f, grid, group, shmem_bytes, err ? &why : NULL) != 0) {
        rt_fail(err, "launch of %s: %s", f->info.name, why ? why : "bad launch shape");
        free(why);
        return -1;
    }
    if (nargs < 0 || (nargs > 0 && !args))
        return rt_fail(err, "launch of %s: bad argument list", f->info.name);
    /* An empty grid has nothing to run; HIP and CUDA would call it an error. */
    void *native = st ? st->native : NULL;
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
        return sync ? f->mod->dev->be->synchronize(f->mod->dev, native, exc, err) : 0;
    if (!(timeout_s >= 0) || timeout_s > 1e9)
        return rt_fail(err, "launch of %s: a run-time limit of %g s (0 = none, else positive seconds)", f->info.name,
                       timeout_s);
    RtDevice *dev = f->mod->dev;
    if (f->mod->uses_heap && rt_heap_ready(dev, err) != 0)
        return -1;
    if (__builtin_expect(dev->trace.kernel != NULL, 0)) {
        if (dev->be->kind == RT_CPU) {
            /* the CPU runs the kernel to completion inside the call: its wall time is the device span */
            double t0 = rt_now_us();
            int rc = dev->be->launch(f, native, args, nargs, grid, group, shmem_bytes, flags, timeout_s, exc, err);
            dev->trace.kernel(dev->trace.user, st, f->info.name, t0, rt_now_us());
            return rc;
        }
        return rt_launch_timed(f, st, args, nargs, grid, group, shmem_bytes, flags, timeout_s, exc, err);
    }
    return dev->be->launch(f, native, args, nargs, grid, group, shmem_bytes, flags, timeout_s, exc, err);
}

void rt_device_set_print_sink(RtDevice *dev, const RtPrintSink *sink)
{
    pthread_mutex_lock(&dev->lock);
    dev->print = sink ? *sink : (RtPrintSink){ 0 };
    pthread_mutex_unlock(&dev->lock);
}

char *rt_thrown_message_take(RtDevice *dev)
{
    pthread_mutex_lock(&dev->lock);
    char *m = dev->thrown_message;
    dev->thrown_message = NULL;
    pthread_mutex_unlock(&dev->lock);
    return m;
}

void rt_device_set_trace(RtDevice *dev, const RtTrace *trace)
{
    if (dev->spans) {
        rt_spans_flush(dev, true, NULL);
        if (dev->spans->ref)
            dev->be->event_destroy(dev, dev->spans->ref);
        free(dev->spans->v);
        free(dev->spans);
        dev->spans = NULL;
    }
    dev->trace = trace ? *trace : (RtTrace){ 0 };
}

double rt_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int rt_synchronize(RtDevice *dev, JukeExceptionRecord *exc, char **err)
{
    if (err)
        *err = NULL;
    int rc = dev->be->synchronize(dev, NULL, exc, err);
    if (dev->spans)
        rt_spans_flush(dev, true, NULL);
    return rc;
}

/* ---- AMDGPU kernarg packing ----------------------------------------------
 * Layout (code object v5, from the metadata, never assumed): explicit
 * arguments at their .offset, the "__juke_exception" pointer in its slot,
 * then hidden arguments:
 *   hidden_block_count_{x,y,z}   u32  workgroups per dimension (= grid)
 *   hidden_group_size_{x,y,z}    u16  work-items per group dimension
 *   hidden_remainder_{x,y,z}     u16  0: grids are whole groups here
 *   hidden_grid_dims             u16  highest dimension with extent > 1 (>= 1)
 *   hidden_dynamic_lds_size      u32  dynamic local memory bytes
 *   anything else                     zero (global offsets, hostcall, heap...) */
static void rt_put_le(uint8_t *p, uint32_t size, uint64_t v)
{
    for (uint32_t i = 0; i < size && i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

int rt_pack_kernargs(const RtFunctionInfo *info, const RtArg *args, int nargs, void *exc_ptr, const uint32_t grid[3],
                     const uint32_t group[3], uint32_t shmem_bytes, uint8_t *buf, size_t bufsize, char **err)
{
    const char *k = info->name;
    if (rt_check_nargs(info, nargs, err) != 0)
        return -1;
    uint32_t nexplicit = (uint32_t)nargs;
    if (info->kernarg_size > bufsize)
        return rt_fail(err, "%s: the kernel-argument buffer of %zu bytes is too small for %u", k, bufsize,
                       info->kernarg_size);
    memset(buf, 0, info->kernarg_size);
    for (uint32_t i = 0; i < info->nall && i < 64; i++) {
        const RtArgInfo *a = &info->args[i];
        if ((uint64_t)a->offset + a->size > info->kernarg_size)
            return rt_fail(err, "%s: argument %u lies outside the %u-byte kernel-argument segment", k, i + 1,
                           info->kernarg_size);
    }
    for (int i = 0; i < nargs; i++) {
        const RtArgInfo *a = &info->args[i];
        if (rt_check_arg_size(info, args, i, err) != 0)
            return -1;
        if (a->size)
            memcpy(buf + a->offset, args[i].data, a->size);
    }
    if (info->has_exception_arg) {
        const RtArgInfo *a = &info->args[nexplicit];
        uint64_t p = (uint64_t)(uintptr_t)exc_ptr;
        rt_put_le(buf + a->offset, a->size, p);
    }
    uint32_t dims = 1;
    for (int d = 1; d < 3; d++)
        if ((uint64_t)grid[d] * group[d] > 1)
            dims = (uint32_t)d + 1;
    for (uint32_t i = info->nargs; i < info->nall && i < 64; i++) {
        const RtArgInfo *a = &info->args[i];
        const char *vk = a->value_kind;
        uint64_t v = 0;
        if (strncmp(vk, "hidden_block_count_", 19) == 0 && vk[19] >= 'x' && vk[19] <= 'z' && !vk[20])
            v = grid[vk[19] - 'x'];
        else if (strncmp(vk, "hidden_group_size_", 18) == 0 && vk[18] >= 'x' && vk[18] <= 'z' && !vk[19])
            v = group[vk[18] - 'x'];
        else if (strcmp(vk, "hidden_grid_dims") == 0)
            v = dims;
        else if (strcmp(vk, "hidden_dynamic_lds_size") == 0)
            v = shmem_bytes;
        if (v)
            rt_put_le(buf + a->offset, a->size, v);
    }
    return (int)info->kernarg_size;
}
