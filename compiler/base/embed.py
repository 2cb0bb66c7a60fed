#!/usr/bin/env python3
"""embed.py IN.jl OUT.c: the Base prelude as the C symbols of compiler/prelude.h."""
import sys

data = open(sys.argv[1], 'rb').read()
with open(sys.argv[2], 'w') as out:
    out.write('/* generated from %s by compiler/base/embed.py: do not edit */\n' % sys.argv[1].split('/')[-1])
    out.write('#include "prelude.h"\n\nconst char jk_prelude_text[] = {\n')
    for i in range(0, len(data), 16):
        out.write('    ' + ' '.join('%d,' % b for b in data[i:i + 16]) + '\n')
    out.write('    0\n};\nconst size_t jk_prelude_len = %d;\n' % len(data))
