/* benchutil.h: what every benchmark program here does alike: read a whole
 * file (a kernel's source, PTX, a cubin) into memory, and take the median of
 * a set of samples. Header-only (static inline), no globals. */
#ifndef JUKE_BENCH_BENCHUTIL_H
#define JUKE_BENCH_BENCHUTIL_H

#include <stdio.h>
#include <stdlib.h>

/* The file at path, NUL-terminated (so PTX and sources read as text), its
 * length in *size if size is not NULL; NULL if it cannot be read. */
static inline char *bench_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
        if (fread(buf, 1, (size_t)n, f) == (size_t)n) {
            buf[n] = '\0';
            if (size)
                *size = (size_t)n;
        } else {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    return buf;
}

/* bench_read_file, or the program ends with a message: for a benchmark's own inputs. */
static inline char *bench_must_read(const char *path, size_t *size)
{
    char *buf = bench_read_file(path, size);
    if (!buf) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    return buf;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0..n), n >= 1; sorts v in place (v[0] is then the minimum). */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#endif
