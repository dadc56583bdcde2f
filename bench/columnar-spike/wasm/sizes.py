"""python3 wasm/sizes.py FILE.wasm [N]: code bytes per crate (from the name section) + top N functions."""
import sys, re, collections

def leb(b, i):
    r = s = 0
    while True:
        x = b[i]; i += 1
        r |= (x & 0x7f) << s; s += 7
        if x < 0x80: return r, i

b = open(sys.argv[1], 'rb').read()
n_top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
i = 8; n_imported = 0; bodies = []; names = {}; sections = collections.Counter()
while i < len(b):
    sid = b[i]; i += 1
    size, i = leb(b, i); end = i + size
    if sid == 0:
        nl, j = leb(b, i); nm = b[j:j+nl].decode(); j += nl
        sections['custom:' + nm] += size
        if nm == 'name':
            while j < end:
                sub = b[j]; j += 1
                ssz, j = leb(b, j); send = j + ssz
                if sub == 1:
                    cnt, j = leb(b, j)
                    for _ in range(cnt):
                        idx, j = leb(b, j); l, j = leb(b, j)
                        names[idx] = b[j:j+l].decode('utf-8', 'replace'); j += l
                j = send
    else:
        sections[sid] += size
        if sid == 10:
            cnt, j = leb(b, i)
            for _ in range(cnt):
                bs, j = leb(b, j); bodies.append(bs); j += bs
    i = end
print('sections:', dict(sections))
crate = collections.Counter(); fns = []
for k, bs in enumerate(bodies):
    nm = names.get(k + n_imported, f'func{k}')
    m = re.match(r'^<?(?:&?(?:mut )?)?([a-z_0-9]+)::', nm)
    c = m.group(1) if m else nm.split('::')[0][:30]
    crate[c] += bs; fns.append((bs, nm))
print('total code', sum(bodies))
for c, s in crate.most_common(20): print(f'{s:8d} {c}')
for s, nm in sorted(fns, reverse=True)[:n_top]: print(f'{s:8d} {nm[:150]}')
