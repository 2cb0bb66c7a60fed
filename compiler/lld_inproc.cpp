// lld_inproc.cpp: ld.lld as a library, so linking a code object costs well
// under a millisecond instead of a process spawn (about 16 ms here). It is
// C++ because lld has no C API (as llvm_emit.cpp is, for what LLVM's C API
// lacks). llvm_pipeline.c calls it when the build found liblldELF; otherwise
// it spawns ld.lld.
//
// lld keeps global state while it links, so one link runs at a time: the
// mutex below is process-wide on purpose (a property of the library, not of a
// juke context). When lld says it cannot run again (after a crash it caught),
// later links fall back to the ld.lld process.
//
// lldMain's CrashRecoveryContext installs no signal handlers unless someone
// calls CrashRecoveryContext::Enable(), which juke never does; the only other
// installer, FileOutputBuffer's temporary file (sys::RemoveFileOnSignal), is
// kept out by the caller's choice of output (see link_in_process).
#include <lld/Common/Driver.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

LLD_HAS_DRIVER(elf)

namespace
{
std::mutex lld_lock;
bool lld_broken = false;
} // namespace

// Link with lld's ELF driver. argv[0] is the program name. Returns 0, -1 with
// *err (malloc'd) holding lld's messages, or -2 when lld can no longer run in
// this process (the caller spawns ld.lld instead).
extern "C" int juke_lld_elf_link(int argc, const char *const *argv, char **err)
{
    std::lock_guard<std::mutex> guard(lld_lock);
    if (lld_broken)
        return -2;
    std::string out, errs;
    llvm::raw_string_ostream os(out), es(errs);
    std::vector<const char *> args(argv, argv + argc);
    lld::Result r = lld::lldMain(args, os, es, { { lld::Gnu, &lld::elf::link } });
    es.flush();
    if (!r.canRunAgain)
        lld_broken = true;
    if (r.retCode == 0)
        return 0;
    if (err)
        *err = strdup(errs.empty() ? "ld.lld failed" : errs.c_str());
    return -1;
}
