/* test_amdgpu.c: the AMDGPU back end's "must show" (issue 3), through
 * include/juke.h, with the code object's metadata read by the runtime's
 * amdgpu_meta_read (msgpack-c):
 *   - every acceptance kernel and signature (acceptance_cases.h) compiles for
 *     gfx90a, gfx942 and gfx1100 into an AMDGPU ELF (EM_AMDGPU, the HSA OS
 *     ABI, the processor in e_flags) whose metadata lists the kernel under
 *     its symbol with the argument offsets and sizes of docs/abi.md, the
 *     wavefront size of the target and no scratch; both IR dumps parse and
 *     pass LLVM's verifier here again, and llvm_verify rejects broken IR;
 *   - the other processors, an unknown one, --wavefront-size, code object v4;
 *   - the expectations on the dumps' text in tests/dumps/NAME.expect;
 *   - JUKE_DUMP_DIR / dump_dir leave the seven files per kernel, from the
 *     juke command, the API, and the kernel cache.
 * Arguments: the juke executable (for the command-line case).
 * Environment: JUKE_ACCEPTANCE_DIR, JUKE_SOURCE_ROOT (set by meson). */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <msgpack.h>
#include <regex.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "juke.h"
#include "runtime.h"
#include "target.h"
#include "acceptance_cases.h"
#include "testutil.h"

#ifndef EM_AMDGPU
#define EM_AMDGPU 224
#endif
#ifndef ELFOSABI_AMDGPU_HSA
#define ELFOSABI_AMDGPU_HSA 64
#endif
#define EF_AMDGPU_MACH 0x0ff
#define NT_AMDGPU_METADATA 32

extern char **environ;

static const char *juke_exe;

/* ---- helpers ---------------------------------------------------------- */

static const char *acceptance_dir(void)
{
    const char *d = getenv("JUKE_ACCEPTANCE_DIR");
    return d && *d ? d : "tests/kernels/acceptance";
}

static const char *source_root(void)
{
    const char *d = getenv("JUKE_SOURCE_ROOT");
    return d && *d ? d : ".";
}

static char *path_join(const char *a, const char *b)
{
    char *s = malloc(strlen(a) + strlen(b) + 2);
    assert_non_null(s);
    sprintf(s, "%s/%s", a, b);
    return s;
}

static juke_module *load_acceptance(juke_context *ctx, const char *file)
{
    char *p = path_join(acceptance_dir(), file);
    juke_module *m = NULL;
    juke_status st = juke_module_load_file(ctx, p, &m);
    if (st)
        fail_msg("loading %s: %s", p, juke_errmsg(ctx));
    free(p);
    return m;
}

/* Compile function(types) for target with the given options; fails the test on error. */
static juke_kernel *compile_for(juke_context *ctx, juke_module *m, const char *fn, const char *const *types, int n,
                                const char *target, int cov, int wave)
{
    juke_options o;
    juke_options_default(&o);
    o.target = target;
    if (cov)
        o.code_object_version = cov;
    o.wavefront_size = wave;
    juke_kernel *k = NULL;
    juke_status st = juke_compile(m, fn, types, n, &o, &k);
    if (st)
        fail_msg("%s for %s: %s: %s", fn, target, juke_status_name(st), juke_errmsg(ctx));
    return k;
}

/* The processor field of e_flags (LLVM's EF_AMDGPU_MACH_AMDGCN_*). */
static int amdgpu_mach(const char *proc)
{
    static const struct {
        const char *name;
        int mach;
    } t[] = {
        { "gfx906", 0x02f },  { "gfx908", 0x030 },  { "gfx90a", 0x03f },  { "gfx942", 0x04c },
        { "gfx1030", 0x036 }, { "gfx1100", 0x041 }, { "gfx1101", 0x046 }, { "gfx1201", 0x04e },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].name, proc) == 0)
            return t[i].mach;
    fail_msg("no e_flags value known for %s", proc);
    return -1;
}

/* An AMDGPU HSA code object for proc: ELF64, EM_AMDGPU, OS ABI HSA with the
 * ABI version of the code object version (v4: 2, v5: 3), the processor. */
static void check_elf(const void *data, size_t size, const char *proc, int cov)
{
    assert_non_null(data);
    assert_true(size > sizeof(Elf64_Ehdr));
    const Elf64_Ehdr *h = data;
    assert_memory_equal(h->e_ident, ELFMAG, SELFMAG);
    assert_int_equal(h->e_ident[EI_CLASS], ELFCLASS64);
    assert_int_equal(h->e_ident[EI_DATA], ELFDATA2LSB);
    assert_int_equal(h->e_ident[EI_OSABI], ELFOSABI_AMDGPU_HSA);
    assert_int_equal(h->e_ident[EI_ABIVERSION], cov == 4 ? 2 : 3);
    assert_int_equal(h->e_type, ET_DYN);
    assert_int_equal(h->e_machine, EM_AMDGPU);
    assert_int_equal(h->e_flags & EF_AMDGPU_MACH, amdgpu_mach(proc));
}

/* The NT_AMDGPU_METADATA note's msgpack bytes (inside the ELF image). */
static const char *metadata_note(const void *elf, size_t size, size_t *len)
{
    const Elf64_Ehdr *h = elf;
    const uint8_t *base = elf;
    assert_true(h->e_shoff + (uint64_t)h->e_shnum * sizeof(Elf64_Shdr) <= size);
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(base + h->e_shoff);
    for (int i = 0; i < h->e_shnum; i++) {
        if (sh[i].sh_type != SHT_NOTE)
            continue;
        size_t off = sh[i].sh_offset, end = off + sh[i].sh_size;
        while (off + sizeof(Elf64_Nhdr) <= end && end <= size) {
            const Elf64_Nhdr *n = (const Elf64_Nhdr *)(base + off);
            size_t name_off = off + sizeof *n, desc_off = name_off + ((n->n_namesz + 3) & ~3u);
            if (n->n_type == NT_AMDGPU_METADATA && n->n_namesz == 7 && memcmp(base + name_off, "AMDGPU", 7) == 0) {
                *len = n->n_descsz;
                return (const char *)base + desc_off;
            }
            off = desc_off + ((n->n_descsz + 3) & ~3u);
        }
    }
    fail_msg("no NT_AMDGPU_METADATA note");
    return NULL;
}

/* amdhsa.version from the metadata, as major * 100 + minor. */
static int metadata_version(const void *elf, size_t size)
{
    size_t len = 0;
    const char *note = metadata_note(elf, size, &len);
    msgpack_unpacked u;
    msgpack_unpacked_init(&u);
    assert_int_equal(msgpack_unpack_next(&u, note, len, NULL), MSGPACK_UNPACK_SUCCESS);
    int v = -1;
    const msgpack_object *top = &u.data;
    assert_int_equal(top->type, MSGPACK_OBJECT_MAP);
    for (uint32_t i = 0; i < top->via.map.size; i++) {
        const msgpack_object_kv *kv = &top->via.map.ptr[i];
        if (kv->key.type == MSGPACK_OBJECT_STR && kv->key.via.str.size == 14 &&
            memcmp(kv->key.via.str.ptr, "amdhsa.version", 14) == 0 && kv->val.type == MSGPACK_OBJECT_ARRAY &&
            kv->val.via.array.size == 2)
            v = (int)(kv->val.via.array.ptr[0].via.u64 * 100 + kv->val.via.array.ptr[1].via.u64);
    }
    msgpack_unpacked_destroy(&u);
    return v;
}

/* docs/abi.md: an N-dimensional array is 16 + 8N bytes aligned to 8; a
 * scalar its natural size and alignment. */
static void abi_size_align(const char *type, uint32_t *size, uint32_t *align)
{
    static const struct {
        const char *name;
        uint32_t size;
    } scalars[] = {
        { "Bool", 1 },  { "Int8", 1 },   { "UInt8", 1 },   { "Int16", 2 }, { "UInt16", 2 }, { "Float16", 2 },
        { "Int32", 4 }, { "UInt32", 4 }, { "Float32", 4 }, { "Int64", 8 }, { "UInt64", 8 }, { "Float64", 8 },
    };
    int nd = 0;
    if (strncmp(type, "Vector{", 7) == 0)
        nd = 1;
    else if (strncmp(type, "Matrix{", 7) == 0)
        nd = 2;
    else if (strncmp(type, "Array{", 6) == 0) {
        const char *c = strrchr(type, ',');
        assert_non_null(c);
        nd = atoi(c + 1);
    }
    if (nd) {
        *size = 16 + 8 * (uint32_t)nd;
        *align = 8;
        return;
    }
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        if (strcmp(type, scalars[i].name) == 0) {
            *size = *align = scalars[i].size;
            return;
        }
    fail_msg("unknown type %s", type);
}

/* The kernel's metadata lists it under its symbol with docs/abi.md's layout. */
static void check_metadata(juke_kernel *k, const char *const *types, int nargs, int wave, const char *what)
{
    size_t size;
    const void *co = juke_kernel_code_object(k, &size);
    const char *sym = juke_kernel_symbol(k);
    assert_non_null(sym);
    RtFunctionInfo *info = calloc(1, sizeof *info);
    assert_non_null(info);
    char *err = NULL;
    if (amdgpu_meta_read(co, size, sym, info, &err) != 0)
        fail_msg("%s: metadata of %s: %s", what, sym, err ? err : "?");
    assert_string_equal(info->name, sym);
    assert_int_equal(info->nargs, nargs + 1);
    assert_true(info->has_exception_arg);
    uint32_t off = 0;
    for (int i = 0; i < nargs; i++) {
        uint32_t sz = 0, al = 1;
        abi_size_align(types[i], &sz, &al);
        off = (off + al - 1) / al * al;
        if (info->args[i].offset != off || info->args[i].size != sz)
            fail_msg("%s: argument %d (%s) at %u size %u; docs/abi.md says %u size %u", what, i + 1, types[i],
                     info->args[i].offset, info->args[i].size, off, sz);
        assert_false(info->args[i].hidden);
        off += sz;
    }
    off = (off + 7) / 8 * 8;
    const RtArgInfo *e = &info->args[nargs];
    assert_string_equal(e->name, "__juke_exception");
    assert_int_equal(e->offset, off);
    assert_int_equal(e->size, 8);
    assert_string_equal(e->value_kind, "global_buffer");
    off += 8;
    /* the hidden arguments follow the explicit ones */
    for (uint32_t i = info->nargs; i < info->nall; i++) {
        assert_true(info->args[i].hidden);
        assert_true(info->args[i].offset >= off);
    }
    assert_true(info->kernarg_size >= off);
    if ((int)info->wavefront_size != wave)
        fail_msg("%s: wavefront size %u, expected %d", what, info->wavefront_size, wave);
    if (info->scratch_bytes != 0 || info->vgpr_spills || info->sgpr_spills)
        fail_msg("%s: scratch %u bytes, spills %u/%u", what, info->scratch_bytes, info->vgpr_spills, info->sgpr_spills);
    free(info);
}

/* Parse an IR dump and run LLVM's verifier on it, independently of cg_compile. */
static void verify_ir_text(const char *text, const char *what)
{
    assert_non_null(text);
    LLVMContextRef c = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), what);
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(c, buf, &m, &msg))
        fail_msg("%s does not parse: %s", what, msg ? msg : "?");
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg))
        fail_msg("%s fails LLVM's verifier: %s", what, msg ? msg : "?");
    LLVMDisposeMessage(msg);
    LLVMDisposeModule(m);
    LLVMContextDispose(c);
}

/* ---- every acceptance kernel for gfx90a, gfx942, gfx1100 -------------- */

static void compile_all_for(const char *target, int wave)
{
    juke_context *ctx = juke_context_create();
    assert_non_null(ctx);
    int failed = 0;
    for (int i = 0; i < N_ACCEPTANCE_SIGS; i++) {
        const AcceptanceSig *s = &acceptance_sigs[i];
        juke_module *m = load_acceptance(ctx, s->file);
        juke_options o;
        juke_options_default(&o);
        o.target = target;
        juke_kernel *k = NULL;
        juke_status st = juke_compile(m, s->function, s->types, s->nargs, &o, &k);
        if (st) {
            /* go on: report every kernel that does not compile */
            print_error("%s %s(%s...) for %s: %s: %s\n", s->file, s->function, s->types[0], target,
                        juke_status_name(st), juke_errmsg(ctx));
            failed++;
            juke_module_free(m);
            continue;
        }
        char what[256];
        snprintf(what, sizeof what, "%s %s(%s%s) for %s", s->file, s->function, s->types[0],
                 s->nargs > 1 ? ", ..." : "", target);
        size_t size;
        const void *co = juke_kernel_code_object(k, &size);
        check_elf(co, size, target, 5);
        check_metadata(k, s->types, s->nargs, wave, what);
        char w2[300];
        snprintf(w2, sizeof w2, "%s: unoptimised IR", what);
        verify_ir_text(juke_kernel_dump(k, JUKE_DUMP_LLVM_RAW), w2);
        snprintf(w2, sizeof w2, "%s: optimised module", what);
        verify_ir_text(juke_kernel_dump(k, JUKE_DUMP_LLVM_MODULE), w2);
        juke_module_free(m);
    }
    juke_context_destroy(ctx);
    if (failed)
        fail_msg("%d of %d acceptance signatures did not compile for %s", failed, N_ACCEPTANCE_SIGS, target);
}

static void test_acceptance_gfx90a(void **state)
{
    (void)state;
    compile_all_for("gfx90a", 64);
}
static void test_acceptance_gfx942(void **state)
{
    (void)state;
    compile_all_for("gfx942", 64);
}
static void test_acceptance_gfx1100(void **state)
{
    (void)state;
    compile_all_for("gfx1100", 32);
}

/* cg_compile's verifier (llvm_verify) rejects broken IR as DIAG_INVALID_IR:
 * a function whose block has no terminator, and a use of a value of the
 * wrong type would otherwise reach the back end. */
static void test_llvm_verify_rejects(void **state)
{
    (void)state;
    TargetCtx tc = { 0 };
    Diags d = { 0 };
    tc.diags = &d;
    tc.llctx = LLVMContextCreate();
    tc.mod = LLVMModuleCreateWithNameInContext("broken", tc.llctx);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(tc.llctx), NULL, 0, 0);
    LLVMValueRef f = LLVMAddFunction(tc.mod, "f", fty);
    LLVMAppendBasicBlockInContext(tc.llctx, f, "top"); /* no terminator */
    assert_false(llvm_verify(&tc));
    assert_int_equal(d.first_kind, DIAG_INVALID_IR);
    assert_non_null(strstr(d.text.data, "LLVM IR verification failed"));
    diag_reset(&d);
    LLVMDisposeModule(tc.mod);
    LLVMContextDispose(tc.llctx);
}

/* ---- other processors and options --------------------------------------- */

static const char *const vadd_types[] = { "Vector{Float32}", "Vector{Float32}", "Vector{Float32}" };

static void test_other_processors(void **state)
{
    (void)state;
    static const struct {
        const char *proc;
        int wave;
    } procs[] = {
        { "gfx906", 64 }, { "gfx908", 64 }, { "gfx1030", 32 }, { "gfx1101", 32 }, { "gfx1201", 32 },
    };
    juke_context *ctx = juke_context_create();
    juke_module *m = load_acceptance(ctx, "vadd.jl");
    for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
        juke_kernel *k = compile_for(ctx, m, "vadd!", vadd_types, 3, procs[i].proc, 0, 0);
        size_t size;
        const void *co = juke_kernel_code_object(k, &size);
        check_elf(co, size, procs[i].proc, 5);
        check_metadata(k, vadd_types, 3, procs[i].wave, procs[i].proc);
        assert_string_equal(juke_kernel_symbol(k), "vadd_21");
    }
    juke_context_destroy(ctx);
}

static void test_unknown_target(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m = load_acceptance(ctx, "vadd.jl");
    juke_options o;
    juke_options_default(&o);
    o.target = "gfx9999";
    juke_kernel *k = NULL;
    juke_status st = juke_compile(m, "vadd!", vadd_types, 3, &o, &k);
    assert_int_not_equal(st, JUKE_OK);
    assert_null(k);
    const char *msg = juke_errmsg(ctx);
    assert_non_null(strstr(msg, "gfx9999"));
    assert_non_null(strstr(msg, "known targets"));
    static const char *const known[] = { "gfx906",  "gfx908",  "gfx90a",  "gfx942",
                                         "gfx1030", "gfx1100", "gfx1101", "gfx1201" };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strstr(msg, known[i]))
            fail_msg("the unknown-target message does not list %s: %s", known[i], msg);
    juke_context_destroy(ctx);
}

static void test_wavefront_size(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m = load_acceptance(ctx, "vadd.jl");
    /* RDNA runs wave64 on request */
    juke_kernel *k = compile_for(ctx, m, "vadd!", vadd_types, 3, "gfx1100", 0, 64);
    check_metadata(k, vadd_types, 3, 64, "gfx1100 --wavefront-size 64");
    assert_non_null(strstr(juke_kernel_dump(k, JUKE_DUMP_RESOURCES), "wave64"));
    k = compile_for(ctx, m, "vadd!", vadd_types, 3, "gfx1100", 0, 32);
    check_metadata(k, vadd_types, 3, 32, "gfx1100 --wavefront-size 32");
    /* GCN/CDNA cannot run wave32 */
    juke_options o;
    juke_options_default(&o);
    o.target = "gfx90a";
    o.wavefront_size = 32;
    juke_kernel *bad = NULL;
    assert_int_not_equal(juke_compile(m, "vadd!", vadd_types, 3, &o, &bad), JUKE_OK);
    assert_non_null(strstr(juke_errmsg(ctx), "wavefront size 32"));
    juke_context_destroy(ctx);
}

static void test_code_object_versions(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_module *m = load_acceptance(ctx, "vadd.jl");
    for (int cov = 4; cov <= 5; cov++) {
        juke_kernel *k = compile_for(ctx, m, "vadd!", vadd_types, 3, "gfx90a", cov, 0);
        size_t size;
        const void *co = juke_kernel_code_object(k, &size);
        check_elf(co, size, "gfx90a", cov);
        assert_int_equal(metadata_version(co, size), cov == 4 ? 101 : 102);
        check_metadata(k, vadd_types, 3, 64, cov == 4 ? "code object v4" : "code object v5");
        char want[64];
        snprintf(want, sizeof want, ".amdhsa_code_object_version %d", cov);
        assert_non_null(strstr(juke_kernel_dump(k, JUKE_DUMP_ASM), want));
    }
    juke_context_destroy(ctx);
}

/* ---- expectations on the dumps' text (tests/dumps/NAME.expect) -------------
 * Each file holds lines
 *   kernel: FILE FUNCTION TYPE...   compile FILE (in the acceptance directory,
 *                                   or from the repository root when it
 *                                   starts with "./") for the lines below
 *   target: PROC                    for the kernels below (default gfx90a)
 *   DUMP: REGEX                     some line of the dump matches
 *   DUMP!: REGEX                    no line matches
 *   DUMP=N: REGEX                   exactly N lines match
 *   DUMP>=N: REGEX                  at least N lines match
 *   DUMP+: REGEX                    a line after the one the previous
 *                                   expectation on DUMP matched matches
 * DUMP is lowered, typed, raw (unoptimised module), llvm (optimised kernel),
 * module (optimised module), gcn (assembly) or resources; REGEX is POSIX
 * extended, matched against each line. Blank lines and # comments are skipped. */

typedef struct ExpectState {
    juke_context *ctx;
    juke_module *mod;
    juke_kernel *k;
    char target[32];
    int last_line[7]; /* per dump: the line the previous expectation matched */
    int failures;
    const char *file;
    int lineno;
} ExpectState;

static const struct {
    const char *name;
    juke_dump which;
} dump_names[] = {
    { "lowered", JUKE_DUMP_LOWERED },     { "typed", JUKE_DUMP_TYPED },        { "raw", JUKE_DUMP_LLVM_RAW },
    { "llvm", JUKE_DUMP_LLVM },           { "module", JUKE_DUMP_LLVM_MODULE }, { "gcn", JUKE_DUMP_ASM },
    { "resources", JUKE_DUMP_RESOURCES },
};

static void expect_fail(ExpectState *es, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: ", es->file, es->lineno);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    es->failures++;
}

static void expect_kernel(ExpectState *es, char *spec)
{
    char *words[12];
    int n = 0;
    for (char *w = strtok(spec, " \t"); w && n < 12; w = strtok(NULL, " \t"))
        words[n++] = w;
    es->k = NULL;
    memset(es->last_line, 0, sizeof es->last_line);
    if (n < 2) {
        expect_fail(es, "kernel: needs FILE FUNCTION TYPE...");
        return;
    }
    char *path = strncmp(words[0], "./", 2) == 0 ? path_join(source_root(), words[0] + 2)
                                                 : path_join(acceptance_dir(), words[0]);
    if (es->mod)
        juke_module_free(es->mod);
    es->mod = NULL;
    if (juke_module_load_file(es->ctx, path, &es->mod)) {
        expect_fail(es, "loading %s: %s", path, juke_errmsg(es->ctx));
        free(path);
        return;
    }
    free(path);
    juke_options o;
    juke_options_default(&o);
    o.target = es->target;
    if (juke_compile(es->mod, words[1], (const char *const *)words + 2, n - 2, &o, &es->k)) {
        expect_fail(es, "compiling %s: %s", words[1], juke_errmsg(es->ctx));
        es->k = NULL;
    }
}

/* One "DUMP...: REGEX" line. */
static void expect_line(ExpectState *es, char *line)
{
    char *colon = strstr(line, ": ");
    if (!colon) {
        expect_fail(es, "not an expectation: %s", line);
        return;
    }
    *colon = 0;
    const char *re_text = colon + 2;
    char *mod = line + strcspn(line, "!=>+");
    char op = *mod;
    int count = -1;
    if (op == '=')
        count = atoi(mod + 1);
    else if (op == '>')
        count = atoi(mod + 2);
    *mod = 0;
    int di = -1;
    for (int i = 0; i < (int)(sizeof dump_names / sizeof dump_names[0]); i++)
        if (strcmp(line, dump_names[i].name) == 0)
            di = i;
    if (di < 0) {
        expect_fail(es, "unknown dump \"%s\"", line);
        return;
    }
    if (!es->k)
        return; /* the kernel failed to compile: already reported */
    const char *text = juke_kernel_dump(es->k, dump_names[di].which);
    regex_t re;
    if (regcomp(&re, re_text, REG_EXTENDED | REG_NOSUB)) {
        expect_fail(es, "bad regular expression: %s", re_text);
        return;
    }
    int matches = 0, first = 0, lineno = 0, after = op == '+' ? es->last_line[di] : 0;
    for (const char *p = text ? text : ""; *p;) {
        size_t n = strcspn(p, "\n");
        char *l = strndup(p, n);
        lineno++;
        if (lineno > after && regexec(&re, l, 0, NULL, 0) == 0) {
            matches++;
            if (!first)
                first = lineno;
        }
        free(l);
        p += n + (p[n] == '\n');
    }
    regfree(&re);
    bool ok;
    switch (op) {
    case '!': ok = matches == 0; break;
    case '=': ok = matches == count; break;
    case '>': ok = matches >= count; break;
    default: ok = matches > 0; break;
    }
    if (!ok) {
        expect_fail(es, "%s of %s (%s): %d line%s match%s /%s/%s", dump_names[di].name, juke_kernel_symbol(es->k),
                    es->target, matches, matches == 1 ? "" : "s", matches == 1 ? "es" : "", re_text,
                    op == '+' ? " after the previous match" : "");
        fprintf(stderr, "---- %s ----\n%s\n----\n", dump_names[di].name, text ? text : "(none)");
    }
    if (op != '!' && first)
        es->last_line[di] = first;
}

static void run_expect_file(ExpectState *es, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s: %s", path, strerror(errno));
    es->file = path;
    es->lineno = 0;
    snprintf(es->target, sizeof es->target, "gfx90a");
    es->k = NULL;
    char buf[2048];
    while (fgets(buf, sizeof buf, f)) {
        es->lineno++;
        buf[strcspn(buf, "\n")] = 0;
        char *l = buf + strspn(buf, " \t");
        if (!*l || *l == '#')
            continue;
        if (strncmp(l, "kernel:", 7) == 0)
            expect_kernel(es, l + 7);
        else if (strncmp(l, "target:", 7) == 0)
            snprintf(es->target, sizeof es->target, "%s", l + 7 + strspn(l + 7, " \t"));
        else
            expect_line(es, l);
    }
    fclose(f);
}

static void test_dump_expectations(void **state)
{
    (void)state;
    char *dir = path_join(source_root(), "tests/dumps");
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s", dir);
    ExpectState es = { 0 };
    es.ctx = juke_context_create();
    int files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 8 || strcmp(e->d_name + n - 7, ".expect") != 0)
            continue;
        char *p = path_join(dir, e->d_name);
        run_expect_file(&es, p);
        free(p);
        files++;
    }
    closedir(d);
    juke_context_destroy(es.ctx);
    free(dir);
    assert_true(files >= 6);
    if (es.failures)
        fail_msg("%d dump expectation(s) failed (see above)", es.failures);
}

/* ---- dump directories ----------------------------------------------------- */

static const char *const dump_suffixes[7] = { ".lowered.jl", ".typed.jl",      ".unopt.ll", ".opt.ll",
                                              ".asm",        ".resources.txt", ".hsaco" };

/* dir holds exactly `per` non-empty files with each suffix of stem prefix;
 * returns the path of the (last) .hsaco in *hsaco when asked. */
static void check_dump_dir(const char *dir, const char *prefix, int per, char **hsaco)
{
    int seen[7] = { 0 };
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("no dump directory %s", dir);
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
            continue;
        size_t n = strlen(e->d_name);
        for (int i = 0; i < 7; i++) {
            size_t sl = strlen(dump_suffixes[i]);
            if (n > sl && strcmp(e->d_name + n - sl, dump_suffixes[i]) == 0) {
                char *p = path_join(dir, e->d_name);
                struct stat st;
                assert_int_equal(stat(p, &st), 0);
                if (st.st_size == 0)
                    fail_msg("%s is empty", p);
                seen[i]++;
                if (i == 6 && hsaco) {
                    free(*hsaco);
                    *hsaco = p;
                } else {
                    free(p);
                }
            }
        }
    }
    closedir(d);
    for (int i = 0; i < 7; i++)
        if (seen[i] != per)
            fail_msg("%s: %d %s*%s file(s), expected %d", dir, seen[i], prefix, dump_suffixes[i], per);
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *p = path_join(dir, e->d_name);
        unlink(p);
        free(p);
    }
    closedir(d);
    rmdir(dir);
}

/* JUKE_DUMP_DIR=d juke compile --target gfx90a -o x.hsaco vadd.jl vadd! ... */
static void test_dump_dir_cli(void **state)
{
    (void)state;
    if (!juke_exe)
        skip();
    char tmpl[] = "/tmp/juke_amdgpu_XXXXXX";
    char *tmp = mkdtemp(tmpl);
    assert_non_null(tmp);
    char *dumps = path_join(tmp, "d"), *out = path_join(tmp, "x.hsaco");
    char *src = path_join(acceptance_dir(), "vadd.jl");
    char *env_dump = malloc(strlen(dumps) + 16);
    sprintf(env_dump, "JUKE_DUMP_DIR=%s", dumps);
    /* the environment: ours plus JUKE_DUMP_DIR */
    int n = 0;
    while (environ[n])
        n++;
    char **env = calloc((size_t)n + 2, sizeof *env);
    int j = 0;
    for (int i = 0; i < n; i++)
        if (strncmp(environ[i], "JUKE_DUMP_DIR=", 14) != 0)
            env[j++] = environ[i];
    env[j++] = env_dump;
    char *argv[] = { (char *)juke_exe, "compile",         "--target",        "gfx90a",          "-o", out, src,
                     "vadd!",          "Vector{Float32}", "Vector{Float32}", "Vector{Float32}", NULL };
    pid_t pid;
    assert_int_equal(posix_spawn(&pid, juke_exe, NULL, NULL, argv, env), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    char *hsaco = NULL;
    check_dump_dir(dumps, "vadd!_", 1, &hsaco);
    size_t n1, n2;
    uint8_t *a = tu_read_file(out, &n1), *b = tu_read_file(hsaco, &n2);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    check_elf(a, n1, "gfx90a", 5);
    free(a);
    free(b);
    free(hsaco);
    remove_dir(dumps);
    unlink(out);
    rmdir(tmp);
    free(env);
    free(env_dump);
    free(src);
    free(out);
    free(dumps);
}

/* Through the API: JUKE_DUMP_DIR at context creation, also for a kernel
 * that comes from the cache, and juke_options.dump_dir. */
static void test_dump_dir_api(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/juke_amdgpu_XXXXXX";
    char *tmp = mkdtemp(tmpl);
    assert_non_null(tmp);
    char *env_dir = path_join(tmp, "env"), *opt_dir = path_join(tmp, "opt");
    char *old = getenv("JUKE_DUMP_DIR") ? strdup(getenv("JUKE_DUMP_DIR")) : NULL;
    setenv("JUKE_DUMP_DIR", env_dir, 1);
    juke_context *ctx = juke_context_create();
    if (old)
        setenv("JUKE_DUMP_DIR", old, 1);
    else
        unsetenv("JUKE_DUMP_DIR");
    free(old);
    assert_non_null(ctx);
    juke_module *m = load_acceptance(ctx, "vadd.jl");
    juke_kernel *k = NULL;
    assert_int_equal(juke_compile(m, "vadd!", vadd_types, 3, NULL, &k), JUKE_OK);
    check_dump_dir(env_dir, "vadd!_", 1, NULL);
    /* from the cache: the same handle, the files written again */
    remove_dir(env_dir);
    juke_kernel *k2 = NULL;
    assert_int_equal(juke_compile(m, "vadd!", vadd_types, 3, NULL, &k2), JUKE_OK);
    assert_ptr_equal(k, k2);
    check_dump_dir(env_dir, "vadd!_", 1, NULL);
    /* an explicit dump_dir in the options */
    juke_options o;
    juke_options_default(&o);
    o.dump_dir = opt_dir;
    juke_module *mb = load_acceptance(ctx, "block_sum.jl");
    const char *bt[] = { "Vector{Float32}", "Vector{Float32}" };
    assert_int_equal(juke_compile(mb, "block_sum!", bt, 2, &o, &k), JUKE_OK);
    check_dump_dir(opt_dir, "block_sum!_", 1, NULL);
    /* juke_kernel_write_dumps itself */
    char *direct = path_join(tmp, "direct");
    assert_int_equal(juke_kernel_write_dumps(k2, direct), JUKE_OK);
    check_dump_dir(direct, "vadd!_", 1, NULL);
    juke_context_destroy(ctx);
    remove_dir(env_dir);
    remove_dir(opt_dir);
    remove_dir(direct);
    rmdir(tmp);
    free(direct);
    free(env_dir);
    free(opt_dir);
}

int main(int argc, char **argv)
{
    juke_exe = argc > 1 ? argv[1] : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_llvm_verify_rejects), cmocka_unit_test(test_acceptance_gfx90a),
        cmocka_unit_test(test_acceptance_gfx942),   cmocka_unit_test(test_acceptance_gfx1100),
        cmocka_unit_test(test_other_processors),    cmocka_unit_test(test_unknown_target),
        cmocka_unit_test(test_wavefront_size),      cmocka_unit_test(test_code_object_versions),
        cmocka_unit_test(test_dump_expectations),   cmocka_unit_test(test_dump_dir_cli),
        cmocka_unit_test(test_dump_dir_api),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
