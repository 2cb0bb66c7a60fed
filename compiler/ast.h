/* ast.h: the syntax tree of the Julia kernel language, as the parser builds
 * it. Operators are calls (Julia's own view: `a + b` is `+(a, b)`), so the
 * tree stays small; only forms that are not calls get a kind of their own.
 * All nodes live in the source's arena. */
#ifndef JUKE_AST_H
#define JUKE_AST_H

#include "common.h"

/* Node kinds, with the layout of kids[] for each. */
typedef enum NodeKind {
    /* ---- atoms ---- */
    AST_INT,     /* integer literal: .ival (or .uval), .lit = its Julia type (LIT_INT64, LIT_UINT8...) */
    AST_FLOAT,   /* float literal: .fval, .lit = LIT_FLOAT64 / LIT_FLOAT32 */
    AST_BOOL,    /* true/false: .ival 1/0 */
    AST_NOTHING, /* nothing */
    AST_STRING,  /* "..." (only for error messages someone may write): .name = contents */
    AST_SYMBOL,  /* :name, a Symbol literal: .name */
    AST_IDENT,   /* identifier or operator used as a value (`+` in `reduce(+, ...)`): .name.
                       A qualified name AMDGPU.foo or Base.foo is folded to .name = "foo" with .qual = "AMDGPU". */
    /* ---- expressions ---- */
    AST_CALL,       /* f(args...): kids[0] = callee, kids[1..] = arguments.
                       Binary/unary operators are calls with callee AST_IDENT named by the operator:
                       "+", "-", "*", "/", "÷", "%", "^", "&", "|", "⊻", "<<", ">>", ">>>", "!", "~",
                       ":" (range a:b is :(a,b); a:s:b is :(a,s,b)), "in" (also for ∈), "==" ... (when not chained).
                       `≠` is folded to "!=", `≤` to "<=", `≥` to ">=", `xor` stays a named call.
                       Numeric juxtaposition `3n` is *(3, n). Keyword arguments: an ASSIGN
                       argument (`f(x, k = 1)`) and the AST_PARAMETERS after `;` (lower.c). */
    AST_COMPARISON, /* chained comparison a < b <= c: kids = [a, b, c], .ops[i] = operator between kids[i], kids[i+1]
                       (only built when there are two or more operators; a single one is an AST_CALL) */
    AST_AND,        /* a && b: kids[0], kids[1] */
    AST_OR,         /* a || b */
    AST_TERNARY,    /* c ? a : b: kids[0] = c, kids[1] = a, kids[2] = b */
    AST_REF,        /* A[i, j]: kids[0] = A, kids[1..] = indices */
    AST_DOT,        /* x.y: kids[0] = x, .name = "y" */
    AST_TUPLE,      /* (a, b, ...) or a bare a, b on the right of =: kids = elements */
    AST_VECT,       /* [a, b, ...], a Vector literal: kids = elements (the elements of a top-level `@eval` loop;
                       in a kernel an error, as Julia would allocate it on the heap) */
    AST_CURLY,      /* T{A, B}: kids[0] = T, kids[1..] = parameters (Vector{Float32}, Array{Int64,3}) */
    AST_TYPED,      /* x::T: kids[0] = x (may be NULL for an anonymous ::T argument), kids[1] = type expression */
    AST_SUBTYPE,    /* T <: S inside where braces: kids[0] = T (AST_IDENT), kids[1] = S */
    AST_MACROCALL,  /* @name args...: .name = "inbounds", "inline", "noinline", "ROCStaticLocalArray",
                       "ROCDynamicLocalArray", "atomic" (with .qual = "AMDGPU" when written AMDGPU.@atomic), ...
                       kids = arguments (one expression for `@inbounds expr`; for the @ROC... forms
                       the parenthesised arguments) */
    /* ---- assignment ---- */
    AST_ASSIGN, /* lhs = rhs: kids[0] = lhs (IDENT, REF, TUPLE of lhs, TYPED), kids[1] = rhs */
    AST_OPASSIGN, /* lhs op= rhs: .name = the operator without '=' ("+", "÷", "⊻", "<<"...), kids[0] = lhs, kids[1] = rhs */
    /* ---- statements ---- */
    AST_BLOCK, /* begin ... end, function bodies, branches: kids = statements */
    AST_IF,    /* if c; a; elseif c2; b; else; d; end: kids[0] = cond, kids[1] = then BLOCK,
                       kids[2] = else part: NULL, a BLOCK, or another AST_IF for elseif */
    AST_WHILE, /* kids[0] = cond, kids[1] = body BLOCK */
    AST_FOR,   /* for i in iter (also `i = iter`, `i ∈ iter`): kids[0] = loop variable (IDENT),
                       kids[1] = iterable expression, kids[2] = body BLOCK.
                       `for i in a, j in b` nests: the parser builds FOR(i, a, BLOCK[FOR(j, b, body)]). */
    AST_BREAK,
    AST_CONTINUE,
    AST_RETURN,     /* kids[0] = value or NULL */
    AST_LOCAL,      /* local x, y = 1: kids = declarations (IDENT, TYPED or ASSIGN) */
    AST_LET,        /* let x = 1, y; body end: kids[0] = TUPLE of bindings (IDENT, TYPED or ASSIGN), kids[1] =
                       body BLOCK. Each binding is a new variable (a right side sees the bindings before it); the
                       value is the body's */
    AST_SPLAT,      /* x...: kids[0] = x. In a call's arguments, a tuple's elements or an index list it splats
                       x's elements; as a function's last parameter (IDENT or TYPED) it takes the varargs */
    AST_PARAMETERS, /* the keyword part after `;` in a call's or a definition's parentheses (Julia's
                       :parameters), always the last kid: kids = keyword items (ASSIGN name = value, IDENT
                       shorthand, DOT shorthand a.b, TYPED in a definition, SPLAT for kwargs...) */
    /* ---- top level ---- */
    AST_FUNCTION, /* function f(args) where {T} ... end, or f(x) = expr:
                       .name = function name, kids[0] = AST_TUPLE of parameters (each IDENT, TYPED, or
                       ASSIGN for a default value), kids[1] = body BLOCK, kids[2] = AST_TUPLE of where
                       parameters (IDENT or SUBTYPE) or NULL, kids[3] = return type annotation or NULL.
                       .flags: FN_INLINE, FN_NOINLINE. kids[4] = the curly of a constructor defined
                       as P{T}(x) where T (then .name = "P"), else NULL. */
    AST_CONST,    /* const NAME = value: .name, kids[0] = value. `const a, b = 1, 2` is two of them */
    AST_STRUCT,   /* struct NAME{T, S <: Real} <: Super ... end: .name, kids[0] = TUPLE of type parameters
                       (IDENT or SUBTYPE) or NULL, kids[1] = supertype expression or NULL, kids[2] = TUPLE of
                       fields (IDENT, TYPED, or ASSIGN of either with a default under @kwdef), kids[3] =
                       BLOCK of inner constructors (FUNCTION). .flags: STRUCT_MUTABLE, STRUCT_KWDEF,
                       STRUCT_ABSTRACT (`abstract type NAME <: Super end`: no fields) */
    AST_LAMBDA,   /* x -> e, (x, y) -> e, function (x) ... end, or a do-block's function: kids[0] = AST_TUPLE of
                       parameters (as a FUNCTION's), kids[1] = body BLOCK, kids[2] = return type or NULL,
                       kids[3] (an inner function's only, when it has them) = its where-parameters.
                       closures.c lifts each to a top-level function (and a struct of its captures); one it
                       cannot lift keeps its reason in .name, which lowering reports */
    AST_FILE,     /* the whole file: kids = top-level items (FUNCTION, CONST, and anything else
                       the parser found at top level, which lowering rejects with a clear error) */
} NodeKind;

typedef enum LitType {
    LIT_NONE,
    LIT_INT8,
    LIT_INT16,
    LIT_INT32,
    LIT_INT64,
    LIT_INT128,
    LIT_UINT8,
    LIT_UINT16,
    LIT_UINT32,
    LIT_UINT64,
    LIT_UINT128,
    LIT_FLOAT32,
    LIT_FLOAT64,
    LIT_FLOAT16, /* only π narrowed to a Float16 it meets (infer.c); no Float16 literal syntax exists */
} LitType;

enum {
    FN_INLINE = 1,
    FN_NOINLINE = 2,
    NODE_INBOUNDS = 4,
    STRUCT_MUTABLE = 8,
    STRUCT_KWDEF = 16,
    STRUCT_ABSTRACT = 32,
    FN_KA = 64,       /* a KernelAbstractions @kernel (ka.c) */
    MACRO_USER = 128, /* a macro call of a macro the file defines (`macro m(x) ... end`) */
    /* on AST_FILE, the extensions of the Base prelude the file uses (prelude.h): */
    FILE_STATICARRAYS = 256, /* a using/import line names StaticArrays */
    FILE_INTRINSICS = 512,   /* KernelAbstractions.KernelIntrinsics is named */
    FILE_ATOMIX = 2048,      /* a => b, @atomicswap or @atomicreplace */
    FILE_STATISTICS = 4096,  /* a using/import line names Statistics */
    FILE_WMMA = 8192,        /* AMDGPU.Device.WMMA (WMMA.x, WMMA_RDNA3.x) or its flat wmma_* names */
    /* on AST_FUNCTION: a method of another module's function (Base.f(x) = ..., or f after `import Base: f`),
     * which adds to that function's methods where a plain definition shadows them */
    FN_EXTENDS = 65536,
};

typedef struct Node Node;
struct Node {
    NodeKind kind;
    LitType lit;      /* here, not after flags: it fills kind's padding, so a node is 72 bytes, not 80 (a
                       * process's first compile writes every node of the Base prelude's tree to fresh pages) */
    SrcLoc loc;       /* where the construct starts; for calls of binary operators, the operator */
    const char *name; /* see the kinds above */
    const char *qual; /* module qualifier ("AMDGPU", "Base", "Core") or NULL */
    const char **ops; /* AST_COMPARISON: nkids-1 operator names */
    Node **kids;
    int nkids;
    int flags;
    union {
        int64_t ival;
        uint64_t uval;
        double fval;
    };
};

/* Parse a whole file. Always returns an AST_FILE (possibly with fewer items);
 * syntax errors go to diags, the parser resynchronises at the next top-level
 * `function`/`const`/definition and keeps going. */
Node *parse_file(Arena *a, Diags *d, const SrcFile *file);

/* A node of kind with nkids (zeroed) kids, or NULL (a->failed) when out of memory; the passes that build
 * syntax after parsing (ka.c, kwargs.c, closures.c) use them as the parser does. */
Node *ast_node(Arena *a, NodeKind kind, SrcLoc loc, int nkids);
/* An identifier node naming name (not copied), or NULL when out of memory. */
/* A copy of the tree x (bounded in depth: past 200 levels the subtree is shared). depth: 0. */
Node *ast_clone(Arena *a, const Node *x, int depth);
Node *ast_ident(Arena *a, SrcLoc loc, const char *name);

/* Print a node as Julia-like source (for tests and messages). */
void ast_print(StrBuf *sb, const Node *n);

/* astbin.c: a syntax tree as bytes, as the build stores the Base prelude's (compiler/base/embed.c). */
/* Append to out the tree under root, every location of which is in file (or none); false, with the
 * reason in why, when one is in another file or memory ran short. */
bool ast_save(StrBuf *out, const Node *root, const SrcFile *file, StrBuf *why);
/* The tree ast_save wrote into data, built in a, its locations in file with line_offset added to their
 * lines; its strings point into data, which must outlive it. NULL when out of memory (a->failed), or for
 * bytes cut short, of another format or naming a node or string past the last; data is trusted beyond that
 * (the build's own bytes: a corrupted node kind or a cycle is not found). */
Node *ast_load(Arena *a, const unsigned char *data, size_t len, const SrcFile *file, int line_offset);
/* Are the trees under x and y the same: every field of every node, y's lines line_offset more where x's
 * locations are in fx and y's in fy, and the same nodes shared? The first difference goes to why. */
bool ast_equal(const Node *x, const SrcFile *fx, const Node *y, const SrcFile *fy, int line_offset, StrBuf *why);

#endif
