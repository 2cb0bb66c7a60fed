/* frontend.c: loading a source (methods and constants) and specialising an
 * entry function on argument types. */
#include "frontend.h"
#include "closures.h"
#include "evalloop.h"
#include "macroexp.h"
#include "ka.h"
#include "prelude.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

const char fe_base_name[] = "base/prelude.jl";

GenericFunc *fe_find_func(const FeModule *m, const char *name)
{
    return namemap_get(&m->func_map, name);
}

int fe_inner_named(const FeModule *m, const char *name, const ClInner **out, int max)
{
    int n = 0;
    const char *slash = strchr(name, '/');
    for (int i = 0; i < m->inner.len; i++) {
        const ClInner *r = m->inner.items[i];
        bool match = slash ? strncmp(r->outer, name, (size_t)(slash - name)) == 0 && r->outer[slash - name] == 0 &&
                                 strcmp(r->name, slash + 1) == 0
                           : strcmp(r->name, name) == 0;
        if (match && n++ < max && out)
            out[n - 1] = r;
    }
    return n;
}

const char *fe_kernel_name(const FeModule *m, const char *name)
{
    if (!name || fe_find_func(m, name))
        return name;
    const char *lifted = namemap_get(&m->inner_map, name);
    return lifted ? lifted : name;
}

/* The inner functions' launch names (FeModule.inner_map), once every global function is known: outer/name
 * of each (outer/name#2, #3, ... for the later ones, where outer's methods define several of a name), and
 * name alone where it designates one and names no global function. */
static void register_inner(FeModule *mod)
{
    for (int i = 0; i < mod->inner.len; i++) {
        ClInner *r = mod->inner.items[i];
        int k = 1;
        for (int j = 0; j < i; j++) {
            const ClInner *o = mod->inner.items[j];
            k += strcmp(o->outer, r->outer) == 0 && strcmp(o->name, r->name) == 0;
        }
        r->qname = k == 1 ? arena_printf(&mod->arena, "%s/%s", r->outer, r->name)
                          : arena_printf(&mod->arena, "%s/%s#%d", r->outer, r->name, k);
        if (!r->lifted || !r->qname)
            continue;
        namemap_put(&mod->arena, &mod->inner_map, r->qname, (void *)r->lifted);
        if (!fe_find_func(mod, r->name) && fe_inner_named(mod, r->name, NULL, 0) == 1)
            namemap_put(&mod->arena, &mod->inner_map, r->name, (void *)r->lifted);
    }
}

ConstDef *fe_find_const(const FeModule *m, const char *name)
{
    return namemap_get(&m->const_map, name);
}

/* Vararg, Vararg{T} or Vararg{T, N} (also Core.Vararg...). */
static bool is_vararg_type(const Node *t)
{
    if (t && t->kind == AST_CURLY)
        t = t->kids[0];
    return t && t->kind == AST_IDENT && strcmp(t->name, "Vararg") == 0;
}

/* function f(a, b::T, ::S) where {T, S <: Real}: the parameters and type variables. */
static Method *collect_method(FeModule *mod, Node *fn, Diags *d)
{
    Node *params = fn->kids[0];
    int np = params ? params->nkids : 0;
    Node *where = fn->nkids > 2 ? fn->kids[2] : NULL;
    int nt = where ? where->nkids : 0;
    /* one allocation for the method and its three arrays: a module adds the prelude's ~1,000 methods */
    size_t psize = sizeof(Param) * (size_t)(np + 1), tsize = sizeof(char *) * (size_t)(nt + 1);
    char *mem = arena_alloc(&mod->arena, sizeof(Method) + psize + 2 * tsize);
    if (!mem)
        return NULL;
    Method *m = (Method *)mem;
    m->name = fn->name;
    m->loc = fn->loc;
    m->def = fn;
    m->flags = fn->flags;
    m->params = (Param *)(mem + sizeof(Method));
    for (int i = 0; i < np; i++) {
        Node *p = params->kids[i];
        Param *pp = &m->params[m->nparams++];
        pp->loc = p->loc;
        if (p->kind == AST_IDENT) {
            pp->name = p->name;
        } else if (p->kind == AST_TYPED) {
            pp->name = p->kids[0] ? p->kids[0]->name : NULL;
            pp->type_expr = p->kids[1];
            if (p->kids[0] && p->kids[0]->kind != AST_IDENT)
                diag_error(d, p->loc, "invalid function parameter");
        } else if (p->kind == AST_SPLAT && i == np - 1 &&
                   (p->kids[0]->kind == AST_IDENT || p->kids[0]->kind == AST_TYPED)) {
            /* xs... or xs::T...: the rest of the arguments, as a tuple */
            Node *x = p->kids[0];
            pp->name = x->kind == AST_IDENT ? x->name : x->kids[0] ? x->kids[0]->name : NULL;
            pp->type_expr = x->kind == AST_TYPED ? x->kids[1] : NULL;
            pp->vararg = true;
            m->vararg = true;
        } else {
            diag_error(d, p->loc, "invalid function parameter");
        }
        if (p->kind == AST_TYPED && i == np - 1 && is_vararg_type(p->kids[1])) {
            pp->vararg = true; /* xs::Vararg{T, N}: the element type and count stay in the annotation */
            m->vararg = true;
        }
        for (int k = 0; k < i; k++)
            if (pp->name && m->params[k].name && strcmp(pp->name, m->params[k].name) == 0)
                diag_error(d, p->loc, "syntax: function argument name `%s` is not unique", pp->name);
    }
    m->tvars = (const char **)(mem + sizeof(Method) + psize);
    m->tvar_bounds = (Node **)(mem + sizeof(Method) + psize + tsize);
    for (int i = 0; i < nt; i++) {
        Node *w = where->kids[i];
        if (w->kind == AST_IDENT) {
            m->tvars[m->ntvars] = w->name;
            m->tvar_bounds[m->ntvars++] = NULL;
        } else if (w->kind == AST_SUBTYPE && w->kids[0]->kind == AST_IDENT) {
            m->tvars[m->ntvars] = w->kids[0]->name;
            m->tvar_bounds[m->ntvars++] = w->kids[1];
        } else {
            diag_error(d, w->loc, "invalid `where` parameter");
        }
    }
    return m;
}

/* Macros that may wrap a top-level definition and change nothing a kernel
 * can observe (@propagate_inbounds only matters to callers' bounds checks,
 * which juke keeps per call site), besides @inline / @noinline. */
static bool definition_macro(const char *name)
{
    static const char *const names[] = { "inline", "noinline", "propagate_inbounds", "fastmath", "inbounds", "views" };
    for (int i = 0; i < JK_ARRAY_LEN(names); i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

/* `Base.@propagate_inbounds function f ... end`, `@inline @propagate_inbounds f(x) = ...`:
 * the definition inside macros that only annotate it, with @inline /
 * @noinline recorded on it; NULL (and an error) for any other macro. */
static Node *unwrap_definition(Node *item)
{
    int flags = 0;
    Node *n = item;
    for (int depth = 0; n && n->kind == AST_MACROCALL && depth < 16; depth++) {
        if (strcmp(n->name, "assume_effects") == 0 && n->nkids >= 2 && n->kids[n->nkids - 1]) {
            /* Base.@assume_effects :total f(x) = ...: promises to Julia's optimiser, the definition here */
            n = n->kids[n->nkids - 1];
            continue;
        }
        if (n->nkids != 1 || !n->kids[0] || !definition_macro(n->name))
            return NULL;
        if (strcmp(n->name, "inline") == 0)
            flags |= FN_INLINE;
        else if (strcmp(n->name, "noinline") == 0)
            flags |= FN_NOINLINE;
        n = n->kids[0];
    }
    if (!n || n->kind != AST_FUNCTION)
        return NULL;
    if ((n->flags & flags) != flags) /* never a write to the shared Base tree: mark_definitions did it */
        n->flags |= flags;
    return n;
}

/* Keep the errors in md with m, to report when a call reaches it (infer.c):
 * a function no kernel calls may hold anything juke cannot compile, as
 * Julia compiles a method at its first call. What Julia itself rejects when
 * it defines the method (a `syntax:` error: `break` outside a loop, an
 * argument name used twice) and running out of memory are reported at once,
 * into d. */
static void defer_errors(FeModule *mod, Method *m, Diags *md, Diags *d)
{
    if (!md->nerrors)
        return;
    if (md->first_kind == DIAG_NOMEM || !m || (md->text.data && strstr(md->text.data, ": error: syntax: "))) {
        diag_append(d, md->text.data ? md->text.data : "", md->nerrors, md->first_kind);
        diag_reset(md);
        return;
    }
    StrBuf all = { 0 };
    if (m->deferred)
        sb_puts(&all, m->deferred);
    if (md->text.data)
        sb_puts(&all, md->text.data);
    m->deferred = arena_strdup(&mod->arena, all.data ? all.data : "");
    m->deferred_nerrors += md->nerrors;
    if (!m->deferred_kind)
        m->deferred_kind = md->first_kind;
    sb_free(&all);
    diag_reset(md);
}

/* KernelAbstractions' prelude (ka.c), parsed as a file of its own and
 * appended to the module's items. */
static void load_ka_prelude(FeModule *mod, Diags *d)
{
    SrcFile *f = arena_alloc(&mod->arena, sizeof(SrcFile));
    if (!f)
        return;
    f->name = KA_PRELUDE_NAME;
    f->text = ka_prelude();
    f->len = strlen(f->text);
    Node *pre = parse_file(&mod->arena, d, f);
    Node **kids = pre ? arena_alloc(&mod->arena, sizeof(Node *) * (size_t)(mod->ast->nkids + pre->nkids)) : NULL;
    if (!kids)
        return;
    memcpy(kids, mod->ast->kids, sizeof(Node *) * (size_t)mod->ast->nkids);
    memcpy(kids + mod->ast->nkids, pre->kids, sizeof(Node *) * (size_t)pre->nkids);
    mod->ast->kids = kids;
    mod->ast->nkids += pre->nkids;
}

/* Add the method defined by fn (an AST_FUNCTION) to its generic function; owner: the struct of an inner
 * constructor. While the Base prelude loads (mod->loading_base), a name the user's file defines is left
 * alone: theirs shadows it entirely, as a definition in Main shadows Base's in Julia (without
 * `import Base: f`). False when out of memory. */
static bool add_method(FeModule *mod, Node *fn, StructDef *owner, Diags *d)
{
    Method *m = collect_method(mod, fn, d);
    if (!m || (!m->name && mod->arena.failed)) /* kw_expand could not name a method it made */
        return false;
    m->owner = owner;
    m->self = fn->nkids > 4 ? fn->kids[4] : NULL;
    GenericFunc *g = fe_find_func(mod, m->name);
    ConstDef *c = fe_find_const(mod, m->name);
    /* the user's f shadows the prelude's f; #call (callable objects: closures.c) is no name, every method counts */
    if (mod->loading_base && (c || (g && !g->from_base && !g->extends)) && strcmp(m->name, "#call") != 0)
        return true;
    if (c)
        diag_error(d, fn->loc, "cannot define function %s: it already has a value (a constant)", m->name);
    StructDef *sd = fe_find_struct(mod, m->name);
    if (sd && sd->flags & STRUCT_ABSTRACT)
        diag_error(d, fn->loc, "cannot define a constructor for the abstract type %s", m->name);
    if (!g) {
        GenericFunc **funcs =
            arena_grow(&mod->arena, mod->funcs, mod->nfuncs, &mod->funcs_cap, sizeof(GenericFunc *), 8);
        g = arena_alloc(&mod->arena, sizeof(GenericFunc));
        if (!funcs || !g)
            return false;
        mod->funcs = funcs;
        g->name = m->name;
        g->from_base = mod->loading_base;
        mod->funcs[mod->nfuncs++] = g;
        if (!namemap_put(&mod->arena, &mod->func_map, g->name, g))
            return false;
    }
    if (fn->flags & FN_EXTENDS)
        g->extends = true;
    Method **methods = arena_grow(&mod->arena, g->methods, g->nmethods, &g->cap, sizeof(Method *), 8);
    if (!methods)
        return false;
    g->methods = methods;
    g->methods[g->nmethods++] = m;
    m->unlowered = mod->loading_base;
    return true;
}

/* Add one top-level item of the user's file, or of the Base prelude while mod->loading_base (whose
 * constants and structs the user's names shadow too). False when out of memory. */
static bool add_item(FeModule *mod, Node *item, Diags *d)
{
    if (item->kind == AST_STRING)
        return true; /* a docstring, Julia's documentation of the definition after it: nothing a kernel runs */
    if (item->kind == AST_MACROCALL) {
        Node *fn = unwrap_definition(item);
        if (fn)
            item = fn;
        else if (item->nkids == 1 && item->kids[0] && item->kids[0]->kind == AST_FUNCTION) {
            diag_error(d, item->loc, "unsupported macro @%s before a function definition", item->name);
            return true;
        }
    }
    if (item->kind == AST_MACROCALL && strcmp(item->name, "adapt_structure") == 0)
        return true; /* Adapt.@adapt_structure T: how the host converts a T to the device, nothing a kernel sees */
    if (item->kind == AST_MACROCALL && strcmp(item->name, "kwdef") == 0 && item->nkids == 1 && item->kids[0] &&
        item->kids[0]->kind == AST_STRUCT) {
        item = item->kids[0]; /* Base.@kwdef struct: the positional constructor stays */
        if (!(item->flags & STRUCT_KWDEF))
            item->flags |= STRUCT_KWDEF;
    }
    if (item->kind == AST_FUNCTION) {
        /* defaults and keywords: the methods Julia generates (kwargs.c) */
        FeExpanded defs[128];
        int ndefs = kw_expand(mod, item, defs, JK_ARRAY_LEN(defs));
        if (mod->arena.failed) /* the methods it made may miss parts */
            return false;
        for (int i = 0; i < ndefs; i++) {
            Diags md = { .max_errors = d->max_errors };
            if (!add_method(mod, defs[i].fn, NULL, &md)) {
                defer_errors(mod, NULL, &md, d);
                return false;
            }
            if (defs[i].err)
                diag_error(&md, defs[i].errloc, "%s", defs[i].err);
            GenericFunc *g = defs[i].fn->name ? fe_find_func(mod, defs[i].fn->name) : NULL;
            defer_errors(mod, g && g->nmethods ? g->methods[g->nmethods - 1] : NULL, &md, d);
        }
    } else if (item->kind == AST_STRUCT) {
        if (mod->loading_base &&
            (fe_find_struct(mod, item->name) || fe_find_func(mod, item->name) || fe_find_const(mod, item->name)))
            return true;
        if (!struct_collect(mod, item, d, add_method) && mod->arena.failed)
            return false;
    } else if (item->kind == AST_CONST ||
               (item->kind == AST_ASSIGN && item->nkids == 2 && item->kids[0] && item->kids[0]->kind == AST_IDENT &&
                !item->kids[0]->qual && !mod->loading_base &&
                (!fe_find_const(mod, item->kids[0]->name) || fe_find_const(mod, item->kids[0]->name)->nonconst))) {
        /* `n = 256` (as AMDGPU.jl's test files start) is a non-constant global: kept, so that a kernel that
         * reads it gets a message that says so */
        bool nonconst = item->kind == AST_ASSIGN;
        if (nonconst) {
            item->name = item->kids[0]->name;
            item->kids[0] = item->kids[1];
        }
        ConstDef *old = fe_find_const(mod, item->name);
        if (mod->loading_base && (old || fe_find_func(mod, item->name)))
            return true;
        if (old && old->nonconst && nonconst) { /* a global assigned again */
            old->value = item->kids[0];
            return true;
        }
        if (old) {
            diag_error(d, item->loc, "invalid redefinition of constant %s", item->name);
            diag_note(d, old->loc, "%s was first defined here", item->name);
            return true;
        }
        if (fe_find_func(mod, item->name)) {
            diag_error(d, item->loc, "cannot assign a value to the constant %s: it is already a function", item->name);
            return true;
        }
        ConstDef **consts = arena_grow(&mod->arena, mod->consts, mod->nconsts, &mod->consts_cap, sizeof(ConstDef *), 8);
        ConstDef *c = arena_alloc(&mod->arena, sizeof(ConstDef));
        if (!consts || !c)
            return false;
        mod->consts = consts;
        c->name = item->name;
        c->loc = item->loc;
        c->value = item->kids[0];
        c->nonconst = nonconst;
        if (!nonconst && item->nkids > 1) {
            c->tparams = item->kids + 1;
            c->ntparams = item->nkids - 1;
        }
        mod->consts[mod->nconsts++] = c;
        if (!namemap_put(&mod->arena, &mod->const_map, c->name, c))
            return false;
    } else if (item->kind == AST_ASSIGN && item->kids[0]->kind == AST_IDENT &&
               fe_find_const(mod, item->kids[0]->name)) {
        diag_error(d, item->loc, "invalid redefinition of constant %s", item->kids[0]->name);
    } else {
        diag_error(d, item->loc, "only function definitions and `const` are allowed at the top level of a kernel file");
    }
    return true;
}

/* The Base prelude's extensions: a module whose file uses one (AST_FILE's FILE_* flags) gets its text
 * after the prelude's, as one file (their lines follow the prelude's). */
static const struct {
    int flag;
    const char *text;
    const size_t *len;
    const unsigned char *tree;
    const size_t *tree_len;
} base_exts[] = {
    { FILE_ATOMIX, jk_atomix_text, &jk_atomix_len, jk_atomix_tree, &jk_atomix_tree_len },
    { FILE_INTRINSICS, jk_intrinsics_text, &jk_intrinsics_len, jk_intrinsics_tree, &jk_intrinsics_tree_len },
    { FILE_STATICARRAYS, jk_staticarrays_text, &jk_staticarrays_len, jk_staticarrays_tree, &jk_staticarrays_tree_len },
    { FILE_WMMA, jk_wmma_text, &jk_wmma_len, jk_wmma_tree, &jk_wmma_tree_len },
    { FILE_STATISTICS, jk_statistics_text, &jk_statistics_len, jk_statistics_tree, &jk_statistics_tree_len },
};
enum { BASE_NEXTS = JK_ARRAY_LEN(base_exts) };

/* The Base prelude with one set of extensions, parsed: its syntax tree, the
 * file its locations name, the arena (malloc) they live in. */
typedef struct BaseTree {
    Arena arena;
    SrcFile file;
    Node *ast;
    NameMap kwset; /* the keyword sets its calls pass (kw_collect_calls_into), walked once here */
    PtrVec kwcalls;
} BaseTree;

/* Every module reads the same Base prelude, so its syntax tree is built once
 * per process for each set of extensions a module uses (at most 2^5) and then
 * shared, as Julia's sysimage holds Base parsed. Nothing writes to a
 * tree once it is here (add_item and kw_expand build new nodes; lowering
 * and inference read). Like the target-machine pool (llvm_pipeline.c) the
 * trees live as long as the process, reachable from this table; the lock
 * guards building an entry. Trees come from malloc, not a context's
 * allocator. */
static pthread_mutex_t base_trees_lock = PTHREAD_MUTEX_INITIALIZER;
static BaseTree *base_trees[1 << BASE_NEXTS];

/* What add_item writes into an item it is given (the @inline / @noinline of a definition, @kwdef's flag),
 * written once here, so that add_item finds it done and the shared tree stays read-only. */
static void mark_definitions(Node *file)
{
    for (int i = 0; i < file->nkids; i++) {
        Node *item = file->kids[i];
        if (!item || item->kind != AST_MACROCALL)
            continue;
        if (strcmp(item->name, "kwdef") == 0 && item->nkids == 1 && item->kids[0] && item->kids[0]->kind == AST_STRUCT)
            item->kids[0]->flags |= STRUCT_KWDEF;
        else
            unwrap_definition(item);
    }
}

/* The newlines in s[0, n). */
static int count_lines(const char *s, size_t n)
{
    int lines = 0;
    for (const char *end = s + n; (s = memchr(s, '\n', (size_t)(end - s))); s++)
        lines++;
    return lines;
}

Node *fe_base_syntax(Arena *a, int flags, SrcFile *file)
{
    size_t n = jk_prelude_len;
    for (int i = 0; i < BASE_NEXTS; i++)
        if (flags & base_exts[i].flag)
            n += 1 + *base_exts[i].len;
    char *text = n > jk_prelude_len ? arena_alloc(a, n + 1) : NULL;
    if (n > jk_prelude_len && !text)
        return NULL;
    *file = (SrcFile){ .name = fe_base_name, .text = text ? text : jk_prelude_text, .len = n };
    /* lexing and parsing the prelude was ~200 instructions a byte, 40 % of a process's first compile of vadd: the
     * build parsed it (compiler/base/embed.c) and stored each part's tree, lines counted from its own start */
    Node *root = ast_load(a, jk_prelude_tree, jk_prelude_tree_len, file, 0);
    if (!root || n == jk_prelude_len)
        return root;
    size_t at = jk_prelude_len;
    int line = count_lines(jk_prelude_text, jk_prelude_len);
    memcpy(text, jk_prelude_text, jk_prelude_len);
    PtrVec items = { (void **)root->kids, root->nkids, root->nkids };
    for (int i = 0; i < BASE_NEXTS; i++) {
        if (!(flags & base_exts[i].flag))
            continue;
        text[at++] = '\n';
        memcpy(text + at, base_exts[i].text, *base_exts[i].len);
        at += *base_exts[i].len;
        Node *ext = ast_load(a, base_exts[i].tree, *base_exts[i].tree_len, file, line + 1);
        if (!ext)
            return NULL;
        for (int k = 0; k < ext->nkids; k++)
            ptrvec_push(a, &items, ext->kids[k]);
        root->flags |= ext->flags;
        line += 1 + count_lines(base_exts[i].text, *base_exts[i].len);
    }
    text[at] = 0;
    root->kids = (Node **)items.items;
    root->nkids = items.len;
    return a->failed ? NULL : root;
}

/* The parsed Base prelude with the extensions whose FILE_* flags are set in flags; NULL (and an error in d)
 * when the process is out of memory. */
static const BaseTree *base_tree(int flags, Diags *d)
{
    int key = 0;
    for (int i = 0; i < BASE_NEXTS; i++)
        if (flags & base_exts[i].flag)
            key |= 1 << i;
    pthread_mutex_lock(&base_trees_lock);
    BaseTree *t = base_trees[key];
    if (!t && (t = calloc(1, sizeof *t))) {
        t->ast = fe_base_syntax(&t->arena, flags, &t->file);
        if (t->ast) {
            closures_lift(&t->arena, t->ast, true, NULL);
            mark_definitions(t->ast);
            kw_collect_calls_into(&t->arena, &t->kwset, &t->kwcalls, t->ast);
        }
        if (t->ast && !t->arena.failed) {
            base_trees[key] = t;
        } else {
            arena_free(&t->arena);
            free(t);
            t = NULL;
        }
    }
    if (!t)
        diag_plain(d, DIAG_NOMEM, "out of memory while loading %s", fe_base_name);
    pthread_mutex_unlock(&base_trees_lock);
    return t;
}

/* The Base prelude (base/prelude.jl, compiled into the library), added to
 * every module after the user's definitions, so that theirs win. Its
 * locations print as base/prelude.jl:LINE:COL. */
static void load_base(FeModule *mod, Diags *d)
{
    const BaseTree *t = base_tree(mod->ast ? mod->ast->flags : 0, d);
    if (!t)
        return;
    mod->base_file = &t->file;
    Node *ast = t->ast;
    kw_add_calls(mod, &t->kwcalls);
    mod->nuser_funcs = mod->nfuncs;
    mod->loading_base = true;
    /* about one name per item: the map grows once, not eight times with every name hashed again (out of
     * memory: arena.failed, which fe_load_with reports) */
    bool room = namemap_reserve(&mod->arena, &mod->func_map, ast->nkids);
    for (int i = 0; room && i < ast->nkids; i++)
        if (!add_item(mod, ast->kids[i], d))
            break;
    mod->loading_base = false;
}

FeModule *fe_load(const char *name, const char *text, size_t len, Diags *d)
{
    return fe_load_with(NULL, name, text, len, d);
}

FeModule *fe_load_with(const JkAllocator *al, const char *name, const char *text, size_t len, Diags *d)
{
    FeModule *mod = al ? al->fn(al->ud, NULL, 0, sizeof(FeModule)) : malloc(sizeof(FeModule));
    if (!mod) {
        diag_plain(d, DIAG_NOMEM, "out of memory");
        return NULL;
    }
    memset(mod, 0, sizeof *mod);
    mod->arena.al = al;
    pthread_mutex_init(&mod->lower_lock, NULL);
    int before = d->nerrors;
    char *copy = arena_strndup(&mod->arena, text, len);
    mod->file.name = arena_strdup(&mod->arena, name);
    mod->file.text = copy;
    mod->file.len = len;
    if (!copy || !mod->file.name) {
        diag_plain(d, DIAG_NOMEM, "out of memory");
        fe_module_free(mod);
        return NULL;
    }
    if (memchr(text, 0, len)) {
        SrcLoc loc = { &mod->file, 1, 1 };
        const char *z = memchr(text, 0, len);
        for (const char *p = text; p < z; p++) {
            loc.col++;
            if (*p == '\n') {
                loc.line++;
                loc.col = 1;
            }
        }
        diag_error(d, loc, "syntax: NUL byte in source");
        fe_module_free(mod);
        return NULL;
    }
    mod->ast = parse_file(&mod->arena, d, &mod->file);
    macroexp_expand(&mod->arena, d, mod->ast);
    evalloop_expand(&mod->arena, d, mod->ast);
    if (mod->ast && ka_rewrite(&mod->arena, d, mod->ast))
        load_ka_prelude(mod, d);
    if (mod->ast)
        closures_lift(&mod->arena, mod->ast, false, &mod->inner);
    if (mod->ast)
        kw_collect_calls(mod, mod->ast);
    for (int i = 0; mod->ast && i < mod->ast->nkids; i++)
        if (!add_item(mod, mod->ast->kids[i], d))
            break;
    mod->nuser_funcs = mod->nfuncs;
    if (d->nerrors == before && !mod->arena.failed)
        load_base(mod, d);
    register_inner(mod);
    /* The Base prelude's methods wait for their first call (fe_lower_lazily): a kernel reaches a few dozen
     * of its hundreds, and lowering them all was a third of loading a module */
    mod->stack_limit = jk_stack_limit();
    for (int i = 0; i < mod->nfuncs && !mod->arena.failed; i++)
        for (int k = 0; k < mod->funcs[i]->nmethods; k++) {
            if (mod->funcs[i]->methods[k]->unlowered)
                continue;
            Diags md = { .max_errors = d->max_errors };
            lower_method(mod, mod->funcs[i]->methods[k], &md);
            defer_errors(mod, mod->funcs[i]->methods[k], &md, d);
        }
    mod->stack_limit = NULL;
    if (mod->arena.failed)
        diag_plain(d, DIAG_NOMEM, "out of memory while loading %s", name);
    if (d->nerrors != before) {
        fe_module_free(mod);
        return NULL;
    }
    return mod;
}

/* Free what came from al (NULL: malloc). */
static void fe_dealloc(const JkAllocator *al, void *p, size_t size)
{
    if (al)
        al->fn(al->ud, p, size, 0);
    else
        free(p);
}

void fe_module_free(FeModule *m)
{
    if (!m)
        return;
    const JkAllocator *al = m->arena.al;
    arena_free(&m->arena);
    pthread_mutex_destroy(&m->lower_lock);
    fe_dealloc(al, m, sizeof *m);
}

/* Julia compiles a method at its first call; juke lowers a Base method then. The module is read-only to
 * its compilations except here: under the module's lock, into its arena, published by clearing
 * m->unlowered last (release), so a compilation that sees it clear (acquire) sees the lowered IR and the
 * kept errors. A lowering that ran out of memory is not published: the next call tries again. */
bool fe_lower_lazily(const FeModule *cmod, Method *m, Diags *d)
{
    if (!__atomic_load_n(&m->unlowered, __ATOMIC_ACQUIRE))
        return true;
    FeModule *mod = (FeModule *)cmod;
    bool ok = true;
    pthread_mutex_lock(&mod->lower_lock);
    if (m->unlowered) {
        Diags md = { .max_errors = d->max_errors };
        bool failed_before = mod->arena.failed;
        mod->arena.failed = false;
        mod->stack_limit = jk_stack_limit();
        lower_method(mod, m, &md);
        mod->stack_limit = NULL;
        if (mod->arena.failed) {
            m->lowered = NULL;
            diag_reset(&md);
            diag_plain(d, DIAG_NOMEM, "out of memory while lowering %s", m->name);
            ok = false;
        } else {
            if (md.nerrors) { /* kept for every call, as loading keeps a method's (the prelude has none) */
                m->deferred = arena_strdup(&mod->arena, md.text.data ? md.text.data : "");
                m->deferred_nerrors = md.nerrors;
                m->deferred_kind = md.first_kind;
                diag_reset(&md);
            }
            if (mod->arena.failed) {
                diag_plain(d, DIAG_NOMEM, "out of memory while lowering %s", m->name);
                ok = false;
            } else {
                __atomic_store_n(&m->unlowered, false, __ATOMIC_RELEASE);
            }
        }
        mod->arena.failed = failed_before;
    }
    pthread_mutex_unlock(&mod->lower_lock);
    return ok;
}

/* The compilation allocates from the module's allocator. */
FeCompilation *fe_compilation_new(const FeModule *m, Diags *d)
{
    const JkAllocator *al = m->arena.al;
    FeCompilation *c = al ? al->fn(al->ud, NULL, 0, sizeof(FeCompilation)) : malloc(sizeof(FeCompilation));
    if (!c)
        return NULL;
    memset(c, 0, sizeof *c);
    c->arena.al = al;
    c->mod = m;
    c->diags = d;
    c->types = types_new(&c->arena);
    if (!c->types) {
        arena_free(&c->arena);
        fe_dealloc(al, c, sizeof *c);
        return NULL;
    }
    struct_install_resolver(c);
    return c;
}

void fe_compilation_free(FeCompilation *c)
{
    if (!c)
        return;
    const JkAllocator *al = c->arena.al;
    arena_free(&c->arena);
    fe_dealloc(al, c, sizeof *c);
}

Spec *fe_specialize(FeCompilation *c, const char *fname, const Type **argtypes, int nargs, SrcLoc callsite)
{
    GenericFunc *g = fe_find_func(c->mod, fname);
    if (!g) {
        diag_plain(c->diags, DIAG_USER, "UndefVarError: `%s` not defined in %s", fname, c->mod->file.name);
        return NULL;
    }
    if (callsite.file == NULL)
        callsite = g->methods[0]->loc;
    Spec *s = infer_call_user(c, g, argtypes, nargs, callsite);
    if (c->arena.failed) {
        diag_plain(c->diags, DIAG_NOMEM, "out of memory during inference");
        return NULL;
    }
    if (s && s != c->specs[0]) {
        /* the entry was already inferred as a callee of itself: cannot happen for a fresh compilation */
        diag_plain(c->diags, DIAG_INTERNAL, "entry specialisation is not the first");
        return NULL;
    }
    for (int i = 0; s && i < c->nspecs; i++)
        if (!ir_verify(c->specs[i]->typed, c->diags))
            return NULL;
    return s;
}

bool fe_check_kernel(FeCompilation *c, Spec *s)
{
    if (!s || !s->typed || !s->rettype || s->rettype->kind == TY_NOTHING)
        return true;
    SrcLoc loc = s->method->loc;
    for (int i = 0; i < s->typed->ninsts; i++) {
        const IrInst *in = &s->typed->insts[i];
        if (in->op == IR_RETURN && in->nargs && s->typed->insts[in->args[0]].type &&
            s->typed->insts[in->args[0]].type->kind != TY_NOTHING) {
            loc = in->loc;
            break;
        }
    }
    diag_error(c->diags, loc,
               "KernelError: kernel returns a value of type `%s`; make sure `%s` ends in `return`, "
               "`return nothing` or `nothing`",
               ty_name(&c->arena, s->rettype), s->method->name);
    return false;
}

void fe_print_typed(StrBuf *sb, FeCompilation *c)
{
    for (int i = 0; i < c->nspecs; i++) {
        if (i)
            sb_puts(sb, "\n");
        Spec *s = c->specs[i];
        if (!s->typed)
            continue;
        if (s->constmask) { /* Julia's @code_typed shows such a call's argument as Core.Const(2) */
            sb_puts(sb, "# specialised on constants:");
            for (int k = 0; k < s->nargs && k < 64; k++)
                if (s->constmask >> k & 1)
                    sb_printf(sb, " %s = %lld", s->typed->slots[k].name, (long long)s->constvals[k]);
            sb_puts(sb, "\n");
        }
        ir_print(sb, s->typed);
        sb_puts(sb, "  => ");
        ty_print(sb, s->rettype);
        sb_puts(sb, "\n");
    }
}
