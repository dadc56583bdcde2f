#!/usr/bin/env python3
"""Where the bytes of a wasm go: function bodies grouped by crate (raw and gzip -9 of each
group's bodies concatenated) and the largest data segments (raw, gzip, sample strings).

The wasm must keep its name section: run wasm-opt with -g on wasm-bindgen's output, e.g.
  wasm-opt -Oz -g $CARGO_TARGET_DIR/wasm-bindgen/release/runlens-web_bg.wasm -o /tmp/named.wasm
  python3 e2e/bench/wasm-breakdown.py /tmp/named.wasm
Attribution is by the first path segment of the (demangled) name after inlining, so code
inlined into a caller counts for the caller's crate; generic `<F as krate::Trait>` items
count for `krate`. Separately gzipped groups do not add up to the file's gzip size.
"""
import collections
import gzip
import re
import sys

B = open(sys.argv[1], 'rb').read()


def leb(i):
    r = s = 0
    while True:
        x = B[i]
        i += 1
        r |= (x & 0x7F) << s
        s += 7
        if x < 0x80:
            return r, i


def string(i):
    n, i = leb(i)
    return B[i:i + n].decode('utf8', 'replace'), i + n


def sections():
    i = 8
    while i < len(B):
        sid = B[i]
        size, j = leb(i + 1)
        yield sid, j, j + size
        i = j + size


n_imported, bodies, names, segments = 0, [], {}, []
for sid, start, end in sections():
    if sid == 2:  # imports: count the imported functions (they shift function indexes)
        n, j = leb(start)
        for _ in range(n):
            _, j = string(j)
            _, j = string(j)
            kind = B[j]
            j += 1
            if kind == 0:
                _, j = leb(j)
                n_imported += 1
            elif kind == 1:
                j += 1
                flags, j = leb(j)
                _, j = leb(j)
                if flags & 1:
                    _, j = leb(j)
            elif kind == 2:
                flags, j = leb(j)
                _, j = leb(j)
                if flags & 1:
                    _, j = leb(j)
            elif kind == 3:
                j += 2
            elif kind == 4:
                j += 1
                _, j = leb(j)
    elif sid == 10:
        n, j = leb(start)
        for _ in range(n):
            size, j = leb(j)
            bodies.append(B[j:j + size])
            j += size
    elif sid == 11:
        n, j = leb(start)
        for _ in range(n):
            flags, j = leb(j)
            if flags in (0, 2):
                if flags == 2:
                    _, j = leb(j)
                while B[j] != 0x0B:  # the offset expression
                    j += 1
                j += 1
            size, j = leb(j)
            segments.append(B[j:j + size])
            j += size
    elif sid == 0:
        name, j = string(start)
        if name == 'name':
            while j < end:
                sub = B[j]
                size, j = leb(j + 1)
                if sub == 1:
                    n, k = leb(j)
                    for _ in range(n):
                        idx, k = leb(k)
                        names[idx], k = string(k)
                j += size


def crate(name):
    name = re.sub(r'\[[0-9a-f]{16}\]', '', name)
    s = re.sub(r'^(<|&mut |&|dyn |\[|\(|\*const |\*mut )+', '', name)
    m = re.match(r'([A-Za-z_][A-Za-z0-9_]*)::', s)
    if m and m.group(1) not in ('F', 'T', 'V', 'C', 'R', 'E', 'I'):
        c = m.group(1)
    else:
        m = re.search(r' as ([A-Za-z_][A-Za-z0-9_]*)::', s)
        c = m.group(1) if m else 'other'
    if c in ('core', 'alloc', 'std', 'compiler_builtins', 'dlmalloc', '__rustc', 'other'):
        return 'core/alloc/std/other'
    return c


groups = collections.defaultdict(list)
for k, body in enumerate(bodies):
    groups[crate(names.get(k + n_imported, '?'))].append(body)
code = b''.join(bodies)
data = b''.join(segments)
print(f'file {len(B):,} B; code bodies {len(code):,} B ({len(gzip.compress(code, 9)):,} gzip); '
      f'data {len(data):,} B ({len(gzip.compress(data, 9)):,} gzip); names for {len(names):,} functions')
print(f'{"crate":28} {"raw KB":>8} {"gzip KB":>8} {"fns":>6}')
rows = sorted(((len(gzip.compress(b''.join(v), 9)), sum(map(len, v)), len(v), c)
               for c, v in groups.items()), reverse=True)
for gz, raw, n, c in rows[:int(sys.argv[2]) if len(sys.argv) > 2 else 30]:
    print(f'{c:28} {raw / 1000:8.1f} {gz / 1000:8.1f} {n:6}')
print('largest data segments (raw KB, gzip KB, first strings):')
for seg in sorted(segments, key=len, reverse=True)[:6]:
    strs = [s.decode()[:40] for s in re.findall(rb'[ -~]{8,}', seg)[:3]]
    print(f'  {len(seg) / 1000:8.1f} {len(gzip.compress(seg, 9)) / 1000:8.1f}  {strs}')
