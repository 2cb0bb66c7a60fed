/* trace.h: a timeline of what a context did (compiles per stage, cache hits
 * and misses, module loads, launches, kernels on the device, copies), kept
 * as Chrome/Perfetto "Trace Event Format" JSON ({"traceEvents":[...]}, "X"
 * complete events and "M" metadata events naming the tracks, microseconds)
 * and written whole through dumps_write_file_parts. No LLVM; the runtime
 * reports device spans through RtTrace (runtime.h).
 *
 * Tracks: process 1 is the host, one thread track per host thread; each
 * device is a process of its own with one track per stream (0: the device's
 * own stream). Thread-safe: every call takes the trace's lock. */
#ifndef JUKE_TRACE_H
#define JUKE_TRACE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Trace Trace;

/* A trace that will be written to path; NULL when out of memory. The file
 * is written at once with no events, so a path that cannot be written fails
 * here: NULL with *err (malloc'd) naming the path and the reason. */
Trace *trace_new(const char *path, char **err);
/* Write the file (a last time) and free t; -1 with *err when the write failed. */
int trace_finish(Trace *t, char **err);
/* Write what t holds to its file now (also done on its own when the events
 * grow past a threshold that doubles each time). -1 with *err on failure. */
int trace_flush(Trace *t, char **err);
/* From now on write t, everything recorded included, to path (written at
 * once, so a bad path fails here: -1 with *err, and t keeps its old path). */
int trace_retarget(Trace *t, const char *path, char **err);
/* The path t writes to (owned by t). */
const char *trace_path(const Trace *t);

/* The clock of every timestamp: CLOCK_MONOTONIC in microseconds (the
 * runtime's rt_now_us reads the same clock). */
double trace_now_us(void);

/* A complete event on the calling thread's host track, from start_us (the
 * clock above) for dur_us; cat groups events ("compile", "cache", "load",
 * "launch", "copy", "sync"); args_json is NULL or the inside of a JSON
 * object ("\"bytes\": 8") already escaped. */
void trace_host(Trace *t, const char *cat, const char *name, double start_us, double dur_us, const char *args_json);
/* A complete event on device `dev`'s track for stream `stream` (NULL: the
 * device's own); dev_name names the device's process when first seen. */
void trace_device(Trace *t, const void *dev, const char *dev_name, const void *stream, const char *cat,
                  const char *name, double start_us, double dur_us, const char *args_json);

#endif
