/* ir.h: juke's lowered IR, Julia's @code_lowered in spirit.
 *
 * A function is a flat list of instructions. Instruction k defines value %k
 * (when it produces one); variables live in slots, read with IR_SLOT and
 * written with IR_ASSIGN, so lowering needs no SSA construction (LLVM's
 * mem2reg does that later). Control flow is labels and gotos.
 *
 * The same structure carries the typed IR: inference copies a method's
 * lowered IR for one signature (a specialisation, Spec), gives every value
 * and slot a concrete type and resolves every call to a built-in
 * (IrInst.builtin) or to another specialisation (IrInst.callee). */
#ifndef JUKE_IR_H
#define JUKE_IR_H

#include "ast.h"
#include "builtins.h"
#include "types.h"

typedef enum IrOp {
    IR_CONST,     /* %k = literal: .lit, .ival/.fval; LIT_NONE with .ival an IrNamedConst for true/false/nothing */
    IR_NAME,      /* %k = a global name: function, built-in, constant or type (.name); typed: resolved by type */
    IR_SLOT,      /* %k = the value of slot .slot */
    IR_ASSIGN,    /* slot .slot = args[0] */
    IR_CALL,      /* %k = args[0](args[1..]); .flags: IRF_INBOUNDS when inside @inbounds */
    IR_GETFIELD,  /* %k = args[0].name, .ival the IrField (the x/y/z of workitemIdx() and friends) */
    IR_TUPLE,     /* %k = (args[0], args[1], ...); a NamedTuple (a = args[0], ...) when .name lists the
                     field names, comma-separated ("a,b") */
    IR_LABEL,     /* label .label: */
    IR_GOTO,      /* goto label .label */
    IR_GOTOIFNOT, /* goto label .label unless args[0] (a Bool) */
    IR_RETURN,    /* return args[0]; nargs == 0 returns nothing */
} IrOp;

enum {
    IRF_INBOUNDS = 1,     /* inside @inbounds: no bounds check */
    IRF_DEAD = 2,         /* typed IR: unreachable */
    IRF_FAILED = 4,       /* typed IR: inference already reported this call's error */
    IRF_IRRATIONAL = 8,   /* IR_CONST: π, a Float64 literal that takes the float type it meets (Irrational) */
    IRF_FIELDINDEX = 16,  /* typed IR_GETFIELD: field .ival by position (a splatted tuple's element, splat.c) */
    IRF_UNION_STORE = 32, /* IR_ASSIGN to a union variable's member slot, picked by the value's type
                             (union_split.c: .label the first member slot, .ival the member count) */
    IRF_SELFCALL = 64,    /* typed IR_CALL of a callable object (a closure): args[0] is the callee's first argument */
    IRF_CHARVAL = 128,    /* typed IR_NAME: a where-parameter that is a Char (TX of Val{'N'}), its code point .ival */
    IRF_NOTHING_MEMBER = 256, /* typed IR_CALL: the copy for `nothing` of a call split on a Union{Nothing, T}
                                 argument (splat.c); if no method takes it, a MethodError at run time */
};

typedef struct Spec Spec;

/* The constants that are names in Julia (IR_CONST with LIT_NONE: .ival). */
typedef enum IrNamedConst { IR_NOTHING, IR_TRUE, IR_FALSE, IR_SYMBOL } IrNamedConst; /* IR_SYMBOL: .name */

/* Field selection on a value (IR_GETFIELD: .ival): the x/y/z of
 * workitemIdx() and friends; IR_FIELD_OTHER for any other name (.name); after inference the field's index, or
 * IR_FIELD_SELF for the value itself (CartesianIndex's .I of juke's tuple CartesianIndex). */
typedef enum IrField { IR_FIELD_SELF = -2, IR_FIELD_OTHER = -1, IR_FIELD_X, IR_FIELD_Y, IR_FIELD_Z } IrField;

typedef struct IrInst {
    IrOp op;
    SrcLoc loc;
    int *args; /* value ids (instruction indices) */
    int nargs;
    int slot;  /* IR_SLOT, IR_ASSIGN */
    int label; /* IR_LABEL, IR_GOTO, IR_GOTOIFNOT */
    int flags;
    const char *name; /* IR_NAME, IR_GETFIELD; IR_CONST for true/false/nothing (printing only: .ival
                            holds the IrNamedConst / IrField that decisions read) */
    LitType lit;      /* IR_CONST */
    union {
        int64_t ival;
        uint64_t uval;
        double fval;
    };
    /* ---- typed IR only ---- */
    const Type *type;   /* the value's type (NULL for instructions that define no value) */
    BuiltinId builtin;  /* IR_CALL to a built-in: which one (BI_NONE otherwise); also lowered IR_NAME of an
                            internal helper lowering calls by id */
    Spec *callee;       /* IR_CALL to a user function: the specialisation called */
    const Type *optype; /* IR_CALL built-ins: the type the operands were promoted to (or the
                            target type of a conversion); NULL where it does not apply */
} IrInst;

typedef struct IrSlot {
    const char *name; /* source name; "#temp" style names for compiler temporaries */
    SrcLoc loc;       /* first definition */
    bool is_param;
    struct Node *decl_type; /* x::T = ... declares the slot's type (lowering converts stores) */
    const Type *type;       /* typed IR */
} IrSlot;

typedef struct IrFunc {
    const char *name;
    SrcLoc loc;
    IrInst *insts;
    int ninsts, cap;
    IrSlot *slots;
    int nslots, slotcap;
    int nparams; /* slots 0..nparams-1 are the parameters */
    int nlabels;
    bool typed;
} IrFunc;

/* ---- the front end's view of a source: methods and constants ---------- */
typedef struct Param {
    const char *name; /* NULL for an anonymous ::T parameter */
    Node *type_expr;  /* NULL when unannotated (Any); of a vararg: each element's type, or Vararg{T, N} */
    SrcLoc loc;
    bool vararg; /* the last parameter, xs... or xs::Vararg{...}: the rest of the arguments as a tuple */
} Param;

typedef struct Method {
    const char *name;
    SrcLoc loc;
    Node *def; /* the AST_FUNCTION */
    Param *params;
    int nparams;
    const char **tvars; /* where {T, S <: Real} */
    Node **tvar_bounds; /* bound expression or NULL */
    int ntvars;
    int flags;       /* FN_INLINE / FN_NOINLINE */
    bool vararg;     /* the last parameter takes the rest of the arguments (Param.vararg) */
    IrFunc *lowered; /* lowered once, shared by every specialisation */
    bool unlowered;  /* a Base prelude method, lowered at its first call (fe_lower_lazily); atomic */
    /* errors loading found in it, reported only when a call reaches it (Julia compiles a method at its
       first call): their text, count and kind; NULL if none */
    const char *deferred;
    int deferred_nerrors;
    DiagKind deferred_kind;
    Node *self;              /* a constructor defined as P{T}(x) where T: the P{T} it constructs (AST_CURLY) */
    struct StructDef *owner; /* an inner constructor: its struct (where `new` builds one) */
} Method;

typedef struct GenericFunc {
    const char *name;
    Method **methods;
    int nmethods, cap;
    bool from_base; /* defined in the Base prelude (a user definition of the name shadows it) */
    bool extends;   /* the user's file adds methods to Base's function (FN_EXTENDS): the prelude's methods and
                       the built-in stay */
} GenericFunc;

typedef struct ConstDef {
    const char *name;
    SrcLoc loc;
    Node *value;
    bool nonconst;         /* `n = 256` at the top level: a global a kernel cannot read (Julia would box it) */
    struct Node **tparams; /* const A{T, S} = ...: a parametric type alias's parameters (IDENTs) */
    int ntparams;
} ConstDef;

/* A specialisation: a method inferred for concrete argument types. */
struct Spec {
    Method *method;
    const Type **argtypes;
    int nargs;
    const Type **tvals; /* values of the method's where-parameters */
    const Type *self;   /* a constructor call P{T}(x): the Type{P{T}} called (part of the key) */
    /* Julia's constant propagation: parameter k (k < 64) with bit k of constmask set reads as the integer or Bool
       constvals[k] in the body (part of the key; infer.c's dispatch_call says when) */
    uint64_t constmask;
    const int64_t *constvals;
    IrFunc *typed;
    const Type *rettype;
    bool noreturn;         /* no path returns (it throws): Julia's Union{}, rettype Nothing */
    int state;             /* SPEC_INFERRING while on the inference stack, SPEC_DONE, SPEC_FAILED */
    int index;             /* order of creation in the compilation (0 = the kernel) */
    const char *llvm_name; /* mangled name used by code generation */
};
enum { SPEC_INFERRING = 1, SPEC_DONE, SPEC_FAILED };

/* Building IR. */
IrFunc *ir_func_new(Arena *a, const char *name, SrcLoc loc);
int ir_emit(Arena *a, IrFunc *f, IrOp op, SrcLoc loc); /* returns the instruction (= value) index */
int ir_new_slot(Arena *a, IrFunc *f, const char *name, SrcLoc loc);
int ir_new_label(IrFunc *f);
void ir_set_args(Arena *a, IrFunc *f, int inst, const int *args, int nargs);

/* Printing: @code_lowered style without types, @code_typed style with them. */
void ir_print(StrBuf *sb, const IrFunc *f);
/* Check the invariants (args defined before use in the list or dominance-free
 * flat order, labels defined once, gotos to existing labels, typed IR has a
 * type on every value); reports DIAG_INVALID_IR. Returns true when valid. */
bool ir_verify(const IrFunc *f, Diags *d);

#endif
