/* builtins.h: every built-in function and device intrinsic, one line each.
 * Inference picks the built-in for a call from its name and argument types
 * (infer.c) and sets IrInst.optype; code generation gives each its meaning
 * (codegen.c). X(id, printed name). */
#ifndef JUKE_BUILTINS_H
#define JUKE_BUILTINS_H

#define JK_BUILTINS(X)                                                                       \
    X(BI_NONE, "?")                                                                          \
    /* arithmetic: operands promoted to optype (Julia's promote_type) */                     \
    X(BI_ADD, "+") X(BI_SUB, "-") X(BI_MUL, "*")                                             \
    X(BI_FDIV, "/")          /* integers: both to Float64 first */                            \
    X(BI_NEG, "-") X(BI_UPLUS, "+")                                                          \
    X(BI_DIV, "div")         /* ÷: checked DivideError on integers, trunc(x/y) on floats */   \
    X(BI_REM, "rem") X(BI_MOD, "mod") X(BI_FLD, "fld") X(BI_CLD, "cld")                      \
    X(BI_POW, "^")           /* float^float, float^int (powi), int^int (by squaring) */      \
    X(BI_LITERAL_POW, "literal_pow") /* x^n with a literal n: args[2] is an IR_CONST */      \
    X(BI_EQ, "==") X(BI_NE, "!=") X(BI_LT, "<") X(BI_LE, "<=") X(BI_GT, ">") X(BI_GE, ">=")  \
    X(BI_EGAL, "===") X(BI_NEGAL, "!==")                                                     \
    X(BI_NOT, "!")           /* Bool only */                                                 \
    X(BI_BNOT, "~")                                                                          \
    X(BI_AND, "&") X(BI_OR, "|") X(BI_XOR, "xor")                                            \
    X(BI_SHL, "<<") X(BI_SHR, ">>") X(BI_LSHR, ">>>") /* Julia semantics for any shift */    \
    X(BI_IFELSE, "ifelse")                                                                   \
    /* conversions: optype = the target type */                                              \
    X(BI_CONVERT, "convert") /* T(x), convert(T, x): InexactError when not exact */          \
    X(BI_MODTYPE, "rem_type") /* x % T: wraps */                                             \
    X(BI_UNSAFE_TRUNC, "unsafe_trunc")                                                       \
    X(BI_TRUNC, "trunc") X(BI_ROUND, "round") X(BI_FLOOR, "floor") X(BI_CEIL, "ceil")        \
    /* (with a type argument Type, x: optype = that type, checked conversion) */             \
    X(BI_ABS, "abs") X(BI_SIGN, "sign") X(BI_MIN, "min") X(BI_MAX, "max")                    \
    X(BI_CLAMP, "clamp") X(BI_ISEVEN, "iseven") X(BI_ISODD, "isodd")                         \
    X(BI_COPYSIGN, "copysign") X(BI_SIGNBIT, "signbit")                                      \
    X(BI_ISNAN, "isnan") X(BI_ISINF, "isinf") X(BI_ISFINITE, "isfinite")                     \
    /* math: integer arguments promote to Float64; optype = the float type */                \
    X(BI_SQRT, "sqrt") X(BI_CBRT, "cbrt") X(BI_EXP, "exp") X(BI_EXP2, "exp2")                \
    X(BI_EXP10, "exp10") X(BI_EXPM1, "expm1") X(BI_LOG, "log") X(BI_LOG2, "log2")            \
    X(BI_LOG10, "log10") X(BI_LOG1P, "log1p") X(BI_SIN, "sin") X(BI_COS, "cos")              \
    X(BI_TAN, "tan") X(BI_ASIN, "asin") X(BI_ACOS, "acos") X(BI_ATAN, "atan")                \
    X(BI_ATAN2, "atan") X(BI_SINH, "sinh") X(BI_COSH, "cosh") X(BI_TANH, "tanh")             \
    X(BI_HYPOT, "hypot") X(BI_FMA, "fma") X(BI_MULADD, "muladd")                             \
    X(BI_ASINH, "asinh") X(BI_ACOSH, "acosh") X(BI_ATANH, "atanh")                           \
    X(BI_SINCOS, "sincos")   /* (sin(x), cos(x)): optype = the float type */                 \
    X(BI_LDEXP, "ldexp")     /* ldexp(x::AbstractFloat, n::Integer) */                        \
    /* more numbers */                                                                       \
    X(BI_ABS2, "abs2") X(BI_INV, "inv") X(BI_FLIPSIGN, "flipsign")                           \
    X(BI_LEADING_ZEROS, "leading_zeros") X(BI_TRAILING_ZEROS, "trailing_zeros")              \
    X(BI_COUNT_ONES, "count_ones") X(BI_COUNT_ZEROS, "count_zeros") X(BI_BSWAP, "bswap")     \
    X(BI_REINTERPRET, "reinterpret") /* same-size primitives: optype = the target type */    \
    X(BI_NEXTFLOAT, "nextfloat") X(BI_PREVFLOAT, "prevfloat")                                \
    /* sum/prod/maximum/minimum of a tuple: fields promoted to optype and folded */          \
    X(BI_SUM, "sum") X(BI_PROD, "prod") X(BI_MAXIMUM, "maximum") X(BI_MINIMUM, "minimum")    \
    /* complex numbers (a Complex{T} is { T re, T im }): arithmetic, comparisons and abs     \
       go through the builtins above with a Complex optype */                                \
    X(BI_COMPLEX, "complex") /* complex(re[, im]), Complex{T}(re, im): optype = Complex{T} */ \
    X(BI_REAL, "real") X(BI_IMAG, "imag") X(BI_CONJ, "conj") X(BI_REIM, "reim")              \
    X(BI_CIS, "cis") X(BI_ANGLE, "angle")                                                    \
    X(BI_COMPLEXTYPE, "Complex") /* Complex{T} used as a value: a Type, nothing at run time */ \
    /* values of types */                                                                    \
    X(BI_ZERO, "zero") X(BI_ONE, "one") X(BI_TYPEMIN, "typemin") X(BI_TYPEMAX, "typemax")    \
    X(BI_EPS, "eps")                                                                         \
    /* arrays (global and local): getindex checks bounds unless IRF_INBOUNDS */              \
    X(BI_GETINDEX, "getindex") X(BI_SETINDEX, "setindex!")                                   \
    X(BI_LENGTH, "length") X(BI_SIZE, "size") X(BI_SIZE_D, "size") X(BI_AXES, "axes")        \
    X(BI_AXES_D, "axes") X(BI_ELTYPE, "eltype") X(BI_NDIMS, "ndims")                         \
    /* tuples: getindex with a constant index; length */                                     \
    X(BI_TUPLE_GETINDEX, "getindex") X(BI_TUPLE_LENGTH, "length")                            \
    /* ranges (Int64): a:b, a:s:b, first, last, step, in */                                  \
    X(BI_RANGE, ":") X(BI_STEPRANGE, ":") X(BI_FIRST, "first") X(BI_LAST, "last")            \
    X(BI_STEP, "step") X(BI_IN, "in")                                                        \
    /* device intrinsics */                                                                  \
    X(BI_WORKITEMIDX, "workitemIdx") X(BI_WORKGROUPIDX, "workgroupIdx")                      \
    X(BI_WORKGROUPDIM, "workgroupDim") X(BI_GRIDGROUPDIM, "gridGroupDim")                    \
    X(BI_GRIDITEMDIM, "gridItemDim") X(BI_WAVEFRONTSIZE, "wavefrontsize")                    \
    X(BI_SYNC_WORKGROUP, "sync_workgroup")                                                   \
    X(BI_STATIC_LOCAL, "ROCStaticLocalArray")   /* args: Type, dims (constants), zeroinit */ \
    X(BI_DYNAMIC_LOCAL, "ROCDynamicLocalArray") /* args: Type, dims, zeroinit */             \
    /* AMDGPU.@atomic A[i...] op= v and @atomic max(A[i], v): args A, indices..., v;         \
       returns the new value */                                                              \
    X(BI_ATOMIC_ADD, "atomic_add!") X(BI_ATOMIC_SUB, "atomic_sub!")                          \
    X(BI_ATOMIC_AND, "atomic_and!") X(BI_ATOMIC_OR, "atomic_or!")                            \
    X(BI_ATOMIC_XOR, "atomic_xor!") X(BI_ATOMIC_MAX, "atomic_max!")                          \
    X(BI_ATOMIC_MIN, "atomic_min!") X(BI_ATOMIC_XCHG, "atomic_xchg!")                        \
    /* the pointer API: pointer(A[, i]) is an unchecked element pointer (Core.LLVMPtr);      \
       atomic_add!(ptr, v) and friends above take it and return the OLD value;               \
       atomic_cas!(ptr, cmp, new) returns the old value */                                   \
    X(BI_POINTER, "pointer") X(BI_ATOMIC_CAS, "atomic_cas!")                                 \
    X(BI_UNSAFE_LOAD, "unsafe_load") X(BI_UNSAFE_STORE, "unsafe_store!")

typedef enum BuiltinId {
#define X(id, name) id,
    JK_BUILTINS(X)
#undef X
    BI__COUNT
} BuiltinId;

const char *builtin_name(BuiltinId id);

#endif
