#!/usr/bin/env python3
"""Checks the module graph of a Rust crate: no import cycle among its files, and (for the
app) no file importing from a layer above its own.

Usage: scripts/check-imports.py CRATE_SRC_DIR [--layers LAYERS_FILE] [--graph]

An edge A -> B means file A names an item of module file B: through `use crate::…`,
`use super::…`, `use self::…`, a child module's name, or the same paths written inline in
code (`crate::data::load(…)`), or re-exports it (`pub use`), B being the file that defines the
item (re-exports are followed). Declaring a module (`mod b;`) is not an edge, nor is a module
re-exporting its own submodules' items (a facade). Test code
(`#[cfg(test)]` modules, `tests.rs` and `tests/` files) is left out: tests may look anywhere.

LAYERS_FILE lists layers from the bottom up, one per line: `name: prefix prefix …` where a
prefix is a path under CRATE_SRC_DIR (a file or a folder ending in `/`; a `*` stands for one
folder's name, as in `pages/*/url.rs`). Every file must fall
in exactly one layer (the longest matching prefix wins); a file may import from its own
layer and the layers below it, never from one above.

Exit status 1 with each cycle (and the names that tie it) or each upward import listed, 0
with a one-line summary otherwise.
"""
import re
import sys
from pathlib import Path

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments_and_strings(text):
    """Blanks out comments, string and char literals, keeping line breaks."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if text[i] == "\n" else "")
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and not re.match(r"\w", text[i - 1] if i else " "):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'|'\\u\{[0-9a-fA-F]+\}'|'\\x[0-9a-fA-F]{2}'", text[i:i + 12]):
            m = re.match(r"'(\\.|[^\\'])'|'\\u\{[0-9a-fA-F]+\}'|'\\x[0-9a-fA-F]{2}'", text[i:])
            out.append("' '")
            i += m.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching_brace(text, open_at):
    depth = 0
    for j in range(open_at, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(text) - 1


def matching_semicolon(text, start):
    j = text.find(";", start)
    return len(text) if j < 0 else j


def strip_test_modules(text):
    """Removes `#[cfg(test)] mod name { … }` blocks (and `#[cfg(test)] mod name;` lines)."""
    pattern = re.compile(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+" + IDENT + r"\s*([{;])")
    while True:
        m = pattern.search(text)
        if not m:
            return text
        end = m.end() if m.group(1) == ";" else matching_brace(text, m.end() - 1) + 1
        text = text[:m.start()] + "\n" * text.count("\n", m.start(), end) + text[end:]


def expand_tree(text, start):
    """Expands a use tree beginning at `start` (just after `prefix::`) into segment lists;
    returns (paths, end)."""
    i = start
    while i < len(text) and text[i].isspace():
        i += 1
    if i < len(text) and text[i] == "{":
        close = matching_brace(text, i)
        inner, paths, depth, piece_start = text[i + 1:close], [], 0, 0
        pieces = []
        for j, ch in enumerate(inner):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                pieces.append(inner[piece_start:j])
                piece_start = j + 1
        pieces.append(inner[piece_start:])
        for piece in pieces:
            piece = piece.strip()
            if not piece:
                continue
            segs = []
            k = 0
            while True:
                m = re.match(r"\s*(" + IDENT + r"|\*)\s*", piece[k:])
                if not m:
                    break
                segs.append(m.group(1))
                k += m.end()
                if piece[k:k + 2] == "::":
                    k += 2
                    if piece[k:].lstrip().startswith("{"):
                        sub, _ = expand_tree(piece, k)
                        paths.extend(segs + s for s in sub)
                        segs = None
                        break
                else:
                    break
            if segs:
                paths.append(segs)
        return paths, close + 1
    m = re.match(r"(" + IDENT + r"|\*)((?:\s*::\s*" + IDENT + r")*)", text[i:])
    if not m:
        return [], i
    segs = [m.group(1)] + re.findall(IDENT, m.group(2))
    end = i + m.end()
    rest = text[end:end + 4].lstrip()
    if rest.startswith("::"):
        k = text.index("::", end) + 2
        sub, end = expand_tree(text, k)
        return [segs + s for s in sub], end
    return [segs], end


class Crate:
    def __init__(self, src):
        self.src = src
        self.files = {}  # module path tuple -> file Path
        self.texts = {}
        self.children = {}  # module path tuple -> set of child names
        for path in sorted(src.rglob("*.rs")):
            rel = path.relative_to(src)
            parts = list(rel.parts)
            if "tests" in parts[:-1] or parts[-1] == "tests.rs" or parts[-1] == "main.rs":
                continue
            if parts[-1] in ("lib.rs",) and len(parts) == 1:
                module = ()
            elif parts[-1] == "mod.rs":
                module = tuple(parts[:-1])
            else:
                module = tuple(parts[:-1]) + (parts[-1][:-3],)
            self.files[module] = path
        for module in self.files:
            if module:
                self.children.setdefault(module[:-1], set()).add(module[-1])

    def resolve(self, segs):
        """The longest module prefix of `segs` that is a file, and the name taken from it."""
        for cut in range(len(segs), -1, -1):
            if tuple(segs[:cut]) in self.files:
                name = segs[cut] if cut < len(segs) else segs[-1] if segs else "*"
                return tuple(segs[:cut]), name
        return None, None

    def text(self, module):
        if module not in self.texts:
            raw = self.files[module].read_text(encoding="utf-8")
            self.texts[module] = strip_test_modules(strip_comments_and_strings(raw))
        return self.texts[module]

    def paths(self, module, reexports):
        """(absolute segments) of every path the file names: only those of `pub use`
        statements when `reexports`, only the others otherwise. A module brought in by `use`
        (`use crate::loader;`) is followed where its name starts a path (`loader::start()`)."""
        text = self.text(module)
        uses = [(m.start(), matching_semicolon(text, m.end()), bool(m.group(1)))
                for m in re.finditer(r"\b(pub(?:\([^)]*\))?\s+)?use\b", text)]
        children = self.children.get(module, set())
        heads = {"crate": [], "self": list(module), "super": list(module[:-1])}
        heads.update({c: list(module) + [c] for c in children})
        aliases = {}
        for scan in (heads, None):
            if scan is None:
                scan = {k: v for k, v in aliases.items() if k not in heads}
                if not scan:
                    break
            pattern = r"(?<![A-Za-z0-9_:])(" + "|".join(re.escape(h) for h in sorted(scan)) + r")\s*::"
            for m in re.finditer(pattern, text):
                statement = next((u for u in uses if u[0] <= m.start() < u[1]), None)
                head = m.group(1)
                paths, _ = expand_tree(text, m.end())
                for segs in paths:
                    base = list(scan[head])
                    while head == "super" and segs and segs[0] == "super":
                        base, segs = base[:-1], segs[1:]
                    full = base + segs
                    if statement and tuple(full) in self.files:
                        aliases[full[-1]] = full
                    if (statement is not None and statement[2]) == reexports:
                        yield full

    def reexported(self, module, name, seen=()):
        """The module that defines `name` when `module` only re-exports it (`pub use`)."""
        if (module, name) in seen:
            return module
        for segs in self.paths(module, True):
            if segs[-1] in (name, "*"):
                target, taken = self.resolve(segs if segs[-1] != "*" else segs[:-1] + [name])
                if target is not None and target != module:
                    return self.reexported(target, taken, seen + ((module, name),))
        return module

    def imports(self, module):
        """{defining module: set of names} for one file: what it uses and what it re-exports,
        each taken from the file that defines it (re-exports followed)."""
        found = {}
        for reexport in (False, True):
            for segs in self.paths(module, reexport):
                target, name = self.resolve(segs)
                if target is None:
                    continue
                target = self.reexported(target, name)
                # A module publishing its own submodules' items is their facade, not a user.
                if target != module and not (reexport and target[:len(module)] == module):
                    found.setdefault(target, set()).add(name)
        return found

    def graph(self):
        return {m: self.imports(m) for m in self.files}

    def rel(self, module):
        return str(self.files[module].relative_to(self.src))


def cycles(graph):
    """Strongly connected components with more than one file (Tarjan, iterative)."""
    index, low, on_stack, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def read_layers(path):
    layers = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" not in line:
            sys.exit(f"{path}:{number}: expected `name: prefix prefix …`, found {line!r}")
        name, prefixes = line.split(":", 1)
        layers.append((name.strip(), prefixes.split()))
    return layers


def matches(rel, prefix):
    """Whether file `rel` is `prefix`, or under it when it ends with `/`; a `*` in `prefix`
    stands for one path segment's characters (`pages/*/url.rs`)."""
    if "*" in prefix:
        pattern = re.escape(prefix).replace(r"\*", "[^/]*")
        pattern += ".*" if prefix.endswith("/") else ""
        return re.fullmatch(pattern, rel) is not None
    return rel == prefix or (prefix.endswith("/") and rel.startswith(prefix))


def layer_of(rel, layers):
    best = None
    for rank, (name, prefixes) in enumerate(layers):
        for prefix in prefixes:
            if matches(rel, prefix):
                if best is None or len(prefix) > best[2]:
                    best = (rank, name, len(prefix))
    return best


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    crate = Crate(Path(argv[0]))
    graph = crate.graph()
    problems = []
    for comp in cycles(graph):
        problems.append(f"import cycle among {len(comp)} files:")
        members = set(comp)
        for a in comp:
            for b in sorted(graph[a]):
                if b in members:
                    names = ", ".join(sorted(graph[a][b]))
                    problems.append(f"  {crate.rel(a)} -> {crate.rel(b)}: {names}")
    if "--layers" in argv:
        layers_file = argv[argv.index("--layers") + 1]
        layers = read_layers(layers_file)
        for a in sorted(graph):
            la = layer_of(crate.rel(a), layers)
            if la is None:
                problems.append(f"{crate.rel(a)}: in no layer of {layers_file}")
                continue
            for b in sorted(graph[a]):
                lb = layer_of(crate.rel(b), layers)
                if lb is not None and lb[0] > la[0]:
                    names = ", ".join(sorted(graph[a][b]))
                    problems.append(
                        f"{crate.rel(a)} ({la[1]}) imports from the layer above, "
                        f"{crate.rel(b)} ({lb[1]}): {names}")
    if "--graph" in argv:
        for a in sorted(graph):
            for b in sorted(graph[a]):
                print(f"{crate.rel(a)} -> {crate.rel(b)}: {', '.join(sorted(graph[a][b]))}")
    if problems:
        print(f"{argv[0]}: module graph problems:")
        print("\n".join(problems))
        return 1
    edges = sum(len(v) for v in graph.values())
    print(f"{argv[0]}: {len(graph)} files, {edges} imports between them, no cycle"
          + (", every import from its own layer or below" if "--layers" in argv else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
