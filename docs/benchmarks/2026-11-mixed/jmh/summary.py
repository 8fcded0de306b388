import json, sys, statistics, glob, os
runs = sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), '[0-9]-*.json')))
data = {}
for f in runs:
    jar = os.path.basename(f).split('-')[1].split('.')[0]
    for b in json.load(open(f)):
        name = b['benchmark'].replace('io.jato.jmh.', '')
        params = b.get('params') or {}
        extra = ','.join(f'{k}={v}' for k, v in params.items() if k != 'protocol')
        key = name + (f' ({extra})' if extra else '')
        data.setdefault(key, {}).setdefault(jar, []).append(b['primaryMetric']['score'])
print('| benchmark | base ns/op (runs) | new ns/op (runs) | new/base time |')
print('|---|---|---|---|')
for k in sorted(data):
    b = data[k].get('base', []); n = data[k].get('new', [])
    if not b or not n: continue
    mb, mn = statistics.mean(b), statistics.mean(n)
    print(f"| {k} | {mb:.1f} ({', '.join(f'{x:.1f}' for x in b)}) | {mn:.1f} ({', '.join(f'{x:.1f}' for x in n)}) | {mn/mb:.2f}× |")
