/* juke.c: the `juke` command: show a kernel's IR at every stage, compile it
 * to a code object, or run it on a device with arrays from .npy files.
 * It is a thin client of include/juke.h (plus the .npy reader and the dump
 * writer); everything it prints about a kernel comes from the library.
 *
 * Exit status: 0 success, 1 an error the library reported (compile error,
 * kernel exception, missing device, unreadable file), 2 a usage error. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "juke.h"
#include "dumps.h"
#include "npy.h"
#include "literal.h"
#include "targets.h"

enum { EXIT_USAGE = 2 };

/* Which options a subcommand accepts (a bit set). */
enum {
    OPT_COMPILE = 1 << 0, /* --target, -O, --code-object-version, --wavefront-size, --device-libs, --dump-dir */
    OPT_LLVM = 1 << 1,    /* --raw, --module */
    OPT_OUTPUT = 1 << 2,  /* -o OUT */
    OPT_RUN = 1 << 3,     /* --device, --groupsize, --gridsize, --shmem, --timeout, --out, -v */
};

#define CLI_MAX_OUTS 64

/* A subcommand's parsed command line. */
typedef struct Cli {
    const struct Sub *sub;
    juke_options opts;
    bool target_set;
    bool raw, module, verbose;
    const char *output;
    const char *device;
    bool groupsize_set;
    juke_launch_config launch;
    struct { int arg; const char *path; } outs[CLI_MAX_OUTS];
    int nouts;
    char **pos; /* positional arguments: FILE FUNCTION TYPE-or-ARG... */
    int npos;
} Cli;

typedef int (*SubRun)(Cli *cli);

typedef struct Sub {
    const char *name;
    const char *synopsis; /* after "juke NAME " */
    const char *summary;  /* one line for `juke --help` */
    int min_pos;          /* positional arguments required (FILE FUNCTION ...) */
    unsigned opts;
    juke_dump dump;       /* for the dump-printing subcommands */
    SubRun run;
    const char *help;     /* description and subcommand-specific options */
} Sub;

/* ---- messages --------------------------------------------------------- */

/* A usage error: one line, a pointer to the help, exit status 2. */
static int cli_usage(const Sub *sub, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int cli_usage(const Sub *sub, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "juke%s%s: ", sub ? " " : "", sub ? sub->name : "");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\ntry 'juke %s%s--help'\n", sub ? sub->name : "", sub ? " " : "");
    return EXIT_USAGE;
}

/* An error the library reported: its message (which carries file:line:col
 * and the caret for source errors) on stderr, exit status 1. */
static int cli_lib_error(juke_context *ctx, juke_status st)
{
    const char *msg = ctx ? juke_errmsg(ctx) : "";
    if (!msg || !*msg) {
        fprintf(stderr, "juke: error: %s\n", juke_status_name(st));
        return 1;
    }
    /* diagnostics carry "file:line:col: error:" or "juke: error:" already; other messages get the prefix */
    size_t first = strcspn(msg, "\n");
    const char *e = strstr(msg, ": error: ");
    bool located = strncmp(msg, "juke: ", 6) == 0 || (e && (size_t)(e - msg) < first);
    fprintf(stderr, "%s%s%s", located ? "" : "juke: error: ", msg, msg[strlen(msg) - 1] == '\n' ? "" : "\n");
    return 1;
}

static int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("juke: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

/* ---- option parsing ---------------------------------------------------- */

static bool parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* "X", "X,Y", "X,Y,Z" (also "(X,Y)" and "XxY"); missing dims are 1. */
static bool parse_dims3(const char *s, uint32_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    if (*s == '(')
        s++;
    for (int i = 0; i < 3; i++) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(s, &end, 10);
        if (errno || end == s || *s == '-' || v < 1 || v > UINT32_MAX)
            return false;
        out[i] = (uint32_t)v;
        s = end;
        if (*s == ',' || *s == 'x') {
            s++;
            continue;
        }
        if (*s == ')')
            s++;
        return *s == '\0';
    }
    return false;
}

/* A negative number is a Julia literal (a kernel argument), not an option. */
static bool looks_like_option(const char *a)
{
    if (a[0] != '-' || a[1] == '\0')
        return false;
    return !(a[1] == '.' || (a[1] >= '0' && a[1] <= '9'));
}

/* The value of an option given as "--name VALUE" or "--name=VALUE" (or "-OVALUE"
 * for short ones); advances *i past what it used. NULL when missing. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0' && name[1] != '-')
        return a + n; /* -O3, -oOUT */
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

/* Does argument a name option `name` (exactly, or as "name=value", or as a
 * short option with its value attached)? */
static bool opt_is(const char *a, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return false;
    if (a[n] == '\0' || a[n] == '=')
        return true;
    return name[1] != '-'; /* -O3 */
}

static int parse_out_spec(Cli *cli, const char *v)
{
    const Sub *sub = cli->sub;
    const char *eq = strchr(v, '=');
    long k;
    char num[32];
    if (!eq || eq == v || (size_t)(eq - v) >= sizeof num || !eq[1])
        return cli_usage(sub, "--out expects K=PATH.npy (K the 1-based argument), got '%s'", v);
    memcpy(num, v, (size_t)(eq - v));
    num[eq - v] = '\0';
    if (!parse_int(num, 1, 1 << 20, &k))
        return cli_usage(sub, "--out: '%s' is not an argument number (1, 2, ...)", num);
    if (cli->nouts == CLI_MAX_OUTS)
        return cli_usage(sub, "too many --out options (at most %d)", CLI_MAX_OUTS);
    cli->outs[cli->nouts].arg = (int)k;
    cli->outs[cli->nouts].path = eq + 1;
    cli->nouts++;
    return 0;
}

/* Parse argv (after the subcommand name) into cli. Options may come before,
 * between or after the positional arguments; "--" ends them. Returns 0, -1
 * for --help (already printed), or the usage error's exit status. */
static void print_help(const Sub *sub);

static int parse_args(Cli *cli, int argc, char **argv)
{
    const Sub *sub = cli->sub;
    unsigned ok = sub->opts;
    bool only_pos = false;
    long v;
    const char *val;
    cli->pos = calloc((size_t)argc + 1, sizeof *cli->pos);
    if (!cli->pos)
        return cli_error("out of memory");
    juke_options_default(&cli->opts);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (only_pos || !looks_like_option(a)) {
            cli->pos[cli->npos++] = argv[i];
            continue;
        }
        if (!strcmp(a, "--")) {
            only_pos = true;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            print_help(sub);
            return -1;
        } else if ((ok & OPT_COMPILE) && !(ok & OPT_RUN) && opt_is(a, "--target")) {
            if (!(val = opt_value(argc, argv, &i, "--target")) || !*val)
                return cli_usage(sub, "--target needs a value (gfx90a, gfx942, gfx1100, sm_90, cpu, ...)");
            cli->opts.target = val;
            cli->target_set = true;
        } else if ((ok & OPT_COMPILE) && (opt_is(a, "-O") || opt_is(a, "--opt-level"))) {
            const char *name = a[1] == 'O' ? "-O" : "--opt-level";
            if (!(val = opt_value(argc, argv, &i, name)) || !parse_int(val, 0, 3, &v))
                return cli_usage(sub, "%s expects an optimisation level 0..3", name);
            cli->opts.opt_level = (int)v;
        } else if ((ok & OPT_COMPILE) && opt_is(a, "--code-object-version")) {
            if (!(val = opt_value(argc, argv, &i, "--code-object-version")) || !parse_int(val, 4, 5, &v))
                return cli_usage(sub, "--code-object-version expects 4 or 5");
            cli->opts.code_object_version = (int)v;
        } else if ((ok & OPT_COMPILE) && opt_is(a, "--wavefront-size")) {
            if (!(val = opt_value(argc, argv, &i, "--wavefront-size")) || !parse_int(val, 32, 64, &v) ||
                (v != 32 && v != 64))
                return cli_usage(sub, "--wavefront-size expects 32 or 64");
            cli->opts.wavefront_size = (int)v;
        } else if ((ok & OPT_COMPILE) && opt_is(a, "--device-libs")) {
            if (!(val = opt_value(argc, argv, &i, "--device-libs")) || !*val)
                return cli_usage(sub, "--device-libs needs a directory");
            cli->opts.device_libs = val;
        } else if ((ok & OPT_COMPILE) && opt_is(a, "--dump-dir")) {
            if (!(val = opt_value(argc, argv, &i, "--dump-dir")) || !*val)
                return cli_usage(sub, "--dump-dir needs a directory");
            cli->opts.dump_dir = val;
        } else if ((ok & OPT_COMPILE) && opt_is(a, "--debuginfo")) {
            val = opt_value(argc, argv, &i, "--debuginfo");
            if (val && !strcmp(val, "none"))
                cli->opts.debuginfo = JUKE_DEBUGINFO_NONE;
            else if (val && !strcmp(val, "source"))
                cli->opts.debuginfo = JUKE_DEBUGINFO_SOURCE;
            else
                return cli_usage(sub, "--debuginfo expects none or source");
        } else if ((ok & OPT_LLVM) && !strcmp(a, "--raw")) {
            cli->raw = true;
        } else if ((ok & OPT_LLVM) && !strcmp(a, "--module")) {
            cli->module = true;
        } else if ((ok & OPT_OUTPUT) && (opt_is(a, "-o") || opt_is(a, "--output"))) {
            if (!(val = opt_value(argc, argv, &i, a[1] == 'o' ? "-o" : "--output")) || !*val)
                return cli_usage(sub, "-o needs an output file");
            cli->output = val;
        } else if ((ok & OPT_RUN) && opt_is(a, "--device")) {
            if (!(val = opt_value(argc, argv, &i, "--device")) || !*val)
                return cli_usage(sub, "--device needs a value (auto, cpu, hip[:N], cuda[:N])");
            cli->device = val;
        } else if ((ok & OPT_RUN) && opt_is(a, "--groupsize")) {
            if (!(val = opt_value(argc, argv, &i, "--groupsize")) || !parse_dims3(val, cli->launch.groupsize))
                return cli_usage(sub, "--groupsize expects X[,Y[,Z]] with positive integers");
            cli->groupsize_set = true;
        } else if ((ok & OPT_RUN) && opt_is(a, "--gridsize")) {
            if (!(val = opt_value(argc, argv, &i, "--gridsize")) || !parse_dims3(val, cli->launch.gridsize))
                return cli_usage(sub, "--gridsize expects X[,Y[,Z]] with positive integers (workgroups)");
        } else if ((ok & OPT_RUN) && opt_is(a, "--shmem")) {
            if (!(val = opt_value(argc, argv, &i, "--shmem")) || !parse_int(val, 0, INT32_MAX, &v))
                return cli_usage(sub, "--shmem expects a number of bytes");
            cli->launch.shmem = (uint32_t)v;
        } else if ((ok & OPT_RUN) && opt_is(a, "--timeout")) {
            char *end = NULL;
            double t = 0;
            if ((val = opt_value(argc, argv, &i, "--timeout")) && *val) {
                errno = 0;
                t = strtod(val, &end);
            }
            if (!val || !*val || *end || errno || !(t >= 0) || t > 1e9)
                return cli_usage(sub, "--timeout expects seconds (0 = no limit, fractions allowed)");
            cli->launch.timeout_s = t;
        } else if ((ok & OPT_RUN) && opt_is(a, "--out")) {
            int r;
            if (!(val = opt_value(argc, argv, &i, "--out")))
                return cli_usage(sub, "--out expects K=PATH.npy");
            if ((r = parse_out_spec(cli, val)) != 0)
                return r;
        } else if ((ok & OPT_RUN) && opt_is(a, "--trace")) {
            if (!(val = opt_value(argc, argv, &i, "--trace")) || !*val)
                return cli_usage(sub, "--trace needs a file");
            cli->opts.trace_path = val;
        } else if ((ok & OPT_RUN) && (!strcmp(a, "-v") || !strcmp(a, "--verbose"))) {
            cli->verbose = true;
        } else {
            return cli_usage(sub, "unknown option '%s'", a);
        }
    }
    if (cli->npos < sub->min_pos)
        return cli_usage(sub, "missing FILE and FUNCTION");
    return 0;
}

/* ---- compiling ----------------------------------------------------------- */

/* The library's context and the module loaded from the FILE argument. */
typedef struct Session {
    juke_context *ctx;
    juke_module *mod;
} Session;

/* The library's notes and warnings: a warning (juke did other than asked,
 * e.g. compiled without a refused cache directory) always, a note (juke
 * repaired something, e.g. rebuilt a bad cache entry) under -v. */
static void cli_log(void *user, juke_log_level level, const char *msg)
{
    const Cli *cli = user;
    if (level == JUKE_LOG_WARNING)
        fprintf(stderr, "juke: warning: %s\n", msg);
    else if (cli->verbose)
        fprintf(stderr, "juke: note: %s\n", msg);
}

static int session_open(Cli *cli, Session *s)
{
    const char *file = cli->pos[0];
    juke_status st;
    s->mod = NULL;
    s->ctx = juke_context_create();
    if (!s->ctx)
        return cli_error("out of memory");
    juke_set_log_callback(s->ctx, cli_log, cli);
    /* Checked here so a typo gets the same message whatever the library's state;
     * O_NONBLOCK so that a FIFO reaches the library's "not a regular file". */
    int fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return cli_error("could not read '%s': %s", file, strerror(errno));
    close(fd);
    if ((st = juke_set_options(s->ctx, &cli->opts)) != JUKE_OK)
        return cli_lib_error(s->ctx, st);
    if ((st = juke_module_load_file(s->ctx, file, &s->mod)) != JUKE_OK)
        return cli_lib_error(s->ctx, st);
    return 0;
}

static void session_close(Session *s)
{
    if (s->ctx)
        juke_context_destroy(s->ctx);
    s->ctx = NULL;
}

/* Compile FUNCTION for the TYPE arguments with the command line's options. */
static int compile_kernel(Cli *cli, Session *s, juke_kernel **k)
{
    int r = session_open(cli, s);
    if (r)
        return r;
    juke_status st = juke_compile(s->mod, cli->pos[1], (const char *const *)cli->pos + 2, cli->npos - 2,
                                  &cli->opts, k);
    return st == JUKE_OK ? 0 : cli_lib_error(s->ctx, st);
}

static void print_text(const char *text)
{
    size_t n = strlen(text);
    fwrite(text, 1, n, stdout);
    if (n && text[n - 1] != '\n')
        putchar('\n');
}

static int finish_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        return cli_error("could not write the output: %s", strerror(errno));
    return 0;
}

/* lowered, typed: the front end's IR, no target involved. */
static int run_frontend(Cli *cli)
{
    Session s;
    char *out = NULL;
    int r = session_open(cli, &s);
    if (!r) {
        const char *const *types = (const char *const *)cli->pos + 2;
        int ntypes = cli->npos - 2;
        juke_status st = cli->sub->dump == JUKE_DUMP_LOWERED
                             ? juke_lowered(s.mod, cli->pos[1], types, ntypes, &out)
                             : juke_typed(s.mod, cli->pos[1], types, ntypes, &out);
        if (st != JUKE_OK) {
            r = cli_lib_error(s.ctx, st);
        } else {
            print_text(out ? out : "");
            r = finish_stdout();
        }
        juke_free(out);
    }
    session_close(&s);
    return r;
}

/* Does the spec name an AMDGPU processor? A spec the registry does not know
 * passes here: the library then reports it, with the known targets. */
static bool is_amdgpu_target(const char *t)
{
    const TargetInfo *info;
    const char *proc;
    StrBuf err = {0};
    bool known = target_parse(t, &info, &proc, &err);
    sb_free(&err);
    return !known || info->kind == TARGET_AMDGPU;
}

/* llvm, gcn, asm, resources: compile, then print one of the kernel's dumps. */
static int run_dump(Cli *cli)
{
    static const char *const dump_names[] = {
        [JUKE_DUMP_LOWERED] = "lowered IR", [JUKE_DUMP_TYPED] = "typed IR",
        [JUKE_DUMP_LLVM_RAW] = "unoptimised LLVM IR", [JUKE_DUMP_LLVM] = "optimised LLVM IR",
        [JUKE_DUMP_LLVM_MODULE] = "LLVM module", [JUKE_DUMP_ASM] = "assembly",
        [JUKE_DUMP_RESOURCES] = "resource usage",
    };
    juke_dump which = cli->sub->dump;
    if (!strcmp(cli->sub->name, "gcn") && !is_amdgpu_target(cli->opts.target))
        return cli_usage(cli->sub, "'%s' is not an AMDGPU target; 'juke asm' shows any target's assembly",
                         cli->opts.target);
    if (which == JUKE_DUMP_LLVM && cli->raw && cli->module)
        return cli_usage(cli->sub, "--raw already shows the whole module; give one of --raw, --module");
    if (which == JUKE_DUMP_LLVM && cli->raw)
        which = JUKE_DUMP_LLVM_RAW;
    else if (which == JUKE_DUMP_LLVM && cli->module)
        which = JUKE_DUMP_LLVM_MODULE;

    Session s;
    juke_kernel *k = NULL;
    int r = compile_kernel(cli, &s, &k);
    if (!r) {
        const char *text = juke_kernel_dump(k, which);
        if (!text) {
            r = cli->opts.target ? cli_error("no %s for target %s", dump_names[which], cli->opts.target)
                                 : cli_error("no %s for this target", dump_names[which]);
        } else {
            print_text(text);
            r = finish_stdout();
        }
    }
    session_close(&s);
    return r;
}

/* compile -o OUT: the code object as a file (hsaco ELF, PTX text, shared object). */
static int run_compile(Cli *cli)
{
    if (!cli->output)
        return cli_usage(cli->sub, "missing -o OUT (the code object file to write)");
    Session s;
    juke_kernel *k = NULL;
    int r = compile_kernel(cli, &s, &k);
    if (!r) {
        size_t size = 0;
        const void *obj = juke_kernel_code_object(k, &size);
        char *err = NULL;
        if (!obj)
            r = cli_lib_error(s.ctx, JUKE_ERR_INTERNAL);
        else if (dumps_write_file_atomic(cli->output, obj, size, &err) != 0) {
            const char *msg = err ? err : "could not write the code object";
            r = cli_error("%s", strncmp(msg, "juke: ", 6) == 0 ? msg + 6 : msg);
        }
        free(err);
    }
    session_close(&s);
    return r;
}

/* ---- run: Julia literals and .npy arrays as kernel arguments -------------- */

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* The kernel's arguments as given on the command line, with the host copies
 * of the arrays (for --out). */
typedef struct RunArgs {
    juke_arg *args;
    NpyArray *host; /* host[i].data != NULL for array arguments */
    int n;
} RunArgs;

static void runargs_free(RunArgs *ra)
{
    for (int i = 0; i < ra->n; i++)
        npy_free(&ra->host[i]);
    free(ra->host);
    free(ra->args);
}

/* Turn ARG... into kernel arguments, uploading .npy arrays to dev. */
static int runargs_make(Cli *cli, Session *s, juke_device *dev, RunArgs *ra)
{
    ra->n = cli->npos - 2;
    ra->args = calloc((size_t)ra->n + 1, sizeof *ra->args);
    ra->host = calloc((size_t)ra->n + 1, sizeof *ra->host);
    if (!ra->args || !ra->host)
        return cli_error("out of memory");
    for (int i = 0; i < ra->n; i++) {
        const char *text = cli->pos[i + 2];
        if (!ends_with(text, ".npy")) {
            const char *why;
            if (!lit_parse(text, &ra->args[i], &why))
                return cli_usage(cli->sub, "argument %d '%s': %s", i + 1, text, why);
            continue;
        }
        char *err = NULL;
        NpyArray *h = &ra->host[i];
        if (npy_read_file(text, h, &err) != 0) {
            int r = cli_error("argument %d: %s", i + 1, err ? err : text);
            free(err);
            return r;
        }
        if (h->ndims < 1)
            return cli_error("argument %d: '%s' holds a 0-dimensional array; kernels take arrays of 1 to 8 dims",
                             i + 1, text);
        juke_array *arr = NULL;
        juke_status st = juke_array_create(dev, (juke_type)h->type, h->ndims, h->dims, &arr);
        if (st == JUKE_OK)
            st = juke_array_upload(arr, h->data, h->length * h->elsize);
        if (st != JUKE_OK)
            return cli_lib_error(s->ctx, st);
        ra->args[i] = juke_arg_array(arr);
    }
    return 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* After the run: download each --out argument and write it as .npy. */
static int write_outs(Cli *cli, Session *s, RunArgs *ra)
{
    for (int i = 0; i < cli->nouts; i++) {
        int k = cli->outs[i].arg - 1;
        NpyArray *h = &ra->host[k];
        juke_status st = juke_array_download(ra->args[k].v.array, h->data, h->length * h->elsize);
        if (st != JUKE_OK)
            return cli_lib_error(s->ctx, st);
        char *err = NULL;
        if (npy_write_file(cli->outs[i].path, h, &err) != 0) {
            int r = cli_error("%s", err ? err : "could not write the .npy file");
            free(err);
            return r;
        }
    }
    return 0;
}

static int run_run(Cli *cli)
{
    const Sub *sub = cli->sub;
    if (!cli->groupsize_set)
        return cli_usage(sub, "missing --groupsize X[,Y[,Z]]");
    for (int i = 0; i < cli->nouts; i++) {
        int k = cli->outs[i].arg;
        if (k > cli->npos - 2)
            return cli_usage(sub, "--out %d: the kernel gets only %d arguments", k, cli->npos - 2);
        if (!ends_with(cli->pos[k + 1], ".npy"))
            return cli_usage(sub, "--out %d: argument %d ('%s') is not an array (.npy)", k, k, cli->pos[k + 1]);
    }
    /* Literals are checked before anything is loaded, so a typo is a usage error. */
    for (int i = 2; i < cli->npos; i++) {
        juke_arg arg;
        const char *why;
        if (!ends_with(cli->pos[i], ".npy") && !lit_parse(cli->pos[i], &arg, &why))
            return cli_usage(sub, "argument %d '%s': %s", i - 1, cli->pos[i], why);
    }
    Session s;
    RunArgs ra = {0};
    juke_device *dev = NULL;
    int r = session_open(cli, &s);
    if (!r) {
        juke_status st = juke_device_open(s.ctx, cli->device ? cli->device : "auto", &dev);
        if (st != JUKE_OK)
            r = cli_lib_error(s.ctx, st);
    }
    if (!r && cli->verbose)
        fprintf(stderr, "juke: device %s\n", juke_device_name(dev));
    if (!r)
        r = runargs_make(cli, &s, dev, &ra);
    if (!r) {
        double t0 = now_seconds();
        juke_status st = juke_launch(dev, s.mod, cli->pos[1], ra.args, ra.n, &cli->launch);
        if (st == JUKE_OK)
            st = juke_device_synchronize(dev);
        double t1 = now_seconds();
        if (st != JUKE_OK)
            r = cli_lib_error(s.ctx, st);
        else if (cli->verbose)
            fprintf(stderr, "juke: %s ran in %.3f ms (compilation included)\n", cli->pos[1], (t1 - t0) * 1e3);
    }
    if (!r)
        r = write_outs(cli, &s, &ra);
    runargs_free(&ra);
    session_close(&s); /* frees the arrays and the device */
    return r;
}

/* ---- the subcommands ------------------------------------------------------ */

#define COMPILE_OPTIONS_HELP                                                                              \
    "  --target T                 gfx90a (default), gfx942, gfx1100, any gfx name, sm_90..., cpu\n"       \
    "  -O N, -ON                  optimisation level 0..3 (default 3)\n"                                  \
    "  --code-object-version 4|5  AMDGPU code object version (default 5)\n"                              \
    "  --wavefront-size 32|64     AMDGPU wavefront size (default: the processor's)\n"                    \
    "  --device-libs DIR          ROCm device-library bitcode (default: $JUKE_DEVICE_LIBS or ROCm's)\n" \
    "  --dump-dir DIR             also write every kernel's dumps into DIR (as $JUKE_DUMP_DIR does)\n"   \
    "  --debuginfo none|source    source lines in the LLVM and assembly dumps (default source)\n"

#define TYPES_HELP                                                                                    \
    "TYPE arguments are Julia types of the host-side arguments: Vector{Float32}, Matrix{Int32},\n"   \
    "Array{Float64,3}, Float32, Int32, Bool, ...\n"

static int run_help_sub(Cli *cli);

static const Sub subs[] = {
    {"lowered", "FILE FUNCTION [TYPE...]", "the lowered IR (@code_lowered)", 2, OPT_COMPILE, JUKE_DUMP_LOWERED, run_frontend,
     "Print the lowered IR of FUNCTION's methods (like @code_lowered); with TYPEs, only the\n"
     "method dispatch picks for them.\n\n" TYPES_HELP},
    {"typed", "FILE FUNCTION TYPE...", "the typed IR (@code_typed)", 2, OPT_COMPILE, JUKE_DUMP_TYPED, run_frontend,
     "Print the typed IR of FUNCTION specialised on the TYPEs, callees included\n"
     "(like @code_typed).\n\n" TYPES_HELP},
    {"llvm", "[--raw] [--module] [OPTIONS] FILE FUNCTION TYPE...", "the LLVM IR (@device_code_llvm)", 2, OPT_COMPILE | OPT_LLVM, JUKE_DUMP_LLVM,
     run_dump,
     "Print the kernel's LLVM IR after optimisation (like @device_code_llvm).\n\n"
     "  --raw                      the whole module before optimisation\n"
     "  --module                   the whole module after optimisation, not only the kernel\n"},
    {"gcn", "[OPTIONS] FILE FUNCTION TYPE...", "the GCN assembly (@device_code_gcn)", 2, OPT_COMPILE, JUKE_DUMP_ASM, run_dump,
     "Print the kernel's GCN assembly for an AMDGPU target (like @device_code_gcn).\n"},
    {"asm", "[OPTIONS] FILE FUNCTION TYPE...", "the assembly of any target (GCN, PTX, x86-64)", 2, OPT_COMPILE, JUKE_DUMP_ASM, run_dump,
     "Print the kernel's assembly for any target: GCN for gfx*, PTX for sm_*, host\n"
     "assembly for cpu.\n"},
    {"resources", "[OPTIONS] FILE FUNCTION TYPE...", "registers, local memory, scratch, occupancy", 2, OPT_COMPILE, JUKE_DUMP_RESOURCES, run_dump,
     "Print the kernel's resource usage: VGPRs, SGPRs, local memory, scratch, occupancy,\n"
     "compile times.\n"},
    {"compile", "[OPTIONS] -o OUT FILE FUNCTION TYPE...", "write the code object (.hsaco, .ptx, .so)", 2, OPT_COMPILE | OPT_OUTPUT, JUKE_DUMP_ASM,
     run_compile,
     "Compile the kernel and write its code object to OUT: an AMDGPU ELF (.hsaco) for gfx*,\n"
     "PTX text for sm_*, a shared object for cpu.\n\n"
     "  -o OUT                     the file to write\n"},
    {"run",
     "[--device D] --groupsize X[,Y[,Z]] [--gridsize X[,Y[,Z]]] [--shmem BYTES] [--timeout S]\n"
     "                [--out K=PATH.npy]... [--trace FILE] [-v] FILE FUNCTION ARG...",
     "run a kernel on a device with .npy arrays and literals",
     2, OPT_COMPILE | OPT_RUN, JUKE_DUMP_ASM, run_run,
     "Run FUNCTION on a device. An ARG ending in .npy is an array read from that file (a C-order\n"
     "array is read as NPZ.jl reads it); any other ARG is a Julia literal: 2.5f0 (Float32), 2.5,\n"
     "1e-3 (Float64), 3, -3 (Int64), 0x1f (UInt8), true, Int32(7), UInt8(1), Float16(1.5).\n"
     "Kernel exceptions (BoundsError, ...) are reported with exit status 1.\n\n"
     "  --device D                 auto (default: an AMD GPU, else an NVIDIA GPU, else the CPU),\n"
     "                             cpu, hip, hip:N, cuda, cuda:N\n"
     "  --groupsize X[,Y[,Z]]      work-items per workgroup (required)\n"
     "  --gridsize X[,Y[,Z]]       workgroups, as in AMDGPU.jl (default 1)\n"
     "  --shmem BYTES              dynamic local memory per workgroup\n"
     "  --timeout S                run-time limit in seconds (0 = none): the CPU cancels the kernel\n"
     "  --out K=PATH.npy           after the run, write argument K (1-based, an array) to PATH\n"
     "  -v                         print the device chosen and the time taken, on stderr\n"
     "  --trace FILE               write a timeline (compile stages, cache, load, launch, the kernel\n"
     "                             on the device, copies) as Chrome/Perfetto JSON (as $JUKE_TRACE does)\n"
     "  -O N, --device-libs DIR, --dump-dir DIR, --code-object-version, --wavefront-size\n"
     "                             as for the other subcommands (the target is the device's)\n"},
    {"help", "[SUBCOMMAND]", "the help of a subcommand", 0, 0, JUKE_DUMP_ASM, run_help_sub, "Print the help of SUBCOMMAND, or juke's.\n"},
};

static const Sub *find_sub(const char *name)
{
    for (int i = 0; i < (int)(sizeof subs / sizeof subs[0]); i++)
        if (!strcmp(subs[i].name, name))
            return &subs[i];
    return NULL;
}

static void print_main_help(FILE *f)
{
    fprintf(f, "usage: juke SUBCOMMAND [OPTIONS] FILE FUNCTION TYPE-or-ARG...\n"
               "       juke --help | --version | help SUBCOMMAND\n\n"
               "juke %s compiles GPU kernels written in a Julia subset (as AMDGPU.jl users write them)\n"
               "and shows every stage, like @code_lowered, @code_typed and @device_code_*.\n\n"
               "subcommands:\n",
            juke_version());
    for (int i = 0; i < (int)(sizeof subs / sizeof subs[0]); i++) {
        fprintf(f, "  %-10s %s\n", subs[i].name, subs[i].summary);
    }
    fprintf(f, "\nThe compiling subcommands take these options:\n" COMPILE_OPTIONS_HELP
               "\nEnvironment: JUKE_DUMP_DIR (write every kernel's dumps there), JUKE_DEVICE_LIBS.\n"
               "Exit status: 0 success, 1 compile error, kernel exception or device error, 2 usage error.\n"
               "See docs/cli.md for more.\n");
}

static void print_help(const Sub *sub)
{
    printf("usage: juke %s %s\n\n%s", sub->name, sub->synopsis, sub->help);
    if (sub->opts & OPT_COMPILE && sub->run != run_run)
        printf("\noptions:\n" COMPILE_OPTIONS_HELP);
    printf("\nExit status: 0 success, 1 an error the library reported, 2 a usage error.\n");
}

static int run_help_sub(Cli *cli)
{
    if (cli->npos == 0) {
        print_main_help(stdout);
        return 0;
    }
    const Sub *sub = find_sub(cli->pos[0]);
    if (!sub)
        return cli_usage(NULL, "no subcommand '%s'", cli->pos[0]);
    print_help(sub);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage(NULL, "missing subcommand (lowered, typed, llvm, gcn, asm, resources, compile, run)");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        print_main_help(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("juke %s\n", juke_version());
        return 0;
    }
    const Sub *sub = find_sub(argv[1]);
    if (!sub)
        return cli_usage(NULL, "unknown subcommand '%s'", argv[1]);
    Cli cli = {.sub = sub};
    int r = parse_args(&cli, argc - 2, argv + 2);
    if (r == 0)
        r = sub->run(&cli);
    free(cli.pos);
    return r < 0 ? 0 : r;
}
