# usage: cmp.py DIR_A DIR_B : code objects (section 3) of the disk-cache entries both hold, compared; the
# differing ones' instruction counts (llvm-objdump -d of .text)
import os,sys,subprocess,collections
A,B=sys.argv[1],sys.argv[2]
def parse(p):
    b=open(p,'rb').read()
    i=b.index(b'sections:'); j=b.index(b'\n',i)
    nums=[int(t) for t in b[i:j].split()[1:]]
    hdr=b[:i].decode(errors='replace')
    off=j+1; secs=[]
    for n in nums: secs.append(b[off:off+n]); off+=n
    proc=[l.split(': ')[1] for l in hdr.split('\n') if l.startswith('proc:')][0]
    return proc,secs
def count(code,proc,tag):
    fn='/tmp/c4/tmp/obj_'+tag
    open(fn,'wb').write(code)
    if proc.startswith('gfx'):
        out=subprocess.run(['/usr/lib/llvm-19/bin/llvm-objdump','-d','-j','.text','--mcpu='+proc,fn],capture_output=True,text=True).stdout
        return sum(1 for l in out.split('\n') if '// 0000' in l)
    out=subprocess.run(['/usr/lib/llvm-19/bin/llvm-objdump','-d','-j','.text','--no-show-raw-insn',fn],capture_output=True,text=True).stdout
    return sum(1 for l in out.split('\n') if l.startswith('  ') and ':\t' in l)
fa,fb=set(os.listdir(A)),set(os.listdir(B))
print('only in A',len(fa-fb),'only in B',len(fb-fa),'both',len(fa&fb))
st=collections.Counter()
for f in sorted(fa&fb):
    pa,sa=parse(os.path.join(A,f)); pb,sb=parse(os.path.join(B,f))
    if sa[3]==sb[3]: st[(pa,'identical')]+=1; continue
    a=count(sa[3],pa,'a'); b=count(sb[3],pb,'b')
    k='grow' if b>a else 'shrink' if b<a else 'same'
    st[(pa,k)]+=1
    print(k,f,pa,a,b)
for k in sorted(st): print(k,st[k])
