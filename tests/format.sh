#!/bin/sh
# One C style, the project's .clang-format: every C source and header of the
# tree is as clang-format-19 writes it. To fix a failure:
#   git ls-files '*.c' '*.h' '*.cpp' | xargs clang-format-19 -i
root=${1:?usage: format.sh SOURCE_ROOT}
cf=$(command -v clang-format-19) || { echo "clang-format-19 not installed (setup.sh installs it)"; exit 77; }
cd "$root" || exit 1
if git rev-parse --git-dir >/dev/null 2>&1; then
    files=$(git ls-files '*.c' '*.h' '*.cpp')
else
    files=$(find compiler runtime tools ir-dumps include tests bench examples -name '*.c' -o -name '*.h' -o -name '*.cpp')
fi
bad=0
for f in $files; do
    case $f in tests/fuzz/corpus/*) continue ;; esac
    if ! "$cf" --dry-run --Werror "$f" >/dev/null 2>&1; then
        echo "not formatted: $f"
        bad=1
    fi
done
[ $bad = 0 ] && echo "$(echo "$files" | wc -w) files formatted as .clang-format says"
exit $bad
