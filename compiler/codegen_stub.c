/* codegen_stub.c: code generation in a build without LLVM (-Dcompiler=false).
 * Such a build still parses, infers and dumps the typed IR, and runs kernels
 * whose code objects are in the on-disk kernel cache ($JUKE_CACHE_DIR,
 * filled by a full build); it cannot compile new ones. */
#include <stdlib.h>
#include <string.h>

#include "codegen.h"

bool cg_compile(Diags *d, TypeTable *types, Spec **specs, int nspecs, const TargetOptions *opts, CodeObject *out)
{
    (void)types;
    (void)nspecs;
    (void)opts;
    memset(out, 0, sizeof *out);
    diag_plain(d, DIAG_UNSUPPORTED,
               "this juke was built without LLVM (-Dcompiler=false): it runs kernels from the kernel cache "
               "(JUKE_CACHE_DIR, filled by a full build) but cannot compile `%s` for these argument types",
               specs[0]->method->name);
    return false;
}

/* No compiler, no build identity: the cache accepts what a compiler built
 * for this machine (see kcache.h). */
bool cg_build_identity(const TargetOptions *to, StrBuf *ident, StrBuf *files)
{
    (void)to;
    (void)ident;
    (void)files;
    return false;
}
