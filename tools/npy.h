/* npy.h: NumPy .npy files (format versions 1.0, 2.0 and 3.0) as Julia arrays.
 * A C-order array of shape (m, n) is read as the Julia (m, n) matrix element
 * for element, as NPZ.jl reads it (the data is transposed into column-major
 * order); a Fortran-order array is read as is. Writing uses Fortran order so
 * the bytes are the Julia array's. Supported dtypes: b1, i1, i2, i4, i8, u1,
 * u2, u4, u8, f2, f4, f8, c8, c16 (little-endian or '|'). */
#ifndef JUKE_NPY_H
#define JUKE_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "abi.h"

#define NPY_MAXDIMS 8

typedef struct NpyArray {
    JukeTypeCode type;
    int ndims;                 /* 0 for a scalar array */
    int64_t dims[NPY_MAXDIMS]; /* Julia dims */
    size_t elsize;
    size_t length; /* product of dims */
    void *data;    /* malloc'd, column-major */
} NpyArray;

/* Parse a .npy image in memory. Returns 0, or -1 with *err (malloc'd) saying
 * what is wrong (bad magic, unsupported dtype, truncated data, ...). */
int npy_parse(const void *buf, size_t size, NpyArray *out, char **err);
int npy_read_file(const char *path, NpyArray *out, char **err);
int npy_write_file(const char *path, const NpyArray *a, char **err);
void npy_free(NpyArray *a);
/* "float32" style names for messages; the Julia element type name ("Float32"). */
const char *npy_julia_type_name(JukeTypeCode t);

#endif
