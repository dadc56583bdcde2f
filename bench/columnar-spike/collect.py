"""python3 collect.py RUN...: the per-run markdown tables for RESULTS.md from
data/enc/RUN.native.tsv, wasm/timings.jsonl and wasm/sizes.tsv."""
import json, sys

sizes = {}
for line in open('wasm/sizes.tsv'):
    v, raw, gz = line.split('\t')
    sizes[v] = (int(raw), int(gz))
base = sizes['baseline']
timing = {}
for line in open('wasm/timings.jsonl'):
    j = json.loads(line)
    v = j['wasm'].split('/')[-1].split('.')[0]
    run = j['data'].split('/')[-1].split('.')[0]
    mode = 'steady' if '--no-liftoff' in j['flags'] else 'cold'
    timing[(run, v, j['export'], mode)] = j

# native label -> (wasm variant, export)
wasm_of = {
    'Arrow IPC stream, LZ4_FRAME → RecordBatch': ('arrow', 'decode'),
    'Arrow IPC stream, LZ4_FRAME → column Vecs': ('arrow', 'decode_vecs'),
    'Arrow IPC stream, LZ4_FRAME, lean reader → RecordBatch': ('lean', 'decode'),
    'postcard + lz4_flex block → column Vecs': ('postcard', 'decode'),
    'raw LE columns + lz4_flex block → column Vecs': ('raw', 'decode'),
    'postcard + gzip -6 (flate2) → column Vecs': ('postcard-gz', 'decode'),
    'raw LE columns + gzip -6 (flate2) → column Vecs': ('raw-gz', 'decode'),
    'raw LE columns + lz4_flex block → dense columns (values + bitmap)': ('raw-dense', 'decode'),
    'postcard (dense columns) + lz4_flex block → dense columns': ('pcd', 'decode'),
    'postcard (dense columns) + gzip -6 (flate2) → dense columns': ('pcd-gz', 'decode'),
    'reference: JSON lines, gzip -6 (flate2) → Vec<Row>': ('jsonl', 'decode'),
}
for run in sys.argv[1:]:
    print(f'\n### {run}\n')
    print('| encoding | bytes | decode native ms | decode wasm ms (steady / first call) | wasm added KB (raw / gzip) |')
    print('|---|---:|---:|---:|---:|')
    for line in open(f'data/enc/{run}.native.tsv'):
        label, b, plain, ms, ok = line.rstrip('\n').split('\t')
        assert ok == 'true', (run, label)
        w = wasm_of.get(label)
        if w:
            st = timing.get((run, w[0], w[1], 'steady'))
            co = timing.get((run, w[0], w[1], 'cold'))
            wt = f"{st['median_ms']:.1f} / {co['first_ms']:.1f}" if st and co else 'n/a'
            raw, gz = sizes[w[0]]
            added = f"{(raw - base[0]) / 1000:.1f} / {(gz - base[1]) / 1000:.1f}"
        else:
            wt, added = 'n/a', 'n/a'
        print(f"| {label} | {int(b):,} ({int(plain):,} before compression) | {float(ms):.2f} | {wt} | {added} |")
    extra = [('raw-dense-unsafe', 'raw LE columns + lz4_flex (unsafe decoder) → dense columns'),
             ('pcd-unsafe', 'postcard (dense columns) + lz4_flex (unsafe decoder) → dense columns')]
    for v, label in extra:
        st = timing.get((run, v, 'decode', 'steady')); co = timing.get((run, v, 'decode', 'cold'))
        if st and co:
            raw, gz = sizes[v]
            print(f"| {label} | same file as above | n/a | {st['median_ms']:.1f} / {co['first_ms']:.1f} | {(raw - base[0]) / 1000:.1f} / {(gz - base[1]) / 1000:.1f} |")
print(f"\nBaseline cdylib (alloc + checksum + no-op decode): {base[0]:,} B raw / {base[1]:,} B gzip -9 after wasm-opt -Oz; 'added' = variant minus baseline, KB = 1000 B.")
