# mkhand.py (RESULTS.md §19b): the hand variants of the checked Float32 diffusion2d from juke's PTX (base.ptx =
# `juke compile --no-cache --target sm_90 --index-bits 32 --small-grid bench/kernels/diffusion2d_checked.jl
# diffusion2d! Matrix{Float32} Matrix{Float32} Float32`, kept as hand/checked.ptx), run in a directory holding base.ptx
# and hand/. spec: the five loads of A before the check's branch, unclamped (unsafe; the upper bound); clamp: each
# load's linear index min.u32 len-1, base pointer len == 0 ? exception record : A; clampb: one clamp per address
# base (base <= len-1-largest offset; the offsets stay folded); *_late: the check's branch after the arithmetic,
# just before the store.
import re,sys
src=open('base.ptx').read()
# split pieces
head, rest = src.split('\t@!%p16 bra \t$L__BB0_7;\n\tbra.uni \t$L__BB0_3;\n$L__BB0_7:\n')
body, tail = rest.split('$L__BB0_1:\n',1)
lines=body.splitlines(keepends=True)
addr=[l for l in lines if not re.search(r'(add|mul)\.rn|cvt\.(f64|rn)|ld\.param\.f32|st\.global|mad\.lo\.s32 \t%r33|%rd31|%rd32|ld\.param\.u64 \t%rd1,',l)]
rest_=[l for l in lines if l not in addr]
loads=''.join(addr)
def regs(s,extra):  # bump reg declarations
    return s.replace('.reg .b32 \t%r<56>;','.reg .b32 \t%r<90>;').replace('.reg .b64 \t%rd<38>;','.reg .b64 \t%rd<70>;').replace('.reg .pred \t%p<18>;','.reg .pred \t%p<30>;')
BR='\t@!%p16 bra \t$L__BB0_7;\n\tbra.uni \t$L__BB0_3;\n$L__BB0_7:\n'
BR2='\t@%p16 bra \t$L__BB0_3;\n'
# spec: loads (unclamped) before the check's branch
spec=regs(head,0)+loads+BR+''.join(rest_)+'$L__BB0_1:\n'+tail
open('hand/spec.ptx','w').write(spec)
# clamped: each load's linear index min.u32 against len-1; base pointer = len==0 ? exc : A
def clamp(loads):
    out=[]
    pre=('\tld.param.u64 \t%rd60, [diffusion2d_21_param_3];\n'
         '\tmul.lo.s32 \t%r80, %r13, %r27;\n\tadd.s32 \t%r81, %r80, -1;\n'
         '\tsetp.eq.s32 \t%p25, %r80, 0;\n')
    out.append(pre)
    n=0
    for l in loads.splitlines(keepends=True):
        m=re.match(r'\tld\.param\.u64 \t%rd17, \[diffusion2d_21_param_1\];',l)
        if m:
            out.append(l); out.append('\tselp.b64 \t%rd61, %rd60, %rd17, %p25;\n'); continue
        m=re.match(r'\tmul\.wide\.s32 \t(%rd\d+), (%r\d+), 4;',l)
        if m: base_idx=m.group(2); prod=m.group(1); continue
        m=re.match(r'\tadd\.s64 \t(%rd\d+), %rd17, (%rd\d+);',l)
        if m: continue
        m=re.match(r'\tld\.global\.f32 \t(%f\d+), \[(%rd\d+)(\+(\d+))?\];',l)
        if m:
            off=int(m.group(4) or 0)//4
            out.append(f'\tadd.s32 \t%r{60+n}, {base_idx}, {off};\n\tmin.u32 \t%r{70+n}, %r{60+n}, %r81;\n'
                       f'\tmul.wide.u32 \t%rd{40+n}, %r{70+n}, 4;\n\tadd.s64 \t%rd{50+n}, %rd61, %rd{40+n};\n'
                       f'\tld.global.f32 \t{m.group(1)}, [%rd{50+n}];\n')
            n+=1; continue
        out.append(l)
    return ''.join(out)
cl=clamp(loads)
open('hand/clamp.ptx','w').write(regs(head,0)+cl+BR+''.join(rest_)+'$L__BB0_1:\n'+tail)
# clamp_late: the check's branch just before the store (arithmetic before it)
ar=[l for l in rest_ if not re.search(r'st\.global|mad\.lo\.s32 \t%r33|%rd31|%rd32|ld\.param\.u64 \t%rd1,',l)]
st=[l for l in rest_ if l not in ar]
open('hand/clamp_late.ptx','w').write(regs(head,0)+cl+''.join(ar)+BR+''.join(st)+'$L__BB0_1:\n'+tail)
# clampb: one clamp per address base (the constant offsets stay folded into the loads): base <= len-1-maxoff
def clampb(loads):
    out=[('\tld.param.u64 \t%rd60, [diffusion2d_21_param_3];\n'
         '\tmul.lo.s32 \t%r80, %r13, %r27;\n\tadd.s32 \t%r81, %r80, -1;\n\tadd.s32 \t%r82, %r80, -2;\n\tadd.s32 \t%r83, %r80, -3;\n'
         '\tsetp.eq.s32 \t%p25, %r80, 0;\n')]
    for l in loads.splitlines(keepends=True):
        if re.match(r'\tld\.param\.u64 \t%rd17,',l):
            out.append(l); out.append('\tselp.b64 \t%rd61, %rd60, %rd17, %p25;\n'); continue
        m=re.match(r'\tmul\.wide\.s32 \t(%rd\d+), (%r\d+), 4;',l)
        if m:
            lim={'%r29':'%r83'}.get(m.group(2),'%r82')
            out.append(f'\tmin.u32 \t{m.group(2)}c, {m.group(2)}, {lim};\n\tmul.wide.u32 \t{m.group(1)}, {m.group(2)}c, 4;\n'.replace('%r29c','%r84').replace('%r30c','%r85').replace('%r32c','%r86')); continue
        l=re.sub(r'add\.s64 \t(%rd\d+), %rd17,', r'add.s64 \t\1, %rd61,', l)
        out.append(l)
    return ''.join(out)
cb=clampb(loads)
open('hand/clampb.ptx','w').write(regs(head,0)+cb+BR+''.join(rest_)+'$L__BB0_1:\n'+tail)
open('hand/clampb_late.ptx','w').write(regs(head,0)+cb+''.join(ar)+BR+''.join(st)+'$L__BB0_1:\n'+tail)
