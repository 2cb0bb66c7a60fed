/* trace.c: the context's timeline (trace.h). Events are kept as JSON text,
 * one object per event, and the file is written whole: at the end, and
 * whenever the text grows past a threshold that then doubles, so a long run
 * rewrites O(total) bytes in all and a crash loses at most the newest half. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common.h"
#include "dumps.h"
#include "trace.h"

enum { TRACE_HOST_PID = 1, TRACE_FIRST_FLUSH = 8 << 20 };

/* A track already named: (pid, key) → tid. */
typedef struct TraceTrack {
    int pid, tid;
    const void *key;
} TraceTrack;

/* A process already named: a device handle → pid. */
typedef struct TraceProc {
    const void *key;
    int pid, ntids;
} TraceProc;

struct Trace {
    pthread_mutex_t lock;
    char *path;
    StrBuf ev; /* events, each preceded by ",\n" but the first */
    size_t next_flush;
    double origin_us; /* timestamps are written relative to this */
    TraceTrack *tracks;
    int ntracks, captracks;
    TraceProc *procs;
    int nprocs, capprocs;
    int host_tids;
    bool failed; /* out of memory once: the events are incomplete */
};

double trace_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Append s as a JSON string body (quotes not included). */
static void json_escape(StrBuf *sb, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_printf(sb, "\\%c", *p);
        else if (*p < 0x20)
            sb_printf(sb, "\\u%04x", *p);
        else
            sb_putn(sb, (const char *)p, 1);
    }
}

static void event_sep(Trace *t)
{
    sb_puts(&t->ev, t->ev.len ? ",\n" : "\n");
}

static void meta(Trace *t, const char *what, int pid, int tid, const char *name)
{
    event_sep(t);
    sb_printf(&t->ev, "{\"name\":\"%s\",\"ph\":\"M\",\"ts\":0,\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"", what, pid,
              tid);
    json_escape(&t->ev, name);
    sb_puts(&t->ev, "\"}}");
}

/* The tid of (pid, key), naming the track when it is new; -1 when out of memory. */
static int track(Trace *t, int pid, const void *key, int tid_if_new, const char *name)
{
    for (int i = 0; i < t->ntracks; i++)
        if (t->tracks[i].pid == pid && t->tracks[i].key == key)
            return t->tracks[i].tid;
    if (t->ntracks == t->captracks) {
        int nc = t->captracks ? 2 * t->captracks : 16;
        TraceTrack *n = realloc(t->tracks, sizeof *n * (size_t)nc);
        if (!n)
            return -1;
        t->tracks = n;
        t->captracks = nc;
    }
    t->tracks[t->ntracks++] = (TraceTrack){ pid, tid_if_new, key };
    meta(t, "thread_name", pid, tid_if_new, name);
    return tid_if_new;
}

static int write_file(Trace *t, char **err)
{
    static const char head[] = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[", tail[] = "\n]}\n";
    DumpPart parts[3] = { { head, sizeof head - 1 },
                          { t->ev.data ? t->ev.data : "", t->ev.len },
                          { tail, sizeof tail - 1 } };
    return dumps_write_file_parts(t->path, parts, 3, err);
}

Trace *trace_new(const char *path, char **err)
{
    if (err)
        *err = NULL;
    Trace *t = calloc(1, sizeof *t);
    if (!t || !(t->path = strdup(path))) {
        free(t);
        return NULL;
    }
    pthread_mutex_init(&t->lock, NULL);
    t->next_flush = TRACE_FIRST_FLUSH;
    t->origin_us = trace_now_us();
    meta(t, "process_name", TRACE_HOST_PID, 0, "juke host");
    if (t->ev.failed || write_file(t, err) != 0) {
        trace_finish(t, NULL);
        return NULL;
    }
    return t;
}

const char *trace_path(const Trace *t)
{
    return t->path;
}

int trace_retarget(Trace *t, const char *path, char **err)
{
    char *np = strdup(path);
    if (!np) {
        if (err)
            *err = strdup("out of memory");
        return -1;
    }
    pthread_mutex_lock(&t->lock);
    char *old = t->path;
    t->path = np;
    int rc = write_file(t, err);
    if (rc != 0) {
        t->path = old;
        old = np;
    }
    pthread_mutex_unlock(&t->lock);
    free(old);
    return rc;
}

/* Called with t->lock held. */
static int flush_locked(Trace *t, char **err)
{
    int rc = write_file(t, err);
    while (t->next_flush <= t->ev.len)
        t->next_flush *= 2;
    return rc;
}

int trace_flush(Trace *t, char **err)
{
    pthread_mutex_lock(&t->lock);
    int rc = flush_locked(t, err);
    pthread_mutex_unlock(&t->lock);
    return rc;
}

int trace_finish(Trace *t, char **err)
{
    if (!t)
        return 0;
    int rc = t->ev.failed ? -1 : write_file(t, err);
    if (t->ev.failed && err)
        *err = strdup("out of memory while recording the trace");
    sb_free(&t->ev);
    free(t->tracks);
    free(t->procs);
    free(t->path);
    pthread_mutex_destroy(&t->lock);
    free(t);
    return rc;
}

/* One "X" event on (pid, tid); t->lock held. A failed flush is reported at
 * trace_finish, which writes again. */
static void complete(Trace *t, int pid, int tid, const char *cat, const char *name, double start_us, double dur_us,
                     const char *args_json)
{
    if (tid < 0)
        return;
    event_sep(t);
    sb_puts(&t->ev, "{\"name\":\"");
    json_escape(&t->ev, name);
    sb_printf(&t->ev, "\",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%d", cat,
              start_us - t->origin_us, dur_us > 0 ? dur_us : 0.0, pid, tid);
    if (args_json)
        sb_printf(&t->ev, ",\"args\":{%s}", args_json);
    sb_puts(&t->ev, "}");
    if (t->ev.len >= t->next_flush)
        flush_locked(t, NULL);
}

void trace_host(Trace *t, const char *cat, const char *name, double start_us, double dur_us, const char *args_json)
{
    char tname[48];
    pthread_mutex_lock(&t->lock);
    /* pthread_self's bits are only a key: two live threads never share them */
    const void *key = (const void *)(uintptr_t)pthread_self();
    snprintf(tname, sizeof tname, "host thread %d", t->host_tids + 1);
    int tid = track(t, TRACE_HOST_PID, key, t->host_tids + 1, tname);
    if (tid == t->host_tids + 1)
        t->host_tids++;
    complete(t, TRACE_HOST_PID, tid, cat, name, start_us, dur_us, args_json);
    pthread_mutex_unlock(&t->lock);
}

void trace_device(Trace *t, const void *dev, const char *dev_name, const void *stream, const char *cat,
                  const char *name, double start_us, double dur_us, const char *args_json)
{
    pthread_mutex_lock(&t->lock);
    TraceProc *p = NULL;
    for (int i = 0; i < t->nprocs; i++)
        if (t->procs[i].key == dev)
            p = &t->procs[i];
    if (!p) {
        if (t->nprocs == t->capprocs) {
            int nc = t->capprocs ? 2 * t->capprocs : 4;
            TraceProc *n = realloc(t->procs, sizeof *n * (size_t)nc);
            if (!n) {
                pthread_mutex_unlock(&t->lock);
                return;
            }
            t->procs = n;
            t->capprocs = nc;
        }
        p = &t->procs[t->nprocs];
        *p = (TraceProc){ dev, TRACE_HOST_PID + 1 + t->nprocs, 0 };
        t->nprocs++;
        meta(t, "process_name", p->pid, 0, dev_name);
    }
    char tname[48];
    if (stream)
        snprintf(tname, sizeof tname, "stream %d", p->ntids + 1);
    else
        snprintf(tname, sizeof tname, "default stream");
    int want = stream ? p->ntids + 1 : 0;
    int tid = track(t, p->pid, stream, want, tname);
    if (stream && tid == want)
        p->ntids++;
    complete(t, p->pid, tid, cat, name, start_us, dur_us, args_json);
    pthread_mutex_unlock(&t->lock);
}
