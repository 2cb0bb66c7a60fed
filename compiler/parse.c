/* parse.c: the recursive-descent parser of the Julia kernel language, and
 * ast_print. Builds the tree described in ast.h from lex.c's tokens.
 *
 * Error handling: the first syntax error in a top-level item is reported and
 * the parser jumps (longjmp) back to the top-level loop, which skips to the
 * next line that starts, at column 1, with `function`, `const`, `@inline`,
 * `@noinline` or `name(`, and goes on. Everything is arena-allocated, so the
 * jump leaks nothing. Nesting is bounded (PARSE_MAX_DEPTH) so that no input
 * can exhaust the stack.
 *
 * Precedence, lowest first (as Julia's):
 *   = op=            right          (statement level; bare tuples a, b bind tighter)
 *   ? :              right
 *   ||               right          AST_OR
 *   &&               right          AST_AND
 *   == != < ... in isa <:          chains -> AST_COMPARISON
 *   :                a:b, a:s:b
 *   + - | ⊻          left
 *   * / ÷ % & \      left           (numeric juxtaposition 3n binds tighter, as Julia)
 *   << >> >>>        left
 *   - + ! ~          unary prefix
 *   ^                right          (binds tighter than unary: -2^2 is -(2^2))
 *   ::               x::T
 *   . ( ) [ ] { }    postfix */
#include "ast.h"
#include "lex.h"

#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PARSE_MAX_DEPTH = 500, PARSE_OUTER = 4 };

typedef struct Parser {
    Arena *a;
    Diags *d;
    const SrcFile *file;
    Token *toks;
    int ntoks;
    int pos;
    int err_pos;               /* token index of the last error */
    int depth;                 /* nesting, bounded by PARSE_MAX_DEPTH */
    const char *stack_limit;   /* and by the thread's stack (jk_stack_limit) */
    SrcLoc outer[PARSE_OUTER]; /* where the outermost nesting levels began */
    bool in_brackets;          /* newlines are whitespace (inside ( [ {) */
    bool no_range;             /* `:` ends the expression (the middle of a ? : ) */
    bool space_sep;            /* space-separated macro arguments: `@m a (b)` is two arguments */
    PtrVec user_macros;        /* names of the macros the file defines (`macro m(x) ... end`) */
    bool in_index;             /* inside A[...]: `end` and `begin` are values */
    PtrVec modules;            /* from using/import lines: pairs (name, module it names), `import A.B as C` */
    PtrVec renames;            /* `using A: b as c`: pairs (c, b) */
    PtrVec imports;            /* `import A: f, +`: the functions f and + whose methods the file adds to */
    int file_flags;            /* FILE_* of the AST_FILE: the prelude's extensions the file uses */
    bool oom;
    PtrVec items;   /* the file's top-level items */
    int item_start; /* token index where the current item began */
    jmp_buf jb;
} Parser;

/* The parser's mode flags, saved and restored around brackets and blocks. */
typedef struct ParseMode {
    bool in_brackets, no_range, space_sep, in_index;
} ParseMode;

static ParseMode parse_save(Parser *p)
{
    ParseMode m = { p->in_brackets, p->no_range, p->space_sep, p->in_index };
    return m;
}

static void parse_restore(Parser *p, ParseMode m)
{
    p->in_brackets = m.in_brackets;
    p->no_range = m.no_range;
    p->space_sep = m.space_sep;
    p->in_index = m.in_index;
}

/* ---- tokens -------------------------------------------------------------- */

static Token *parse_peek(Parser *p)
{
    if (p->in_brackets)
        while (p->toks[p->pos].kind == TK_NL)
            p->pos++;
    return &p->toks[p->pos];
}

/* The token after the current one (newlines skipped inside brackets). */
static Token *parse_peek2(Parser *p)
{
    parse_peek(p);
    int i = p->pos;
    if (p->toks[i].kind != TK_EOF)
        i++;
    if (p->in_brackets)
        while (p->toks[i].kind == TK_NL)
            i++;
    return &p->toks[i];
}

static Token *parse_next(Parser *p)
{
    Token *t = parse_peek(p);
    if (t->kind != TK_EOF)
        p->pos++;
    return t;
}

/* The first bytes are compared first: most tokens a parse asks about differ there, and strcmp's call was a
 * tenth of a process's first compile when the Base prelude was parsed at run time. */
static bool tok_is(const Token *t, TokKind k, const char *text)
{
    return t->kind == k && t->text[0] == text[0] && strcmp(t->text, text) == 0;
}
static bool tok_op(const Token *t, const char *text)
{
    return tok_is(t, TK_OP, text);
}
static bool tok_kw(const Token *t, const char *text)
{
    return tok_is(t, TK_KEYWORD, text);
}

static bool parse_accept(Parser *p, const char *op)
{
    if (tok_op(parse_peek(p), op)) {
        p->pos++;
        return true;
    }
    return false;
}

static void parse_skip_newlines(Parser *p)
{
    while (p->toks[p->pos].kind == TK_NL)
        p->pos++;
}

/* A token as a message shows it: "x", ")", "1.2" (long ones cut). */
static const char *tok_desc(Parser *p, const Token *t)
{
    if (t->kind == TK_EOF)
        return "end of input";
    if (t->kind == TK_NL)
        return "newline";
    int n = t->len > 40 ? 40 : t->len;
    const char *s = arena_strndup(p->a, t->start, (size_t)n);
    return s ? s : "?";
}

/* ---- errors --------------------------------------------------------------- */

static _Noreturn void parse_fail_at(Parser *p, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static _Noreturn void parse_fail_at(Parser *p, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_verror(p->d, DIAG_USER, loc, fmt, ap);
    va_end(ap);
    p->err_pos = p->pos;
    longjmp(p->jb, 1);
}

static _Noreturn void parse_oom(Parser *p)
{
    if (!p->oom)
        diag_plain(p->d, DIAG_NOMEM, "out of memory while parsing %s", p->file->name);
    p->oom = true;
    p->err_pos = p->pos;
    longjmp(p->jb, 1);
}

/* "unexpected X", or "incomplete" at the end of input. */
static _Noreturn void parse_unexpected(Parser *p, const Token *t)
{
    if (t->kind == TK_EOF)
        parse_fail_at(p, t->loc, "syntax: incomplete: premature end of input");
    if (t->kind == TK_NL)
        parse_fail_at(p, t->loc, "syntax: unexpected newline");
    if (tok_op(t, "$")) /* lexed only so that a skipped macro body may hold it */
        parse_fail_at(p, t->loc, "syntax: invalid character \"$\"");
    if (t->kind == TK_OP && t->text[0] == '.' && t->len > 1 && strcmp(t->text, "..") != 0 &&
        strcmp(t->text, "...") != 0)
        parse_fail_at(p, t->loc, "syntax: broadcasting \"%s\" is not supported in kernels", t->text);
    parse_fail_at(p, t->loc, "syntax: unexpected \"%s\"", tok_desc(p, t));
}

/* A token left over after a complete statement. */
static _Noreturn void parse_extra_token(Parser *p, const Token *t)
{
    if (t->kind == TK_OP && t->text[0] == '.' && t->len > 1)
        parse_unexpected(p, t);
    if (tok_kw(t, "end") || tok_kw(t, "else") || tok_kw(t, "elseif") || tok_op(t, ")") || tok_op(t, "]") ||
        tok_op(t, "}"))
        parse_unexpected(p, t);
    if (tok_op(t, "->"))
        parse_fail_at(p, t->loc,
                      "syntax: anonymous functions (->) are not supported in kernels; define a named function");
    parse_fail_at(p, t->loc, "syntax: extra token \"%s\" after end of expression", tok_desc(p, t));
}

/* One level deeper. Running out of stack is reported at the expression
 * whose nesting went too deep (where its outermost levels began), not at
 * the level where the stack ran out: that depends on the frame sizes of the
 * build (a sanitizer's are several times larger), and the message must not. */
static void parse_enter(Parser *p, SrcLoc loc)
{
    if (++p->depth <= PARSE_OUTER)
        p->outer[p->depth - 1] = loc;
    if (p->depth > PARSE_MAX_DEPTH)
        parse_fail_at(p, loc, "syntax: expression too deeply nested");
    if (jk_stack_exhausted(p->stack_limit))
        parse_fail_at(p, p->depth > PARSE_OUTER ? p->outer[PARSE_OUTER - 1] : loc,
                      "syntax: expression too deeply nested for the available stack");
}

/* ---- nodes ---------------------------------------------------------------- */

Node *ast_node(Arena *a, NodeKind kind, SrcLoc loc, int nkids)
{
    Node *n = arena_alloc(a, sizeof(Node));
    Node **kids = nkids ? arena_alloc(a, sizeof(Node *) * (size_t)nkids) : NULL;
    if (!n || (nkids && !kids))
        return NULL;
    n->kind = kind;
    n->loc = loc;
    n->kids = kids;
    n->nkids = nkids;
    return n;
}

Node *ast_clone(Arena *a, const Node *x, int depth)
{
    if (!x || depth > 200)
        return (Node *)x;
    Node *c = ast_node(a, x->kind, x->loc, x->nkids);
    if (!c)
        return (Node *)x;
    Node **kids = c->kids;
    *c = *x;
    c->kids = kids;
    for (int i = 0; i < x->nkids; i++)
        c->kids[i] = ast_clone(a, x->kids[i], depth + 1);
    return c;
}

Node *ast_ident(Arena *a, SrcLoc loc, const char *name)
{
    Node *n = ast_node(a, AST_IDENT, loc, 0);
    if (n)
        n->name = name;
    return n;
}

static Node *node_new(Parser *p, NodeKind kind, SrcLoc loc, int nkids)
{
    Node *n = ast_node(p->a, kind, loc, nkids);
    if (!n)
        parse_oom(p);
    return n;
}

static Node *node_from_vec(Parser *p, NodeKind kind, SrcLoc loc, PtrVec *v)
{
    if (p->a->failed)
        parse_oom(p);
    Node *n = node_new(p, kind, loc, v->len);
    for (int i = 0; i < v->len; i++)
        n->kids[i] = v->items[i];
    return n;
}

static void vec_push(Parser *p, PtrVec *v, void *x)
{
    ptrvec_push(p->a, v, x);
    if (p->a->failed)
        parse_oom(p);
}

static Node *node_ident(Parser *p, SrcLoc loc, const char *name)
{
    Node *n = node_new(p, AST_IDENT, loc, 0);
    n->name = name;
    return n;
}

static Node *node_call2(Parser *p, SrcLoc loc, const char *op, Node *a, Node *b)
{
    Node *n = node_new(p, AST_CALL, loc, 3);
    n->kids[0] = node_ident(p, loc, op);
    n->kids[1] = a;
    n->kids[2] = b;
    return n;
}

/* a .op b (op without its dot): broadcast(op, a, b), Base.Broadcast's dot call (base/prelude.jl: over
 * tuples and numbers) */
static Node *node_broadcast2(Parser *p, SrcLoc loc, const char *op, Node *a, Node *b)
{
    Node *n = node_new(p, AST_CALL, loc, 4);
    n->kids[0] = node_ident(p, loc, "broadcast");
    n->kids[1] = node_ident(p, loc, op);
    n->kids[2] = a;
    n->kids[3] = b;
    return n;
}

/* a binary operator call, or its broadcast when the operator is dotted (.+) */
static Node *node_binop(Parser *p, SrcLoc loc, const char *op, Node *a, Node *b)
{
    if (op[0] == '.' && op[1])
        return node_broadcast2(p, loc, op + 1, a, b);
    return node_call2(p, loc, op, a, b);
}

static Node *node_call1(Parser *p, SrcLoc loc, const char *op, Node *a)
{
    Node *n = node_new(p, AST_CALL, loc, 2);
    n->kids[0] = node_ident(p, loc, op);
    n->kids[1] = a;
    return n;
}

/* An AST printed into the arena, for messages. */
static const char *node_text(Parser *p, const Node *n)
{
    StrBuf sb = { 0 };
    ast_print(&sb, n);
    const char *s = arena_strndup(p->a, sb.data ? sb.data : "", sb.len > 60 ? 60 : sb.len);
    sb_free(&sb);
    return s ? s : "?";
}

/* ---- operator classes ---------------------------------------------------- */

static const char *const op_sum[] = { "+", "-", "|", "⊻" };
static const char *const op_times[] = { "*", "/", "÷", "%", "&", "\\" };
static const char *const op_shift[] = { "<<", ">>", ">>>" };
static const char *const op_cmp[] = { "==", "!=", "≠",  "===", "!==", "≡",  "≢", "<", "<=",
                                      "≤",  ">",  ">=", "≥",   "<:",  ">:", "∈", "∉", "≈" };
static const char *const op_assign[] = { "+=", "-=", "*=", "/=",  "÷=",  "%=",   "^=",
                                         "&=", "|=", "⊻=", "<<=", ">>=", ">>>=", "\\=" };

static bool in_list(const char *s, const char *const *list, int n)
{
    for (int i = 0; i < n; i++)
        if (s[0] == list[i][0] && strcmp(s, list[i]) == 0)
            return true;
    return false;
}

#define IN_LIST(s, list) in_list((s), (list), JK_ARRAY_LEN(list))

/* A broadcasting operator .op (a token of the lexer's) whose op is in list. */
static bool is_dotted(const Token *t, const char *const *list, int n)
{
    return t->kind == TK_OP && t->text[0] == '.' && t->text[1] && in_list(t->text + 1, list, n);
}

static bool tok_is_cmp(const Token *t)
{
    return (t->kind == TK_OP && IN_LIST(t->text, op_cmp)) || tok_kw(t, "in") || tok_kw(t, "isa") ||
           is_dotted(t, op_cmp, JK_ARRAY_LEN(op_cmp));
}

/* a .op b: broadcast(op, a, b), which the prelude defines over tuples and numbers. */
static Node *node_broadcast(Parser *p, SrcLoc loc, const char *op, Node *a, Node *b)
{
    Node *n = node_new(p, AST_CALL, loc, 4);
    n->kids[0] = node_ident(p, loc, "broadcast");
    n->kids[1] = node_ident(p, loc, op);
    n->kids[2] = a;
    n->kids[3] = b;
    return n;
}

/* Comparison operators under their canonical names (ast.h). */
static const char *cmp_name(const char *op)
{
    if (strcmp(op, "≠") == 0)
        return "!=";
    if (strcmp(op, "≤") == 0)
        return "<=";
    if (strcmp(op, "≥") == 0)
        return ">=";
    if (strcmp(op, "≡") == 0)
        return "===";
    if (strcmp(op, "≢") == 0)
        return "!==";
    if (strcmp(op, "∈") == 0)
        return "in";
    if (strcmp(op, "≈") == 0) /* base/prelude.jl's isapprox */
        return "isapprox";
    return op;
}

/* Is the current token a binary operator of the given class here? In
 * space-separated macro arguments, `a -b` is two arguments, as in Julia. */
static bool parse_at_binop(Parser *p, const char *const *list, int n)
{
    Token *t = parse_peek(p);
    if (t->kind != TK_OP || (!in_list(t->text, list, n) && !is_dotted(t, list, n)))
        return false;
    if (p->space_sep && t->spc && !parse_peek2(p)->spc)
        return false;
    return true;
}

static bool is_operator_name(const char *s)
{
    return IN_LIST(s, op_sum) || IN_LIST(s, op_times) || IN_LIST(s, op_shift) || IN_LIST(s, op_cmp) ||
           strcmp(s, "^") == 0 || strcmp(s, ":") == 0 || strcmp(s, "in") == 0 || strcmp(s, "isa") == 0 ||
           strcmp(s, "!") == 0 || strcmp(s, "~") == 0;
}

/* Did an `import M: name` line name it, so that a method of it adds to M's function? */
static bool parse_imported(const Parser *p, const char *name)
{
    for (int i = 0; i < p->imports.len; i++)
        if (strcmp(p->imports.items[i], name) == 0)
            return true;
    return false;
}

/* `:op` or `:(op)` at token i, the name of an operator after a module's dot (Base.:*, Base.:(==)): the
 * operator's token, with *ntoks the tokens it spans from the ":"; NULL if there is none. */
static Token *parse_quoted_operator(Parser *p, int i, int *ntoks)
{
    Token *t = p->toks;
    if (!tok_op(&t[i], ":") || t[i + 1].spc)
        return NULL;
    if (t[i + 1].kind == TK_OP && is_operator_name(t[i + 1].text)) {
        *ntoks = 2;
        return &t[i + 1];
    }
    if (tok_op(&t[i + 1], "(") && t[i + 2].kind == TK_OP && is_operator_name(t[i + 2].text) && tok_op(&t[i + 3], ")")) {
        *ntoks = 4;
        return &t[i + 2];
    }
    return NULL;
}

/* Does the token end a statement (so an optional value is absent)? Used where a value is optional (return). */
static bool tok_ends_stmt(const Token *t)
{
    if (t->kind == TK_EOF || t->kind == TK_NL)
        return true;
    if (t->kind == TK_KEYWORD)
        return strcmp(t->text, "end") == 0 || strcmp(t->text, "else") == 0 || strcmp(t->text, "elseif") == 0 ||
               strcmp(t->text, "catch") == 0 || strcmp(t->text, "finally") == 0;
    return tok_op(t, ";") || tok_op(t, ")") || tok_op(t, "]") || tok_op(t, "}") || tok_op(t, ",");
}

/* ---- forward declarations ------------------------------------------------ */

static Node *parse_stmt(Parser *p);
static Node *parse_assign(Parser *p, bool allow_tuple);
static Node *parse_ternary(Parser *p);
static Node *parse_unary(Parser *p);
static Node *parse_postfix(Parser *p);
static Node *parse_block(Parser *p);
static Node *parse_parameters(Parser *p);

/* ---- lists ----------------------------------------------------------------- */

/* The last item of out followed by `...` (taken here): x... splats x. */
static void parse_splat_last(Parser *p, PtrVec *out, const Token *dots)
{
    Node *n = node_new(p, AST_SPLAT, dots->loc, 1);
    n->kids[0] = out->items[out->len - 1];
    out->items[out->len - 1] = n;
    p->pos++;
}

/* parameters := ";" [ kwitem { "," kwitem } [","] ]    (up to the closing ")", not taken)
 * kwitem := assignment-level expression [ "..." ]: Julia's keyword part of a call or a definition. */
static Node *parse_parameters(Parser *p)
{
    Token *semi = parse_next(p);
    PtrVec items = { 0 };
    while (!tok_op(parse_peek(p), ")")) {
        Token *t = parse_peek(p);
        if (t->kind == TK_EOF || tok_op(t, ";"))
            parse_unexpected(p, t);
        vec_push(p, &items, parse_assign(p, false));
        if (tok_op(parse_peek(p), "..."))
            parse_splat_last(p, &items, parse_peek(p));
        if (tok_op(parse_peek(p), ","))
            p->pos++;
        else if (!tok_op(parse_peek(p), ")"))
            break;
    }
    return node_from_vec(p, AST_PARAMETERS, semi->loc, &items);
}

/* list := [ item [ "..." ] { "," item [ "..." ] } [","] [ parameters ] ] closer    (the opener already taken)
 * item := assignment-level expression. Newlines inside are whitespace. */
static void parse_list(Parser *p, PtrVec *out, const char *closer, const char *what)
{
    ParseMode m = parse_save(p);
    p->in_brackets = true;
    p->space_sep = false;
    p->no_range = false;
    parse_enter(p, parse_peek(p)->loc);
    for (;;) {
        Token *t = parse_peek(p);
        if (tok_op(t, closer))
            break;
        if (t->kind == TK_EOF)
            parse_unexpected(p, t);
        if (tok_op(t, "..."))
            parse_unexpected(p, t);
        if (tok_op(t, ";") && strcmp(closer, ")") == 0) {
            vec_push(p, out, parse_parameters(p));
            if (!tok_op(parse_peek(p), closer))
                parse_fail_at(p, parse_peek(p)->loc, "syntax: missing comma or \"%s\" in %s", closer, what);
            break;
        }
        if (strcmp(closer, "}") == 0 && tok_op(t, "<:")) {
            /* T{<:S}: a parameter bounded by S (an anonymous where-variable), kids[0] NULL */
            p->pos++;
            Node *n = node_new(p, AST_SUBTYPE, t->loc, 2);
            n->kids[0] = NULL;
            n->kids[1] = parse_postfix(p);
            vec_push(p, out, n);
        } else {
            vec_push(p, out, parse_assign(p, false));
        }
        t = parse_peek(p);
        if (tok_op(t, "...")) {
            if (strcmp(closer, "}") == 0)
                parse_fail_at(p, t->loc, "syntax: splatting \"...\" in type parameters is not supported in kernels");
            parse_splat_last(p, out, t);
            t = parse_peek(p);
        }
        if (tok_op(t, ","))
            p->pos++;
        else if (!tok_op(t, closer) && !(tok_op(t, ";") && strcmp(closer, ")") == 0)) {
            if (t->kind == TK_EOF)
                parse_unexpected(p, t);
            parse_fail_at(p, t->loc, "syntax: missing comma or \"%s\" in %s", closer, what);
        }
    }
    p->pos++; /* the closer */
    p->depth--;
    parse_restore(p, m);
}

/* ---- definitions ------------------------------------------------------------ */

/* where_item := IDENT [ "<:" type ] */
static Node *parse_where_item(Parser *p)
{
    Token *t = parse_peek(p);
    if (t->kind != TK_IDENT)
        parse_fail_at(p, t->loc, "syntax: invalid \"where\" parameter \"%s\"", tok_desc(p, t));
    p->pos++;
    Node *id = node_ident(p, t->loc, t->text);
    if (parse_accept(p, "<:")) {
        Node *n = node_new(p, AST_SUBTYPE, t->loc, 2);
        n->kids[0] = id;
        n->kids[1] = parse_postfix(p);
        return n;
    }
    return id;
}

/* where := "where" ( where_item | "{" where_item { "," where_item } "}" ), repeatable.
 * Appends to *vec; the caller makes the TUPLE. */
static void parse_where(Parser *p, PtrVec *vec)
{
    p->pos++; /* where */
    if (parse_accept(p, "{")) {
        ParseMode m = parse_save(p);
        p->in_brackets = true;
        while (!tok_op(parse_peek(p), "}")) {
            vec_push(p, vec, parse_where_item(p));
            Token *t = parse_peek(p);
            if (tok_op(t, ","))
                p->pos++;
            else if (!tok_op(t, "}")) {
                if (t->kind == TK_EOF)
                    parse_unexpected(p, t);
                parse_fail_at(p, t->loc, "syntax: missing comma or \"}\" in \"where\" parameters");
            }
        }
        p->pos++;
        parse_restore(p, m);
    } else {
        vec_push(p, vec, parse_where_item(p));
    }
}

/* A parameter is IDENT, ::T, x::T, or either with a default (ASSIGN); the last positional one may be
 * varargs (SPLAT of IDENT or x::T), and keyword parameters (PARAMETERS) come last. */
static void parse_check_param(Parser *p, Node *n, bool last)
{
    if (n->kind == AST_PARAMETERS && last) {
        for (int i = 0; i < n->nkids; i++)
            parse_check_param(p, n->kids[i], i == n->nkids - 1);
        return;
    }
    if (n->kind == AST_MACROCALL && strcmp(n->name, "Const") == 0 && n->nkids == 1)
        n = n->kids[0]; /* KernelAbstractions' @Const(A): ka.c removes the mark */
    if (n->kind == AST_MACROCALL && strcmp(n->name, "context") == 0 && n->nkids == 0)
        return; /* KernelAbstractions.@context: the kernel's context (ka.c) */
    if (n->kind == AST_SPLAT && last && n->kids[0]->kind != AST_ASSIGN)
        n = n->kids[0];
    Node *x = n->kind == AST_ASSIGN ? n->kids[0] : n;
    bool ok = false;
    if (x->kind == AST_IDENT)
        ok = !x->qual;
    else if (x->kind == AST_TYPED)
        ok = !x->kids[0] || (x->kids[0]->kind == AST_IDENT && !x->kids[0]->qual);
    if (!ok)
        parse_fail_at(p, n->loc, "syntax: invalid function argument \"%s\"", node_text(p, n));
}

/* Base's @nospecialize(x) and @specialize(x) on a parameter: hints to Julia's compiler (juke specialises on every
 * argument), so the parameter itself */
static void unwrap_param_hints(Node *params)
{
    for (int i = 0; i < params->nkids; i++) {
        Node *n = params->kids[i];
        if (n->kind == AST_MACROCALL && n->nkids == 1 &&
            (strcmp(n->name, "nospecialize") == 0 || strcmp(n->name, "specialize") == 0))
            params->kids[i] = n->kids[0];
    }
}

/* A destructuring parameter, f((M, N), x) (its elements names or nested tuples of names): Julia binds
 * the argument to a hidden name and destructures it on entry. Here the parameter becomes `#argK` and the
 * body starts with `(M, N) = #argK`; body is returned, a BLOCK. */
static bool names_only(const Node *t, int depth)
{
    if (t->kind == AST_IDENT)
        return !t->qual;
    if (t->kind != AST_TUPLE || t->nkids == 0 || depth > 8)
        return false;
    for (int i = 0; i < t->nkids; i++)
        if (!names_only(t->kids[i], depth + 1))
            return false;
    return true;
}

static Node *parse_destructure_params(Parser *p, Node *params, Node *body)
{
    for (int i = 0; i < params->nkids; i++) {
        Node *t = params->kids[i];
        if (t->kind != AST_TUPLE || !names_only(t, 0))
            continue;
        const char *hidden = arena_printf(p->a, "#arg%d", i + 1);
        if (!hidden)
            parse_oom(p);
        params->kids[i] = node_ident(p, t->loc, hidden);
        Node *as = node_new(p, AST_ASSIGN, t->loc, 2);
        as->kids[0] = t;
        as->kids[1] = node_ident(p, t->loc, hidden);
        int n = body && body->kind == AST_BLOCK ? body->nkids : 1;
        Node *b = node_new(p, AST_BLOCK, body ? body->loc : t->loc, n + 1);
        b->kids[0] = as;
        for (int k = 0; k < n; k++)
            b->kids[k + 1] = body && body->kind == AST_BLOCK ? body->kids[k] : body;
        body = b;
    }
    return body;
}

static Node *parse_make_function(Parser *p, SrcLoc loc, const char *name, Node *params, Node *body, PtrVec *where,
                                 Node *rettype)
{
    unwrap_param_hints(params);
    body = parse_destructure_params(p, params, body);
    for (int i = 0; i < params->nkids; i++) {
        bool kw_next = i + 1 < params->nkids && params->kids[i + 1]->kind == AST_PARAMETERS;
        parse_check_param(p, params->kids[i], i == params->nkids - 1 || kw_next);
    }
    Node *f = node_new(p, AST_FUNCTION, loc, 5); /* kids[4] counts only for a constructor P{T}(x) */
    f->nkids = 4;
    f->name = name;
    f->kids[0] = params;
    f->kids[1] = body;
    f->kids[2] = where && where->len ? node_from_vec(p, AST_TUPLE, loc, where) : NULL;
    f->kids[3] = rettype;
    return f;
}

/* The `end` closing a block opened by `kw` at `open`; at the end of input
 * Julia's "incomplete: "kw" at file:line requires end". */
static void parse_expect_end(Parser *p, const char *kw, SrcLoc open)
{
    Token *t = parse_peek(p);
    if (tok_kw(t, "end")) {
        p->pos++;
        return;
    }
    if (t->kind == TK_EOF)
        parse_fail_at(p, t->loc, "syntax: incomplete: \"%s\" at %s:%d requires end", kw, open.file->name, open.line);
    parse_unexpected(p, t);
}

/* An anonymous function: params (a TUPLE, each checked as a function's), its body BLOCK and return type. */
static Node *parse_make_lambda(Parser *p, SrcLoc loc, Node *params, Node *body, Node *rettype)
{
    unwrap_param_hints(params);
    for (int i = 0; i < params->nkids; i++) {
        bool kw_next = i + 1 < params->nkids && params->kids[i + 1]->kind == AST_PARAMETERS;
        parse_check_param(p, params->kids[i], i == params->nkids - 1 || kw_next);
    }
    Node *f = node_new(p, AST_LAMBDA, loc, 3);
    f->kids[0] = params;
    f->kids[1] = body;
    f->kids[2] = rettype;
    return f;
}

/* Is n `a::typeof(f)` (or `::typeof(f)`)? Then f's name. */
static const char *typeof_self(const Node *n)
{
    if (n->kind != AST_TYPED || (n->kids[0] && n->kids[0]->kind != AST_IDENT))
        return NULL;
    const Node *t = n->kids[1];
    if (t->kind != AST_CALL || t->nkids != 2 || t->kids[0]->kind != AST_IDENT ||
        strcmp(t->kids[0]->name, "typeof") != 0 || t->kids[1]->kind != AST_IDENT)
        return NULL;
    return t->kids[1]->name;
}

/* A method called through an instance, (a::T)(args): a method of f when T is typeof(f) (a kernel never reads
 * a), else a method of #call whose first parameter is a::T (a callable struct's, as Julia's call overloading;
 * infer.c calls it for a call of a T). Sets *name and returns the parameters. */
static Node *parse_callable(Parser *p, Node *self, Node *args, const char **name)
{
    if (self->kind != AST_TYPED || (self->kids[0] && self->kids[0]->kind != AST_IDENT))
        parse_fail_at(p, self->loc, "syntax: a callable's method is written (a::T)(args)");
    const char *f = typeof_self(self);
    if (f) {
        *name = f;
        return args;
    }
    *name = "#call";
    Node *params = node_new(p, AST_TUPLE, args->loc, args->nkids + 1);
    params->kids[0] = self;
    for (int i = 0; i < args->nkids; i++)
        params->kids[i + 1] = args->kids[i];
    return params;
}

/* What follows a named method's parameters: [ "::" type ] { where } block "end" (kw: `function`). */
static Node *parse_function_tail(Parser *p, Token *kw, const char *fname, Node *ptuple)
{
    Node *rettype = NULL;
    if (parse_accept(p, "::"))
        rettype = parse_postfix(p);
    PtrVec where = { 0 };
    while (tok_kw(parse_peek(p), "where"))
        parse_where(p, &where);
    Node *body = parse_block(p);
    parse_expect_end(p, "function", kw->loc);
    return parse_make_function(p, kw->loc, fname, ptuple, body, &where, rettype);
}

/* function := "function" NAME "(" params ")" [ "::" type ] { where } block "end"
 *           | "function" "(" NAME "::" type ")" "(" params ")" ...   (a callable's method)
 *           | "function" "(" params ")" [ "::" type ] block "end"    (an anonymous function) */
static Node *parse_function(Parser *p)
{
    Token *kw = parse_next(p);
    Token *name = parse_peek(p);
    if (tok_op(name, "(")) {
        p->pos++;
        PtrVec first = { 0 };
        parse_list(p, &first, ")", "argument list");
        Node *ftuple = node_from_vec(p, AST_TUPLE, name->loc, &first);
        if (!tok_op(parse_peek(p), "(") || parse_peek(p)->spc) {
            Node *rettype = NULL;
            if (parse_accept(p, "::"))
                rettype = parse_postfix(p);
            if (tok_kw(parse_peek(p), "where"))
                parse_fail_at(p, parse_peek(p)->loc,
                              "syntax: \"where\" on an anonymous function is not supported in kernels");
            Node *body = parse_block(p);
            parse_expect_end(p, "function", kw->loc);
            return parse_make_lambda(p, kw->loc, ftuple, body, rettype);
        }
        if (ftuple->nkids != 1)
            parse_fail_at(p, name->loc, "syntax: a callable's method is written (a::T)(args)");
        p->pos++;
        PtrVec params = { 0 };
        parse_list(p, &params, ")", "argument list");
        const char *fname = NULL;
        Node *ptuple = parse_callable(p, ftuple->kids[0], node_from_vec(p, AST_TUPLE, name->loc, &params), &fname);
        return parse_function_tail(p, kw, fname, ptuple);
    }
    /* `in` is a keyword of `for` loops, and a function name too (function in(x, itr)) */
    if (name->kind != TK_IDENT && !(tok_kw(name, "in") && tok_op(parse_peek2(p), "(")))
        parse_fail_at(p, name->loc, "syntax: invalid function name \"%s\"", tok_desc(p, name));
    p->pos++;
    /* Base.foo / AMDGPU.foo / Base.:* / Base.:(==): method names qualified by a module keep the last part,
     * and add to that module's function */
    bool extends = parse_imported(p, name->text);
    for (int nt = 0;;) {
        if (tok_op(parse_peek(p), ".") && parse_peek2(p)->kind == TK_IDENT) {
            p->pos++;
            name = parse_next(p);
        } else if (tok_op(parse_peek(p), ".") && parse_quoted_operator(p, p->pos + 1, &nt)) {
            name = parse_quoted_operator(p, p->pos + 1, &nt);
            p->pos += 1 + nt;
        } else {
            break;
        }
        extends = true;
    }
    if (tok_kw(parse_peek(p), "end")) {
        /* function f end: declares f without a method; an empty group of top-level items (parse_file) */
        p->pos++;
        Node *none = node_new(p, AST_BLOCK, kw->loc, 0);
        none->flags = STRUCT_KWDEF;
        return none;
    }
    Node *self = NULL; /* function P{T}(x) where T: a constructor of P{T} */
    if (tok_op(parse_peek(p), "{") && !parse_peek(p)->spc) {
        p->pos++;
        PtrVec ps = { 0 };
        vec_push(p, &ps, node_ident(p, name->loc, name->text));
        parse_list(p, &ps, "}", "type parameters");
        self = node_from_vec(p, AST_CURLY, name->loc, &ps);
    }
    if (!parse_accept(p, "("))
        parse_fail_at(p, parse_peek(p)->loc, "syntax: expected \"(\" after function name \"%s\"", name->text);
    PtrVec params = { 0 };
    parse_list(p, &params, ")", "argument list");
    Node *f = parse_function_tail(p, kw, name->text, node_from_vec(p, AST_TUPLE, name->loc, &params));
    f->kids[4] = self;
    f->nkids = self ? 5 : 4;
    if (extends)
        f->flags |= FN_EXTENDS;
    return f;
}

/* Does the call have a typed argument (x::T)? Then `+(a::P, b::P) = ...` defines a method of the operator,
 * while `a + b = c` stays an (invalid) assignment. */
static bool has_typed_param(const Node *call)
{
    for (int i = 1; i < call->nkids; i++)
        if (call->kids[i]->kind == AST_TYPED)
            return true;
    return false;
}

/* A short definition f(x) = expr: lhs is a call of a named function, maybe with
 * a return type f(x)::T. Returns the FUNCTION, or NULL if lhs is no signature. */
static Node *parse_short_def(Parser *p, SrcLoc loc, Node *lhs, PtrVec *where, Node *rhs)
{
    Node *rettype = NULL, *call = lhs;
    if (call->kind == AST_TYPED && call->kids[0] && call->kids[0]->kind == AST_CALL) {
        rettype = call->kids[1];
        call = call->kids[0];
    }
    /* a + b = c would define + in Julia; kernels only define named functions */
    if (call->kind != AST_CALL)
        return NULL;
    Node *self = NULL; /* P{T}(x) where T = new{T}(x): a constructor of P{T} */
    if (call->kids[0]->kind == AST_CURLY && call->kids[0]->kids[0]->kind == AST_IDENT && where->len) {
        self = call->kids[0];
        Node *c2 = node_new(p, AST_CALL, call->loc, call->nkids);
        for (int i = 1; i < call->nkids; i++)
            c2->kids[i] = call->kids[i];
        c2->kids[0] = self->kids[0];
        call = c2;
    }
    Node *params = node_new(p, AST_TUPLE, call->loc, call->nkids - 1);
    for (int i = 1; i < call->nkids; i++)
        params->kids[i - 1] = call->kids[i];
    const char *name = NULL;
    if (call->kids[0]->kind == AST_TYPED) /* (a::T)(x) = e */
        params = parse_callable(p, call->kids[0], params, &name);
    else if (call->kids[0]->kind == AST_MACROCALL && strcmp(call->kids[0]->name, "$") == 0 &&
             call->kids[0]->kids[0]->kind == AST_IDENT) /* $f(x) = e in an @eval loop: named "$f" (evalloop.c) */
        name = arena_printf(p->a, "$%s", call->kids[0]->kids[0]->name);
    else if (call->kids[0]->kind != AST_IDENT || (is_operator_name(call->kids[0]->name) && !has_typed_param(call)))
        return NULL;
    else
        name = call->kids[0]->name;
    Node *body = node_new(p, AST_BLOCK, rhs->loc, 1);
    body->kids[0] = rhs;
    Node *f = parse_make_function(p, loc, name, params, body, where, rettype);
    f->kids[4] = self;
    f->nkids = self ? 5 : 4;
    if (call->kids[0]->kind == AST_IDENT && (call->kids[0]->qual || parse_imported(p, name)))
        f->flags |= FN_EXTENDS;
    return f;
}

/* ---- statements ------------------------------------------------------------ */

/* block := { stmt ( NEWLINE | ";" ) } up to end/else/elseif/catch/finally or EOF */
static Node *parse_block(Parser *p)
{
    ParseMode m = parse_save(p);
    p->in_brackets = p->no_range = p->space_sep = p->in_index = false;
    SrcLoc loc = parse_peek(p)->loc;
    parse_enter(p, loc);
    PtrVec stmts = { 0 };
    for (;;) {
        while (parse_peek(p)->kind == TK_NL || tok_op(parse_peek(p), ";"))
            p->pos++;
        Token *t = parse_peek(p);
        if (t->kind == TK_EOF || (t->kind == TK_KEYWORD && tok_ends_stmt(t)))
            break;
        vec_push(p, &stmts, parse_stmt(p));
        t = parse_peek(p);
        if (t->kind == TK_NL || tok_op(t, ";"))
            continue;
        if (t->kind == TK_EOF || (t->kind == TK_KEYWORD && tok_ends_stmt(t)))
            break;
        parse_extra_token(p, t);
    }
    p->depth--;
    parse_restore(p, m);
    /* a block starts at its first statement (or where it would have been) */
    return node_from_vec(p, AST_BLOCK, stmts.len ? ((Node *)stmts.items[0])->loc : loc, &stmts);
}

/* if := "if" cond block { "elseif" cond block } [ "else" block ] "end" */
static Node *parse_if(Parser *p)
{
    Token *kw = parse_next(p);
    Node *top = node_new(p, AST_IF, kw->loc, 3);
    Node *cur = top;
    cur->kids[0] = parse_ternary(p);
    cur->kids[1] = parse_block(p);
    for (;;) {
        Token *t = parse_peek(p);
        if (tok_kw(t, "elseif")) {
            p->pos++;
            Node *n = node_new(p, AST_IF, t->loc, 3);
            n->kids[0] = parse_ternary(p);
            n->kids[1] = parse_block(p);
            cur->kids[2] = n;
            cur = n;
        } else if (tok_kw(t, "else")) {
            p->pos++;
            cur->kids[2] = parse_block(p);
            break;
        } else {
            break;
        }
    }
    parse_expect_end(p, "if", kw->loc);
    return top;
}

/* while := "while" cond block "end" */
static Node *parse_while(Parser *p)
{
    Token *kw = parse_next(p);
    Node *n = node_new(p, AST_WHILE, kw->loc, 2);
    n->kids[0] = parse_ternary(p);
    n->kids[1] = parse_block(p);
    parse_expect_end(p, "while", kw->loc);
    return n;
}

/* for := "for" spec { "," spec } block "end";  spec := var ( "in" | "∈" | "=" ) expr
 * Several specs nest: the first is the outer loop. */
static Node *parse_for(Parser *p)
{
    Token *kw = parse_next(p);
    PtrVec specs = { 0 };
    do {
        SrcLoc loc = parse_peek(p)->loc;
        ParseMode m = parse_save(p);
        p->no_range = false;
        Node *var = parse_postfix(p);
        if (tok_op(parse_peek(p), "::")) { /* for i::T in r: each value converted to T (typed below) */
            Token *dc = parse_next(p);
            Node *ty = node_new(p, AST_TYPED, dc->loc, 2);
            ty->kids[0] = var;
            ty->kids[1] = parse_postfix(p);
            var = ty;
        }
        Token *t = parse_peek(p);
        if (!(tok_kw(t, "in") || tok_op(t, "∈") || tok_op(t, "=")))
            parse_fail_at(p, t->loc, "syntax: invalid iteration specification");
        p->pos++;
        parse_skip_newlines(p);
        Node *iter = parse_ternary(p);
        parse_restore(p, m);
        Node *f = node_new(p, AST_FOR, loc, 3);
        f->kids[0] = var;
        f->kids[1] = iter;
        vec_push(p, &specs, f);
    } while (parse_accept(p, ","));
    Node *body = parse_block(p);
    parse_expect_end(p, "for", kw->loc);
    Node *outer = specs.items[0];
    outer->loc = kw->loc;
    for (int i = specs.len - 1; i >= 0; i--) {
        Node *f = specs.items[i];
        if (f->kids[0]->kind == AST_TYPED && f->kids[0]->kids[0] && f->kids[0]->kids[0]->kind == AST_IDENT) {
            /* for i::T in r: the loop runs over a hidden variable, and i::T = it starts each iteration */
            Node *as = node_new(p, AST_ASSIGN, f->kids[0]->loc, 2), *b = node_new(p, AST_BLOCK, body->loc, 2);
            const char *hidden = arena_printf(p->a, "#for_%s", f->kids[0]->kids[0]->name);
            if (!hidden)
                parse_oom(p);
            as->kids[0] = f->kids[0];
            as->kids[1] = node_ident(p, f->kids[0]->loc, hidden);
            b->kids[0] = as;
            b->kids[1] = body;
            body = b;
            f->kids[0] = node_ident(p, as->loc, hidden);
        }
        f->kids[2] = body;
        if (i > 0) {
            body = node_new(p, AST_BLOCK, f->loc, 1);
            body->kids[0] = f;
        }
    }
    return outer;
}

/* local := "local" decl { "," decl };  decl := IDENT | IDENT "::" T | either "=" expr */
static Node *parse_local(Parser *p)
{
    Token *kw = parse_next(p);
    PtrVec decls = { 0 };
    do {
        Node *d = parse_assign(p, false);
        Node *x = d->kind == AST_ASSIGN ? d->kids[0] : d;
        if (x->kind == AST_TYPED && x->kids[0])
            x = x->kids[0];
        if (x->kind != AST_IDENT || x->qual)
            parse_fail_at(p, d->loc, "syntax: invalid \"local\" declaration \"%s\"", node_text(p, d));
        vec_push(p, &decls, d);
    } while (parse_accept(p, ","));
    return node_from_vec(p, AST_LOCAL, kw->loc, &decls);
}

/* let := "let" [ binding { "," binding } ] block "end";  binding := IDENT [ "::" type ] [ "=" expr ] */
static Node *parse_let(Parser *p)
{
    Token *kw = parse_next(p);
    PtrVec binds = { 0 };
    if (!tok_ends_stmt(parse_peek(p))) {
        do {
            Node *b = parse_assign(p, false);
            Node *x = b->kind == AST_ASSIGN ? b->kids[0] : b;
            if (x->kind == AST_TYPED && x->kids[0])
                x = x->kids[0];
            if (x->kind != AST_IDENT || x->qual)
                parse_fail_at(p, b->loc, "syntax: invalid let syntax \"%s\"", node_text(p, b));
            vec_push(p, &binds, b);
        } while (parse_accept(p, ","));
    }
    Node *n = node_new(p, AST_LET, kw->loc, 2);
    n->kids[0] = node_from_vec(p, AST_TUPLE, kw->loc, &binds);
    n->kids[1] = parse_block(p);
    parse_expect_end(p, "let", kw->loc);
    return n;
}

static const char *module_of(const Parser *p, const char *s);
static bool is_capitalised(const char *s);

/* const NAME = type where {T, ...}: Julia's UnionAll, which is what the parametric alias const NAME{T, ...} =
 * type means (JuliaStream's `const ROCData = StreamData{T,ROCArray{T}} where {T}`), so it is made that alias; a
 * bound (`T <: Real`) only narrows the uses Julia accepts and is dropped. NULL, the position unmoved, for any
 * other const. */
static Node *parse_const_unionall(Parser *p, Token *kw)
{
    Token *name = parse_peek(p);
    if (name->kind != TK_IDENT || p->pos + 1 >= p->ntoks || !tok_op(&p->toks[p->pos + 1], "="))
        return NULL;
    int start = p->pos;
    p->pos += 2;
    parse_skip_newlines(p);
    Node *type = parse_ternary(p);
    if (!tok_kw(parse_peek(p), "where")) {
        p->pos = start;
        return NULL;
    }
    PtrVec where = { 0 };
    while (tok_kw(parse_peek(p), "where")) {
        /* a later `where` binds outside the earlier ones: its parameters come first */
        PtrVec outer = { 0 };
        parse_where(p, &outer);
        for (int i = 0; i < where.len; i++)
            vec_push(p, &outer, where.items[i]);
        where = outer;
    }
    Node *n = node_new(p, AST_CONST, kw->loc, 1 + where.len);
    n->name = name->text;
    n->kids[0] = type;
    for (int i = 0; i < where.len; i++) {
        Node *w = where.items[i];
        n->kids[1 + i] = w->kind == AST_SUBTYPE ? w->kids[0] : w;
    }
    return n;
}

/* const := "const" IDENT "=" expr */
static Node *parse_const(Parser *p)
{
    Token *kw = parse_next(p);
    Node *ua = parse_const_unionall(p, kw);
    if (ua)
        return ua;
    Node *e = parse_assign(p, true);
    Node *lhs = e->kind == AST_ASSIGN ? e->kids[0] : NULL;
    if (lhs && lhs->kind == AST_TYPED && lhs->kids[0])
        lhs = lhs->kids[0];
    if (lhs && lhs->kind == AST_TUPLE && lhs->nkids > 0) {
        /* const a, b = 1, 2: a BLOCK of one CONST per name (parse_file spreads it), each taking its
         * element of the right side (rhs[i] when it is no tuple expression) */
        Node *rhs = e->kids[1];
        Node *blk = node_new(p, AST_BLOCK, kw->loc, lhs->nkids);
        blk->flags = STRUCT_KWDEF; /* marks a group of constants */
        for (int i = 0; i < lhs->nkids; i++) {
            Node *x = lhs->kids[i];
            if (x->kind != AST_IDENT || x->qual)
                parse_fail_at(p, x->loc, "syntax: expected a name in \"const\" assignment");
            Node *c = node_new(p, AST_CONST, kw->loc, 1);
            c->name = x->name;
            if (rhs->kind == AST_TUPLE && rhs->nkids == lhs->nkids) {
                c->kids[0] = rhs->kids[i];
            } else {
                Node *r = node_new(p, AST_REF, x->loc, 2);
                r->kids[0] = rhs;
                r->kids[1] = node_new(p, AST_INT, x->loc, 0);
                r->kids[1]->lit = LIT_INT64;
                r->kids[1]->ival = i + 1;
                c->kids[0] = r;
            }
            blk->kids[i] = c;
        }
        return blk;
    }
    if (lhs && lhs->kind == AST_CURLY && lhs->kids[0]->kind == AST_IDENT && !lhs->kids[0]->qual) {
        /* const A{T, S} = type: a parametric type alias, its parameters after the value (kids[1..]) */
        Node *n = node_new(p, AST_CONST, kw->loc, lhs->nkids);
        n->name = lhs->kids[0]->name;
        n->kids[0] = e->kids[1];
        for (int i = 1; i < lhs->nkids; i++) {
            if (lhs->kids[i]->kind != AST_IDENT || lhs->kids[i]->qual)
                parse_fail_at(p, lhs->kids[i]->loc, "syntax: a type alias's parameters are names: const A{T} = ...");
            n->kids[i] = lhs->kids[i];
        }
        return n;
    }
    if (!lhs || lhs->kind != AST_IDENT || lhs->qual)
        parse_fail_at(p, e->loc, "syntax: expected assignment after \"const\"");
    Node *rhs = e->kids[1];
    /* const AS = AMDGPUnative.AS (AMDGPUnative's tests): a package's binding given its own name again, which the
     * name already means; as a constant it would read itself without end */
    bool rebinds = rhs->kind == AST_IDENT && rhs->qual && strcmp(rhs->name, lhs->name) == 0;
    const char *mod = rhs->kind == AST_IDENT ? module_of(p, rhs->name) : NULL;
    if (rebinds || (mod && is_capitalised(rhs->name))) {
        if (!rebinds) {
            /* const KI = KernelInterface, const KA = KernelAbstractions: a module's other name, as `import ... as` */
            vec_push(p, &p->modules, (void *)lhs->name);
            vec_push(p, &p->modules, (void *)mod);
            if (strcmp(mod, "KernelIntrinsics") == 0)
                p->file_flags |= FILE_INTRINSICS;
        }
        Node *blk = node_new(p, AST_BLOCK, kw->loc, 0);
        blk->flags = STRUCT_KWDEF;
        return blk;
    }
    Node *n = node_new(p, AST_CONST, kw->loc, 1);
    n->name = lhs->name;
    n->kids[0] = e->kids[1];
    return n;
}

/* struct := [ "mutable" ] "struct" NAME [ "{" where_item { "," where_item } "}" ] [ "<:" type ]
 *            { field | function | short_def } "end"
 * field := IDENT [ "::" type ] [ "=" expr ]     (a default: Base.@kwdef)
 * abstract := "abstract" "type" NAME [ "{" ... "}" ] [ "<:" type ] "end" */
static Node *parse_struct(Parser *p, Token *start, bool is_mutable, bool is_abstract)
{
    Token *name = parse_peek(p);
    if (name->kind != TK_IDENT)
        parse_fail_at(p, name->loc, "syntax: invalid type name \"%s\"", tok_desc(p, name));
    p->pos++;
    Node *n = node_new(p, AST_STRUCT, start->loc, 4);
    n->name = name->text;
    n->flags = (is_mutable ? STRUCT_MUTABLE : 0) | (is_abstract ? STRUCT_ABSTRACT : 0);
    if (tok_op(parse_peek(p), "{") && !parse_peek(p)->spc) {
        p->pos++;
        PtrVec tps = { 0 };
        ParseMode m = parse_save(p);
        p->in_brackets = true;
        while (!parse_accept(p, "}")) {
            vec_push(p, &tps, parse_where_item(p));
            if (!tok_op(parse_peek(p), "}") && !parse_accept(p, ","))
                parse_fail_at(p, parse_peek(p)->loc, "syntax: missing comma or \"}\" in type parameters");
        }
        parse_restore(p, m);
        n->kids[0] = node_from_vec(p, AST_TUPLE, name->loc, &tps);
    }
    if (parse_accept(p, "<:")) {
        while (parse_peek(p)->kind == TK_NL) /* `<:` ends no expression: the supertype may follow on the next line */
            p->pos++;
        n->kids[1] = parse_postfix(p);
    }
    PtrVec fields = { 0 }, ctors = { 0 };
    if (!is_abstract) {
        for (;;) {
            while (parse_peek(p)->kind == TK_NL || tok_op(parse_peek(p), ";"))
                p->pos++;
            Token *t = parse_peek(p);
            if (tok_kw(t, "end") || t->kind == TK_EOF)
                break;
            Node *item = parse_stmt(p);
            Node *x = item;
            if (x->kind == AST_MACROCALL && x->nkids == 1 && x->kids[0] && x->kids[0]->kind == AST_FUNCTION)
                x = x->kids[0]; /* @inline P(x) = new(x) */
            if (x->kind == AST_FUNCTION) {
                vec_push(p, &ctors, x);
                continue;
            }
            Node *f = x->kind == AST_ASSIGN ? x->kids[0] : x;
            if (!((f->kind == AST_IDENT && !f->qual) ||
                  (f->kind == AST_TYPED && f->kids[0] && f->kids[0]->kind == AST_IDENT)))
                parse_fail_at(p, item->loc,
                              "syntax: expected a field (name or name::Type) or a constructor in struct %s",
                              name->text);
            vec_push(p, &fields, x);
        }
    }
    n->kids[2] = node_from_vec(p, AST_TUPLE, name->loc, &fields);
    n->kids[3] = node_from_vec(p, AST_BLOCK, name->loc, &ctors);
    parse_expect_end(p, is_abstract ? "abstract type" : "struct", start->loc);
    return n;
}

/* return := "return" [ expr ] (no value before a newline, ";", end, or a closing bracket) */
static Node *parse_return(Parser *p)
{
    Token *kw = parse_next(p);
    Node *n = node_new(p, AST_RETURN, kw->loc, 1);
    if (!tok_ends_stmt(parse_peek(p)))
        n->kids[0] = parse_assign(p, true);
    return n;
}

/* Macros whose space-separated form takes exactly one statement. */
static bool macro_takes_stmt(const char *name)
{
    static const char *const names[] = { "inbounds", "inline", "noinline", "atomic",     "fastmath",
                                         "simd",     "views",  "view",     "boundscheck" };
    return IN_LIST(name, names);
}

/* macrocall := "@" NAME "(" args ")"          (no space before "(")
 *            | "@" NAME stmt                   (@inbounds, @inline, @atomic, ...)
 *            | "@" NAME { expr }               (space-separated, to the end of the line)
 * `@inline`/`@noinline` before a definition set FN_INLINE/FN_NOINLINE on the
 * FUNCTION, which is returned instead of a MACROCALL. */
static Node *parse_macro(Parser *p, SrcLoc loc, const char *qual)
{
    Token *t = parse_next(p);
    PtrVec args = { 0 };
    Token *nx = parse_peek(p);
    bool atomic =
        strcmp(t->text, "atomic") == 0 || strcmp(t->text, "atomicswap") == 0 || strcmp(t->text, "atomicreplace") == 0;
    if (atomic && tok_op(nx, ":") && parse_peek2(p)->kind == TK_IDENT && !parse_peek2(p)->spc) {
        /* Atomix's (and Base's) memory order, `@atomic :monotonic A[i] += x`: juke's atomics are at least
         * as strong as every order a kernel may ask for */
        p->pos += 2;
        nx = parse_peek(p);
    }
    if (strcmp(t->text, "NamedTuple") == 0 && tok_op(nx, "{") && !nx->spc) {
        /* @NamedTuple{a::T, b::S}: the type NamedTuple{(:a, :b), Tuple{T, S}}, kept as the curly
         * NamedTuple{a::T, b::S} (infer_type_expr, and #typeapply as a value) */
        p->pos++;
        vec_push(p, &args, node_ident(p, t->loc, "NamedTuple"));
        parse_list(p, &args, "}", "type parameters");
        for (int i = 1; i < args.len; i++) {
            Node *f = args.items[i];
            if (f->kind != AST_TYPED || !f->kids[0] || f->kids[0]->kind != AST_IDENT)
                parse_fail_at(p, f->loc, "syntax: expected name::Type in @NamedTuple{...}");
        }
        return node_from_vec(p, AST_CURLY, loc, &args);
    }
    if (tok_op(nx, "(") && !nx->spc) {
        p->pos++;
        parse_list(p, &args, ")", "macro call");
    } else if (nx->kind == TK_STRING && !nx->spc && nx->start == t->start + t->len) {
        /* NAME"...": the lexer's @NAME_str and its raw string, the one argument */
        p->pos++;
        Node *str = node_new(p, AST_STRING, nx->loc, 0);
        str->name = nx->text;
        vec_push(p, &args, str);
    } else if (tok_ends_stmt(nx)) {
        /* no arguments */
    } else if (macro_takes_stmt(t->text)) {
        if (strcmp(t->text, "simd") == 0 && nx->kind == TK_IDENT && strcmp(nx->text, "ivdep") == 0)
            p->pos++; /* `@simd ivdep for ...`: the option changes nothing here */
        ParseMode m = parse_save(p);
        p->space_sep = false;
        Node *arg = parse_assign(p, true);
        parse_restore(p, m);
        if (arg->kind == AST_FUNCTION && (strcmp(t->text, "inline") == 0 || strcmp(t->text, "noinline") == 0)) {
            arg->flags |= strcmp(t->text, "inline") == 0 ? FN_INLINE : FN_NOINLINE;
            return arg;
        }
        vec_push(p, &args, arg);
    } else {
        ParseMode m = parse_save(p);
        p->space_sep = true;
        p->in_brackets = false;
        while (!tok_ends_stmt(parse_peek(p))) {
            Node *arg = parse_assign(p, false);
            if (arg->kind == AST_LAMBDA && arg->kids[0]->nkids == 1 && strcmp(t->text, "dynamic_localmem") == 0) {
                /* KernelAbstractions' `@dynamic_localmem T (n) -> count`: a function of the group size,
                 * kept as the call ->(n, count) for ka.c */
                arg = node_call2(p, arg->loc, "->", arg->kids[0]->kids[0], arg->kids[1]->kids[0]);
            }
            vec_push(p, &args, arg);
        }
        parse_restore(p, m);
    }
    Node *r = node_from_vec(p, AST_MACROCALL, loc, &args);
    r->name = t->text;
    r->qual = qual;
    if (atomic) /* base/atomix.jl: __atomic_ref, which @atomic A[i] *= x uses too */
        p->file_flags |= FILE_ATOMIX;
    for (int i = 0; i < p->user_macros.len; i++)
        if (strcmp(p->user_macros.items[i], t->text) == 0)
            r->flags |= MACRO_USER;
    return r;
}

/* ---- expressions ------------------------------------------------------------ */

/* AMDGPU.jl's `@inline alloc_local(id, T, len, zeroinit=false) = alloc_special(Val{id}(), T,
 * Val{AS.Local}(), Val{len}(), Val{zeroinit}())`: Julia's constant propagation makes len a constant
 * through the inlined call; juke rewrites the call site so that Val sees the caller's constants. */
static Node *alloc_local_call(Parser *p, Node *call)
{
    Node *f = call->kids[0];
    if (f->kind != AST_IDENT || strcmp(f->name, "alloc_local") != 0 || (f->qual && strcmp(f->qual, "AMDGPU") != 0) ||
        call->nkids < 4 || call->nkids > 5)
        return call;
    Node *r = node_new(p, AST_CALL, call->loc, call->nkids + 1);
    r->kids[0] = node_ident(p, f->loc, "alloc_special");
    r->kids[1] = node_call1(p, call->kids[1]->loc, "Val", call->kids[1]);
    r->kids[2] = call->kids[2];
    r->kids[3] = node_call1(p, f->loc, "Val", node_ident(p, f->loc, "AS_Local"));
    for (int i = 3; i < call->nkids; i++)
        r->kids[i + 1] = node_call1(p, call->kids[i]->loc, "Val", call->kids[i]);
    return r;
}

/* getfield(x, :a) and getproperty(x, :a) with a literal symbol: x.a (Ether.jl's device code reads named
 * tuples so); other calls as they are. */
static Node *field_call(Parser *p, Node *call)
{
    Node *f = call->kids[0];
    if (f->kind != AST_IDENT || call->nkids != 3 || call->kids[2]->kind != AST_SYMBOL ||
        (strcmp(f->name, "getfield") != 0 && strcmp(f->name, "getproperty") != 0) ||
        (f->qual && strcmp(f->qual, "Base") != 0 && strcmp(f->qual, "Core") != 0))
        return call;
    Node *d = node_new(p, AST_DOT, call->loc, 1);
    d->kids[0] = call->kids[1];
    d->name = call->kids[2]->name;
    return d;
}

/* The module a name in `M.x` stands for: itself for the modules juke knows and those the file's
 * using/import lines name, the renamed module for an alias (`import A.B as C`: C is B); NULL if none. */
static const char *module_of(const Parser *p, const char *s)
{
    static const char *const known[] = {
        "AMDGPU", "Base",         "Core",  "SpecialFunctions", "Random", "KernelAbstractions", "KernelIntrinsics",
        "Atomix", "StaticArrays", "Adapt", "CUDAnative",       "CUDA",   "Statistics"
    };
    if (strcmp(s, "WMMA") == 0 || strcmp(s, "WMMA_RDNA3") == 0) /* AMDGPU.Device's (base/wmma.jl) */
        return s;
    for (int i = p->modules.len - 2; i >= 0; i -= 2)
        if (strcmp(p->modules.items[i], s) == 0)
            return p->modules.items[i + 1];
    for (int i = 0; i < JK_ARRAY_LEN(known); i++)
        if (strcmp(s, known[i]) == 0)
            return known[i];
    if (strcmp(s, "KernelInterface") == 0)
        return "KernelIntrinsics";
    if (strcmp(s, "AMDGPUnative") == 0) /* AMDGPU.jl's device half under its name before 2020 */
        return "AMDGPU";
    return NULL;
}

/* WMMA.x (AMDGPU.Device.WMMA, WMMA_RDNA3) as base/wmma.jl names it: wmma_x, WMMA_x for a capitalised x
 * (WMMA.M, WMMA.ColMajor), AMDGPU.jl's flat names where it has them; the file loads base/wmma.jl. */
static const char *wmma_name(Parser *p, const char *x)
{
    size_t n = strlen(x);
    char *s = arena_alloc(p->a, n + 6);
    if (!s)
        return x;
    memcpy(s, *x >= 'A' && *x <= 'Z' ? "WMMA_" : "wmma_", 5);
    memcpy(s + 5, x, n + 1);
    return s;
}

/* The name a `using A: b as c` line renamed to c, or name itself. */
static const char *renamed(const Parser *p, const char *name)
{
    for (int i = p->renames.len - 2; i >= 0; i -= 2)
        if (strcmp(p->renames.items[i], name) == 0)
            return p->renames.items[i + 1];
    return name;
}

/* Base's submodules that kernels name functions through (Base.Checked.checked_add, Base.Math.x). */
static bool is_base_submodule(const Node *e)
{
    static const char *const subs[] = { "Checked", "Math", "FastMath", "Iterators", "MathConstants", "Order", "Sort" };
    if (e->kind != AST_IDENT || !e->qual || strcmp(e->qual, "Base") != 0)
        return false;
    for (int i = 0; i < JK_ARRAY_LEN(subs); i++)
        if (strcmp(e->name, subs[i]) == 0)
            return true;
    return false;
}

static Node *parse_literal(Parser *p, Token *t)
{
    Node *n = node_new(p, t->kind == TK_INT ? AST_INT : AST_FLOAT, t->loc, 0);
    n->lit = t->lit;
    if (t->kind == TK_INT)
        n->uval = t->uval;
    else
        n->fval = t->fval;
    return n;
}

/* 'c', '\n', '\x41', '\u00e9': Char(code point), the prelude's Char (base/prelude.jl). The lexer checked the
 * quotes; an escape juke does not know is an error here. */
static Node *parse_char(Parser *p, Token *t)
{
    const char *s = t->text + 1, *e = t->text + strlen(t->text) - 1;
    uint32_t cp = 0;
    if (*s != '\\') {
        if (lex_utf8_decode(s, (size_t)(e - s), &cp) != (int)(e - s))
            parse_fail_at(p, t->loc, "syntax: invalid character literal");
    } else if ((s[1] == 'x' || s[1] == 'u' || s[1] == 'U') && s + 2 < e) {
        for (const char *h = s + 2; h < e; h++) {
            int d = *h >= '0' && *h <= '9'   ? *h - '0'
                    : *h >= 'a' && *h <= 'f' ? *h - 'a' + 10
                    : *h >= 'A' && *h <= 'F' ? *h - 'A' + 10
                                             : -1;
            if (d < 0 || cp > 0x10FFFF / 16)
                parse_fail_at(p, t->loc, "syntax: invalid escape in character literal %s", t->text);
            cp = cp * 16 + (uint32_t)d;
        }
    } else if (s + 2 == e) {
        switch (s[1]) {
        case 'n': cp = '\n'; break;
        case 't': cp = '\t'; break;
        case 'r': cp = '\r'; break;
        case '0': cp = 0; break;
        case 'a': cp = '\a'; break;
        case 'b': cp = '\b'; break;
        case 'f': cp = '\f'; break;
        case 'v': cp = '\v'; break;
        case 'e': cp = 033; break;
        case '\\':
        case '\'':
        case '"':
        case '$': cp = (unsigned char)s[1]; break;
        default: parse_fail_at(p, t->loc, "syntax: invalid escape in character literal %s", t->text);
        }
    } else {
        parse_fail_at(p, t->loc, "syntax: invalid escape in character literal %s", t->text);
    }
    Node *n = node_new(p, AST_INT, t->loc, 0);
    n->lit = LIT_UINT32;
    n->uval = cp;
    return node_call1(p, t->loc, "Char", n);
}

/* Did a newline follow the expression just parsed? Inside brackets parse_peek skips newlines, so one may lie
 * just before the current token, or be the current token itself. */
static bool parse_at_newline(Parser *p)
{
    return p->toks[p->pos].kind == TK_NL || (p->pos > 0 && p->toks[p->pos - 1].kind == TK_NL);
}

/* A matrix literal's row of n elements ends: its length joins hvcat's tuple of them. */
static void matrix_row_end(Parser *p, PtrVec *rowlens, SrcLoc loc, int n, bool *one_per_row)
{
    Node *len = node_new(p, AST_INT, loc, 0);
    len->lit = LIT_INT64;
    len->ival = n;
    vec_push(p, rowlens, len);
    *one_per_row = *one_per_row && n == 1;
}

/* matrix := "[" row { (";" | newline) row } "]",  row := expr { expr }  (space-separated, after the first
 * element, which the caller parsed into elems; nl: a newline followed it). One row is hcat(elems...), rows of
 * one element vcat(elems...), else hvcat((n1, n2, ...), elems...) as Julia lowers them; the space-separated
 * mode (p->space_sep) is on. */
static Node *parse_matrix(Parser *p, Token *open, PtrVec *elems, bool nl)
{
    PtrVec rowlens = { 0 };
    int inrow = 1;
    bool one_per_row = true;
    for (;;) {
        Token *c = parse_peek(p);
        if (tok_op(c, "]"))
            break;
        bool row_end = nl || tok_op(c, ";");
        while (parse_accept(p, ";"))
            ;
        if (tok_op(c, ",") || tok_is(c, TK_KEYWORD, "for"))
            parse_fail_at(p, open->loc,
                          tok_op(c, ",") ? "syntax: unexpected comma in matrix expression"
                                         : "syntax: comprehensions [f(x) for x in xs] are not supported in kernels");
        if (c->kind == TK_EOF)
            parse_unexpected(p, c);
        if (tok_op(parse_peek(p), "]"))
            break;
        if (row_end) {
            matrix_row_end(p, &rowlens, open->loc, inrow, &one_per_row);
            inrow = 0;
        }
        vec_push(p, elems, parse_assign(p, false));
        inrow++;
        nl = parse_at_newline(p);
    }
    p->pos++;
    matrix_row_end(p, &rowlens, open->loc, inrow, &one_per_row);
    const char *f = rowlens.len == 1 ? "hcat" : one_per_row ? "vcat" : "hvcat";
    PtrVec args = { 0 };
    vec_push(p, &args, node_ident(p, open->loc, f));
    if (f[0] == 'h' && f[1] == 'v')
        vec_push(p, &args, node_from_vec(p, AST_TUPLE, open->loc, &rowlens));
    for (int i = 0; i < elems->len; i++)
        vec_push(p, &args, elems->items[i]);
    return node_from_vec(p, AST_CALL, open->loc, &args);
}

/* Keyword constructs that may appear where a value is expected. They are
 * blocks: newlines inside are significant even within brackets. */
static Node *parse_keyword(Parser *p, Token *t)
{
    const char *k = t->text;
    if (strcmp(k, "true") == 0 || strcmp(k, "false") == 0) {
        p->pos++;
        Node *n = node_new(p, AST_BOOL, t->loc, 0);
        n->ival = k[0] == 't';
        return n;
    }
    if (p->in_index && (strcmp(k, "end") == 0 || strcmp(k, "begin") == 0)) {
        p->pos++;
        return node_ident(p, t->loc, k);
    }
    /* `in` and `isa` are infix operators, not reserved words: where a value is expected they are names,
     * of the functions or of a variable (a kernel's parameter `in`, as Julia allows) */
    if (strcmp(k, "in") == 0 || strcmp(k, "isa") == 0) {
        p->pos++;
        return node_ident(p, t->loc, k);
    }
    ParseMode m = parse_save(p);
    p->in_brackets = p->no_range = p->space_sep = p->in_index = false;
    Node *n = NULL;
    if (strcmp(k, "function") == 0)
        n = parse_function(p);
    else if (strcmp(k, "if") == 0)
        n = parse_if(p);
    else if (strcmp(k, "while") == 0)
        n = parse_while(p);
    else if (strcmp(k, "for") == 0)
        n = parse_for(p);
    else if (strcmp(k, "begin") == 0) {
        p->pos++;
        n = parse_block(p);
        n->loc = t->loc;
        parse_expect_end(p, "begin", t->loc);
    } else if (strcmp(k, "quote") == 0) {
        /* quote ... end: the macro call "quote" of the block; only a top-level @generated function's
           generator may return one (ka.c) */
        p->pos++;
        Node *b = parse_block(p);
        parse_expect_end(p, "quote", t->loc);
        n = node_new(p, AST_MACROCALL, t->loc, 1);
        n->name = "quote";
        n->kids[0] = b;
    } else if (strcmp(k, "return") == 0)
        n = parse_return(p);
    else if (strcmp(k, "break") == 0 || strcmp(k, "continue") == 0) {
        p->pos++;
        n = node_new(p, k[0] == 'b' ? AST_BREAK : AST_CONTINUE, t->loc, 0);
    } else if (strcmp(k, "local") == 0)
        n = parse_local(p);
    else if (strcmp(k, "const") == 0)
        n = parse_const(p);
    else if (strcmp(k, "struct") == 0) {
        p->pos++;
        n = parse_struct(p, t, false, false);
    } else if (strcmp(k, "let") == 0) {
        n = parse_let(p);
    } else if (strcmp(k, "global") == 0 || strcmp(k, "try") == 0 || strcmp(k, "module") == 0 ||
               strcmp(k, "baremodule") == 0 || strcmp(k, "macro") == 0 || strcmp(k, "using") == 0 ||
               strcmp(k, "import") == 0 || strcmp(k, "export") == 0 || strcmp(k, "do") == 0)
        parse_fail_at(p, t->loc, "syntax: \"%s\" is not supported in kernels", k);
    else
        parse_unexpected(p, t);
    parse_restore(p, m);
    return n;
}

/* primary := number | string | IDENT | true | false | nothing | keyword construct
 *          | "(" ")" | "(" expr ")" | "(" expr "," [ expr { "," expr } ] ")"
 *          | "::" type | macrocall | ":" (as an index) | operator (as a value) */
static Node *parse_primary(Parser *p)
{
    Token *t = parse_peek(p);
    if (tok_op(t, "$") && !parse_peek2(p)->spc && (parse_peek2(p)->kind == TK_IDENT || tok_op(parse_peek2(p), "("))) {
        /* $x, $(expr): Julia's interpolation, the macro call "$" here; only a `@kernel generated = true`
         * body gives it a meaning (ka.c) */
        p->pos++;
        parse_enter(p, t->loc);
        Node *x = parse_primary(p);
        p->depth--;
        Node *n = node_new(p, AST_MACROCALL, t->loc, 1);
        n->name = "$";
        n->kids[0] = x;
        return n;
    }
    switch (t->kind) {
    case TK_INT:
    case TK_FLOAT: p->pos++; return parse_literal(p, t);
    case TK_CHAR: p->pos++; return parse_char(p, t);
    case TK_STRING: {
        p->pos++;
        Node *n = node_new(p, AST_STRING, t->loc, 0);
        n->name = t->text;
        return n;
    }
    case TK_IDENT:
        p->pos++;
        if (strcmp(t->text, "mutable") == 0 && tok_kw(parse_peek(p), "struct")) {
            p->pos++;
            parse_enter(p, t->loc);
            ParseMode m = parse_save(p);
            p->in_brackets = p->no_range = p->space_sep = p->in_index = false;
            Node *n = parse_struct(p, t, true, false);
            parse_restore(p, m);
            p->depth--;
            return n;
        }
        if (strcmp(t->text, "abstract") == 0 && parse_peek(p)->kind == TK_IDENT &&
            strcmp(parse_peek(p)->text, "type") == 0) {
            p->pos++;
            parse_enter(p, t->loc);
            ParseMode m = parse_save(p);
            p->in_brackets = p->no_range = p->space_sep = p->in_index = false;
            Node *n = parse_struct(p, t, false, true);
            parse_restore(p, m);
            p->depth--;
            return n;
        }
        if (strcmp(t->text, "nothing") == 0)
            return node_new(p, AST_NOTHING, t->loc, 0);
        return node_ident(p, t->loc, renamed(p, t->text));
    case TK_KEYWORD: {
        parse_enter(p, t->loc);
        Node *n = parse_keyword(p, t);
        p->depth--;
        return n;
    }
    case TK_MACRO: {
        parse_enter(p, t->loc);
        Node *n = parse_macro(p, t->loc, NULL);
        p->depth--;
        return n;
    }
    case TK_OP: break;
    default: parse_unexpected(p, t);
    }
    Token *nx = parse_peek2(p);
    if (tok_op(t, "(")) {
        parse_enter(p, t->loc);
        p->pos++;
        ParseMode m = parse_save(p);
        p->in_brackets = true;
        p->no_range = p->space_sep = false;
        Node *n;
        if (parse_accept(p, ")")) {
            n = node_new(p, AST_TUPLE, t->loc, 0);
        } else if (tok_op(parse_peek(p), ";")) {
            /* (; a, b = 2): a NamedTuple, a the shorthand of a = a */
            Node *kw = parse_parameters(p);
            if (!parse_accept(p, ")"))
                parse_fail_at(p, parse_peek(p)->loc, "syntax: missing comma or \")\" in tuple");
            n = node_new(p, AST_TUPLE, t->loc, kw->nkids);
            for (int i = 0; i < kw->nkids; i++) {
                Node *k = kw->kids[i];
                if (k->kind == AST_IDENT || (k->kind == AST_DOT && k->nkids == 1)) {
                    Node *as = node_new(p, AST_ASSIGN, k->loc, 2);
                    as->kids[0] = node_ident(p, k->loc, k->kind == AST_IDENT ? k->name : k->name);
                    as->kids[1] = k;
                    k = as;
                }
                if (k->kind != AST_ASSIGN || k->kids[0]->kind != AST_IDENT)
                    parse_fail_at(p, k->loc, "syntax: invalid named tuple element \"%s\"", node_text(p, k));
                n->kids[i] = k;
            }
        } else {
            Node *e = parse_assign(p, false);
            Token *c = parse_peek(p);
            bool splat = tok_op(c, "...");
            if (splat) { /* (t...) is the tuple of t's elements, as (t...,) */
                PtrVec one = { 0 };
                vec_push(p, &one, e);
                parse_splat_last(p, &one, c);
                e = one.items[0];
                c = parse_peek(p);
            }
            if (tok_op(c, ")") && splat) {
                p->pos++;
                n = node_new(p, AST_TUPLE, t->loc, 1);
                n->kids[0] = e;
            } else if (tok_op(c, ")")) {
                p->pos++;
                n = e;
            } else if (tok_op(c, ",")) {
                PtrVec elems = { 0 };
                vec_push(p, &elems, e);
                p->pos++;
                parse_list(p, &elems, ")", "tuple");
                n = node_from_vec(p, AST_TUPLE, t->loc, &elems);
            } else if (tok_op(c, ";")) {
                /* (a; b; c): a block, its value the last expression's */
                PtrVec stmts = { 0 };
                vec_push(p, &stmts, e);
                while (parse_accept(p, ";"))
                    if (!tok_op(parse_peek(p), ")"))
                        vec_push(p, &stmts, parse_assign(p, false));
                if (!parse_accept(p, ")"))
                    parse_fail_at(p, parse_peek(p)->loc, "syntax: missing \";\" or \")\" in a parenthesized block");
                n = node_from_vec(p, AST_BLOCK, t->loc, &stmts);
            } else {
                if (c->kind == TK_EOF)
                    parse_unexpected(p, c);
                parse_fail_at(p, c->loc, "syntax: missing comma or \")\" in tuple");
            }
        }
        parse_restore(p, m);
        p->depth--;
        return n;
    }
    if (tok_op(t, "::")) {
        p->pos++;
        Node *n = node_new(p, AST_TYPED, t->loc, 2);
        n->kids[1] = parse_postfix(p);
        return n;
    }
    if (tok_op(t, "[")) {
        /* [a, b, ...]: a Vector literal; [a b; c d], [a b], [a; b] (rows by `;` or a newline, elements by
         * spaces, as in Julia: [1 -1] is two elements): hvcat((2, 2), a, b, c, d), hcat(a, b), vcat(a, b) */
        p->pos++;
        PtrVec elems = { 0 };
        if (!tok_op(parse_peek(p), "]")) {
            ParseMode m = parse_save(p);
            p->in_brackets = true;
            p->space_sep = true;
            p->no_range = false;
            vec_push(p, &elems, parse_assign(p, false));
            bool nl = parse_at_newline(p);
            Token *c = parse_peek(p);
            if (!tok_op(c, ",") && !tok_op(c, "]")) {
                Node *n = parse_matrix(p, t, &elems, nl);
                parse_restore(p, m);
                return n;
            }
            parse_restore(p, m);
            if (tok_op(c, ","))
                p->pos++;
        }
        parse_list(p, &elems, "]", "vector");
        return node_from_vec(p, AST_VECT, t->loc, &elems);
    }
    if (tok_op(t, ":") && tok_op(nx, "(") && !nx->spc) {
        /* :(expr), :(a; b): a quoted expression, the macro call "quote" of a block as `quote ... end` is;
         * generators and user macros (ka.c, macroexp.c) give it a meaning */
        p->pos++;
        Node *e = parse_primary(p);
        Node *b = e;
        if (e->kind != AST_BLOCK) {
            b = node_new(p, AST_BLOCK, e->loc, 1);
            b->kids[0] = e;
        }
        Node *n = node_new(p, AST_MACROCALL, t->loc, 1);
        n->name = "quote";
        n->kids[0] = b;
        return n;
    }
    if (tok_op(t, ":") && (nx->kind == TK_IDENT || nx->kind == TK_KEYWORD) && !nx->spc) {
        /* :name, a Symbol */
        p->pos += 2;
        Node *n = node_new(p, AST_SYMBOL, t->loc, 0);
        n->name = nx->text;
        return n;
    }
    /* an operator as a value: reduce(+, x), A[:, 1] */
    if (!tok_op(t, "(") && !tok_op(t, "[") && !tok_op(t, "{") && !tok_op(t, ",") && !tok_op(t, ";") &&
        !tok_op(t, ")") && !tok_op(t, "]") && !tok_op(t, "}") && !tok_op(t, "=") && !tok_op(t, ".") &&
        (tok_op(nx, ",") || tok_op(nx, ")") || tok_op(nx, "]"))) {
        p->pos++;
        return node_ident(p, t->loc, cmp_name(t->text));
    }
    /* a binary operator called by name, *(a, b), or defined: *(s::Number, v::P) = ... */
    if (tok_op(nx, "(") && !nx->spc && is_operator_name(t->text)) {
        p->pos++;
        return node_ident(p, t->loc, cmp_name(t->text));
    }
    parse_unexpected(p, t);
}

/* postfix := primary { "(" args ")" | "[" indices "]" | "{" params "}" | "." IDENT | "." macrocall }
 * A numeric literal takes no postfix (2(x) is juxtaposition, handled by the caller).
 * AMDGPU.x, Base.x, Core.x fold to IDENT x with .qual. */
/* do := call "do" [ param { "," param } ] block "end"   (the block is the call's first argument, a function of
 * the parameters) */
static Node *parse_do(Parser *p, Node *call)
{
    Token *kw = parse_next(p);
    ParseMode m = parse_save(p);
    p->in_brackets = p->no_range = p->space_sep = p->in_index = false;
    parse_enter(p, kw->loc);
    PtrVec params = { 0 };
    while (parse_peek(p)->kind != TK_NL && !tok_op(parse_peek(p), ";") && parse_peek(p)->kind != TK_EOF) {
        vec_push(p, &params, parse_ternary(p));
        if (!parse_accept(p, ","))
            break;
    }
    Node *ptuple = node_from_vec(p, AST_TUPLE, kw->loc, &params);
    Node *body = parse_block(p);
    parse_expect_end(p, "do", kw->loc);
    p->depth--;
    parse_restore(p, m);
    Node *fn = parse_make_lambda(p, kw->loc, ptuple, body, NULL);
    Node *c = node_new(p, AST_CALL, call->loc, call->nkids + 1);
    c->kids[0] = call->kids[0];
    c->kids[1] = fn;
    for (int i = 1; i < call->nkids; i++)
        c->kids[i + 1] = call->kids[i];
    return c;
}

static Node *parse_postfix(Parser *p)
{
    Token *first = parse_peek(p);
    SrcLoc start = first->loc;
    Node *e = parse_primary(p);
    if (first->kind == TK_INT || first->kind == TK_FLOAT)
        return e;
    for (;;) {
        Token *t = parse_peek(p);
        if (t->kind != TK_OP)
            break;
        if (p->space_sep && t->spc && (tok_op(t, "(") || tok_op(t, "[") || tok_op(t, "{")))
            break;
        if (tok_op(t, "(")) {
            p->pos++;
            PtrVec args = { 0 };
            vec_push(p, &args, e);
            parse_list(p, &args, ")", "argument list");
            e = field_call(p, alloc_local_call(p, node_from_vec(p, AST_CALL, start, &args)));
            if (tok_kw(parse_peek(p), "do"))
                e = parse_do(p, e);
        } else if (tok_op(t, "[")) {
            p->pos++;
            PtrVec args = { 0 };
            vec_push(p, &args, e);
            bool saved = p->in_index;
            p->in_index = true;
            parse_list(p, &args, "]", "index");
            p->in_index = saved;
            e = node_from_vec(p, AST_REF, start, &args);
        } else if (tok_op(t, "{")) {
            p->pos++;
            PtrVec args = { 0 };
            vec_push(p, &args, e);
            parse_list(p, &args, "}", "type parameters");
            e = node_from_vec(p, AST_CURLY, start, &args);
        } else if (tok_op(t, ".")) {
            Token *f = parse_peek2(p);
            int nq = 0;
            if (f->kind == TK_IDENT && !f->spc) {
                p->pos += 1;
                parse_next(p);
                /* AMDGPU.Device.x and Device.x name what AMDGPU.x names; so do (AMDGPU.)UnsafeAtomics.x */
                bool device = e->kind == AST_IDENT &&
                              (strcmp(e->name, "Device") == 0 || strcmp(e->name, "UnsafeAtomics") == 0) &&
                              (!e->qual || strcmp(e->qual, "AMDGPU") == 0);
                const char *mod = e->kind == AST_IDENT ? module_of(p, e->name) : NULL;
                if (!mod && e->kind == AST_IDENT && e->qual && strcmp(e->qual, "KernelAbstractions") == 0 &&
                    strcmp(e->name, "KI") == 0) /* KernelAbstractions.KI is KernelInterface */
                    mod = "KernelIntrinsics";
                if (mod && (strcmp(mod, "WMMA") == 0 || strcmp(mod, "WMMA_RDNA3") == 0)) {
                    e = node_ident(p, start, wmma_name(p, f->text));
                } else if (e->kind == AST_IDENT && (mod || device || is_base_submodule(e))) {
                    Node *q = node_ident(p, start, f->text);
                    q->qual = device ? "AMDGPU" : is_base_submodule(e) ? "Base" : mod;
                    if (q->qual && strcmp(q->qual, "KernelIntrinsics") == 0) {
                        p->file_flags |= FILE_INTRINSICS;
                        /* KI.shfl reads a 1-based lane, AMDGPU's shfl a 0-based one (base/intrinsics.jl) */
                        if (strcmp(q->name, "shfl") == 0)
                            q->name = "__ki_shfl";
                    }
                    e = q;
                } else {
                    Node *d = node_new(p, AST_DOT, start, 1);
                    d->kids[0] = e;
                    d->name = f->text;
                    e = d;
                }
            } else if (tok_op(f, ":") && !f->spc && e->kind == AST_IDENT &&
                       parse_quoted_operator(p, (int)(f - p->toks), &nq)) {
                /* M.:op, M.:(op): the operator op of module M (Base.:* in a method definition) */
                Token *op = parse_quoted_operator(p, (int)(f - p->toks), &nq);
                p->pos = (int)(f - p->toks) + nq;
                const char *mod = module_of(p, e->name);
                if (mod) {
                    e = node_ident(p, start, op->text);
                    e->qual = mod;
                } else {
                    Node *d = node_new(p, AST_DOT, start, 1);
                    d->kids[0] = e;
                    d->name = op->text;
                    e = d;
                }
            } else if (f->kind == TK_MACRO && (e->kind == AST_IDENT || e->kind == AST_DOT)) {
                /* M.@m for any module M (KernelAbstractions.@kernel, KA.@kernel after `import ... as KA`,
                   Atomix.@atomic): x.@m means nothing else; the innermost module qualifies the macro */
                p->pos++;
                parse_peek(p);
                parse_enter(p, start);
                e = parse_macro(p, start, e->name);
                p->depth--;
            } else if (tok_op(f, "(")) {
                /* f.(x, y): broadcast(f, x, y) */
                p->pos += 2;
                PtrVec args = { 0 };
                vec_push(p, &args, node_ident(p, t->loc, "broadcast"));
                vec_push(p, &args, e);
                parse_list(p, &args, ")", "argument list");
                e = node_from_vec(p, AST_CALL, start, &args);
            } else {
                p->pos++;
                parse_unexpected(p, parse_peek(p));
            }
        } else if (tok_op(t, "'")) {
            parse_fail_at(p, t->loc, "syntax: the adjoint operator \"'\" is not supported in kernels");
        } else {
            break;
        }
    }
    return e;
}

/* decl := postfix { "::" postfix } */
static Node *parse_decl(Parser *p)
{
    SrcLoc start = parse_peek(p)->loc;
    Node *e = parse_postfix(p);
    while (tok_op(parse_peek(p), "::")) {
        p->pos++;
        Node *n = node_new(p, AST_TYPED, start, 2);
        n->kids[0] = e;
        n->kids[1] = parse_postfix(p);
        e = n;
    }
    return e;
}

/* power := decl [ juxtaposed ] [ "^" unary ]
 * juxtaposed := (IDENT | "(") power, directly after a numeric literal: 3n, 2(x+1), 2x^2 = 2*(x^2) */
static Node *parse_power(Parser *p)
{
    Token *first = parse_peek(p);
    Node *e = parse_decl(p);
    if (first->kind == TK_INT || first->kind == TK_FLOAT) {
        Token *t = parse_peek(p);
        if (!t->spc && (t->kind == TK_IDENT || tok_op(t, "("))) {
            parse_enter(p, t->loc);
            Node *rhs = parse_power(p);
            p->depth--;
            return node_call2(p, first->loc, "*", e, rhs);
        }
    }
    Token *t = parse_peek(p);
    if ((tok_op(t, "^") || tok_op(t, ".^")) && !(p->space_sep && t->spc && !parse_peek2(p)->spc)) {
        p->pos++;
        parse_skip_newlines(p);
        parse_enter(p, t->loc);
        Node *x = parse_unary(p);
        p->depth--;
        return node_binop(p, t->loc, t->text, e, x);
    }
    return e;
}

/* unary := ( "-" | "+" | "!" | "~" ) unary | power
 * A minus directly before a signed or float literal folds into it (-1 is the
 * literal -1, -2x is (-2)*x), but -2^2 stays -(2^2). */
static Node *parse_unary(Parser *p)
{
    Token *t = parse_peek(p);
    if (!(tok_op(t, "-") || tok_op(t, "+") || tok_op(t, "!") || tok_op(t, "~")))
        return parse_power(p);
    Token *nx = parse_peek2(p);
    if (tok_op(nx, ",") || tok_op(nx, ")") || tok_op(nx, "]") || tok_op(nx, ";") || nx->kind == TK_EOF ||
        nx->kind == TK_NL) {
        p->pos++;
        return node_ident(p, t->loc, t->text); /* the operator as a value */
    }
    p->pos++;
    parse_enter(p, t->loc);
    Node *x = parse_unary(p);
    p->depth--;
    bool sign = t->text[0] == '-' || t->text[0] == '+';
    if (sign && (nx->kind == TK_INT || nx->kind == TK_FLOAT) && (nx->kind == TK_FLOAT || nx->lit == LIT_INT64)) {
        Node *lit = NULL;
        if ((x->kind == AST_INT || x->kind == AST_FLOAT) && x->loc.line == nx->loc.line && x->loc.col == nx->loc.col)
            lit = x;
        else if (x->kind == AST_CALL && x->nkids == 3 && strcmp(x->kids[0]->name, "*") == 0 &&
                 x->loc.line == nx->loc.line && x->loc.col == nx->loc.col && x->kids[1]->loc.col == nx->loc.col)
            lit = x->kids[1];
        if (lit) {
            if (t->text[0] == '-') {
                if (lit->kind == AST_INT)
                    lit->ival = -lit->ival;
                else
                    lit->fval = -lit->fval;
            }
            lit->loc = t->loc;
            x->loc = t->loc;
            if (x != lit)
                x->kids[0]->loc = t->loc;
            return x;
        }
    }
    /* -(a, b) is the call -(a, b) */
    if (x->kind == AST_TUPLE && tok_op(nx, "(") && !nx->spc && x->loc.col == nx->loc.col &&
        x->loc.line == nx->loc.line) {
        Node *c = node_new(p, AST_CALL, t->loc, x->nkids + 1);
        c->kids[0] = node_ident(p, t->loc, t->text);
        for (int i = 0; i < x->nkids; i++)
            c->kids[i + 1] = x->kids[i];
        return c;
    }
    return node_call1(p, t->loc, t->text, x);
}

/* Binary levels below unary (lowest first), see the table at the top. */
enum { LV_OR, LV_AND, LV_CMP, LV_RANGE, LV_SUM, LV_TIMES, LV_SHIFT, LV_UNARY };

static Node *parse_level(Parser *p, int lv)
{
    if (lv == LV_UNARY)
        return parse_unary(p);
    SrcLoc start = parse_peek(p)->loc;
    Node *lhs = parse_level(p, lv + 1);
    switch (lv) {
    case LV_OR:
    case LV_AND: {
        /* right associative: collect the operands, fold from the right */
        const char *op = lv == LV_OR ? "||" : "&&";
        if (!tok_op(parse_peek(p), op))
            return lhs;
        PtrVec ops = { 0 }, locs = { 0 };
        vec_push(p, &ops, lhs);
        while (tok_op(parse_peek(p), op)) {
            p->pos++;
            parse_skip_newlines(p);
            SrcLoc *l = arena_alloc(p->a, sizeof(SrcLoc));
            if (!l)
                parse_oom(p);
            *l = parse_peek(p)->loc;
            vec_push(p, &locs, l);
            vec_push(p, &ops, parse_level(p, lv + 1));
        }
        Node *r = ops.items[ops.len - 1];
        for (int i = ops.len - 2; i >= 0; i--) {
            SrcLoc loc = i == 0 ? start : *(SrcLoc *)locs.items[i - 1];
            Node *n = node_new(p, lv == LV_OR ? AST_OR : AST_AND, loc, 2);
            n->kids[0] = ops.items[i];
            n->kids[1] = r;
            r = n;
        }
        return r;
    }
    case LV_CMP: {
        if (!tok_is_cmp(parse_peek(p)) || (p->space_sep && parse_peek(p)->spc && !parse_peek2(p)->spc))
            return lhs;
        if (parse_peek(p)->kind == TK_OP && parse_peek(p)->text[0] == '.') {
            /* a .< b: broadcast(<, a, b); a chain of them compares each result with the next operand */
            while (tok_is_cmp(parse_peek(p)) && !(p->space_sep && parse_peek(p)->spc && !parse_peek2(p)->spc)) {
                Token *t = parse_next(p);
                parse_skip_newlines(p);
                Node *rhs = parse_level(p, lv + 1);
                lhs = t->text[0] == '.' ? node_broadcast2(p, t->loc, cmp_name(t->text + 1), lhs, rhs)
                                        : node_call2(p, t->loc, cmp_name(t->text), lhs, rhs);
            }
            return lhs;
        }
        PtrVec kids = { 0 }, ops = { 0 };
        SrcLoc oploc = parse_peek(p)->loc;
        vec_push(p, &kids, lhs);
        bool dotted = false;
        while (tok_is_cmp(parse_peek(p)) && !(p->space_sep && parse_peek(p)->spc && !parse_peek2(p)->spc)) {
            Token *t = parse_next(p);
            parse_skip_newlines(p);
            bool dot = t->kind == TK_OP && t->text[0] == '.';
            dotted = dotted || dot;
            vec_push(p, &ops, (void *)cmp_name(dot ? t->text + 1 : t->text));
            vec_push(p, &kids, parse_level(p, lv + 1));
        }
        if (ops.len == 1 && dotted)
            return node_broadcast(p, oploc, ops.items[0], kids.items[0], kids.items[1]);
        if (dotted)
            parse_fail_at(p, oploc, "syntax: chained broadcasting comparisons are not supported in kernels");
        if (ops.len == 1)
            return node_call2(p, oploc, ops.items[0], kids.items[0], kids.items[1]);
        Node *n = node_from_vec(p, AST_COMPARISON, start, &kids);
        n->ops = arena_alloc(p->a, sizeof(char *) * (size_t)ops.len);
        if (!n->ops)
            parse_oom(p);
        for (int i = 0; i < ops.len; i++)
            n->ops[i] = ops.items[i];
        return n;
    }
    case LV_RANGE: {
        Token *t = parse_peek(p);
        if (p->no_range || !tok_op(t, ":") || (p->space_sep && t->spc && !parse_peek2(p)->spc))
            return lhs;
        p->pos++;
        parse_skip_newlines(p);
        Node *b = parse_level(p, lv + 1);
        if (!tok_op(parse_peek(p), ":") || (p->space_sep && parse_peek(p)->spc && !parse_peek2(p)->spc))
            return node_call2(p, t->loc, ":", lhs, b);
        p->pos++;
        parse_skip_newlines(p);
        Node *c = parse_level(p, lv + 1);
        Node *n = node_new(p, AST_CALL, t->loc, 4);
        n->kids[0] = node_ident(p, t->loc, ":");
        n->kids[1] = lhs;
        n->kids[2] = b;
        n->kids[3] = c;
        return n;
    }
    default: {
        const char *const *list = lv == LV_SUM ? op_sum : lv == LV_TIMES ? op_times : op_shift;
        int n = lv == LV_SUM ? JK_ARRAY_LEN(op_sum) : lv == LV_TIMES ? JK_ARRAY_LEN(op_times) : JK_ARRAY_LEN(op_shift);
        while (parse_at_binop(p, list, n)) {
            Token *t = parse_next(p);
            parse_skip_newlines(p);
            Node *rhs = parse_level(p, lv + 1);
            lhs = t->text[0] == '.' ? node_broadcast(p, t->loc, t->text + 1, lhs, rhs)
                                    : node_call2(p, t->loc, t->text, lhs, rhs);
        }
        return lhs;
    }
    }
}

/* The rest of pair := ternary [ "=>" pair ] after its left side: a => b is Pair(a, b) (right associative,
 * binding more loosely than ? :, as Julia's). */
static Node *parse_pair_rest(Parser *p, SrcLoc start, Node *lhs)
{
    Token *t = parse_peek(p);
    if (!tok_op(t, "=>") || (p->space_sep && t->spc && !parse_peek2(p)->spc))
        return lhs;
    p->pos++;
    parse_skip_newlines(p);
    parse_enter(p, t->loc);
    Node *rhs = parse_ternary(p);
    p->depth--;
    p->file_flags |= FILE_ATOMIX;
    return node_call2(p, start, "Pair", lhs, rhs);
}

/* ternary := or [ "?" ternary ":" ternary ] [ "=>" ternary ]   (no range `:` in the middle part) */
static Node *parse_ternary(Parser *p)
{
    SrcLoc start = parse_peek(p)->loc;
    Node *c = parse_level(p, LV_OR);
    Token *q = parse_peek(p);
    if (!tok_op(q, "?"))
        return parse_pair_rest(p, start, c);
    p->pos++;
    parse_skip_newlines(p);
    parse_enter(p, q->loc);
    bool saved = p->no_range;
    p->no_range = true;
    Node *a = parse_ternary(p);
    p->no_range = saved;
    Token *colon = parse_peek(p);
    if (!tok_op(colon, ":"))
        parse_fail_at(p, colon->loc, "syntax: colon expected in \"?\" expression");
    p->pos++;
    parse_skip_newlines(p);
    Node *b = parse_ternary(p);
    p->depth--;
    Node *n = node_new(p, AST_TERNARY, start, 3);
    n->kids[0] = c;
    n->kids[1] = a;
    n->kids[2] = b;
    return parse_pair_rest(p, start, n);
}

/* tuple_expr := item { "," item }     (a bare tuple, on either side of =)
 * item := ternary [ "..." ]: a splatted element, as in a parenthesised tuple (GPUArrays'
 * `i, j = @inbounds Tuple(I)..., 1`); a splat needs the comma that makes the tuple. */
static Node *parse_tuple_expr(Parser *p)
{
    SrcLoc start = parse_peek(p)->loc;
    Node *e = parse_ternary(p);
    Token *dots = parse_peek(p);
    bool splat = tok_op(dots, "...");
    if (!tok_op(splat ? parse_peek2(p) : dots, ",")) {
        if (splat)
            parse_unexpected(p, dots);
        return e;
    }
    PtrVec elems = { 0 };
    vec_push(p, &elems, e);
    if (splat)
        parse_splat_last(p, &elems, dots);
    while (parse_accept(p, ",")) {
        parse_skip_newlines(p);
        vec_push(p, &elems, parse_ternary(p));
        if (tok_op(parse_peek(p), "..."))
            parse_splat_last(p, &elems, parse_peek(p));
    }
    return node_from_vec(p, AST_TUPLE, start, &elems);
}

/* arrow := lhs "->" assign   (an anonymous function; lhs is one parameter or a parenthesised tuple of them) */
static Node *parse_arrow(Parser *p, SrcLoc start, Node *lhs)
{
    Token *arrow = parse_next(p);
    parse_skip_newlines(p);
    parse_enter(p, arrow->loc);
    Node *rhs = parse_assign(p, false);
    p->depth--;
    Node *params = lhs;
    if (lhs->kind != AST_TUPLE) {
        params = node_new(p, AST_TUPLE, lhs->loc, 1);
        params->kids[0] = lhs;
    }
    Node *body = node_new(p, AST_BLOCK, rhs->loc, 1);
    body->kids[0] = rhs;
    return parse_make_lambda(p, start, params, body, NULL);
}

/* assign := lhs { where } [ ( "=" | op= | "->" ) assign ]     (right associative)
 * lhs := tuple_expr when allow_tuple, else ternary.
 * f(x) = e and f(x::T) where {T} = e become FUNCTION nodes. */
/* The right side of an assignment whose operator is the token t (= or .=), newlines after it skipped. */
static Node *parse_assign_rhs(Parser *p, Token *t, bool allow_tuple)
{
    p->pos++;
    parse_skip_newlines(p);
    parse_enter(p, t->loc);
    Node *rhs = parse_assign(p, allow_tuple);
    p->depth--;
    return rhs;
}

static Node *parse_assign(Parser *p, bool allow_tuple)
{
    SrcLoc start = parse_peek(p)->loc;
    Node *lhs = allow_tuple ? parse_tuple_expr(p) : parse_ternary(p);
    PtrVec where = { 0 };
    Token *wt = parse_peek(p);
    while (tok_kw(parse_peek(p), "where"))
        parse_where(p, &where);
    Token *t = parse_peek(p);
    if (tok_op(t, "->") && !where.len)
        return parse_arrow(p, start, lhs);
    if (tok_op(t, "=")) {
        Node *rhs = parse_assign_rhs(p, t, allow_tuple);
        Node *f = parse_short_def(p, start, lhs, &where, rhs);
        if (f)
            return f;
        if (where.len)
            parse_fail_at(p, wt->loc, "syntax: \"where\" is only supported in function definitions");
        Node *n = node_new(p, AST_ASSIGN, start, 2);
        n->kids[0] = lhs;
        n->kids[1] = rhs;
        return n;
    }
    if (where.len)
        parse_fail_at(p, wt->loc, "syntax: \"where\" is only supported in function definitions");
    if (tok_op(t, ".=")) {
        /* dest .= src: Base's materialize!(dotview(dest), src) as the prelude's __dotassign!, an indexed
         * destination A[i, :] a view of A (lowered as @view A[i, :], `end` bound to A) */
        Node *rhs = parse_assign_rhs(p, t, allow_tuple);
        Node *dest = lhs;
        if (lhs->kind == AST_REF) {
            dest = node_new(p, AST_MACROCALL, lhs->loc, 1);
            dest->name = "view";
            dest->kids[0] = lhs;
        }
        return node_call2(p, t->loc, "__dotassign!", dest, rhs);
    }
    if (t->kind == TK_OP && IN_LIST(t->text, op_assign)) {
        p->pos++;
        parse_skip_newlines(p);
        parse_enter(p, t->loc);
        Node *rhs = parse_assign(p, allow_tuple);
        p->depth--;
        Node *n = node_new(p, AST_OPASSIGN, start, 2);
        n->name = arena_strndup(p->a, t->text, strlen(t->text) - 1);
        if (!n->name)
            parse_oom(p);
        n->kids[0] = lhs;
        n->kids[1] = rhs;
        return n;
    }
    return lhs;
}

/* stmt := assign (keyword statements are primaries, see parse_keyword) */
static Node *parse_stmt(Parser *p)
{
    return parse_assign(p, true);
}

/* ---- the file --------------------------------------------------------------- */

/* Where parsing resumes after an error: a line starting at column 1 with
 * `function`, `const`, `@inline`, `@noinline` or `name(`. */
static bool parse_resync_point(Parser *p, int i)
{
    Token *t = &p->toks[i];
    if (t->loc.col != 1)
        return false;
    if (tok_kw(t, "function") || tok_kw(t, "const") || tok_kw(t, "struct"))
        return true;
    if (t->kind == TK_IDENT && (strcmp(t->text, "mutable") == 0 || strcmp(t->text, "abstract") == 0))
        return true;
    if (t->kind == TK_MACRO && (strcmp(t->text, "inline") == 0 || strcmp(t->text, "noinline") == 0))
        return true;
    return t->kind == TK_IDENT && tok_op(&p->toks[i + 1], "(") && !p->toks[i + 1].spc;
}

/* file := { NEWLINE | ";" | stmt } EOF */
/* macrodef := "macro" NAME ... "end": juke does not expand user macros, so
 * the definition is skipped (its body may hold anything Julia's quoting
 * allows, `$x` too) and its name recorded: a use gets a clear error
 * (MACRO_USER). */
static void parse_skip_macro(Parser *p, Token *kw)
{
    static const char *const openers[] = { "function", "if",     "for", "while", "begin",      "let",   "quote",
                                           "try",      "struct", "do",  "macro", "baremodule", "module" };
    p->pos++;
    if (p->toks[p->pos].kind == TK_IDENT)
        ptrvec_push(p->a, &p->user_macros, (void *)p->toks[p->pos].text);
    int depth = 1, brackets = 0;
    while (p->toks[p->pos].kind != TK_EOF) {
        Token *t = &p->toks[p->pos++];
        if (tok_op(t, "(") || tok_op(t, "[") || tok_op(t, "{"))
            brackets++;
        else if ((tok_op(t, ")") || tok_op(t, "]") || tok_op(t, "}")) && brackets > 0)
            brackets--;
        else if (t->kind == TK_KEYWORD && !brackets && IN_LIST(t->text, openers))
            depth++;
        else if (tok_kw(t, "end") && !brackets && --depth == 0)
            return;
    }
    diag_error(p->d, p->toks[p->pos].loc, "syntax: incomplete: \"macro\" at %s:%d requires end", kw->loc.file->name,
               kw->loc.line);
}

/* macrodef := "macro" NAME "(" params ")" block "end", kept as a FUNCTION named "@NAME" for macroexp.c,
 * which expands its uses. Parsed quietly: a definition whose body juke cannot parse (it may hold anything
 * Julia's quoting allows) is skipped instead (parse_skip_macro), and false returned. */
static bool parse_macro_def(Parser *p, Token *kw)
{
    int start = p->pos;
    Diags *real = p->d, quiet = { 0 };
    jmp_buf outer;
    memcpy(outer, p->jb, sizeof outer);
    volatile bool ok = false;
    p->d = &quiet;
    if (setjmp(p->jb) == 0) {
        p->pos++;
        Token *name = parse_next(p);
        if (name->kind != TK_IDENT || !tok_op(parse_peek(p), "(") || parse_peek(p)->spc)
            parse_unexpected(p, name);
        p->pos++;
        PtrVec params = { 0 };
        parse_list(p, &params, ")", "argument list");
        Node *body = parse_block(p);
        parse_expect_end(p, "macro", kw->loc);
        Token *t = parse_peek(p);
        if (!(t->kind == TK_NL || t->kind == TK_EOF || tok_op(t, ";")))
            parse_unexpected(p, t);
        Node *f = parse_make_function(p, kw->loc, arena_printf(p->a, "@%s", name->text),
                                      node_from_vec(p, AST_TUPLE, name->loc, &params), body, NULL, NULL);
        if (quiet.nerrors == 0) {
            vec_push(p, &p->items, f);
            ptrvec_push(p->a, &p->user_macros, (void *)name->text);
            ok = true;
        }
    }
    memcpy(p->jb, outer, sizeof outer);
    p->d = real;
    sb_free(&quiet.text);
    if (!ok)
        p->pos = start;
    return ok;
}

/* One name of a using/import line: `A.B.C` (the last part returned, *pos past it), or NULL. */
static const char *import_path(Parser *p, int *pos)
{
    const char *last = NULL;
    while (p->toks[*pos].kind == TK_IDENT) {
        last = p->toks[(*pos)++].text;
        if (!tok_op(&p->toks[*pos], ".") || p->toks[*pos + 1].kind != TK_IDENT)
            break;
        (*pos)++;
    }
    /* KernelInterface (KernelAbstractions' lib/KernelInterface) is KernelIntrinsics under its newer name */
    if (last && strcmp(last, "KernelInterface") == 0)
        return "KernelIntrinsics";
    return last;
}

/* `as c` after a name of a using/import line: c, or NULL. */
static const char *import_as(Parser *p, int *pos)
{
    Token *t = &p->toks[*pos];
    if (t->kind != TK_IDENT || strcmp(t->text, "as") != 0 || p->toks[*pos + 1].kind != TK_IDENT)
        return NULL;
    *pos += 2;
    return p->toks[*pos - 1].text;
}

static bool is_capitalised(const char *s)
{
    return *s >= 'A' && *s <= 'Z';
}

/* import := ("using" | "import") path ["as" name] {"," path ["as" name]}
 *           [":" name ["as" name] {"," name ["as" name]}]
 * Notes the modules a line names, so that M.f is f (`import A.B as C` makes C name B: C.f is B's f),
 * and the renamings of `using A: b as c` (c is b). A module is a capitalised name; a macro in the list
 * (`using KernelAbstractions: @atomic`) is built in already. The caller skips the rest of the line. */
static void parse_import(Parser *p)
{
    int pos = p->pos + 1;
    for (;;) {
        const char *m = import_path(p, &pos);
        if (!m)
            return;
        const char *as = import_as(p, &pos);
        vec_push(p, &p->modules, (void *)(as ? as : m));
        vec_push(p, &p->modules, (void *)m);
        if (!tok_op(&p->toks[pos], ","))
            break;
        pos++;
    }
    if (!tok_op(&p->toks[pos], ":"))
        return;
    pos++;
    bool import = tok_kw(&p->toks[p->pos], "import");
    for (;;) {
        Token *t = &p->toks[pos];
        if (import && t->kind == TK_OP && is_operator_name(t->text)) { /* import Base: * */
            vec_push(p, &p->imports, (void *)t->text);
            pos++;
        } else if (t->kind != TK_IDENT && t->kind != TK_MACRO) {
            return;
        }
        if (t->kind == TK_OP) {
            if (!tok_op(&p->toks[pos], ","))
                return;
            pos++;
            continue;
        }
        pos++;
        const char *as = import_as(p, &pos);
        if (import && t->kind == TK_IDENT && !as)
            vec_push(p, &p->imports, (void *)t->text);
        if (t->kind == TK_IDENT && is_capitalised(t->text)) {
            vec_push(p, &p->modules, (void *)(as ? as : t->text));
            vec_push(p, &p->modules, (void *)t->text);
        } else if (t->kind == TK_IDENT && as) {
            vec_push(p, &p->renames, (void *)as);
            vec_push(p, &p->renames, (void *)t->text);
        }
        if (!tok_op(&p->toks[pos], ","))
            return;
        pos++;
    }
}

Node *parse_file(Arena *a, Diags *d, const SrcFile *file)
{
    /* in the arena rather than on the stack: the state must survive longjmp */
    Parser *p = arena_alloc(a, sizeof(Parser));
    Node *root = arena_alloc(a, sizeof(Node));
    if (!p || !root) {
        diag_plain(d, DIAG_NOMEM, "out of memory while parsing %s", file->name);
        return root;
    }
    p->a = a;
    p->d = d;
    p->file = file;
    p->stack_limit = jk_stack_limit();
    root->kind = AST_FILE;
    root->loc = (SrcLoc){ file, 1, 1 };
    /* the tokens are a few times the size of the source and dead once the tree is built */
    Arena scratch = { .al = a->al };
    p->ntoks = lex_file(a, &scratch, d, file, &p->toks);
    if (p->ntoks < 0) {
        diag_plain(d, DIAG_NOMEM, "out of memory while parsing %s", file->name);
        arena_free(&scratch);
        return root;
    }
    for (;;) {
        p->depth = 0;
        p->in_brackets = p->no_range = p->space_sep = p->in_index = false;
        while (p->toks[p->pos].kind == TK_NL || tok_op(&p->toks[p->pos], ";"))
            p->pos++;
        if (p->toks[p->pos].kind == TK_EOF)
            break;
        p->item_start = p->pos;
        /* using AMDGPU / import AMDGPU: workitemIdx / export f: the AMDGPU.jl names are built in,
         * so a kernel file written for Julia keeps its header lines; their module names and renamings
         * are noted (parse_import) */
        Token *kw = &p->toks[p->pos];
        if (tok_kw(kw, "using") || tok_kw(kw, "import") || tok_kw(kw, "export")) {
            if (!tok_kw(kw, "export"))
                parse_import(p);
            while (p->toks[p->pos].kind != TK_NL && p->toks[p->pos].kind != TK_EOF && !tok_op(&p->toks[p->pos], ";"))
                p->pos++;
            continue;
        }
        if (tok_kw(kw, "macro")) {
            if (!parse_macro_def(p, kw)) {
                if (p->oom)
                    break;
                parse_skip_macro(p, kw);
            }
            continue;
        }
        if (tok_kw(kw, "function") && kw[1].kind == TK_IDENT && tok_kw(&kw[2], "end")) {
            p->pos += 3; /* `function f end`: a function with no methods yet; its methods define it */
            continue;
        }
        if (setjmp(p->jb) == 0) {
            Node *n = parse_stmt(p);
            Token *t = parse_peek(p);
            if (!(t->kind == TK_NL || t->kind == TK_EOF || tok_op(t, ";")))
                parse_extra_token(p, t);
            if (n->kind == AST_BLOCK && n->flags == STRUCT_KWDEF) /* const a, b = ... */
                for (int i = 0; i < n->nkids; i++)
                    vec_push(p, &p->items, n->kids[i]);
            else
                vec_push(p, &p->items, n);
        } else {
            if (p->oom)
                break;
            int i = p->err_pos > p->item_start ? p->err_pos : p->item_start + 1;
            if (i >= p->ntoks)
                i = p->ntoks - 1;
            while (p->toks[i].kind != TK_EOF && !parse_resync_point(p, i))
                i++;
            p->pos = i;
        }
    }
    root->kids = (Node **)p->items.items;
    root->nkids = p->items.len;
    root->flags |= p->file_flags;
    for (int i = 0; i < p->ntoks; i++) /* WMMA.x, WMMA_RDNA3.x, wmma_load_a, WMMA_M: base/wmma.jl */
        if (p->toks[i].kind == TK_IDENT &&
            (strncmp(p->toks[i].text, "WMMA", 4) == 0 || strncmp(p->toks[i].text, "wmma_", 5) == 0))
            root->flags |= FILE_WMMA;
    for (int i = 0; i < p->ntoks; i++) /* Atomix.IndexableRef(A, I): base/atomix.jl's reference API */
        if (p->toks[i].kind == TK_IDENT && strcmp(p->toks[i].text, "IndexableRef") == 0)
            root->flags |= FILE_ATOMIX;
    for (int i = 1; i < p->modules.len; i += 2) {
        if (strcmp(p->modules.items[i], "StaticArrays") == 0)
            root->flags |= FILE_STATICARRAYS;
        if (strcmp(p->modules.items[i], "Statistics") == 0)
            root->flags |= FILE_STATISTICS;
        if (strcmp(p->modules.items[i], "KernelIntrinsics") == 0)
            root->flags |= FILE_INTRINSICS;
    }
    p->toks = NULL;
    arena_free(&scratch);
    return root;
}

/* ---- printing -------------------------------------------------------------------
 * ast_print writes Julia source that parses back to the same tree: operators
 * are parenthesised by precedence only where needed (a + b * c, (a + b) * c,
 * a - (b - c)); unary operators put parentheses around a binary operand
 * (-(x ^ 2)); macro calls always print in the parenthesised form
 * @inbounds(x[i] = 1); blocks print one statement per line, indented by four
 * spaces. */

enum {
    PR_ASSIGN = 1,
    PR_TERNARY,
    PR_OR,
    PR_AND,
    PR_CMP,
    PR_RANGE,
    PR_SUM,
    PR_TIMES,
    PR_SHIFT,
    PR_UNARY,
    PR_POWER,
    PR_DECL,
    PR_ATOM
};

static bool print_is_op(const char *s, int nargs, int *prec)
{
    if (nargs == 2) {
        if (IN_LIST(s, op_sum))
            return *prec = PR_SUM, true;
        if (IN_LIST(s, op_times))
            return *prec = PR_TIMES, true;
        if (IN_LIST(s, op_shift))
            return *prec = PR_SHIFT, true;
        if (IN_LIST(s, op_cmp) || strcmp(s, "in") == 0 || strcmp(s, "isa") == 0)
            return *prec = PR_CMP, true;
        if (strcmp(s, "^") == 0)
            return *prec = PR_POWER, true;
        if (strcmp(s, ":") == 0)
            return *prec = PR_RANGE, true;
    }
    if (nargs == 3 && strcmp(s, ":") == 0)
        return *prec = PR_RANGE, true;
    if (nargs == 1 && (strcmp(s, "-") == 0 || strcmp(s, "+") == 0 || strcmp(s, "!") == 0 || strcmp(s, "~") == 0))
        return *prec = PR_UNARY, true;
    return false;
}

static int print_prec(const Node *n)
{
    if (!n)
        return PR_ATOM;
    int prec;
    switch (n->kind) {
    case AST_INT: return n->lit == LIT_INT64 && n->ival < 0 ? PR_UNARY : PR_ATOM;
    case AST_FLOAT: return signbit(n->fval) ? PR_UNARY : PR_ATOM;
    case AST_CALL:
        if (n->nkids >= 1 && n->kids[0] && n->kids[0]->kind == AST_IDENT && !n->kids[0]->qual &&
            print_is_op(n->kids[0]->name, n->nkids - 1, &prec))
            return prec;
        return PR_ATOM;
    case AST_COMPARISON: return PR_CMP;
    case AST_AND: return PR_AND;
    case AST_OR: return PR_OR;
    case AST_TERNARY: return PR_TERNARY;
    case AST_TYPED: return PR_DECL;
    case AST_SUBTYPE: return PR_CMP;
    case AST_ASSIGN:
    case AST_OPASSIGN:
    case AST_FUNCTION:
    case AST_CONST:
    case AST_LOCAL:
    case AST_RETURN: return PR_ASSIGN;
    case AST_TUPLE: return PR_ATOM;
    default: return PR_ATOM;
    }
}

static void print_node(StrBuf *sb, const Node *n, int indent);

/* n, in parentheses when its precedence is below min. */
static void print_sub(StrBuf *sb, const Node *n, int min, int indent)
{
    bool paren = print_prec(n) < min;
    if (paren)
        sb_puts(sb, "(");
    print_node(sb, n, indent);
    if (paren)
        sb_puts(sb, ")");
}

static void print_list(StrBuf *sb, Node *const *kids, int n, int indent)
{
    for (int i = 0; i < n; i++) {
        if (i)
            sb_puts(sb, ", ");
        print_sub(sb, kids[i], PR_TERNARY, indent);
    }
}

static void print_indent(StrBuf *sb, int indent)
{
    for (int i = 0; i < indent; i++)
        sb_puts(sb, "    ");
}

static void print_block_body(StrBuf *sb, const Node *b, int indent)
{
    if (!b)
        return;
    if (b->kind != AST_BLOCK) {
        print_indent(sb, indent);
        print_node(sb, b, indent);
        sb_puts(sb, "\n");
        return;
    }
    for (int i = 0; i < b->nkids; i++) {
        print_indent(sb, indent);
        print_node(sb, b->kids[i], indent);
        sb_puts(sb, "\n");
    }
}

/* The shortest decimal that reads back as the same value, Julia style:
 * 1.0, 0.5, 1.0e-5, 1.5f0, 1.0f-5, Inf, NaN32. */
static void print_float(StrBuf *sb, double v, bool f32)
{
    if (isnan(v)) {
        sb_puts(sb, f32 ? "NaN32" : "NaN");
        return;
    }
    if (isinf(v)) {
        sb_puts(sb, v < 0 ? "-" : "");
        sb_puts(sb, f32 ? "Inf32" : "Inf");
        return;
    }
    char buf[64];
    for (int prec = f32 ? 6 : 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (f32 ? (float)strtod(buf, NULL) == (float)v : strtod(buf, NULL) == v)
            break;
    }
    char mant[80], *e = strchr(buf, 'e');
    int exp = 0;
    if (e) {
        exp = atoi(e + 1);
        *e = 0;
    }
    snprintf(mant, sizeof mant, "%s%s", buf, strchr(buf, '.') ? "" : ".0");
    if (f32)
        sb_printf(sb, "%sf%d", mant, exp);
    else if (e)
        sb_printf(sb, "%se%d", mant, exp);
    else
        sb_puts(sb, mant);
}

static void print_call(StrBuf *sb, const Node *n, int indent)
{
    const Node *f = n->kids[0];
    int nargs = n->nkids - 1, prec;
    if (f && f->kind == AST_IDENT && !f->qual && print_is_op(f->name, nargs, &prec)) {
        const char *op = f->name;
        if (prec == PR_UNARY) {
            /* -(x ^ 2), -(-1), -(2) (a literal would fold), but -x and -x::T bare */
            const Node *x = n->kids[1];
            bool paren = x->kind == AST_INT || x->kind == AST_FLOAT || print_prec(x) < PR_DECL;
            sb_puts(sb, op);
            sb_puts(sb, paren ? "(" : "");
            print_node(sb, x, indent);
            sb_puts(sb, paren ? ")" : "");
            return;
        }
        if (prec == PR_RANGE) {
            for (int i = 1; i <= nargs; i++) {
                if (i > 1)
                    sb_puts(sb, ":");
                print_sub(sb, n->kids[i], PR_RANGE + 1, indent);
            }
            return;
        }
        bool right = prec == PR_POWER;
        bool chain = prec == PR_CMP;
        print_sub(sb, n->kids[1], right || chain ? prec + 1 : prec, indent);
        sb_printf(sb, " %s ", op);
        print_sub(sb, n->kids[2], right ? (prec == PR_POWER ? PR_POWER : prec) : prec + 1, indent);
        return;
    }
    print_sub(sb, f, PR_ATOM, indent);
    sb_puts(sb, "(");
    print_list(sb, n->kids + 1, nargs, indent);
    sb_puts(sb, ")");
}

static void print_function(StrBuf *sb, const Node *n, int indent)
{
    if (n->flags & FN_INLINE)
        sb_puts(sb, "@inline ");
    if (n->flags & FN_NOINLINE)
        sb_puts(sb, "@noinline ");
    if (n->nkids > 4 && n->kids[4]) {
        sb_puts(sb, "function ");
        print_node(sb, n->kids[4], indent);
        sb_puts(sb, "(");
    } else
        sb_printf(sb, "function %s(", n->name ? n->name : "?");
    if (n->kids[0])
        print_list(sb, n->kids[0]->kids, n->kids[0]->nkids, indent);
    sb_puts(sb, ")");
    if (n->nkids > 3 && n->kids[3]) {
        sb_puts(sb, "::");
        print_sub(sb, n->kids[3], PR_ATOM, indent);
    }
    if (n->nkids > 2 && n->kids[2]) {
        sb_puts(sb, " where {");
        print_list(sb, n->kids[2]->kids, n->kids[2]->nkids, indent);
        sb_puts(sb, "}");
    }
    sb_puts(sb, "\n");
    print_block_body(sb, n->kids[1], indent + 1);
    print_indent(sb, indent);
    sb_puts(sb, "end");
}

static void print_node(StrBuf *sb, const Node *n, int indent)
{
    if (!n) {
        sb_puts(sb, "#= null =#");
        return;
    }
    switch (n->kind) {
    case AST_INT:
        switch (n->lit) {
        case LIT_UINT8: sb_printf(sb, "0x%02llx", (unsigned long long)n->uval); break;
        case LIT_UINT16: sb_printf(sb, "0x%04llx", (unsigned long long)n->uval); break;
        case LIT_UINT32: sb_printf(sb, "0x%08llx", (unsigned long long)n->uval); break;
        case LIT_UINT64: sb_printf(sb, "0x%016llx", (unsigned long long)n->uval); break;
        case LIT_UINT128: sb_printf(sb, "0x%llx", (unsigned long long)n->uval); break;
        default: sb_printf(sb, "%lld", (long long)n->ival); break;
        }
        break;
    case AST_FLOAT: print_float(sb, n->fval, n->lit == LIT_FLOAT32); break;
    case AST_BOOL: sb_puts(sb, n->ival ? "true" : "false"); break;
    case AST_NOTHING: sb_puts(sb, "nothing"); break;
    case AST_STRING:
        sb_puts(sb, "\"");
        for (const char *s = n->name ? n->name : ""; *s; s++) {
            if (*s == '"' || *s == '\\' || *s == '$')
                sb_printf(sb, "\\%c", *s);
            else if (*s == '\n')
                sb_puts(sb, "\\n");
            else if (*s == '\t')
                sb_puts(sb, "\\t");
            else
                sb_putn(sb, s, 1);
        }
        sb_puts(sb, "\"");
        break;
    case AST_SYMBOL: sb_printf(sb, ":%s", n->name); break;
    case AST_STRUCT:
        if (n->flags & STRUCT_ABSTRACT)
            sb_puts(sb, "abstract type ");
        else
            sb_puts(sb, n->flags & STRUCT_MUTABLE ? "mutable struct " : "struct ");
        sb_puts(sb, n->name);
        if (n->kids[0]) {
            sb_puts(sb, "{");
            print_list(sb, n->kids[0]->kids, n->kids[0]->nkids, indent);
            sb_puts(sb, "}");
        }
        if (n->kids[1]) {
            sb_puts(sb, " <: ");
            print_node(sb, n->kids[1], indent);
        }
        sb_puts(sb, "\n");
        for (int i = 0; n->kids[2] && i < n->kids[2]->nkids; i++) {
            print_indent(sb, indent + 1);
            print_node(sb, n->kids[2]->kids[i], indent + 1);
            sb_puts(sb, "\n");
        }
        for (int i = 0; n->kids[3] && i < n->kids[3]->nkids; i++) {
            print_indent(sb, indent + 1);
            print_node(sb, n->kids[3]->kids[i], indent + 1);
            sb_puts(sb, "\n");
        }
        print_indent(sb, indent);
        sb_puts(sb, "end");
        break;
    case AST_IDENT:
        if (n->qual)
            sb_printf(sb, "%s.", n->qual);
        sb_puts(sb, n->name ? n->name : "?");
        break;
    case AST_CALL:
        if (n->nkids < 1)
            sb_puts(sb, "#= empty call =#");
        else
            print_call(sb, n, indent);
        break;
    case AST_COMPARISON:
        for (int i = 0; i < n->nkids; i++) {
            if (i)
                sb_printf(sb, " %s ", n->ops && n->ops[i - 1] ? n->ops[i - 1] : "?");
            print_sub(sb, n->kids[i], PR_CMP + 1, indent);
        }
        break;
    case AST_AND:
    case AST_OR: {
        int pr = n->kind == AST_AND ? PR_AND : PR_OR;
        print_sub(sb, n->kids[0], pr + 1, indent);
        sb_puts(sb, n->kind == AST_AND ? " && " : " || ");
        print_sub(sb, n->kids[1], pr, indent);
        break;
    }
    case AST_TERNARY:
        print_sub(sb, n->kids[0], PR_OR, indent);
        sb_puts(sb, " ? ");
        print_sub(sb, n->kids[1], PR_SUM, indent);
        sb_puts(sb, " : ");
        print_sub(sb, n->kids[2], PR_TERNARY, indent);
        break;
    case AST_REF:
    case AST_CURLY:
        print_sub(sb, n->kids[0], PR_ATOM, indent);
        sb_puts(sb, n->kind == AST_REF ? "[" : "{");
        print_list(sb, n->kids + 1, n->nkids - 1, indent);
        sb_puts(sb, n->kind == AST_REF ? "]" : "}");
        break;
    case AST_DOT:
        print_sub(sb, n->kids[0], PR_ATOM, indent);
        sb_printf(sb, ".%s", n->name ? n->name : "?");
        break;
    case AST_TUPLE:
        sb_puts(sb, "(");
        print_list(sb, n->kids, n->nkids, indent);
        sb_puts(sb, n->nkids == 1 ? ",)" : ")");
        break;
    case AST_VECT:
        sb_puts(sb, "[");
        print_list(sb, n->kids, n->nkids, indent);
        sb_puts(sb, "]");
        break;
    case AST_TYPED:
        if (n->kids[0])
            print_sub(sb, n->kids[0], PR_DECL, indent);
        sb_puts(sb, "::");
        print_sub(sb, n->kids[1], PR_ATOM, indent);
        break;
    case AST_SUBTYPE:
        if (n->kids[0])
            print_node(sb, n->kids[0], indent);
        sb_puts(sb, n->kids[0] ? " <: " : "<:");
        print_sub(sb, n->kids[1], PR_ATOM, indent);
        break;
    case AST_MACROCALL:
        if (n->qual)
            sb_printf(sb, "%s.", n->qual);
        sb_printf(sb, "@%s(", n->name ? n->name : "?");
        for (int i = 0; i < n->nkids; i++) {
            if (i)
                sb_puts(sb, ", ");
            print_node(sb, n->kids[i], indent);
        }
        sb_puts(sb, ")");
        break;
    case AST_ASSIGN:
    case AST_OPASSIGN:
        print_sub(sb, n->kids[0], PR_TERNARY, indent);
        sb_printf(sb, " %s= ", n->kind == AST_OPASSIGN && n->name ? n->name : "");
        print_sub(sb, n->kids[1], PR_ASSIGN, indent);
        break;
    case AST_BLOCK:
        sb_puts(sb, "begin\n");
        print_block_body(sb, n, indent + 1);
        print_indent(sb, indent);
        sb_puts(sb, "end");
        break;
    case AST_IF: {
        const Node *c = n;
        sb_puts(sb, "if ");
        for (;;) {
            print_node(sb, c->kids[0], indent);
            sb_puts(sb, "\n");
            print_block_body(sb, c->kids[1], indent + 1);
            const Node *e = c->kids[2];
            if (!e)
                break;
            print_indent(sb, indent);
            if (e->kind == AST_IF) {
                sb_puts(sb, "elseif ");
                c = e;
                continue;
            }
            sb_puts(sb, "else\n");
            print_block_body(sb, e, indent + 1);
            break;
        }
        print_indent(sb, indent);
        sb_puts(sb, "end");
        break;
    }
    case AST_WHILE:
        sb_puts(sb, "while ");
        print_node(sb, n->kids[0], indent);
        sb_puts(sb, "\n");
        print_block_body(sb, n->kids[1], indent + 1);
        print_indent(sb, indent);
        sb_puts(sb, "end");
        break;
    case AST_FOR:
        sb_puts(sb, "for ");
        print_node(sb, n->kids[0], indent);
        sb_puts(sb, " in ");
        print_node(sb, n->kids[1], indent);
        sb_puts(sb, "\n");
        print_block_body(sb, n->kids[2], indent + 1);
        print_indent(sb, indent);
        sb_puts(sb, "end");
        break;
    case AST_BREAK: sb_puts(sb, "break"); break;
    case AST_CONTINUE: sb_puts(sb, "continue"); break;
    case AST_RETURN:
        sb_puts(sb, "return");
        if (n->nkids > 0 && n->kids[0]) {
            sb_puts(sb, " ");
            print_node(sb, n->kids[0], indent);
        }
        break;
    case AST_LOCAL:
        sb_puts(sb, "local ");
        for (int i = 0; i < n->nkids; i++) {
            if (i)
                sb_puts(sb, ", ");
            print_node(sb, n->kids[i], indent);
        }
        break;
    case AST_LET:
        sb_puts(sb, "let ");
        for (int i = 0; i < n->kids[0]->nkids; i++) {
            if (i)
                sb_puts(sb, ", ");
            print_node(sb, n->kids[0]->kids[i], indent);
        }
        sb_puts(sb, " ... end");
        break;
    case AST_SPLAT:
        print_sub(sb, n->kids[0], PR_ATOM, indent);
        sb_puts(sb, "...");
        break;
    case AST_PARAMETERS:
        sb_puts(sb, ";");
        for (int i = 0; i < n->nkids; i++) {
            sb_puts(sb, i ? ", " : " ");
            print_node(sb, n->kids[i], indent);
        }
        break;
    case AST_FUNCTION: print_function(sb, n, indent); break;
    case AST_LAMBDA:
        sb_puts(sb, "function (");
        print_list(sb, n->kids[0]->kids, n->kids[0]->nkids, indent);
        sb_puts(sb, ")\n");
        print_block_body(sb, n->kids[1], indent + 1);
        print_indent(sb, indent);
        sb_puts(sb, "end");
        break;
    case AST_CONST:
        sb_printf(sb, "const %s", n->name ? n->name : "?");
        for (int i = 1; i < n->nkids; i++)
            sb_printf(sb, "%s%s", i == 1 ? "{" : ", ", n->kids[i]->name);
        sb_puts(sb, n->nkids > 1 ? "} = " : " = ");
        print_node(sb, n->kids[0], indent);
        break;
    case AST_FILE:
        for (int i = 0; i < n->nkids; i++) {
            if (i)
                sb_puts(sb, "\n");
            print_node(sb, n->kids[i], indent);
            sb_puts(sb, "\n");
        }
        break;
    }
}

void ast_print(StrBuf *sb, const Node *n)
{
    print_node(sb, n, 0);
}
