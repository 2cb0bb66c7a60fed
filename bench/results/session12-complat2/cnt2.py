import sys,subprocess,os
sys.argv=['x','a','b']
exec(open('/tmp/c2/diffcode.py').read().split('stats=collections')[0])
def cnt(code,proc,tag):
    fn='/tmp/c2/o_'+tag; open(fn,'wb').write(code)
    if proc.startswith('gfx'):
        out=subprocess.run(['/usr/lib/llvm-19/bin/llvm-objdump','-d','-j','.text','--mcpu='+proc,fn],capture_output=True,text=True).stdout
        return sum(1 for l in out.split('\n') if '// 0000' in l)
    out=subprocess.run(['/usr/lib/llvm-19/bin/llvm-objdump','-d','-j','.text','--no-show-raw-insn',fn],capture_output=True,text=True).stdout
    return sum(1 for l in out.split('\n') if l.startswith('  ') and ':\t' in l)
import collections
B=sys_b
st=collections.Counter()
for f in sorted(set(os.listdir('cache_main'))&set(os.listdir(B))):
    pa,sa=parse('cache_main/'+f); pb,sb=parse(B+'/'+f)
    if sa[3]==sb[3]: continue
    a=cnt(sa[3],pa,'a'); b=cnt(sb[3],pb,'b')
    k='grow' if b>a else 'shrink' if b<a else 'same'
    st[(pa,k)]+=1
    if k!='same': print(k,f,pa,a,b)
print(dict(st))
