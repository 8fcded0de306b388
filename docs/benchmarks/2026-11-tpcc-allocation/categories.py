# Groups a JFR recording's allocation samples (jdk.ObjectAllocationSample, weighted) of the TPC-C
# worker threads by what the bytes are for. Usage:
#   jfr print --json --stack-depth 40 --events jdk.ObjectAllocationSample REC.jfr > REC.json
#   python3 categories.py REC.json
# (agg.py in this folder lists the same samples by allocation site.)
import json, collections, sys

def category(cls, frames):
    if 'TpccUpdaters$' in cls:
        return 'commit-time updater objects'
    if cls in ('OrderLine', 'Order', 'History', 'NewOrder') or 'AbstractRecord.<init>' in frames:
        return 'new rows (records and their group items)'
    if 'reserveRoom' in frames:
        return 'leaf arrays grown by copying'
    if 'splitLocked' in frames or 'newLeaf' in frames or 'newParts' in frames:
        return 'leaf splits'
    if cls == 'Slot' or 'LongNodeIndex' in cls or 'TxLongHashMap.insert' in frames:
        return 'index entries of new rows'
    if 'StringConcat' in frames or (cls in ('[B', 'String') and 'payment' in frames):
        return 'payment C_DATA strings'
    if 'removeLocked' in frames:
        return 'delivery: leaf arrays after removal'
    return 'other'

counts, total = collections.Counter(), 0
for e in json.load(open(sys.argv[1]))['recording']['events']:
    v = e['values']
    thread = v['eventThread']['javaName'] if v.get('eventThread') else ''
    cls = v['objectClass']['name'].split('/')[-1]
    if not thread.startswith('jato-worker') or 'TransactionEvent' in cls:
        continue  # loading, checking, and the recording's own events
    frames = ' '.join(f['method']['type']['name'].split('/')[-1] + '.' + f['method']['name']
                      for f in (v['stackTrace']['frames'] if v.get('stackTrace') else []))
    counts[category(cls, frames)] += v['weight']
    total += v['weight']
print('worker threads: %.1f MB sampled' % (total / 1e6))
for k, w in counts.most_common():
    print('  %-45s %5.1f%%' % (k, 100 * w / total))
