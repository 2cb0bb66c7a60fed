# gen_src.py MB OUT: a source of MB megabytes of small functions, the last one a kernel.
import sys
mb = float(sys.argv[1]); out = open(sys.argv[2], "w")
n = 0; size = 0
while size < mb * 1e6:
    s = f"f{n}(x) = x * {n % 97 + 1}f0 + 1f0\n"
    out.write(s); size += len(s); n += 1
out.write(f"function k(a)\n    a[1] = f{n-1}(a[1])\n    return\nend\n")
