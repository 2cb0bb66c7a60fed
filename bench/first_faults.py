#!/usr/bin/env python3
"""Where a fresh process's first compile takes its page faults (RESULTS.md §24c).

    python3 bench/first_faults.py [BUILD [KERNEL [TARGET]]]     (defaults: build vadd gfx90a)

Runs `BUILD/bench/compile_latency --first tests/kernels/acceptance KERNEL TARGET 1` under
`perf record -e page-faults -c 1 -d --call-graph dwarf` and counts the faults of the forked child, the process
that compiles: by what the faulting address is (libLLVM's text, its data and .bss, the heap, other anonymous
memory, the program's own image) and by the stage whose frame is on the stack, then the functions that
first touch the most anonymous and heap pages. On a guest whose every first touch of a page costs tens of
microseconds (§24c), these counts are where a first compile's time goes; instruction counts do not see them."""
import collections
import os
import re
import subprocess
import sys
import tempfile

# A fault's stage is the first of these with a frame anywhere on its stack: lld runs inside code-object making,
# which runs inside juke_compile, so the inner stages come first.
STAGES = [
    ("link (in-process lld)", ("lld::",)),
    ("code generation", ("jk_codegen_emit_object",)),
    ("optimise", ("jk_run_passes",)),
    ("target machine", ("LLVMCreateTargetMachine",)),
    ("target set-up", ("LLVMInitialize",)),
    ("module load", ("fe_load_with",)),
    ("front end and LLVM IR", ("juke_compile",)),
]
# Allocator frames skipped when naming who touched an anonymous page.
ALLOC = re.compile(r"(__GI_)?(_?_?libc_)?(malloc|_int_malloc|calloc|realloc|_int_realloc|sysmalloc|memset|memcpy|"
                   r"memmove|operator new|__memset|__memcpy|__memmove)")


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    kernel = sys.argv[2] if len(sys.argv) > 2 else "vadd"
    target = sys.argv[3] if len(sys.argv) > 3 else "gfx90a"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "perf.data")
        # every fault (-c 1), its address (-d); -m: a buffer large enough that no sample is lost
        cmd = ["perf", "record", "-q", "-e", "page-faults", "-c", "1", "-d", "-m", "8192", "--call-graph", "dwarf,16384",
               "-o", data, os.path.join(build, "bench", "compile_latency"), "--first",
               os.path.join(root, "tests/kernels/acceptance"), kernel, target, "1"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("perf record failed:\n" + run.stderr)
        print(run.stdout.strip())
        mmaps = subprocess.run(["perf", "script", "-i", data, "--show-mmap-events", "-F", "pid"], capture_output=True,
                               text=True).stdout
        samples = subprocess.run(["perf", "script", "-i", data, "-F", "pid,addr,dso,ip,sym"], capture_output=True,
                                 text=True).stdout
    # The mappings in the order they were made: a later one over the same addresses replaces an earlier (the
    # loader maps a library's whole extent, then its segments over it). libLLVM's .bss runs on past its last
    # file page as the anonymous mapping that starts where its data ends.
    maps = []  # (lo, hi, label)
    for m in re.finditer(r"\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ \S+ .*?\]: (\S+) (\S+)", mmaps):
        lo, hi, prot, name = int(m.group(1), 16), int(m.group(1), 16) + int(m.group(2), 16), m.group(3), m.group(4)
        if "libLLVM" in name:
            label = "libLLVM text" if "x" in prot else "libLLVM data, relro, .bss"
        elif name == "//anon" and any(h == lo and l.startswith("libLLVM data") for _, h, l in maps):
            label = "libLLVM data, relro, .bss"
        else:
            continue
        maps.append((lo, hi, label))

    def where(addr, dso):
        for lo, hi, label in reversed(maps):
            if lo <= addr < hi:
                return label
        if "[heap]" in dso:
            return "heap (brk)"
        if "anon" in dso:
            return "other anonymous (mmap)"
        return os.path.basename(dso.strip("()")) or "?"

    faults = []  # (pid, where, frames)
    for block in samples.split("\n\n"):
        lines = [l for l in block.strip().split("\n") if l.strip()]
        if not lines:
            continue
        head = lines[0].split()
        frames = []
        for l in lines[1:]:
            parts = l.strip().split(None, 1)
            if len(parts) == 2 and "kernel.kallsyms" not in parts[1]:
                frames.append(parts[1])
        faults.append((head[0], where(int(head[1], 16), head[-1]), frames))
    pids = list(dict.fromkeys(f[0] for f in faults))
    if len(pids) < 2:
        sys.exit("no forked child among the samples")
    child = [f for f in faults if f[0] == pids[1]]
    print(f"faults: parent (start-up, loading) {sum(f[0] == pids[0] for f in faults)}, compiling child {len(child)}")

    by_stage = collections.defaultdict(collections.Counter)
    for _, w, frames in child:
        stage = next((name for name, keys in STAGES if any(k in fr for fr in frames for k in keys)), "other")
        by_stage[stage][w] += 1
    kinds = [k for k, _ in collections.Counter(w for _, w, _ in child).most_common()]
    print("\n| stage | faults | " + " | ".join(kinds) + " |")
    print("|---|---:|" + "---:|" * len(kinds))
    for stage, c in sorted(by_stage.items(), key=lambda kv: -sum(kv[1].values())):
        print(f"| {stage} | {sum(c.values())} | " + " | ".join(str(c[k]) for k in kinds) + " |")
    print(f"| all | {len(child)} | " + " | ".join(str(sum(c[k] for c in by_stage.values())) for k in kinds) + " |")

    for kind in ("other anonymous (mmap)", "heap (brk)", "libLLVM data, relro, .bss"):
        who = collections.Counter()
        for _, w, frames in child:
            if w == kind:
                named = [fr for fr in frames if not ALLOC.match(fr)]
                who[" < ".join(re.sub(r" \(.*\)$", "", fr)[:60] for fr in named[:2]) or "?"] += 1
        print(f"\n{kind}: the pages' first writers (function < caller)")
        for name, n in who.most_common(8):
            print(f"  {n:5d}  {name}")


if __name__ == "__main__":
    main()
