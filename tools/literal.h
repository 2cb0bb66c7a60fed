/* literal.h: Julia literals as kernel arguments: the one parser of the values `juke run` takes and the lang
 * tests' runner (tests/test_lang.c) passes, scalars, complex numbers, tuples, structs and arrays. */
#ifndef JUKE_LITERAL_H
#define JUKE_LITERAL_H

#include <stdbool.h>
#include <stdint.h>

#include "juke.h"

/* Parse a scalar kernel argument written as Julia would: 2.5f0 (Float32),
 * 2.5, 1e-3 (Float64), 3, -3 (Int64), 0x1f (UInt8: unsigned literals take the
 * smallest type holding their digits), 0b101, 0o17, true/false (Bool),
 * Inf/NaN (Float64), Inf32/NaN32, Inf16/NaN16, and T(x) for T in Bool,
 * Int8..Int64, Int, UInt8..UInt64, UInt, Float16, Float32, Float64 (exact
 * conversion, else an InexactError as Julia's T(x) would raise), typemin(T) and typemax(T). Underscores
 * between digits are allowed. Returns false with *why (static text) on error. */
bool lit_parse(const char *text, juke_arg *out, const char **why);

/* Memory a parsed value points into (type strings, packed bytes, arrays of its fields), freed together. */
typedef struct LitBlobs {
    void **items;
    int n;
    juke_array **arrays;
    int *array_fields; /* for each array, the value's field it is (its position), or -1 inside a deeper one */
    int narrays;
} LitBlobs;

/* Is text something other than a scalar literal (a tuple, struct, type, symbol or function)? */
bool lit_is_value(const char *text);
/* Parse any kernel argument written as Julia would, for a kernel of module m: a scalar literal (see
 * lit_parse), a complex number 1.0+2.0im or 1f0-2f0im (a ComplexF64 or ComplexF32 value, Julia's promotion
 * of its parts), a tuple (1f0, 2f0), a named tuple (a = 1, b = 2f0), a struct by its constructor
 * Params(1f0, 3) or P{Float32}(1, 2) (numbers convert to the fields' types as Julia's convert), or a
 * value without bits: Type{UInt8}, Val{4}, Val(4), :add, typeof(+), + or a function's name. A field may
 * be a device array (lit_parse_array's), made on dev: Model(Float32[1, 2], 3f0), (a = zeros(Int32, 4),
 * b = reshape(Float64[1, 2, 3, 4], 2, 2)) (a struct's parameters are found from its fields: Model{ROCDeviceArray{Float32, 1, 1}}). The
 * argument points into blobs. False with the reason in why. */
bool lit_parse_value(juke_context *ctx, juke_module *m, juke_device *dev, const char *text, juke_arg *out,
                     LitBlobs *blobs, char *why, size_t whyn);
void lit_blobs_free(LitBlobs *b);

/* An array written as Julia would, on the host: T[v1, v2, ...] (a vector), zeros(T, d1, ...),
 * reshape(T[v...], d1, ...) (column-major) or collect(T, a:b). T is a scalar type (the elements convert to it
 * exactly, as Julia's T[...] does), ComplexF32 or ComplexF64 (elements 1.0+2.0im, 2.5im or real), or, given
 * a module, Int128, UInt128 or a tuple or struct type (elements written as lit_parse_value takes them:
 * NTuple{2, Float32}[(1f0, 2f0)], P[P(1, 2.5)]). */
typedef struct LitArray {
    juke_type type;     /* the element type: a scalar or complex type, or JUKE_VALUE of elemtype */
    char elemtype[128]; /* the element type as written */
    size_t elsize;      /* the bytes of an element */
    int nd;             /* 1 to 8 dims */
    int64_t dims[8];
    int64_t len;         /* the elements: the dims' product */
    unsigned char *host; /* len * elsize bytes, column-major (malloc) */
} LitArray;
/* A complex array's elements are its parts in turn: ComplexF32[1, 2, 3, 4] is [1+2im, 3+4im] (the lang tests'
 * way of writing them, which their expectations share); not Julia's reading. */
enum { LIT_COMPLEX_PARTS = 1 };
/* Does text start as an array literal would (T[, zeros(, reshape(, collect()? */
bool lit_is_array(const char *text);
/* Parse text, all of it an array literal (m may be NULL: then T is a number type); false with the reason in
 * why. out's host memory is the caller's (lit_array_free). */
bool lit_parse_array(juke_context *ctx, juke_module *m, const char *text, int flags, LitArray *out, char *why,
                     size_t whyn);
/* A device array on dev holding a's elements (m: a value element type's module). */
juke_status lit_array_make(juke_device *dev, juke_module *m, const LitArray *a, juke_array **out);
/* The Julia type of a as a kernel argument: Vector{Float32}, Matrix{P}, Array{Int8,3}. */
void lit_array_type(const LitArray *a, char *buf, size_t n);
void lit_array_free(LitArray *a);

/* The type named by the n bytes at p: a scalar type (Float32, Int, UInt, ...) or ComplexF32, ComplexF64. */
bool lit_type_named(const char *p, size_t n, juke_type *out);
/* The name of a scalar or complex type: Float32, ComplexF64. */
const char *lit_type_name(juke_type t);

/* Float64 to Float16 bits, rounding to nearest even as Julia's Float16(x). */
uint16_t lit_f64_to_f16(double x);

#endif
