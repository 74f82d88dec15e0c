#!/usr/bin/env python3
"""Which folders of a target name which others' types, and the cycles among them.

    scripts/folder_graph.py Sources/StubdEngine [--edges FROM TO]

A folder refers to another when one of its files names a top-level type, protocol or alias declared
in the other (by the type's name, outside comments and string literals; nested types are left out,
as they are named through their outer type; --edges lists the names behind an edge to check it). Prints each folder's edges, then every cycle SwiftPM cannot see (folders are not targets):
the strongly connected groups of more than one folder. Exit status 1 when there is one.
"""
import collections, os, re, sys

root = sys.argv[1]
folders = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
owner, texts = {}, {}
declaration = re.compile(r'^(?:(?:public|package|internal|private|fileprivate|final|indirect|nonisolated|@\w+)\s+)*'
                         r'(?:struct|class|enum|protocol|typealias|actor)\s+(\w+)', re.M)
for folder in folders:
    for directory, _, files in os.walk(os.path.join(root, folder)):
        for name in files:
            if not name.endswith(".swift"):
                continue
            text = open(os.path.join(directory, name), encoding="utf-8").read()
            text = re.sub(r'"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"', '""', text)   # string literals
            text = re.sub(r'//.*', '', text)                                   # comments, doc comments
            texts[(folder, name)] = text
            for match in declaration.finditer(text):
                owner.setdefault(match.group(1), folder)
edges = collections.defaultdict(lambda: collections.defaultdict(set))
for (folder, name), text in texts.items():
    for identifier in set(re.findall(r'\b[A-Z]\w+\b', text)):
        other = owner.get(identifier)
        if other and other != folder:
            edges[folder][other].add(f"{name}: {identifier}")

if "--edges" in sys.argv:
    a, b = sys.argv[sys.argv.index("--edges") + 1:][:2]
    print("\n".join(sorted(edges[a][b])))
    sys.exit(0)

for folder in folders:
    print(f"{folder} → " + ", ".join(f"{o} ({len(v)})" for o, v in sorted(edges[folder].items())))

# Tarjan's strongly connected components.
index, low, stack, on, groups, counter = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    for w in edges[v]:
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        group = []
        while True:
            w = stack.pop(); on.discard(w); group.append(w)
            if w == v: break
        if len(group) > 1: groups.append(sorted(group))
sys.setrecursionlimit(10000)
for f in folders:
    if f not in index: visit(f)
for group in groups:
    print("cycle among: " + ", ".join(group))
sys.exit(1 if groups else 0)
