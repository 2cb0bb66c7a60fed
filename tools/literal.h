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

/* Float64 to Float16 bits, rounding to nearest even as Julia's Float16(x). */
uint16_t lit_f64_to_f16(double x);

#endif
