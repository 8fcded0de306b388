# Lists a JFR recording's allocation samples of the TPC-C worker threads by site. Usage: python3 agg.py REC.json DEPTH [TOP]
# (REC.json from: jfr print --json --stack-depth 40 --events jdk.ObjectAllocationSample REC.jfr)
import json,collections,sys
d=json.load(open(sys.argv[1]))
depth=int(sys.argv[2]) if len(sys.argv)>2 else 5
ev=d['recording']['events']
by=collections.Counter(); site=collections.Counter(); tot=0
for e in ev:
    v=e['values']; w=v['weight']; c=v['objectClass']['name'].split('/')[-1]
    th=v['eventThread']['javaName'] if v.get('eventThread') else ''
    if not th.startswith('jato-worker'): continue
    fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
    names=[f['method']['type']['name'].split('/')[-1]+'.'+f['method']['name']+':'+str(f.get('lineNumber')) for f in fr]
    s=' '.join(names)
    if 'TransactionEvent' in c: continue
    # nearest workload frame
    wl=next((n for n in names if n.startswith('Tpcc') or n.startswith('Ycsb')), '?')
    by[c+' <- '+' < '.join(names[:depth])+'  [' + wl + ']']+=w; tot+=w
print('worker MB %.1f'%(tot/1e6))
for k,v in by.most_common(int(sys.argv[3]) if len(sys.argv)>3 else 40): print('%6.1f%% %8.1fMB %s'%(100*v/tot,v/1e6,k))
