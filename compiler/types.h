/* types.h: Julia-like types of the kernel language. Types are interned in a
 * TypeTable (one per compilation), so two types are equal exactly when their
 * pointers are. Concrete types are what values have at run time; abstract
 * ones only appear in method signatures. */
#ifndef JUKE_TYPES_H
#define JUKE_TYPES_H

#include "common.h"

/* X(kind, julia name, bits, flags) for the primitive types. */
#define JK_PRIMS(X)                                                                                                    \
    X(TY_BOOL, "Bool", 8, TF_INTEGER)                                                                                  \
    X(TY_INT8, "Int8", 8, TF_INTEGER | TF_SIGNED)                                                                      \
    X(TY_INT16, "Int16", 16, TF_INTEGER | TF_SIGNED)                                                                   \
    X(TY_INT32, "Int32", 32, TF_INTEGER | TF_SIGNED)                                                                   \
    X(TY_INT64, "Int64", 64, TF_INTEGER | TF_SIGNED)                                                                   \
    X(TY_UINT8, "UInt8", 8, TF_INTEGER)                                                                                \
    X(TY_UINT16, "UInt16", 16, TF_INTEGER)                                                                             \
    X(TY_UINT32, "UInt32", 32, TF_INTEGER)                                                                             \
    X(TY_UINT64, "UInt64", 64, TF_INTEGER)                                                                             \
    X(TY_FLOAT16, "Float16", 16, TF_FLOAT)                                                                             \
    X(TY_FLOAT32, "Float32", 32, TF_FLOAT)                                                                             \
    X(TY_FLOAT64, "Float64", 64, TF_FLOAT)                                                                             \
    X(TY_INT128, "Int128", 128, TF_INTEGER | TF_SIGNED)                                                                \
    X(TY_UINT128, "UInt128", 128, TF_INTEGER)

enum {
    TF_INTEGER = 1,
    TF_SIGNED = 2,
    TF_FLOAT = 4,
    TF_MUTABLE = 8,
    TF_NAMEDTUPLE = 16,
    TF_UNIONALL = 32,
    TF_ABSTRACT = 64
};

typedef enum TypeKind {
#define X(k, n, b, f) k,
    JK_PRIMS(X)
#undef X
        TY_NOTHING, /* Nothing, the type of `nothing` */
    TY_TUPLE,       /* Tuple{fields...} */
    TY_ARRAY,       /* a device array in global memory: elem, ndims (ROCDeviceArray{T,N,1}) */
    TY_LOCALARRAY,  /* a local-memory (LDS) array: elem, ndims (ROCDeviceArray{T,N,3}); .step = 1: a
                        work-item's private array instead (ROCDeviceArray{T,N,5}, ty_privatearray) */
    TY_RANGE,       /* UnitRange{T} (step == 0 means unit) or StepRange{T,T}: .elem = T (an integer type) */
    TY_FUNCTION,    /* typeof(f) for a function f (user or built-in): .name */
    TY_TYPE,        /* Type{T}: the type of a type used as a value (Float32 in zero(Float32)): .elem = T */
    TY_DIM3,        /* (x=..., y=..., z=...) of Int64, what workitemIdx() and friends return */
    TY_PTR,         /* Core.LLVMPtr{T, AS} from pointer(A, i): .elem = T, .step = 1 for local memory (AS 3),
                        0 for global (AS 1) */
    TY_COMPLEX,     /* Complex{T}: .elem = T, a primitive number type (ComplexF32 is Complex{Float32}) */
    TY_UNION,       /* Union{Nothing, T}, what iterate returns: .elem = T (concrete, not Nothing); stored
                        as Julia stores a small isbits union: the payload and a tag byte (docs/language.md) */
    TY_STRUCT,      /* a user `struct` (or NamedTuple, Val): .name, .params / .nparams (its type parameters:
                        types, or TY_VAL for values as in Val{4}), .fields / .fnames / .nfields (concrete
                        field types and names); .flags TF_MUTABLE, TF_NAMEDTUPLE; TF_UNIONALL for the
                        name without its parameters (P, of P{T}: abstract, no fields); TF_ABSTRACT for an
                        `abstract type` (.elem = its supertype or NULL). Layout: docs/abi.md */
    TY_VAL,         /* a value used as a type parameter (the 4 of Val{4}, the :add of Val{:add}): .elem = its
                        type, .name = its Julia text ("4", ":add"), .ival = integer value */
    TY_SYMBOL,      /* a Symbol, as a compile-time constant: .name = the symbol's text ("add" for :add) */
    /* ---- abstract types, for dispatch and annotations ---- */
    TY_ANY,
    TY_NUMBER,
    TY_REAL,
    TY_INTEGER,
    TY_SIGNED,
    TY_UNSIGNED,
    TY_ABSTRACTFLOAT,
    TY_ABSTRACTARRAY, /* AbstractArray{T,N}: elem may be NULL (any), ndims may be -1 (any) */
    TY_TYPEVAR,       /* a `where` parameter T (bound .elem: upper bound or NULL for Any): .name */
    TY__COUNT
} TypeKind;

typedef struct Type Type;
struct Type {
    TypeKind kind;
    int bits;            /* primitives: width in bits */
    int flags;           /* TF_* for primitives */
    int ndims;           /* arrays */
    int step;            /* TY_RANGE: 0 = UnitRange, 1 = StepRange */
    const Type *elem;    /* arrays, ranges, Type{T}, type-variable bound */
    const Type **fields; /* tuples, structs */
    int nfields;
    const char **fnames; /* structs: field names */
    const Type **params; /* structs: type parameters */
    int nparams;
    int64_t ival;     /* TY_VAL */
    const char *name; /* functions, type variables */
    int id;           /* index in the table; stable within a compilation */
    /* Tuples, computed once when interned: a nested tuple shares its field
     * types, so walking it would take time exponential in its depth. */
    int depth;       /* tuple nesting depth (1 for a flat tuple) */
    int leaves;      /* scalar values after flattening (saturates at INT_MAX) */
    int size, align; /* ty_arg_size / ty_arg_align */
};

typedef struct TypeTable TypeTable;

TypeTable *types_new(Arena *a);
const Type *ty_prim(TypeTable *t, TypeKind k); /* also TY_NOTHING, TY_DIM3 and the abstract kinds */
const Type *ty_tuple(TypeTable *t, const Type **fields, int n);

/* Bounds on a tuple type, as Julia's inference bounds tuple types
 * (MAX_TUPLETYPE_LEN, the tuple complexity limits): past them a kernel could
 * ask for values exponential in its length, `h(x) = (x, x)` nested 30 deep. */
enum {
    TY_MAX_FIELDS = 1024,     /* fields of one tuple, as many as a call's arguments (StaticArrays' 10x80 MMatrix) */
    TY_MAX_DEPTH = 16,        /* tuples nested in tuples */
    TY_MAX_LEAVES = 4096,     /* scalars after flattening: what code generation pays for */
    TY_MAX_BYTES = 64 * 1024, /* bytes of a value: far past any register file or stack frame */
};
/* Does Tuple{fields...} keep to the bounds above? If not, false with the
 * message ("tuple type too deeply nested (depth 17, limit 16)") in why. */
bool ty_tuple_fits(const Type *const *fields, int n, StrBuf *why);
const Type *ty_array(TypeTable *t, const Type *elem, int ndims);
const Type *ty_localarray(TypeTable *t, const Type *elem, int ndims);
/* A work-item's private array (KernelAbstractions' @private): a TY_LOCALARRAY with .step = 1, printed
 * ROCDeviceArray{T,N,5}; it lives on the work-item's stack (address space 5 on AMDGPU). */
const Type *ty_privatearray(TypeTable *t, const Type *elem, int ndims);
/* An array of elem and ndims in the memory array a lives in (global, local or private). */
const Type *ty_array_like(TypeTable *t, const Type *a, const Type *elem, int ndims);
const Type *ty_abstractarray(TypeTable *t, const Type *elem, int ndims); /* elem NULL / ndims -1: unconstrained */
const Type *ty_range(TypeTable *t, int step);
/* A range of another integer element type (UnitRange{Int32}); code generation
 * keeps every range as three Int64s, the element type only types the values taken from it. */
const Type *ty_range_of(TypeTable *t, const Type *elem, int step);
const Type *ty_function(TypeTable *t, const char *name);
const Type *ty_typeof_type(TypeTable *t, const Type *ty); /* Type{ty} */
const Type *ty_typevar(TypeTable *t, const char *name, const Type *bound);
const Type *ty_ptr(TypeTable *t, const Type *elem, bool local);
const Type *ty_complex(TypeTable *t, const Type *elem);
/* Union{Nothing, elem} (elem neither Nothing nor a union). */
const Type *ty_union_nothing(TypeTable *t, const Type *elem);
/* The type of a variable (or a function's result) that takes values of types a and b: a when they are
 * equal; Union{Nothing, T} when one is Nothing, T or that union and the other T or Nothing; else NULL. */
const Type *ty_join(TypeTable *t, const Type *a, const Type *b);
/* A struct type: name{params...} with these fields (see TY_STRUCT); flags TF_*. */
const Type *ty_struct(TypeTable *t, const char *name, const Type **params, int nparams, const Type **fields,
                      const char **fnames, int nfields, int flags, const Type *super);
/* @NamedTuple{names::fields...} */
const Type *ty_namedtuple(TypeTable *t, const char **fnames, const Type **fields, int n);
const Type *ty_val(TypeTable *t, const Type *type, int64_t ival, const char *text);
/* The character code point cp as a type parameter (the 'N' of Val{'N'}): a TY_VAL of char_type (the prelude's
 * Char) named as Julia writes it, 'N' for printable ASCII and '\U000000e9' otherwise, so that the host's text and a
 * kernel's Val('N') are one type. */
const Type *ty_val_char(TypeTable *t, const Type *char_type, uint32_t cp);
const Type *ty_symbol(TypeTable *t, const char *name);
/* The index of field `name` of a struct type, or -1. */
int ty_field_index(const Type *t, const char *name);
/* Has a value of this type no bits (nothing, functions, types, symbols, Val{x}, structs of such)? Ghost
 * values take no room in a struct, an argument list or the kernarg segment. */
bool ty_is_ghost(const Type *t);
/* Is t plain bits (numbers, and tuples, structs or complex numbers of them), so values compare field by
 * field? */
bool ty_bits_only(const Type *t);

/* Names a host type string may use beyond the built-in ones (the structs of a
 * module): called with the name and its parameters (NULL, 0 without braces);
 * returns the type, or NULL with a message in err. */
typedef const Type *(*TyResolveFn)(void *ud, TypeTable *t, const char *name, const Type **params, int nparams,
                                   StrBuf *err);
void ty_set_resolver(TypeTable *t, TyResolveFn fn, void *ud);

/* Julia's name: "Float32", "Tuple{Int64, Float32}", "ROCDeviceVector{Float32, 1}",
 * "Matrix{Float64}" style for host types (see ty_host_name). */
void ty_print(StrBuf *sb, const Type *ty);
const char *ty_name(Arena *a, const Type *ty);

static inline bool ty_is_int(const Type *t)
{
    return t->kind <= TY_UINT128 && (t->flags & TF_INTEGER);
}
static inline bool ty_is_float(const Type *t)
{
    return t->kind >= TY_FLOAT16 && t->kind <= TY_FLOAT64;
}
static inline bool ty_is_prim(const Type *t)
{
    return t->kind <= TY_UINT128; /* the last of JK_PRIMS */
}
static inline bool ty_is_signed(const Type *t)
{
    return (t->flags & TF_SIGNED) != 0;
}
static inline bool ty_is_array(const Type *t)
{
    return t->kind == TY_ARRAY || t->kind == TY_LOCALARRAY;
}
bool ty_is_concrete(const Type *t);
/* Is a <: b? Type variables in b are not bound here (see dispatch). */
bool ty_subtype(const Type *a, const Type *b);
/* Julia's promote_type for two primitive types (Bool+Bool = Bool for the
 * purpose of promotion; arithmetic on Bool promotes to Int64 separately). */
const Type *ty_promote(TypeTable *t, const Type *a, const Type *b);

/* Parse a host type written in Julia syntax: "Vector{Float32}", "Matrix{Float64}",
 * "Array{Int64,3}", "Float32", "Int32", "Bool", "Tuple{Int64,Float32}", "Nothing".
 * Arrays become TY_ARRAY (the device-side view). Returns NULL and writes a
 * message to err (if not NULL) on failure. */
const Type *ty_parse(TypeTable *t, const char *text, StrBuf *err);
/* A primitive or abstract type by Julia name ("Float32", "Integer", "Int"), or NULL. */
const Type *ty_lookup_name(TypeTable *t, const char *name);

/* Size and alignment of a value of a concrete type as passed in kernel
 * arguments (see docs/abi.md): primitives their natural size, arrays
 * 16 + 8 * ndims bytes aligned to 8. */
int ty_arg_size(const Type *t);
int ty_arg_align(const Type *t);

#endif
