import os,sys,subprocess,collections
sys.path.insert(0,'/tmp/c2')
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
    fn='/tmp/c2/tmpobj_'+tag
    open(fn,'wb').write(code)
    if proc.startswith('gfx'):
        out=subprocess.run(['/usr/lib/llvm-19/bin/llvm-objdump','-d','--mcpu='+proc,fn],capture_output=True,text=True).stdout
    else:
        out=subprocess.run(['/usr/lib/llvm-19/bin/llvm-objdump','-d','--no-show-raw-insn',fn],capture_output=True,text=True).stdout
    lines=[l for l in out.split('\n') if l.startswith(' ') or l.startswith('\t')]
    ins=[l for l in lines if '//' in l or ':\t' in l]
    return len(ins), out
stats=collections.Counter(); grow=[]; shrink=[]; same=[]
for f in sorted(set(os.listdir(A))&set(os.listdir(B))):
    pa,sa=parse(os.path.join(A,f)); pb,sb=parse(os.path.join(B,f))
    if sa[3]==sb[3]: stats[(pa,'identical')]+=1; continue
    ca,_=count(sa[3],pa,'a'); cb,_=count(sb[3],pb,'b')
    k='same' if ca==cb else ('grow' if cb>ca else 'shrink')
    stats[(pa,k)]+=1
    if cb>ca: grow.append((f,pa,ca,cb))
    elif cb<ca: shrink.append((f,pa,ca,cb))
    else: same.append((f,pa))
for k in sorted(stats): print(k,stats[k])
print('GROW'); [print(*g) for g in grow]
print('SHRINK'); [print(*g) for g in shrink]
