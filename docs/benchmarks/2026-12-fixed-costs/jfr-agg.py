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
