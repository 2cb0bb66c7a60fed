/* literal.h: Julia literals as kernel arguments, for `juke run`. */
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
 * conversion, else an InexactError as Julia's T(x) would raise). Underscores
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
 * lit_parse), a tuple (1f0, 2f0), a named tuple (a = 1, b = 2f0), a struct by its constructor
 * Params(1f0, 3) or P{Float32}(1, 2) (numbers convert to the fields' types as Julia's convert), or a
 * value without bits: Type{UInt8}, Val{4}, Val(4), :add, typeof(+), + or a function's name. A field may
 * be a device array, made on dev: Model(Float32[1, 2], 3f0), (a = zeros(Int32, 4), b = reshape(Float64[1, 2,
 * 3, 4], 2, 2)) (a struct's parameters are found from its fields: Model{ROCDeviceArray{Float32, 1, 1}}). The
 * argument points into blobs. False with the reason in why. */
bool lit_parse_value(juke_context *ctx, juke_module *m, juke_device *dev, const char *text, juke_arg *out,
                     LitBlobs *blobs, char *why, size_t whyn);
void lit_blobs_free(LitBlobs *b);

/* Float64 to Float16 bits, rounding to nearest even as Julia's Float16(x). */
uint16_t lit_f64_to_f16(double x);

#endif
