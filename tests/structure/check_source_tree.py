#!/usr/bin/python3
"""Checks the shape of src/: folders that include each other's headers form
no cycle, sources/ and backends/ do not depend on each other, and no two
source files share a name. Usage: check_source_tree.py SRC_DIR"""

import collections
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.MULTILINE)
# Pairs that must stay apart in both directions: the shared pieces they both
# need live in a folder below them (util/, measure/, report/).
APART = [("sources", "backends")]


def folder_graph(src):
    graph = collections.defaultdict(set)
    for path in src.rglob("*"):
        if path.suffix not in (".h", ".cpp"):
            continue
        folder = path.relative_to(src).parts[0]
        for target in INCLUDE.findall(path.read_text(errors="replace")):
            if target != folder and (src / target).is_dir():
                graph[folder].add(target)
    return graph


def find_cycle(graph):
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def main():
    src = pathlib.Path(sys.argv[1])
    problems = []
    graph = folder_graph(src)
    cycle = find_cycle(graph)
    if cycle:
        problems.append("folders include each other: " + " -> ".join(cycle))
    for a, b in APART:
        for x, y in ((a, b), (b, a)):
            if y in graph.get(x, ()):
                problems.append(f"{x}/ includes {y}/; move the shared piece below both")
    names = collections.defaultdict(list)
    for path in src.rglob("*"):
        if path.suffix in (".h", ".cpp"):
            names[path.stem].append(str(path.relative_to(src)))
    for stem, paths in sorted(names.items()):
        folders = {pathlib.Path(p).parent for p in paths}
        if len(folders) > 1:
            problems.append(f"two files named {stem}: " + ", ".join(sorted(paths)))
    for line in problems:
        print(line)
    if not problems:
        print("folders: " + "; ".join(f"{k} -> {','.join(sorted(v))}" for k, v in sorted(graph.items())))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
