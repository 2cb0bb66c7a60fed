/* juke.c: the `juke` command: show a kernel's IR at every stage, compile it
 * to a code object, or run it on a device with arrays from .npy files.
 * It is a thin client of include/juke.h (plus the .npy reader and the dump
 * writer); everything it prints about a kernel comes from the library.
 *
 * Exit status: 0 success, 1 an error the library reported (compile error,
 * kernel exception, missing device, unreadable file), 2 a usage error. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "juke.h"
#include "colour.h"
#include "common.h"
#include "dumps.h"
#include "npy.h"
#include "literal.h"
#include "runtime.h"
#include "targets.h"

enum { EXIT_USAGE = 2 };

/* Which options a subcommand accepts (a bit set). */
enum {
    OPT_COMPILE = 1 << 0, /* --target, -O, --code-object-version, --wavefront-size, --device-libs, --dump-dir */
    OPT_LLVM = 1 << 1,    /* --raw, --module */
    OPT_OUTPUT = 1 << 2,  /* -o OUT */
    OPT_RUN = 1 << 3,     /* --device, --groupsize, --gridsize, --shmem, --timeout, --cooperative, --seed, --out, -v */
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
    struct {
        int arg;
        const char *path;
    } outs[CLI_MAX_OUTS];
    int nouts;
    char **pos; /* positional arguments: FILE FUNCTION TYPE-or-ARG... */
    int npos;
    const char *cache_dir; /* --cache-dir */
    bool no_cache;         /* --no-cache */
    bool gridsize_set;
    uint64_t heap_size; /* --heap-size, 0: the device's default */
    struct {
        const char *name, *value; /* --global NAME=VALUE */
    } globals[8];
    int nglobals;
    char *cache_default; /* the per-user default, malloc'd */
} Cli;

typedef int (*SubRun)(Cli *cli);

typedef struct Sub {
    const char *name;
    const char *synopsis; /* after "juke NAME " */
    const char *summary;  /* one line for `juke --help` */
    int min_pos;          /* positional arguments required (FILE FUNCTION ...) */
    unsigned opts;
    juke_dump dump; /* for the dump-printing subcommands */
    SubRun run;
    const char *help; /* description and subcommand-specific options */
} Sub;

/* ---- messages --------------------------------------------------------- */

/* --color, the command's one piece of process state: it is about the
 * process's own stderr, which every message function below writes to,
 * several without a Cli at hand. The library never sees it. */
static ColourMode cli_colour_mode = COLOUR_AUTO;

/* Write a diagnostic text to stderr, coloured as clang does on a terminal. */
static void cli_put_err(const char *text)
{
    if (colour_wanted(cli_colour_mode, STDERR_FILENO))
        colour_put_diag(stderr, text);
    else
        fputs(text, stderr);
}

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
    char *text = NULL;
    if (asprintf(&text, "%s%s%s", located ? "" : "juke: error: ", msg, msg[strlen(msg) - 1] == '\n' ? "" : "\n") < 0)
        fprintf(stderr, "%s%s\n", located ? "" : "juke: error: ", msg);
    else
        cli_put_err(text);
    free(text);
    return 1;
}

static int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = NULL, *text = NULL;
    if (vasprintf(&msg, fmt, ap) < 0)
        msg = NULL;
    va_end(ap);
    if (msg && asprintf(&text, "juke: error: %s\n", msg) >= 0)
        cli_put_err(text);
    else
        fputs("juke: error: out of memory\n", stderr);
    free(text);
    free(msg);
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

/* KernelAbstractions' ndrange: 1 to JUKE_NDRANGE_MAX sizes, X[,Y[,Z...]] (0
 * allowed: an empty launch), each of which may be a range LO:HI (an offset
 * ndrange: its length, and LO - 1 in offset); the count, or 0 if malformed. */
static uint32_t parse_ndrange(const char *s, uint64_t out[JUKE_NDRANGE_MAX], int64_t offset[JUKE_NDRANGE_MAX])
{
    for (int i = 0; i < JUKE_NDRANGE_MAX; i++)
        out[i] = 1, offset[i] = 0;
    if (*s == '(')
        s++;
    for (uint32_t i = 0; i < JUKE_NDRANGE_MAX; i++) {
        char *end;
        errno = 0;
        long long lo = strtoll(s, &end, 10);
        if (errno || end == s || *s == '+')
            return 0;
        s = end;
        if (*s == ':') {
            long long hi = strtoll(++s, &end, 10);
            if (errno || end == s || *s == '+')
                return 0;
            s = end;
            if (lo < -(1LL << 62) || hi > 1LL << 62) /* (lo - 1 and hi - lo stay in range) */
                return 0;
            out[i] = hi >= lo ? (uint64_t)(hi - lo) + 1 : 0;
            offset[i] = lo - 1;
        } else if (lo < 0) {
            return 0;
        } else {
            out[i] = (uint64_t)lo;
        }
        if (*s == ',' || *s == 'x') {
            s++;
            continue;
        }
        if (*s == ')')
            s++;
        return *s == '\0' ? i + 1 : 0;
    }
    return 0;
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

/* The per-user cache directory, as the XDG base directories put it:
 * $XDG_CACHE_HOME/juke, else ~/.cache/juke; NULL when neither is known. */
static char *default_cache_dir(void)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char *dir = NULL;
    /* the specification ignores a relative XDG_CACHE_HOME */
    if (xdg && xdg[0] == '/')
        return asprintf(&dir, "%s/juke", xdg) < 0 ? NULL : dir;
    if (home && home[0] == '/')
        return asprintf(&dir, "%s/.cache/juke", home) < 0 ? NULL : dir;
    return NULL;
}

/* The disk cache the command uses: --cache-dir, else $JUKE_CACHE_DIR (the
 * library reads it: NULL), else the per-user default; --no-cache: none
 * ("" tells the library so, whatever the environment says). The default
 * serves run, compile and cache only: a kernel read from the cache has no
 * LLVM IR or assembly, which the other subcommands and dump directories
 * show. */
static const char *cli_cache_dir(Cli *cli)
{
    if (cli->no_cache)
        return "";
    if (cli->cache_dir)
        return cli->cache_dir;
    const char *env = getenv("JUKE_CACHE_DIR"), *dumps = getenv("JUKE_DUMP_DIR");
    if (env && *env)
        return NULL;
    const char *name = cli->sub->name;
    if ((strcmp(name, "run") && strcmp(name, "compile") && strcmp(name, "cache")) || cli->opts.dump_dir ||
        (dumps && *dumps))
        return NULL;
    if (!cli->cache_default)
        cli->cache_default = default_cache_dir();
    return cli->cache_default;
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
        } else if (opt_is(a, "--color") || opt_is(a, "--colour")) {
            if (!(val = opt_value(argc, argv, &i, strncmp(a, "--colour", 8) == 0 ? "--colour" : "--color")) ||
                !colour_parse_mode(val, &cli_colour_mode))
                return cli_usage(sub, "--color expects auto, always or never");
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
        } else if ((ok & OPT_COMPILE) && opt_is(a, "--index-bits")) {
            if (!(val = opt_value(argc, argv, &i, "--index-bits")) || !parse_int(val, 32, 64, &v) ||
                (v != 32 && v != 64))
                return cli_usage(sub, "--index-bits expects 32 or 64");
            cli->opts.index_bits = (int)v;
        } else if ((ok & OPT_COMPILE) && opt_is(a, "--same-shape")) {
            cli->opts.same_shape = 1;
        } else if ((ok & OPT_COMPILE) && opt_is(a, "--small-grid")) {
            cli->opts.small_grid = 1;
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
        } else if ((ok & OPT_RUN) && opt_is(a, "--ndrange")) {
            if (!(val = opt_value(argc, argv, &i, "--ndrange")) ||
                !(cli->launch.ndims = parse_ndrange(val, cli->launch.ndrange, cli->launch.ndrange_offset)))
                return cli_usage(
                    sub, "--ndrange expects X[,Y[,Z...]] (at most 8 numbers) with integers of 0 or more (work-items), "
                         "or ranges LO:HI");
        } else if ((ok & OPT_RUN) && opt_is(a, "--gridsize")) {
            if (!(val = opt_value(argc, argv, &i, "--gridsize")) || !parse_dims3(val, cli->launch.gridsize))
                return cli_usage(sub, "--gridsize expects X[,Y[,Z]] with positive integers (workgroups)");
            cli->gridsize_set = true;
        } else if ((ok & OPT_RUN) && opt_is(a, "--shmem")) {
            if (!(val = opt_value(argc, argv, &i, "--shmem")) || !parse_int(val, 0, INT32_MAX, &v))
                return cli_usage(sub, "--shmem expects a number of bytes");
            cli->launch.shmem = (uint32_t)v;
        } else if ((ok & OPT_RUN) && opt_is(a, "--heap-size")) {
            char *end = NULL;
            unsigned long long hb = 0;
            if ((val = opt_value(argc, argv, &i, "--heap-size")) && *val && *val != '-') {
                errno = 0;
                hb = strtoull(val, &end, 0);
            }
            if (!val || !*val || *val == '-' || *end || errno || hb < 544 || hb > (1ull << 32))
                return cli_usage(sub, "--heap-size expects the bytes of the device heap (544 to 4294967296)");
            cli->heap_size = (uint64_t)hb;
        } else if ((ok & OPT_RUN) && opt_is(a, "--global")) {
            char *eq;
            if (!(val = opt_value(argc, argv, &i, "--global")) || !(eq = strchr(val, '=')) || eq == val || !eq[1])
                return cli_usage(sub, "--global expects NAME=VALUE (a Julia literal: 2.5f0, Int32(7), ...)");
            if (cli->nglobals == (int)(sizeof cli->globals / sizeof cli->globals[0]))
                return cli_usage(sub, "at most 8 --global options");
            *eq = '\0';
            cli->globals[cli->nglobals].name = val;
            cli->globals[cli->nglobals++].value = eq + 1;
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
        } else if ((ok & OPT_RUN) && opt_is(a, "--cooperative")) {
            cli->launch.cooperative = true;
        } else if ((ok & OPT_RUN) && opt_is(a, "--seed")) {
            char *end = NULL;
            unsigned long long sd = 0;
            if ((val = opt_value(argc, argv, &i, "--seed")) && *val && *val != '-') {
                errno = 0;
                sd = strtoull(val, &end, 0);
            }
            if (!val || !*val || *val == '-' || *end || errno)
                return cli_usage(sub, "--seed expects an unsigned 64-bit integer (decimal or 0x hex)");
            cli->launch.seeded = true;
            cli->launch.seed = (uint64_t)sd;
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
        } else if (opt_is(a, "--cache-dir")) {
            if (!(val = opt_value(argc, argv, &i, "--cache-dir")) || !*val)
                return cli_usage(sub, "--cache-dir needs a directory");
            cli->cache_dir = val;
        } else if (!strcmp(a, "--no-cache")) {
            cli->no_cache = true;
        } else {
            return cli_usage(sub, "unknown option '%s'", a);
        }
    }
    if (cli->npos < sub->min_pos)
        return cli_usage(sub, "missing FILE and FUNCTION");
    if (cli->cache_dir && cli->no_cache)
        return cli_usage(sub, "give one of --cache-dir and --no-cache");
    cli->opts.cache_dir = cli_cache_dir(cli);
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
    if (level != JUKE_LOG_WARNING && !cli->verbose)
        return;
    char *text = NULL;
    if (asprintf(&text, "juke: %s: %s\n", level == JUKE_LOG_WARNING ? "warning" : "note", msg) >= 0)
        cli_put_err(text);
    free(text);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* An ARG of `juke run` that is an anonymous function, x -> 2x: the source gains `const __juke_argK = ARG` at its
 * end (K its 1-based place), a function of the module like any other, and the argument is that function. */
static bool is_lambda_arg(const char *text)
{
    return strstr(text, "->") && !ends_with(text, ".npy");
}

static int session_load_lambdas(Cli *cli, Session *s, const char *file)
{
    char *text = NULL;
    size_t len = 0;
    StrBuf why = { 0 };
    if (jk_read_file(file, 256u << 20, &text, &len, &why) != JK_READ_OK) {
        int r = cli_error("could not read '%s': %s", file, why.data ? why.data : "read error");
        sb_free(&why);
        return r;
    }
    StrBuf src = { 0 };
    sb_puts(&src, text);
    free(text);
    for (int i = 2; i < cli->npos; i++)
        if (is_lambda_arg(cli->pos[i]))
            sb_printf(&src, "\nconst __juke_arg%d = %s\n", i - 1, cli->pos[i]);
    if (src.failed) {
        sb_free(&src);
        return cli_error("out of memory");
    }
    juke_status st = juke_module_load_string(s->ctx, file, src.data, &s->mod);
    sb_free(&src);
    if (st == JUKE_OK)
        return 0;
    int r = cli_lib_error(s->ctx, st);
    for (int i = 2; i < cli->npos; i++)
        if (is_lambda_arg(cli->pos[i]))
            fprintf(stderr, "note: argument %d, '%s', is read as `const __juke_arg%d = %s` after the end of %s\n",
                    i - 1, cli->pos[i], i - 1, cli->pos[i], file);
    return r;
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
    bool lambdas = false;
    for (int i = 2; i < cli->npos && strcmp(cli->sub->name, "run") == 0; i++)
        lambdas = lambdas || is_lambda_arg(cli->pos[i]);
    if (lambdas)
        return session_load_lambdas(cli, s, file);
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
    juke_status st = juke_compile(s->mod, cli->pos[1], (const char *const *)cli->pos + 2, cli->npos - 2, &cli->opts, k);
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
        juke_status st = cli->sub->dump == JUKE_DUMP_LOWERED ? juke_lowered(s.mod, cli->pos[1], types, ntypes, &out)
                                                             : juke_typed(s.mod, cli->pos[1], types, ntypes, &out);
        if (st != JUKE_OK) {
            r = cli_lib_error(s.ctx, st);
        } else {
            if (colour_wanted(cli_colour_mode, STDOUT_FILENO)) {
                colour_put_ir(stdout, out ? out : "");
                if (out && *out && out[strlen(out) - 1] != '\n')
                    putchar('\n');
            } else {
                print_text(out ? out : "");
            }
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
    StrBuf err = { 0 };
    bool known = target_parse(t, &info, &proc, &err);
    sb_free(&err);
    return !known || info->kind == TARGET_AMDGPU;
}

/* llvm, gcn, asm, resources: compile, then print one of the kernel's dumps. */
static int run_dump(Cli *cli)
{
    static const char *const dump_names[] = {
        [JUKE_DUMP_LOWERED] = "lowered IR",           [JUKE_DUMP_TYPED] = "typed IR",
        [JUKE_DUMP_LLVM_RAW] = "unoptimised LLVM IR", [JUKE_DUMP_LLVM] = "optimised LLVM IR",
        [JUKE_DUMP_LLVM_MODULE] = "LLVM module",      [JUKE_DUMP_ASM] = "assembly",
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

/* The kernel's arguments as given on the command line, with the host copies
 * of the arrays (for --out). */
typedef struct RunArgs {
    juke_arg *args;
    NpyArray *host; /* host[i].data != NULL for array arguments */
    int n;
    LitBlobs blobs; /* what tuple, struct and type arguments point into */
} RunArgs;

static void runargs_free(RunArgs *ra)
{
    for (int i = 0; i < ra->n; i++)
        npy_free(&ra->host[i]);
    free(ra->host);
    free(ra->args);
    lit_blobs_free(&ra->blobs);
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
        char lambda[32];
        if (is_lambda_arg(text)) { /* the function session_load_lambdas defined */
            snprintf(lambda, sizeof lambda, "__juke_arg%d", i + 1);
            text = lambda;
        }
        if (!ends_with(text, ".npy")) {
            char why[512];
            if (!lit_parse_value(s->ctx, s->mod, dev, text, &ra->args[i], &ra->blobs, why, sizeof why))
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
            return cli_error("argument %d: '%s' holds a 0-dimensional array; kernels take arrays of 1 to 8 dims", i + 1,
                             text);
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

/* The path an input argument's modified contents go to: "dir/x.npy" →
 * "dir/x.out.npy", or "dir/x.K.out.npy" when another array argument came
 * from the same file. malloc'd. */
static char *modified_path(Cli *cli, int k)
{
    const char *in = cli->pos[k + 2];
    int shared = 0;
    for (int i = 2; i < cli->npos; i++)
        shared += !strcmp(cli->pos[i], in);
    char *p = NULL;
    int n = (int)strlen(in) - 4; /* without ".npy" */
    int rc = shared > 1 ? asprintf(&p, "%.*s.%d.out.npy", n, in, k + 1) : asprintf(&p, "%.*s.out.npy", n, in);
    return rc < 0 ? NULL : p;
}

/* Without --out: every array argument the kernel modified (its contents
 * differ from what was read) is written next to its input as NAME.out.npy,
 * and stderr says so: a run never throws its results away. */
static int write_modified(Cli *cli, Session *s, RunArgs *ra)
{
    for (int k = 0; k < ra->n; k++) {
        NpyArray *h = &ra->host[k];
        if (!h->data || !ra->args[k].is_array)
            continue;
        size_t bytes = h->length * h->elsize;
        NpyArray after = *h;
        after.data = malloc(bytes ? bytes : 1);
        if (!after.data)
            return cli_error("out of memory");
        juke_status st = juke_array_download(ra->args[k].v.array, after.data, bytes);
        if (st != JUKE_OK) {
            free(after.data);
            return cli_lib_error(s->ctx, st);
        }
        if (memcmp(after.data, h->data, bytes) == 0) {
            free(after.data);
            continue;
        }
        char *path = modified_path(cli, k), *err = NULL;
        int r = 0;
        if (!path)
            r = cli_error("out of memory");
        else if (npy_write_file(path, &after, &err) != 0)
            r = cli_error("%s", err ? err : "could not write the .npy file");
        else
            fprintf(stderr, "juke: argument %d (%s) was modified: wrote %s\n", k + 1, cli->pos[k + 2], path);
        free(err);
        free(path);
        free(after.data);
        if (r)
            return r;
    }
    return 0;
}

/* AMDGPU.jl's launch_configuration, simply: without --groupsize, the
 * kernel's and the device's limit, at most 256 work-items, in x; without
 * --gridsize, as many groups as cover the first array argument's length (1
 * if none). A default chosen is reported on stderr. */
static int default_launch(Cli *cli, Session *s, juke_device *dev, juke_kernel *k, RunArgs *ra)
{
    if (!cli->groupsize_set) {
        uint32_t lim = 0;
        juke_status st = juke_kernel_max_groupsize(k, dev, &lim);
        if (st != JUKE_OK)
            return cli_lib_error(s->ctx, st);
        cli->launch.groupsize[0] = lim < 256 ? lim : 256;
        cli->launch.groupsize[1] = cli->launch.groupsize[2] = 1;
    }
    int first = -1;
    for (int i = 0; i < ra->n && first < 0; i++)
        if (ra->args[i].is_array)
            first = i;
    if (!cli->gridsize_set) {
        uint64_t per = (uint64_t)cli->launch.groupsize[0] * (cli->launch.groupsize[1] ? cli->launch.groupsize[1] : 1) *
                       (cli->launch.groupsize[2] ? cli->launch.groupsize[2] : 1);
        uint64_t len = first >= 0 ? (uint64_t)juke_array_length(ra->args[first].v.array) : 1;
        uint64_t groups = per ? (len + per - 1) / per : 1;
        if (groups > UINT32_MAX)
            return cli_error("argument %d's %llu elements need more than 2^32-1 workgroups of %llu: give --gridsize",
                             first + 1, (unsigned long long)len, (unsigned long long)per);
        cli->launch.gridsize[0] = groups ? (uint32_t)groups : 1;
        cli->launch.gridsize[1] = cli->launch.gridsize[2] = 1;
    }
    if (!cli->groupsize_set || !cli->gridsize_set) {
        fprintf(stderr, "juke: launching %s with groupsize %u", cli->pos[1], cli->launch.groupsize[0]);
        if (cli->launch.groupsize[1] > 1 || cli->launch.groupsize[2] > 1)
            fprintf(stderr, "×%u×%u", cli->launch.groupsize[1], cli->launch.groupsize[2]);
        fprintf(stderr, "%s, gridsize %u", cli->groupsize_set ? "" : " (default)", cli->launch.gridsize[0]);
        if (!cli->gridsize_set)
            fprintf(stderr, first >= 0 ? " (default: covers argument %d's %lld elements)" : " (default)%.0d", first + 1,
                    first >= 0 ? (long long)juke_array_length(ra->args[first].v.array) : 0LL);
        fputc('\n', stderr);
    }
    return 0;
}

/* --global NAME=VALUE: the value's bytes, as the kernel's global of that type holds them. */
static size_t global_bytes(const juke_arg *a, unsigned char out[8])
{
    size_t n = juke_sizeof(a->type);
    switch (a->type) {
    case JUKE_FLOAT16: memcpy(out, &a->v.f16, 2); break;
    case JUKE_FLOAT32: memcpy(out, &a->v.f32, 4); break;
    case JUKE_FLOAT64: memcpy(out, &a->v.f64, 8); break;
    default: memcpy(out, &a->v.u, n); break; /* little-endian: the low bytes */
    }
    return n;
}

/* Set each --global of k on dev before the launch. */
static int globals_set(Cli *cli, Session *s, juke_device *dev, juke_kernel *k)
{
    for (int i = 0; i < cli->nglobals; i++) {
        juke_arg a;
        const char *why;
        unsigned char b[8] = { 0 };
        if (!lit_parse(cli->globals[i].value, &a, &why) || a.type == JUKE_FLOAT16) {
            fprintf(stderr, "juke run: --global %s=%s: %s\n", cli->globals[i].name, cli->globals[i].value,
                    a.type == JUKE_FLOAT16 ? "a Float16 global is not supported" : why);
            return 2;
        }
        size_t n = global_bytes(&a, b);
        juke_status st = juke_kernel_global_set(k, dev, cli->globals[i].name, b, n);
        if (st != JUKE_OK)
            return cli_lib_error(s->ctx, st);
    }
    return 0;
}

/* After the launch: each --global's value as the kernel left it, `NAME = value` on stdout. */
static int globals_print(Cli *cli, Session *s, juke_device *dev, juke_kernel *k)
{
    for (int i = 0; i < cli->nglobals; i++) {
        juke_arg a;
        const char *why;
        unsigned char b[8] = { 0 };
        lit_parse(cli->globals[i].value, &a, &why);
        size_t n = global_bytes(&a, b);
        juke_status st = juke_kernel_global_get(k, dev, cli->globals[i].name, b, n);
        if (st != JUKE_OK)
            return cli_lib_error(s->ctx, st);
        int64_t iv = 0;
        uint64_t uv = 0;
        memcpy(&uv, b, n);
        printf("%s = ", cli->globals[i].name);
        if (a.type == JUKE_FLOAT32 || a.type == JUKE_FLOAT64) {
            double d;
            if (a.type == JUKE_FLOAT32) {
                float f;
                memcpy(&f, b, 4);
                d = f;
            } else
                memcpy(&d, b, 8);
            char t[64];
            for (int prec = 1; prec <= 17; prec++) { /* the shortest text that reads back */
                snprintf(t, sizeof t, "%.*g", prec, d);
                if (a.type == JUKE_FLOAT32 ? (float)strtod(t, NULL) == (float)d : strtod(t, NULL) == d)
                    break;
            }
            printf("%s%s\n", t, strpbrk(t, ".en") ? "" : ".0");
        } else if (a.type == JUKE_BOOL) {
            printf("%s\n", b[0] ? "true" : "false");
        } else if (a.type >= JUKE_UINT8 && a.type <= JUKE_UINT64) {
            printf("0x%0*llx\n", (int)(2 * n), (unsigned long long)uv);
        } else {
            int sh = 64 - 8 * (int)n; /* sign-extend the low n bytes */
            iv = (int64_t)(uv << sh) >> sh;
            printf("%lld\n", (long long)iv);
        }
    }
    return 0;
}

static int run_run(Cli *cli)
{
    const Sub *sub = cli->sub;
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
        if (!ends_with(cli->pos[i], ".npy") && !lit_parse(cli->pos[i], &arg, &why) && !lit_is_value(cli->pos[i]) &&
            !is_lambda_arg(cli->pos[i])) /* tuples, structs and types are checked once the file is loaded */
            return cli_usage(sub, "argument %d '%s': %s", i - 1, cli->pos[i], why);
    }
    Session s;
    RunArgs ra = { 0 };
    juke_device *dev = NULL;
    juke_kernel *k = NULL;
    int r = session_open(cli, &s);
    if (!r) {
        juke_status st = juke_device_open(s.ctx, cli->device ? cli->device : "auto", &dev);
        if (st == JUKE_OK && cli->heap_size)
            st = juke_device_set_heap_size(dev, cli->heap_size);
        if (st != JUKE_OK)
            r = cli_lib_error(s.ctx, st);
    }
    if (!r && cli->verbose)
        fprintf(stderr, "juke: device %s\n", juke_device_name(dev));
    if (!r)
        r = runargs_make(cli, &s, dev, &ra);
    if (!r && cli->launch.ndims && cli->nglobals)
        r = cli_usage(sub, "--global needs a kernel launched with --gridsize, not a @kernel's --ndrange");
    if (!r && cli->launch.ndims && cli->gridsize_set)
        r = cli_usage(sub, "give --ndrange or --gridsize, not both (the grid covers the ndrange)");
    if (!r && cli->launch.ndims) {
        /* KernelAbstractions' launch: the library picks the grid (and a groupsize if none is given) */
        double t0 = now_seconds();
        juke_status st = juke_launch(dev, s.mod, cli->pos[1], ra.args, ra.n, &cli->launch);
        if (st == JUKE_OK)
            st = juke_device_synchronize(dev);
        if (st != JUKE_OK)
            r = cli_lib_error(s.ctx, st);
        else if (cli->verbose)
            fprintf(stderr, "juke: run: %.3f ms (%s, compile, launch and synchronisation)\n",
                    (now_seconds() - t0) * 1e3, cli->pos[1]);
    } else {
        if (!r) {
            double t0 = now_seconds();
            juke_status st = juke_kernel_for(dev, s.mod, cli->pos[1], ra.args, ra.n, &k);
            double t1 = now_seconds();
            if (st != JUKE_OK)
                r = cli_lib_error(s.ctx, st);
            else if (cli->verbose) {
                const char *cdir = cli->opts.cache_dir ? cli->opts.cache_dir : getenv("JUKE_CACHE_DIR");
                if (juke_kernel_from_disk_cache(k))
                    fprintf(stderr, "juke: compile: %.3f ms (disk cache hit in %s)\n", (t1 - t0) * 1e3, cdir);
                else if (!cdir || !*cdir)
                    fprintf(stderr, "juke: compile: %.3f ms (compiled; no disk cache)\n", (t1 - t0) * 1e3);
                else
                    fprintf(stderr, "juke: compile: %.3f ms (compiled; disk cache miss in %s)\n", (t1 - t0) * 1e3,
                            cdir);
            }
        }
        if (!r)
            r = default_launch(cli, &s, dev, k, &ra);
        if (!r)
            r = globals_set(cli, &s, dev, k);
        if (!r) {
            double t0 = now_seconds();
            juke_status st = juke_kernel_launch(k, dev, ra.args, ra.n, &cli->launch);
            if (st == JUKE_OK)
                st = juke_device_synchronize(dev);
            if (st == JUKE_OK)
                r = globals_print(cli, &s, dev, k);
            double t1 = now_seconds();
            if (st != JUKE_OK)
                r = cli_lib_error(s.ctx, st);
            else if (cli->verbose)
                fprintf(stderr, "juke: run: %.3f ms (%s, launch and synchronisation)\n", (t1 - t0) * 1e3, cli->pos[1]);
        }
    }
    if (!r)
        r = cli->nouts ? write_outs(cli, &s, &ra) : write_modified(cli, &s, &ra);
    runargs_free(&ra);
    session_close(&s); /* frees the arrays and the device */
    return r;
}

/* ---- targets, devices, the cache ----------------------------------------- */

/* juke targets: every row of the target registry (compiler/targets.c). */
static int run_targets(Cli *cli)
{
    (void)cli;
    for (int i = 0; i < target_count(); i++) {
        const TargetInfo *t = target_at(i);
        StrBuf procs = { 0 };
        target_list_procs(t, &procs);
        printf("%-8s %s%s\n", t->name, t->label, t->ops ? "" : " (this build cannot compile for it)");
        printf("  processors: %s\n", procs.data ? procs.data : "(any the host's LLVM knows)");
        printf("  default:    %s%s\n", t->default_proc ? t->default_proc : "the host's processor",
               t->default_proc && !strcmp(t->default_proc, target_default_spec) ? "   (juke's default target)" : "");
        printf("  spec:       %s%s%s%s, code object .%s\n", t->name, t->proc_prefix ? ", " : "",
               t->proc_prefix ? t->proc_prefix : "", t->proc_prefix ? "NAME" : "", t->ext);
        sb_free(&procs);
    }
    printf("\ndefault target: %s\n", target_default_spec);
    return finish_stdout();
}

/* juke devices: what "auto" picks and why, then each kind of device. */
static int run_devices(Cli *cli)
{
    (void)cli;
    RtDevice *d = NULL;
    char *why = NULL, *err = NULL;
    if (rt_device_open("auto", 0, &d, &why, &err) == 0) {
        printf("auto: %s\n", rt_device_name(d));
        if (why)
            printf("  why: %s\n", why);
        rt_device_close(d);
    } else {
        printf("auto: none (%s)\n", err ? err : "no device");
    }
    free(why);
    free(err);
    const char *spec;
    for (int i = 0; (spec = rt_backend_spec(i)) != NULL; i++) {
        why = err = NULL;
        if (rt_device_open(spec, 0, &d, NULL, &err) == 0) {
            printf("%-5s %s, max groupsize %u, %u bytes of local memory per group\n", spec, rt_device_name(d),
                   rt_device_max_group_size(d), rt_device_max_local_bytes(d));
            rt_device_close(d);
        } else {
            const char *e = err ? err : "not available";
            printf("%-5s not available: %.*s\n", spec, (int)strcspn(e, "\n"), e);
        }
        free(err);
    }
    return finish_stdout();
}

/* An entry of juke's disk cache (compiler/kcache.c's format): its first
 * line, and from its key line the function and the target. */
static bool cache_entry_info(int dfd, const char *name, char *function, size_t fsz, char *target, size_t tsz)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return false;
    char buf[4096];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = 0;
    if (strncmp(buf, "JUKE-KERNEL-CACHE ", 18) != 0)
        return false;
    const char *key = strstr(buf, "\nkey: ");
    snprintf(function, fsz, "?");
    snprintf(target, tsz, "?");
    if (key) {
        /* key: function/nargs(types)|target|O3|... */
        key += 6;
        const char *slash = strchr(key, '/'), *close = strstr(key, ")|");
        if (slash)
            snprintf(function, fsz, "%.*s", (int)(slash - key), key);
        if (close)
            snprintf(target, tsz, "%.*s", (int)strcspn(close + 2, "|\n"), close + 2);
    }
    return true;
}

/* juke cache path | list | clear. */
static int run_cache(Cli *cli)
{
    const char *what = cli->npos ? cli->pos[0] : "list";
    if (strcmp(what, "path") && strcmp(what, "list") && strcmp(what, "clear"))
        return cli_usage(cli->sub, "unknown cache action '%s' (path, list, clear)", what);
    const char *dir = cli->opts.cache_dir ? cli->opts.cache_dir : getenv("JUKE_CACHE_DIR");
    if (!dir || !*dir) {
        if (!strcmp(what, "path"))
            return cli_error("no disk cache (%s)",
                             cli->no_cache ? "--no-cache" : "neither $XDG_CACHE_HOME nor $HOME is set");
        printf("no disk cache\n");
        return finish_stdout();
    }
    if (!strcmp(what, "path")) {
        printf("%s\n", dir);
        return finish_stdout();
    }
    DIR *dp = opendir(dir);
    if (!dp) {
        if (errno == ENOENT) {
            printf("%s: empty (the directory does not exist yet)\n", dir);
            return finish_stdout();
        }
        return cli_error("could not open the cache directory '%s': %s", dir, strerror(errno));
    }
    int dfd = dirfd(dp), count = 0, failed = 0;
    unsigned long long total = 0;
    bool clear = !strcmp(what, "clear");
    struct dirent *de;
    while ((de = readdir(dp))) {
        if (!ends_with(de->d_name, ".jkc"))
            continue;
        char function[128], target[64];
        struct stat st;
        if (fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        /* only juke's: an interrupted write's temporary, or an entry by its first line */
        bool tmp = strncmp(de->d_name, ".tmp-", 5) == 0;
        if (!tmp && !cache_entry_info(dfd, de->d_name, function, sizeof function, target, sizeof target))
            continue;
        if (clear) {
            if (unlinkat(dfd, de->d_name, 0) != 0) {
                fprintf(stderr, "juke: error: could not remove %s/%s: %s\n", dir, de->d_name, strerror(errno));
                failed++;
                continue;
            }
        } else if (!tmp) {
            if (!count)
                printf("%-32s %-10s %10s  %s\n", "FUNCTION", "TARGET", "BYTES", "ENTRY");
            printf("%-32s %-10s %10lld  %s\n", function, target, (long long)st.st_size, de->d_name);
        }
        count++;
        total += (unsigned long long)st.st_size;
    }
    closedir(dp);
    if (clear)
        printf("removed %d entr%s (%llu bytes) from %s\n", count - failed, count - failed == 1 ? "y" : "ies", total,
               dir);
    else
        printf("%d entr%s, %llu bytes in %s\n", count, count == 1 ? "y" : "ies", total, dir);
    int r = finish_stdout();
    return failed ? 1 : r;
}

/* ---- the subcommands ------------------------------------------------------ */

#define COMPILE_OPTIONS_HELP                                                                                           \
    "  --target T                 gfx90a (default), gfx942, gfx1100, any gfx name, sm_90..., cpu\n"                    \
    "  -O N, -ON                  optimisation level 0..3 (default 3)\n"                                               \
    "  --code-object-version 4|5  AMDGPU code object version (default 5)\n"                                            \
    "  --wavefront-size 32|64     AMDGPU wavefront size (default: the processor's)\n"                                  \
    "  --device-libs DIR          ROCm device-library bitcode (default: $JUKE_DEVICE_LIBS or ROCm's)\n"                \
    "  --dump-dir DIR             also write every kernel's dumps into DIR (as $JUKE_DUMP_DIR does)\n"                 \
    "  --debuginfo none|source    source lines in the LLVM and assembly dumps (default source)\n"                      \
    "  --index-bits 32|64         32: the variant for arrays of fewer than 2^31 elements (default 64)\n"               \
    "  --same-shape               the variant for launches whose arrays all have one shape\n"                          \
    "  --small-grid               the variant for grids of at most 2^20 workgroups a dimension\n"

#define TYPES_HELP                                                                                                     \
    "TYPE arguments are Julia types of the host-side arguments: Vector{Float32}, Matrix{Int32},\n"                     \
    "Array{Float64,3}, Float32, Int32, Bool, ...\n"

static int run_help_sub(Cli *cli);

static const Sub subs[] = {
    { "lowered", "FILE FUNCTION [TYPE...]", "the lowered IR (@code_lowered)", 2, OPT_COMPILE, JUKE_DUMP_LOWERED,
      run_frontend,
      "Print the lowered IR of FUNCTION's methods (like @code_lowered); with TYPEs, only the\n"
      "method dispatch picks for them.\n\n" TYPES_HELP },
    { "typed", "FILE FUNCTION TYPE...", "the typed IR (@code_typed)", 2, OPT_COMPILE, JUKE_DUMP_TYPED, run_frontend,
      "Print the typed IR of FUNCTION specialised on the TYPEs, callees included\n"
      "(like @code_typed).\n\n" TYPES_HELP },
    { "llvm", "[--raw] [--module] [OPTIONS] FILE FUNCTION TYPE...", "the LLVM IR (@device_code_llvm)", 2,
      OPT_COMPILE | OPT_LLVM, JUKE_DUMP_LLVM, run_dump,
      "Print the kernel's LLVM IR after optimisation (like @device_code_llvm).\n\n"
      "  --raw                      the whole module before optimisation\n"
      "  --module                   the whole module after optimisation, not only the kernel\n" },
    { "gcn", "[OPTIONS] FILE FUNCTION TYPE...", "the GCN assembly (@device_code_gcn)", 2, OPT_COMPILE, JUKE_DUMP_ASM,
      run_dump, "Print the kernel's GCN assembly for an AMDGPU target (like @device_code_gcn).\n" },
    { "asm", "[OPTIONS] FILE FUNCTION TYPE...", "the assembly of any target (GCN, PTX, x86-64)", 2, OPT_COMPILE,
      JUKE_DUMP_ASM, run_dump,
      "Print the kernel's assembly for any target: GCN for gfx*, PTX for sm_*, host\n"
      "assembly for cpu.\n" },
    { "resources", "[OPTIONS] FILE FUNCTION TYPE...", "registers, local memory, scratch, occupancy", 2, OPT_COMPILE,
      JUKE_DUMP_RESOURCES, run_dump,
      "Print the kernel's resource usage: VGPRs, SGPRs, local memory, scratch, occupancy,\n"
      "compile times.\n" },
    { "compile", "[OPTIONS] -o OUT FILE FUNCTION TYPE...", "write the code object (.hsaco, .ptx, .so)", 2,
      OPT_COMPILE | OPT_OUTPUT, JUKE_DUMP_ASM, run_compile,
      "Compile the kernel and write its code object to OUT: an AMDGPU ELF (.hsaco) for gfx*,\n"
      "PTX text for sm_*, a shared object for cpu.\n\n"
      "  -o OUT                     the file to write\n" },
    { "run",
      "[--device D] [--groupsize X[,Y[,Z]]] [--gridsize X[,Y[,Z]] | --ndrange X[,Y[,Z...]]] [--shmem BYTES]\n"
      "                [--timeout S] [--cooperative] [--seed N] [--heap-size BYTES] [--global NAME=VALUE]...\n"
      "                [--out K=PATH.npy]... [--trace FILE] [-v]\n"
      "                FILE FUNCTION ARG...",
      "run a kernel on a device with .npy arrays and literals", 2, OPT_COMPILE | OPT_RUN, JUKE_DUMP_ASM, run_run,
      "Run FUNCTION on a device. An ARG ending in .npy is an array read from that file (a C-order\n"
      "array is read as NPZ.jl reads it); any other ARG is a Julia literal: 2.5f0 (Float32), 2.5,\n"
      "1e-3 (Float64), 3, -3 (Int64), 0x1f (UInt8), true, Int32(7), UInt8(1), Float16(1.5),\n"
      "Int128(5), UInt128(x), and decimal literals past typemax(Int64) (Int128), as Julia types them.\n"
      "Kernel exceptions (BoundsError, ...) are reported with exit status 1. Without --out, every\n"
      "array argument the kernel modified is written next to its input as NAME.out.npy (stderr\n"
      "says which).\n\n"
      "  --device D                 auto (default: an AMD GPU, else an NVIDIA GPU, else the CPU),\n"
      "                             cpu, hip, hip:N, cuda, cuda:N, amdemu[:gfx942|gfx90a] (AMD\n"
      "                             code objects in juke's ISA emulator, docs/amdemu.md)\n"
      "  --groupsize X[,Y[,Z]]      work-items per workgroup (default: the kernel's and device's\n"
      "                             limit, at most 256; stderr says what was chosen)\n"
      "  --gridsize X[,Y[,Z]]       workgroups, as in AMDGPU.jl (default: enough groups to cover\n"
      "                             the first array argument's length)\n"
      "  --ndrange X[,Y[,Z...]]     work-items, as KernelAbstractions' ndrange (needed by a @kernel\n"
      "                             function): the grid is the ndrange rounded up to whole groups;\n"
      "                             the default groupsize is 256 work-items (16x16 in 2-D, 8x8x4 in 3-D);\n"
      "                             4 to 8 dimensions launch linearly (one groupsize number); a\n"
      "                             dimension LO:HI is an offset range (@index(Global) counts from LO)\n"
      "  --shmem BYTES              dynamic local memory per workgroup\n"
      "  --global NAME=VALUE        before the launch, set the kernel's device global NAME\n"
      "                             (get_global_pointer(Val(:NAME), T), T the literal's type); after\n"
      "                             it, print NAME = its value on stdout (repeatable, at most 8)\n"
      "  --heap-size BYTES          the device heap that malloc in kernels allocates from (default\n"
      "                             8 MiB; malloc returns NULL when it is full)\n"
      "  --timeout S                run-time limit in seconds (0 = none): the CPU cancels the kernel\n"
      "  --cooperative              every workgroup resident at once, as sync_grid() needs (HIP/CUDA\n"
      "                             cooperative launch; the CPU runs each group on a thread of its own)\n"
      "  --seed N                   the seed of the kernel's random numbers (rand, randn, randexp):\n"
      "                             the same seed draws the same numbers (default: a fresh one)\n"
      "  --out K=PATH.npy           after the run, write argument K (1-based, an array) to PATH\n"
      "  -v                         print the device, the compile time (and whether the disk cache\n"
      "                             had the kernel) and the run time, on stderr\n"
      "  --trace FILE               write a timeline (compile stages, cache, load, launch, the kernel\n"
      "                             on the device, copies) as Chrome/Perfetto JSON (as $JUKE_TRACE does)\n"
      "  -O N, --device-libs DIR, --dump-dir DIR, --code-object-version, --wavefront-size\n"
      "                             as for the other subcommands (the target is the device's)\n" },
    { "targets", "", "the targets and processors juke compiles for", 0, 0, JUKE_DUMP_ASM, run_targets,
      "List every code-generation target, its processors and its default; juke's default\n"
      "target is marked.\n" },
    { "devices", "", "the devices here, and what --device auto picks and why", 0, 0, JUKE_DUMP_ASM, run_devices,
      "Say which device --device auto picks and why, then whether each kind of device (hip,\n"
      "cuda, cpu) can be opened here.\n" },
    { "cache", "[--cache-dir DIR | --no-cache] list|clear|path", "the disk cache of compiled kernels", 0, 0,
      JUKE_DUMP_ASM, run_cache,
      "list (default): each entry of the disk cache with its function, target and size.\n"
      "clear: remove juke's entries (*.jkc files that are juke's), nothing else.\n"
      "path: print the cache directory.\n" },
    { "help", "[SUBCOMMAND]", "the help of a subcommand", 0, 0, JUKE_DUMP_ASM, run_help_sub,
      "Print the help of SUBCOMMAND, or juke's.\n" },
};

static const Sub *find_sub(const char *name)
{
    for (int i = 0; i < (int)(sizeof subs / sizeof subs[0]); i++)
        if (!strcmp(subs[i].name, name))
            return &subs[i];
    return NULL;
}

#define COMMON_OPTIONS_HELP                                                                                            \
    "  --cache-dir DIR            the disk cache of compiled kernels (default: $JUKE_CACHE_DIR, else\n"                \
    "                             $XDG_CACHE_HOME/juke or ~/.cache/juke)\n"                                            \
    "  --no-cache                 no disk cache\n"                                                                     \
    "  --color=auto|always|never  colour types and errors (auto: on a terminal, unless $NO_COLOR is set)\n"

/* Every environment variable juke reads (the library, the runtime and this command). */
#define ENVIRONMENT_HELP                                                                                               \
    "  JUKE_DUMP_DIR              write every compiled kernel's dumps there (as --dump-dir)\n"                         \
    "  JUKE_CACHE_DIR             the disk cache (as --cache-dir)\n"                                                   \
    "  XDG_CACHE_HOME, HOME       where the default disk cache lives\n"                                                \
    "  JUKE_DEVICE_LIBS           AMDGPU: the ROCm device-library bitcode directory\n"                                 \
    "  JUKE_LIBDEVICE             NVPTX: libdevice.10.bc\n"                                                            \
    "  JUKE_LLD_SPAWN=1           link with a spawned ld.lld rather than lld as a library\n"                           \
    "  JUKE_LLD_NO_MEMFD=1        spawn ld.lld on files in a private temporary directory\n"                            \
    "  JUKE_CPU_THREADS           worker threads of the CPU device (1..1024)\n"                                        \
    "  JUKE_MERGE_CHECKS          1: merge bounds checks on every target (default GPUs only); 0: on none\n"            \
    "  JUKE_HIP_LIBRARY           the HIP runtime to load (default libamdhip64.so)\n"                                  \
    "  JUKE_AMDEMU_LIBRARY        --device amdemu's emulator (default libjuke-amdemu.so beside juke)\n"                \
    "  JUKE_CUDA_LIBRARY          the CUDA driver to load (default libcuda.so.1)\n"                                    \
    "  JUKE_TRACE                 write a Chrome/Perfetto timeline there (as juke run --trace)\n"                      \
    "  NO_COLOR                   set and not empty: no colour under --color=auto\n"                                   \
    "  TERM                       dumb: no colour under --color=auto\n"                                                \
    "  TMPDIR                     where temporary files go (spawned linker, CPU code objects)\n"

static void print_main_help(FILE *f)
{
    fprintf(f,
            "usage: juke SUBCOMMAND [OPTIONS] FILE FUNCTION TYPE-or-ARG...\n"
            "       juke --help | --help-all | --version | --man | --completion bash|zsh | help SUBCOMMAND\n\n"
            "juke %s compiles GPU kernels written in a Julia subset (as AMDGPU.jl users write them)\n"
            "and shows every stage, like @code_lowered, @code_typed and @device_code_*.\n\n"
            "subcommands:\n",
            juke_version());
    for (int i = 0; i < (int)(sizeof subs / sizeof subs[0]); i++) {
        fprintf(f, "  %-10s %s\n", subs[i].name, subs[i].summary);
    }
    fprintf(f, "\nThe compiling subcommands take these options:\n" COMPILE_OPTIONS_HELP
               "\nEvery subcommand takes these:\n" COMMON_OPTIONS_HELP "\nEnvironment:\n" ENVIRONMENT_HELP
               "\nExit status: 0 success, 1 compile error, kernel exception or device error, 2 usage error.\n"
               "See docs/cli.md for more.\n");
}

static void print_help(const Sub *sub)
{
    printf("usage: juke %s %s\n\n%s", sub->name, sub->synopsis, sub->help);
    if (sub->opts & OPT_COMPILE && sub->run != run_run)
        printf("\noptions:\n" COMPILE_OPTIONS_HELP);
    printf("\n%s" COMMON_OPTIONS_HELP, sub->opts & OPT_COMPILE && sub->run != run_run ? "" : "options:\n");
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

/* ---- the help as a man page and as shell completion ----------------------- */

static void print_help_all(void)
{
    print_main_help(stdout);
    for (int i = 0; i < (int)(sizeof subs / sizeof subs[0]); i++) {
        printf("\n");
        print_help(&subs[i]);
    }
}

/* text as roff lines inside .nf: backslashes doubled, no line starting a request */
static void roff_text(const char *text)
{
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        if (*p == '.' || *p == '\'')
            fputs("\\&", stdout);
        for (size_t k = 0; k < n; k++)
            fputs(p[k] == '\\' ? "\\e" : p[k] == '-' ? "\\-" : (char[2]){ p[k], 0 }, stdout);
        fputc('\n', stdout);
        p += n + (p[n] == '\n');
    }
}

/* juke --man: juke(1) in roff, from the same texts as --help. */
static int print_man(void)
{
    printf(".TH JUKE 1 \"\" \"juke %s\" \"User Commands\"\n.SH NAME\njuke \\- compile and run GPU kernels written "
           "in a Julia subset\n.SH SYNOPSIS\n.nf\n",
           juke_version());
    for (int i = 0; i < (int)(sizeof subs / sizeof subs[0]); i++) {
        printf("\\fBjuke %s\\fR ", subs[i].name);
        roff_text(*subs[i].synopsis ? subs[i].synopsis : "\n");
    }
    printf(".fi\n.SH DESCRIPTION\njuke compiles GPU kernels written in a Julia subset (as AMDGPU.jl users write "
           "them) for AMD GPUs, NVIDIA GPUs and the CPU, shows every stage like @code_lowered, @code_typed and "
           "@device_code_*, and runs kernels on arrays read from .npy files.\n.SH SUBCOMMANDS\n");
    for (int i = 0; i < (int)(sizeof subs / sizeof subs[0]); i++) {
        printf(".SS %s\n", subs[i].name);
        roff_text(subs[i].summary);
        printf(".PP\n.nf\n");
        roff_text(subs[i].help);
        printf(".fi\n");
    }
    printf(".SH OPTIONS\nThe compiling subcommands take:\n.PP\n.nf\n");
    roff_text(COMPILE_OPTIONS_HELP);
    printf(".fi\n.PP\nEvery subcommand takes:\n.PP\n.nf\n");
    roff_text(COMMON_OPTIONS_HELP);
    printf(".fi\n.SH ENVIRONMENT\n.nf\n");
    roff_text(ENVIRONMENT_HELP);
    printf(".fi\n.SH EXIT STATUS\n0 success, 1 an error the library reported (compile error, kernel exception, "
           "device error, unreadable file), 2 a usage error.\n.SH SEE ALSO\ndocs/cli.md in juke's sources.\n");
    return finish_stdout();
}

/* Is word one of list's " "-separated words? */
static bool has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p && *p; p += strcspn(p, " "), p += *p == ' ')
        if (strncmp(p, word, n) == 0 && (p[n] == ' ' || !p[n]))
            return true;
    return false;
}

/* Append to sb, " "-separated, every option a help text names at a line's
 * start ("  --target T", "  -O N, -ON"), so completion knows what the help
 * says and nothing else. */
static void help_options(StrBuf *sb, const char *text)
{
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, "  -", 3) != 0)
            continue;
        const char *q = p + 2;
        for (;;) {
            size_t n = strcspn(q, " ,=\n");
            char opt[64];
            snprintf(opt, sizeof opt, "%.*s", (int)n, q);
            /* "-ON" is -O with its value attached, not an option of its own */
            if (!has_word(sb->data, opt) && strcmp(opt, "-ON") != 0)
                sb_printf(sb, "%s%s", sb->len ? " " : "", opt);
            /* "-O N, --opt-level N": the next spelling on the line */
            const char *c = strstr(q, ", -");
            const char *eol = strchr(q, '\n');
            if (!c || (eol && c > eol))
                break;
            q = c + 2;
        }
    }
}

/* The options a subcommand takes, as completion offers them. */
static char *sub_options(const Sub *sub)
{
    StrBuf sb = { 0 };
    help_options(&sb, sub->help);
    if (sub->opts & OPT_COMPILE && sub->run != run_run)
        help_options(&sb, COMPILE_OPTIONS_HELP);
    help_options(&sb, COMMON_OPTIONS_HELP);
    sb_puts(&sb, " --help");
    return sb_take(&sb);
}

/* juke --completion bash|zsh: a completion script from the subcommand
 * table and the help texts (tools/completion/ holds their output). */
static int print_completion(const char *shell)
{
    int nsubs = (int)(sizeof subs / sizeof subs[0]);
    StrBuf targets = { 0 };
    for (int i = 0; i < target_count(); i++) {
        const TargetInfo *t = target_at(i);
        sb_printf(&targets, "%s%s", i ? " " : "", t->name);
        for (int j = 0; t->procs && t->procs[j]; j++)
            sb_printf(&targets, " %s%s", t->proc_prefix || !t->proc_separator ? "" : t->proc_separator, t->procs[j]);
    }
    StrBuf devices = { 0 }; /* the runtime's backends, in the order "auto" tries them */
    const char *spec;
    for (int i = 0; (spec = rt_backend_spec(i)) != NULL; i++)
        sb_printf(&devices, "%s%s", i ? " " : "", spec);
    if (!strcmp(shell, "bash")) {
        printf("# bash completion for juke %s (generated by `juke --completion bash`)\n_juke()\n{\n"
               "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} opts\n"
               "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n        COMPREPLY=($(compgen -W \"",
               juke_version());
        for (int i = 0; i < nsubs; i++)
            printf("%s ", subs[i].name);
        printf("--help --help-all --version --man --completion\" -- \"$cur\"))\n        return\n    fi\n"
               "    case $prev in\n"
               "        --target) COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); return ;;\n"
               "        --device) COMPREPLY=($(compgen -W \"auto %s\" -- \"$cur\")); return ;;\n"
               "        --completion) COMPREPLY=($(compgen -W \"bash zsh\" -- \"$cur\")); return ;;\n"
               "        --cache-dir|--dump-dir|--device-libs) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n"
               "    esac\n    case ${COMP_WORDS[1]} in\n",
               targets.data ? targets.data : "", devices.data ? devices.data : "");
        for (int i = 0; i < nsubs; i++) {
            char *o = sub_options(&subs[i]);
            printf("        %s) opts=\"%s\" ;;\n", subs[i].name, o ? o : "");
            free(o);
        }
        printf("    esac\n    if [[ $cur == -* ]]; then\n        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
               "    elif [ \"${COMP_WORDS[1]}\" = cache ]; then\n"
               "        COMPREPLY=($(compgen -W \"list clear path\" -- \"$cur\"))\n"
               "    elif [ \"${COMP_WORDS[1]}\" = help ]; then\n        COMPREPLY=($(compgen -W \"");
        for (int i = 0; i < nsubs; i++)
            printf("%s%s", i ? " " : "", subs[i].name);
        printf("\" -- \"$cur\"))\n    else\n        COMPREPLY=($(compgen -f -- \"$cur\"))\n    fi\n}\n"
               "complete -o filenames -F _juke juke\n");
    } else if (!strcmp(shell, "zsh")) {
        printf("#compdef juke\n# zsh completion for juke %s (generated by `juke --completion zsh`)\n_juke() {\n"
               "  local -a subs opts\n  subs=(\n",
               juke_version());
        for (int i = 0; i < nsubs; i++) {
            printf("    '%s:", subs[i].name);
            for (const char *c = subs[i].summary; *c; c++)
                printf(*c == '\'' ? "'\\''" : "%c", *c);
            printf("'\n");
        }
        printf("  )\n  if (( CURRENT == 2 )); then\n    _describe 'subcommand' subs\n    return\n  fi\n"
               "  case $words[CURRENT-1] in\n"
               "    --target) compadd -- %s; return ;;\n"
               "    --device) compadd -- auto %s; return ;;\n"
               "    --cache-dir|--dump-dir|--device-libs) _directories; return ;;\n"
               "  esac\n  case $words[2] in\n",
               targets.data ? targets.data : "", devices.data ? devices.data : "");
        for (int i = 0; i < nsubs; i++) {
            char *o = sub_options(&subs[i]);
            printf("    %s) opts=(%s) ;;\n", subs[i].name, o ? o : "");
            free(o);
        }
        printf("  esac\n  if [[ $PREFIX == -* ]]; then\n    compadd -- $opts\n"
               "  elif [[ $words[2] == cache ]]; then\n    compadd -- list clear path\n"
               "  elif [[ $words[2] == help ]]; then\n    _describe 'subcommand' subs\n"
               "  else\n    _files\n  fi\n}\n_juke \"$@\"\n");
    } else {
        sb_free(&targets);
        sb_free(&devices);
        return cli_usage(NULL, "--completion expects bash or zsh, got '%s'", shell);
    }
    sb_free(&targets);
    sb_free(&devices);
    return finish_stdout();
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage(NULL, "missing subcommand (lowered, typed, llvm, gcn, asm, resources, compile, run, targets, "
                               "devices, cache)");
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        print_main_help(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("juke %s (sources %s)\n", juke_version(), juke_build_id());
        return 0;
    }
    if (!strcmp(argv[1], "--help-all")) {
        print_help_all();
        return finish_stdout();
    }
    if (!strcmp(argv[1], "--man"))
        return print_man();
    if (!strcmp(argv[1], "--completion"))
        return argc == 3 ? print_completion(argv[2]) : cli_usage(NULL, "--completion expects bash or zsh");
    const Sub *sub = find_sub(argv[1]);
    if (!sub)
        return cli_usage(NULL, "unknown subcommand '%s'", argv[1]);
    Cli cli = { .sub = sub };
    int r = parse_args(&cli, argc - 2, argv + 2);
    if (r == 0)
        r = sub->run(&cli);
    free(cli.pos);
    free(cli.cache_default);
    return r < 0 ? 0 : r;
}
