# CPU samples of a JFR recording by line (self) and by method (inclusive).
# Usage: jfr print --json --events jdk.ExecutionSample REC.jfr > REC.json; python3 jfr-agg.py REC.json [TOP]
# JDK 21+'s `jfr view hot-methods` gives the self view by method; the line-level and inclusive
# views are what located the instanceof in 2026-12-fixed-costs.md. (2026-11-tpcc-allocation/agg.py
# does the same for allocation samples.)
import json,sys,collections
d=json.load(open(sys.argv[1]))
evs=d['recording']['events']
self_=collections.Counter(); incl=collections.Counter(); n=0
for e in evs:
    st=e['values'].get('stackTrace')
    if not st: continue
    fr=st['frames']
    if not fr: continue
    n+=1
    def name(f): 
        m=f['method']; return m['type']['name'].split('.')[-1]+'.'+m['name']
    self_[name(fr[0])+':'+str(fr[0].get('lineNumber'))]+=1
    seen=set()
    for f in fr:
        k=name(f)
        if k not in seen: incl[k]+=1; seen.add(k)
print('samples',n)
for k,v in self_.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 30): print('%5.1f%% %s'%(100*v/n,k))
print('--- inclusive')
for k,v in incl.most_common(40): print('%5.1f%% %s'%(100*v/n,k))
