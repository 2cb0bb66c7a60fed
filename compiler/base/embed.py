#!/usr/bin/env python3
"""embed.py IN.jl OUT.c [NAME]: a prelude file as the C symbols NAME_text and NAME_len of compiler/prelude.h
(NAME defaults to jk_prelude, the Base prelude)."""
import sys

data = open(sys.argv[1], 'rb').read()
name = sys.argv[3] if len(sys.argv) > 3 else 'jk_prelude'
with open(sys.argv[2], 'w') as out:
    out.write('/* generated from %s by compiler/base/embed.py: do not edit */\n' % sys.argv[1].split('/')[-1])
    out.write('#include "prelude.h"\n\nconst char %s_text[] = {\n' % name)
    for i in range(0, len(data), 16):
        out.write('    ' + ' '.join('%d,' % b for b in data[i:i + 16]) + '\n')
    out.write('    0\n};\nconst size_t %s_len = %d;\n' % (name, len(data)))
