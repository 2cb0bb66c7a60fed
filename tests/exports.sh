#!/bin/sh
# libjuke.so exports exactly the API of include/juke.h: every defined dynamic
# symbol is a juke_* function declared in the header (nothing of the lld and
# LLVM code linked into it), and every function the header declares is there.
lib=${1:?usage: exports.sh LIBJUKE.so JUKE_H}
hdr=${2:?usage: exports.sh LIBJUKE.so JUKE_H}
nm=$(command -v nm || command -v llvm-nm-19) || { echo "no nm"; exit 77; }
syms=$("$nm" -D --defined-only "$lib" | awk '$2 != "A" { print $3 }' | sed 's/@.*//' | sort -u)
[ -n "$syms" ] || { echo "no symbols read from $lib"; exit 1; }
bad=0
for s in $syms; do
    case $s in
        juke_*) grep -q "\b$s(" "$hdr" || { echo "exported but not in juke.h: $s"; bad=1; } ;;
        *) echo "exported but not juke_*: $s"; bad=1 ;;
    esac
done
for s in $(grep -o '^JUKE_API [^(]*(' "$hdr" | sed 's/($//; s/.*[ *]//'); do
    echo "$syms" | grep -qx "$s" || { echo "declared in juke.h but not exported: $s"; bad=1; }
done
[ $bad = 0 ] && echo "$(echo "$syms" | wc -l) symbols, all juke_* and all in juke.h"
exit $bad
