/* libslice.c: per-process slices of bitcode device libraries (libslice.h).
 *
 * A library is known by its path and its file's identity (device, inode,
 * size, modification time): a file replaced on disk is read again. What the
 * cache holds lives as long as the process, as the Base prelude's tree does:
 * a slice handed out may still be read by a compile on another thread. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>

#include "common.h"
#include "libslice.h"

typedef struct Slice {
    struct Slice *next;
    char *key; /* the needed names, each followed by '\n', in the module's order */
    uint8_t *bc;
    size_t size;
} Slice;

typedef struct Lib {
    struct Lib *next;
    char *path;
    struct stat st;
    bool whole;   /* aliases, ifuncs or appending globals: always linked as it is */
    char **names; /* its definitions of external linkage, sorted */
    size_t nnames;
    Slice *slices;
    int nslices;
} Lib;

/* Far above what one program's kernels need (a slice per distinct set of
 * math functions a kernel calls); past them, files are linked as before. */
enum { MAX_LIBS = 64, MAX_SLICES = 256 };

static pthread_mutex_t libs_lock = PTHREAD_MUTEX_INITIALIZER;
static Lib *libs;
static int nlibs;

static bool same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool lib_defines(const Lib *l, const char *name)
{
    return bsearch(&name, l->names, l->nnames, sizeof *l->names, cmp_name) != NULL;
}

static bool is_local(LLVMValueRef g)
{
    LLVMLinkage k = LLVMGetLinkage(g);
    return k == LLVMInternalLinkage || k == LLVMPrivateLinkage;
}

/* The library at path, lazily loaded into ctx (its function bodies are read
 * when linking reaches them); NULL if unreadable or not bitcode. */
static LLVMModuleRef load_lazily(LLVMContextRef ctx, const char *path)
{
    LLVMMemoryBufferRef buf = NULL;
    char *err = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &err)) {
        LLVMDisposeMessage(err);
        return NULL;
    }
    LLVMModuleRef lib = NULL;
    if (LLVMGetBitcodeModuleInContext2(ctx, buf, &lib)) /* the module owns buf */
        return NULL;
    return lib;
}

/* The names lib defines with external linkage, into l (sorted); false when
 * out of memory. */
static bool collect_names(Lib *l, LLVMModuleRef lib)
{
    size_t cap = 0;
    for (int pass = 0; pass < 2; pass++)
        for (LLVMValueRef g = pass ? LLVMGetFirstGlobal(lib) : LLVMGetFirstFunction(lib); g;
             g = pass ? LLVMGetNextGlobal(g) : LLVMGetNextFunction(g)) {
            if (LLVMGetLinkage(g) == LLVMAppendingLinkage)
                l->whole = true;
            if (LLVMIsDeclaration(g) || is_local(g))
                continue;
            if (l->nnames == cap) {
                cap = cap ? cap * 2 : 256;
                char **p = realloc(l->names, cap * sizeof *p);
                if (!p)
                    return false;
                l->names = p;
            }
            size_t n;
            const char *s = LLVMGetValueName2(g, &n);
            if (!(l->names[l->nnames] = strndup(s, n)))
                return false;
            l->nnames++;
        }
    if (LLVMGetFirstGlobalAlias(lib) || LLVMGetFirstGlobalIFunc(lib))
        l->whole = true;
    qsort(l->names, l->nnames, sizeof *l->names, cmp_name);
    return true;
}

/* A library read into a context of its own, for one slice. */
typedef struct Loaded {
    LLVMContextRef ctx;
    LLVMModuleRef lib; /* NULL once consumed */
} Loaded;

static void loaded_dispose(Loaded *ld)
{
    if (ld->lib)
        LLVMDisposeModule(ld->lib);
    if (ld->ctx)
        LLVMContextDispose(ld->ctx);
    ld->lib = NULL;
    ld->ctx = NULL;
}

/* The library's entry for the file st describes, read on first use (and
 * then left in *ld for the first slice: ocml's module level is read once);
 * NULL when it cannot be read (the caller links the file and reports why).
 * Under libs_lock. */
static Lib *lib_entry(const char *path, const struct stat *st, Loaded *ld)
{
    for (Lib *l = libs; l; l = l->next)
        if (strcmp(l->path, path) == 0 && same_file(&l->st, st))
            return l;
    if (nlibs >= MAX_LIBS)
        return NULL;
    Lib *l = calloc(1, sizeof *l);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef lib = load_lazily(ctx, path);
    bool ok = l && lib && (l->path = strdup(path)) && collect_names(l, lib);
    ld->ctx = ctx;
    ld->lib = lib;
    if (!ok) {
        loaded_dispose(ld);
        if (l) {
            for (size_t i = 0; i < l->nnames; i++)
                free(l->names[i]);
            free(l->names);
            free(l->path);
            free(l);
        }
        return NULL;
    }
    l->st = *st;
    l->next = libs;
    libs = l;
    nlibs++;
    return l;
}

/* The slice of l for the names in key, in m's layout: linking the library
 * into a module that declares just those names, as llvm_link_bitcode_file
 * links it into m. The library is ld's if loaded (consumed), else read
 * again. NULL if that fails. */
static Slice *make_slice(const Lib *l, LLVMModuleRef m, const char *key, Loaded *ld)
{
    Slice *s = calloc(1, sizeof *s);
    if (!s || !(s->key = strdup(key))) {
        free(s);
        return NULL;
    }
    if (!ld->lib) {
        loaded_dispose(ld);
        ld->ctx = LLVMContextCreate();
        ld->lib = load_lazily(ld->ctx, l->path);
    }
    LLVMContextRef ctx = ld->ctx;
    LLVMModuleRef lib = ld->lib;
    ld->lib = NULL; /* linked into the stub below, or disposed */
    LLVMModuleRef stub = LLVMModuleCreateWithNameInContext("libslice", ctx);
    bool ok = lib != NULL;
    if (ok) {
        llvm_prepare_library(lib, m, true);
        LLVMSetTarget(stub, LLVMGetTarget(m));
        LLVMSetDataLayout(stub, LLVMGetDataLayoutStr(m));
        for (const char *p = key; *p;) {
            const char *e = strchr(p, '\n');
            char *name = strndup(p, (size_t)(e - p));
            p = e + 1;
            if (!name) {
                ok = false;
                break;
            }
            LLVMValueRef f = LLVMGetNamedFunction(lib, name), g;
            if (f)
                LLVMAddFunction(stub, name, LLVMGlobalGetValueType(f));
            else if ((g = LLVMGetNamedGlobal(lib, name)))
                LLVMAddGlobalInAddressSpace(stub, LLVMGlobalGetValueType(g), name,
                                            LLVMGetPointerAddressSpace(LLVMTypeOf(g)));
            free(name);
        }
    }
    if (ok) {
        ok = !LLVMLinkModules2(stub, lib); /* consumes lib */
        lib = NULL;
    }
    if (lib)
        LLVMDisposeModule(lib);
    if (ok) {
        LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(stub);
        s->size = buf ? LLVMGetBufferSize(buf) : 0;
        s->bc = s->size ? malloc(s->size) : NULL;
        ok = s->bc != NULL;
        if (ok)
            memcpy(s->bc, LLVMGetBufferStart(buf), s->size);
        if (buf)
            LLVMDisposeMemoryBuffer(buf);
    }
    LLVMDisposeModule(stub);
    loaded_dispose(ld);
    if (!ok) {
        free(s->bc);
        free(s->key);
        free(s);
        return NULL;
    }
    return s;
}

/* m's declarations that l defines, each followed by '\n', in m's order;
 * false when out of memory or a name holds a NUL. */
static bool needed_key(const Lib *l, LLVMModuleRef m, StrBuf *key)
{
    for (int pass = 0; pass < 2; pass++)
        for (LLVMValueRef g = pass ? LLVMGetFirstGlobal(m) : LLVMGetFirstFunction(m); g;
             g = pass ? LLVMGetNextGlobal(g) : LLVMGetNextFunction(g)) {
            if (!LLVMIsDeclaration(g))
                continue;
            size_t n;
            const char *s = LLVMGetValueName2(g, &n);
            if (strlen(s) != n)
                return false;
            if (lib_defines(l, s)) {
                sb_putn(key, s, n);
                sb_putn(key, "\n", 1);
            }
        }
    return !key->failed;
}

LibsliceResult libslice_get(LLVMModuleRef m, const char *path, const uint8_t **bc, size_t *size)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return LIBSLICE_WHOLE;
    LibsliceResult r = LIBSLICE_WHOLE;
    StrBuf key = { 0 };
    pthread_mutex_lock(&libs_lock);
    Loaded ld = { 0 };
    Lib *l = lib_entry(path, &st, &ld);
    if (l && !l->whole && needed_key(l, m, &key)) {
        if (key.len == 0) {
            r = LIBSLICE_NONE;
        } else {
            Slice *s = l->slices;
            while (s && strcmp(s->key, key.data) != 0)
                s = s->next;
            if (!s && l->nslices < MAX_SLICES && (s = make_slice(l, m, key.data, &ld))) {
                s->next = l->slices;
                l->slices = s;
                l->nslices++;
            }
            if (s) {
                *bc = s->bc;
                *size = s->size;
                r = LIBSLICE_SLICE;
            }
        }
    }
    loaded_dispose(&ld);
    pthread_mutex_unlock(&libs_lock);
    sb_free(&key);
    return r;
}
