# mkfewer.py (RESULTS.md §19b, second call): run like mkhand.py, in a directory holding base.ptx (juke's checked
# Float32 PTX with its `.reg .pred %p<18>` raised to %p<30>) and hand/.
# fewer: the merged check reduced to the largest offset in each dimension (ix+1 < size(A,1), iy+1 < size(A,2),
# 0-based; the others implied as the index is >= 0 and small), the store's y check (implied by the guard) dropped;
# the per-check compares, needed by the cold path alone, moved into it. fewer_keep: the same merged check, the
# per-check compares left on the hot path. fewer_spec: fewer with the loads (unclamped) before the branch.
import re
src=open('base.ptx').read()
hot_cmp=('\tsetp.ge.u32 \t%p9, %r24, %r13;\n\tsetp.ge.u32 \t%p10, %r23, %r27;\n\tor.pred  \t%p1, %p9, %p10;\n')
assert hot_cmp in src
old_or=('\tsetp.ge.u32 \t%p11, %r15, %r11;\n\tor.pred  \t%p12, %p2, %p11;\n\tor.pred  \t%p13, %p12, %p1;\n'
        '\tor.pred  \t%p14, %p13, %p3;\n\tor.pred  \t%p15, %p14, %p4;\n\tor.pred  \t%p16, %p15, %p5;\n')
assert old_or in src
new_or=('\tsetp.ge.u32 \t%p20, %r25, %r13;\n\tsetp.ge.u32 \t%p21, %r26, %r27;\n\tor.pred  \t%p16, %p20, %p21;\n')
keep=src.replace(old_or,new_or)
open('hand/fewer_keep.ptx','w').write(keep)
# move p1..p5 compares into the cold block
cold_cmps=hot_cmp+('\tsetp.ge.u32 \t%p2, %r14, %r13;\n\tsetp.ge.u32 \t%p3, %r25, %r13;\n'
                   '\tsetp.ge.u32 \t%p4, %r15, %r27;\n\tsetp.ge.u32 \t%p5, %r26, %r27;\n')
f=keep.replace(hot_cmp,'')
for l in ['\tsetp.ge.u32 \t%p2, %r14, %r13;\n','\tsetp.ge.u32 \t%p3, %r25, %r13;\n','\tsetp.ge.u32 \t%p4, %r15, %r27;\n','\tsetp.ge.u32 \t%p5, %r26, %r27;\n']:
    assert l in f; f=f.replace(l,'')
f=f.replace('$L__BB0_3:\n','$L__BB0_3:\n'+cold_cmps)
open('hand/fewer.ptx','w').write(f)
# fewer_spec: loads before the branch
head, rest = f.split('\t@!%p16 bra \t$L__BB0_7;\n\tbra.uni \t$L__BB0_3;\n$L__BB0_7:\n')
body, tail = rest.split('$L__BB0_1:\n',1)
lines=body.splitlines(keepends=True)
addr=[l for l in lines if not re.search(r'(add|mul)\.rn|cvt\.(f64|rn)|ld\.param\.f32|st\.global|mad\.lo\.s32 \t%r33|%rd31|%rd32|ld\.param\.u64 \t%rd1,',l)]
rest_=[l for l in lines if l not in addr]
open('hand/fewer_spec.ptx','w').write(head+''.join(addr)+'\t@!%p16 bra \t$L__BB0_7;\n\tbra.uni \t$L__BB0_3;\n$L__BB0_7:\n'+''.join(rest_)+'$L__BB0_1:\n'+tail)
