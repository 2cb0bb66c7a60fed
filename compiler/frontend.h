/* frontend.h: a loaded source (its methods and constants) and one
 * compilation's specialisations. The pipeline in api.c drives these. */
#ifndef JUKE_FRONTEND_H
#define JUKE_FRONTEND_H

#include <pthread.h>

#include "closures.h"
#include "ir.h"

/* A `struct` (or `abstract type`) definition of a source (structs.c). */
typedef struct StructDef {
    const char *name;
    SrcLoc loc;
    Node *def;          /* the AST_STRUCT */
    const char **tvars; /* its type parameters (P{T, S <: Real}) */
    Node **tvar_bounds; /* bound expression or NULL */
    int ntvars;
    const char **fnames; /* its fields: names, type expressions (NULL: Any), defaults (@kwdef; NULL: none) */
    Node **ftypes;
    Node **fdefaults;
    int nfields;
    int flags;      /* STRUCT_MUTABLE, STRUCT_KWDEF, STRUCT_ABSTRACT */
    Node *super;    /* supertype expression or NULL */
    bool has_inner; /* inner constructors replace the default one */
} StructDef;

/* A parsed and lowered source file. Read-only once loaded, so several
 * compilations (and threads) may use it at once. */
typedef struct FeModule {
    Arena arena;
    SrcFile file;
    Node *ast;
    const SrcFile *base_file; /* the Base prelude (prelude.h) with the file's extensions, shared (frontend.c) */
    GenericFunc **funcs;
    int nfuncs, funcs_cap;
    int nuser_funcs; /* funcs[0..nuser_funcs) are the file's, the rest the Base prelude's */
    ConstDef **consts;
    int nconsts, consts_cap;
    bool loading_base;           /* while the Base prelude's definitions are added */
    NameMap func_map, const_map; /* by name, for fe_find_func / fe_find_const */
    StructDef **structs;
    int nstructs, structs_cap;
    NameMap struct_map;         /* by name, for fe_find_struct */
    const char *stack_limit;    /* of the loading thread, while loading (jk_stack_limit) */
    NameMap kwcalls;            /* the keyword sets the calls pass, as lower.c names them (f#kw#a,b) */
    PtrVec kwcall_list;         /* the same, in the order found */
    pthread_mutex_t lower_lock; /* guards the arena and the Base methods lowered after loading */
    PtrVec inner;               /* ClInner * (closures.h): the functions defined by name inside the file's functions */
    NameMap inner_map;          /* their names for a launch (fe_kernel_name): outer/name, and name where only one
                                   function defines it and the file has no global function of that name */
} FeModule;

/* Parse, collect methods and constants, lower every method. On errors,
 * returns NULL with every error found in d. */
FeModule *fe_load(const char *name, const char *text, size_t len, Diags *d);
/* fe_load with the module's memory, and that of every compilation of it,
 * from al (NULL = malloc; see JkAllocator in common.h). al must outlive the
 * module. */
FeModule *fe_load_with(const JkAllocator *al, const char *name, const char *text, size_t len, Diags *d);
void fe_module_free(FeModule *m);
/* Lower m now if it is a Base prelude method not lowered yet; its errors are kept with it, as loading
 * keeps a user method's (Method.deferred). False, with the error in d, when out of memory. Safe from
 * several compilations (threads) of the module at once. */
bool fe_lower_lazily(const FeModule *mod, Method *m, Diags *d);
/* The Base prelude with the extensions whose FILE_* flags are in flags (prelude.h), as every module of
 * such a file reads it, before its closures are lifted: its syntax tree and its text (into *file), in a,
 * from the trees the build stored. NULL when out of memory. */
Node *fe_base_syntax(Arena *a, int flags, SrcFile *file);
GenericFunc *fe_find_func(const FeModule *m, const char *name);
/* The name of the function a host launch of `name` runs: name itself (a global function, or none), or the
 * top-level function lifted from the inner function the name designates (name, or outer/name: AMDGPU.jl's
 * tests define their kernels inside host functions, `function f() kernel(x) = ...; @roc kernel(x) end`). */
const char *fe_kernel_name(const FeModule *m, const char *name);
/* The inner functions named name (outer/name or name) into out (at most max); returns how many there are. */
int fe_inner_named(const FeModule *m, const char *name, const struct ClInner **out, int max);
StructDef *fe_find_struct(const FeModule *m, const char *name);
ConstDef *fe_find_const(const FeModule *m, const char *name);

/* Calls being inferred inside one another: a tuple function recurses once per element, so as many as a
 * tuple's fields and the calls around them; the thread's stack may stop it sooner (jk_stack_limit). */
enum { FE_MAX_CALL_DEPTH = TY_MAX_FIELDS + 64 };
/* The most specialisations of one method on constant arguments in a compilation: one per element of the
 * longest tuple (ntuple(i -> t[i], Val(N)) calls its function with each constant i). */
enum { FE_MAX_CONST_SPECS = TY_MAX_FIELDS };

/* One compilation: the types and specialisations inferred for one entry
 * signature. Everything lives in its arena. */
typedef struct FeCompilation {
    Arena arena;
    TypeTable *types;
    const FeModule *mod;
    Diags *diags;
    Spec **specs; /* specs[0] is the entry */
    int nspecs, cap;
    Spec **stack;  /* the inference stack, to find recursion */
    SrcLoc *calls; /* calls[k]: where stack[k] was called from, for the call chain of deferred errors */
    int depth, stackcap;
    PtrVec deferred_seen; /* the methods whose deferred errors this compilation reported */
    int struct_depth;     /* structs being built inside one another (struct_type) */
    int alias_depth;      /* type aliases (const A = T) being expanded inside one another (infer_type_expr) */
    bool recursion;       /* an inference met a call back into a method on the stack (an error) */
    bool const_limit;     /* FE_MAX_CONST_SPECS was reached (reported once) */
} FeCompilation;

FeCompilation *fe_compilation_new(const FeModule *m, Diags *d);
void fe_compilation_free(FeCompilation *c);
/* Infer the entry function for concrete argument types: dispatch, then
 * inference of it and every function it calls. NULL on errors (in diags). */
Spec *fe_specialize(FeCompilation *c, const char *fname, const Type **argtypes, int nargs, SrcLoc callsite);
/* A launched kernel must return nothing, as AMDGPU.jl requires (GPUCompiler's
 * "KernelError: kernel returns a value of type `Int64`"); reported at the
 * first return of a value. Call on the entry of a compilation for launch
 * only: juke_typed of a helper returning a value stays fine. */
bool fe_check_kernel(FeCompilation *c, Spec *s);
/* Print the typed IR of every specialisation, entry first. */
void fe_print_typed(StrBuf *sb, FeCompilation *c);

/* structs.c */
/* Record the struct definition n (AST_STRUCT); its inner constructors become methods of the generic
 * function named after it (add_method). False on errors (in d). */
bool struct_collect(FeModule *mod, Node *n, Diags *d, bool (*add_method)(FeModule *, Node *, StructDef *, Diags *));
/* The type sd{params...}: NULL params (np 0) for a struct without parameters, or its UnionAll when it has
 * some; NULL with an error at loc (unless quiet) when a field type is not concrete. */
const Type *struct_type(FeCompilation *c, const StructDef *sd, const Type **params, int np, SrcLoc loc, bool quiet);
/* The default constructor sd(args...) / sd{params}(args...) (callee: the struct or its UnionAll): the
 * struct type built from these argument types, or NULL (no such method; no diagnostic). */
const Type *struct_default_ctor(FeCompilation *c, const Type *callee, const Type **a, int n);
/* Let ty_parse in c name the structs of c's module (and Val). */
void struct_install_resolver(FeCompilation *c);

/* kwargs.c: default positional arguments and keyword arguments */
/* One method a definition generates: its AST_FUNCTION, and an error (NULL: none) reported at errloc when a
 * call reaches it. */
typedef struct FeExpanded {
    Node *fn;
    const char *err;
    SrcLoc errloc;
} FeExpanded;
/* The name of the function that a call of f with the keywords sorted[0..n) (sorted by name) calls. */
const char *kwcall_name(Arena *a, const char *f, const char *const *sorted, int n);
/* Record the keyword sets that the calls in file pass (before kw_expand of any definition). */
void kw_collect_calls(FeModule *mod, const Node *file);
/* The same into set and list (keys from a): the Base prelude's, collected once per process. */
void kw_collect_calls_into(Arena *a, NameMap *set, PtrVec *list, const Node *file);
/* Record the keyword sets of list (kw_collect_calls_into's) that mod has not recorded yet, in order. */
void kw_add_calls(FeModule *mod, const PtrVec *list);
/* The methods definition fn generates (at most max, into out): fn itself when it has neither default
 * positional arguments nor keywords. Returns their count. */
int kw_expand(FeModule *mod, Node *fn, FeExpanded *out, int max);

/* lower.c: lower one method's body into m->lowered. */
bool lower_method(FeModule *mod, Method *m, Diags *d);
/* Split each variable of f into webs of the assignments that reach a common
 * use (split_slots.c states what it requires and guarantees). */
void split_slots(Arena *a, IrFunc *f, Diags *diags);
/* Make slot x of the lowered IR src a union of the k member types (small, isbits) in dst, splitting each
 * statement that reads it on its tag (union_split.c states what it requires and guarantees). False after
 * an error in diags (a statement that cannot be split). */
bool union_split(Arena *a, const IrFunc *src, IrFunc *dst, int x, const Type *const *members, int k, Diags *diags);
/* Is slot x read, and could union_split split every statement that reads it? */
bool union_splittable(const IrFunc *f, int x);

/* infer.c */
Spec *infer_call_user(FeCompilation *c, GenericFunc *g, const Type **argtypes, int nargs, SrcLoc loc);
/* Dispatch a call of g; self: the Type{P} called for a constructor call (NULL otherwise). With
 * quiet_nomatch, no matching method returns NULL without a diagnostic. The method is specialised on the
 * constant arguments of constmask (bit k: argument k is constvals[k]; Spec.constmask), 0 for none. */
Spec *infer_dispatch(FeCompilation *c, GenericFunc *g, const Type *self, const Type **argtypes, int nargs, SrcLoc loc,
                     bool quiet_nomatch, uint64_t constmask, const int64_t *constvals);
/* Convert a type expression in source (Float32, Vector{T}, AbstractArray{T,2}) to a type,
 * with the method's type variables bound in tvars/tvals (NULL values = unbound). */
const Type *infer_type_expr(FeCompilation *c, const Node *n, const char **tvars, const Type **tvals, int ntvars,
                            bool quiet);

/* Does a value of type arg match the type expression te (a method parameter's or a field's), binding the
 * type variables names[0..n) (vals: NULL = unbound) as dispatch does? */
bool infer_match_type(FeCompilation *c, const Node *te, const Type *arg, const char **names, const Type **vals,
                      Node **bounds, int n);

/* Constant folding over typed IR values (consteval.c): literals, `where` parameters, arithmetic, tuple
 * indexing, prod/length, and calls of functions that return such a value. */
bool infer_const_int(const IrFunc *f, int v, int64_t *out, int depth);
/* Is value v a Char known here: a literal ('N', Char(k) of a constant k) or a where-parameter (TX of Val{'N'})? */
bool infer_const_char(const IrFunc *f, int v, uint32_t *cp);
/* Do the types decide the Bool value v (cond_decided's rules, x === nothing of a Nothing x, TX === 'N' of a
 * Char TX)? 1 true, 0 false, -1 not known. */
int infer_const_bool(const IrFunc *f, int v);
/* Which instructions of f run (reach[i], f->ninsts of them), branches on conditions the types decide
 * (infer_const_bool) taken as they go, calls that throw ending their block; false when out of memory. */
bool infer_reach(const IrFunc *f, bool *reach);
/* Is value v a unit range lo:hi of constant bounds (a tuple's t[1:2], size(A)[1:N-2])? */
bool infer_const_range(const IrFunc *f, int v, int64_t *lo, int64_t *hi);
/* The value f returns, when it has one live return: its index, else -1. */
int infer_only_return(const IrFunc *f);
/* The constant dims of a local array (an integer or a tuple): the count, or -1. */
int infer_const_dims(const IrFunc *f, int v, int64_t *dims, int max);
/* The same; on -1, *dynamic_groupsize tells whether they depend on the groupsize of a @kernel launched
 * without a static one (ka.c). */
int infer_const_dims_why(const IrFunc *f, int v, int64_t *dims, int max, bool *dynamic_groupsize);

#endif
