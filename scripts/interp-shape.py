#!/usr/bin/env python3
"""The interpreter's shape, as counted in ARCHITECTURE.md: the methods of `Interp` (the `fn`s inside
`impl … Interp` blocks of crates/lang/src/interp, tests left out) and the files of that folder that
call each other in one loop (through calls of functions defined in one file only: `self.f(`, `cx.f(`,
`Interp::f(`, `module::f(`, a bare `f(` of a free function), a rough count.
Usage: scripts/interp-shape.py [REPO] [-v]   (-v: each file's calls into the others)"""
import glob, os, re, sys

root = next((a for a in sys.argv[1:] if a != "-v"), os.path.join(os.path.dirname(__file__), ".."))
base = os.path.join(root, "crates/lang/src/interp/")
files = sorted(glob.glob(base + "*.rs") + glob.glob(base + "caches/*.rs"))


def without_tests(s):
    i = s.find("#[cfg(test)]\nmod tests")
    return s if i < 0 else s[:i]


src = {f: without_tests(open(f).read()) for f in files}

# Methods of Interp.
total = holders = 0
for f, s in src.items():
    n = 0
    for m in re.finditer(r"^impl(?:<[^>]*>)? (?:[\w:]+ for )?(?:super::|crate::interp::)?Interp \{", s, re.M):
        depth, j = 0, m.end() - 1
        start = j
        while True:
            if s[j] == "{":
                depth += 1
            elif s[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        n += len(re.findall(r"^    (?:pub(?:\([^)]*\))? )?(?:const )?fn ", s[start:j], re.M))
    if n:
        holders += 1
        total += n
print(f"{total} methods of Interp over {holders} files")

# The loop.
defs, free = {}, set()
for f, s in src.items():
    for m in re.finditer(r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?fn\s+([a-z_][a-z0-9_]*)", s, re.M):
        defs.setdefault(m.group(2), set()).add(f)
        if m.group(1) == "":
            free.add((m.group(2), f))
one = {n: next(iter(fs)) for n, fs in defs.items() if len(fs) == 1}
calls = {f: {} for f in files}
pat = re.compile(r"(?:\b(?:self|cx|me)(?:\.[a-z_]+)?\s*\.\s*|\b(?:Self|Interp|[a-z_]+)::)([a-z_][a-z0-9_]*)\s*\(|(?<![\w.:])([a-z_][a-z0-9_]*)\s*\(")
for f, s in src.items():
    for m in pat.finditer(s):
        n = m.group(1) or m.group(2)
        if n not in one or one[n] == f or (m.group(2) and (n, one[n]) not in free):
            continue
        calls[f].setdefault(one[n], set()).add(n)
index, low, stack, on, loops, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in calls[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        loops.append(comp)


for v in files:
    if v not in index:
        visit(v)
rel = lambda x: os.path.relpath(x, base)
big = max(loops, key=len)
print(f"{len(files)} files; the largest loop of calls: {len(big)}: " + " ".join(sorted(rel(x) for x in big)))
if "-v" in sys.argv:
    for f in files:
        print(rel(f), "->", "; ".join(f"{rel(k)}: {','.join(sorted(v))}" for k, v in sorted(calls[f].items())))
