# Groups perfasm's sampled instructions by the phase of the transaction their inlining chain
# names. Usage: python3 phase.py PERFASM_OUTPUT NS_PER_OP [--by-method] (see ../2026-11-perfasm.md);
# with --by-method, by the innermost inlined method instead (Class::method).
import re,sys,collections
# phase of an instruction: the first rule whose pattern occurs in its frame chain (innermost first)
RULES=[('finish+clear',r'finishAndClear|::clear:|recycleAll'),
       ('lock',r'OccControl::lock'),('install+publish',r'::install:|::publish:|installInPlace'),
       ('validate/check',r'::validate|Participant::check|commitTimestamp'),
       ('begin',r'::begin:|Events::beginTransaction|TxnCounters::type'),
       ('body',r'Lambda|BenchAccount|CounterBenchmark::|RecordBenchmark::'),
       ('commit other',r'::commit:'),('execute other',r'::execute:')]
f=sys.argv[1]; ns=float(sys.argv[2]); by_method='--by-method' in sys.argv[3:]
lines=open(f).read().split('\n'); tot=collections.Counter(); cur=[]; inreg=False
for i,l in enumerate(lines):
    if 'Hottest Region' in l and '[' in l: inreg=True; continue
    if '<total for region' in l: inreg=False; continue
    if 'Hottest Regions]' in l: break
    if not inreg: continue
    m=re.match(r'^\s+([0-9.]+)%.*0x0000[0-9a-f]+:\s',l); m2=re.match(r'^\s+[│╭╰↗↘ ]*0x0000[0-9a-f]+:\s',l)
    if not (m or m2): continue
    fr=[]
    for k in range(i,min(i+40,len(lines))):
        if k>i and re.search(r'0x0000[0-9a-f]+:\s',lines[k]) and not lines[k].strip().startswith(';'): break
        mm=re.search(r'; - ([\w.$/]+::\w+)@(\d+)(?: \(line (\d+)\))?',lines[k])
        if mm: fr.append(mm.group(1).split('.')[-1]+':'+(mm.group(3) or '?'))
    if fr: cur=fr
    chain=' '.join(cur); ph='other'
    if by_method:
        ph=cur[0].rsplit(':',1)[0] if cur else 'other'
    else:
        for name,pat in RULES:
            if re.search(pat,chain): ph=name; break
    tot[ph]+=float(m.group(1)) if m else 0
s=sum(tot.values())
for k,v in sorted(tot.items(),key=lambda x:-x[1]): print('%-16s %5.1f%%  %5.1f ns'%(k,v,v*ns/100))
print('regions cover %.1f%%'%s)
