#!/usr/bin/python3
"""Checks the shape of src/: folders that include each other's headers form
no cycle, sources/ and backends/ do not depend on each other, backends/'
internal libraries (lazy/, graph/) use nothing of the backends built on them,
no two headers of one folder include each other, and no two source files
share a name. Usage: check_source_tree.py SRC_DIR"""

import collections
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.MULTILINE)
# Pairs that must stay apart in both directions: the shared pieces they both
# need live in a folder below them (util/, measure/, report/).
APART = [("sources", "backends")]
# backends/' internal libraries, with what each may include from backends/:
# the one-file backends are built on them, never the other way round.
INTERNAL = {"backends/lazy": ("backends/lazy/", "backends/graph/"),
            "backends/graph": ("backends/graph/",)}
HEADER = re.compile(r'^\s*#\s*include\s+"([a-z_]+/[a-z_/]+)\.h"', re.MULTILINE)


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


def internal_library_problems(src):
    problems = []
    for library, allowed in INTERNAL.items():
        for path in sorted((src / library).glob("*")):
            for target in HEADER.findall(path.read_text(errors="replace")):
                if target.startswith("backends/") and not target.startswith(allowed):
                    problems.append(f"{path.relative_to(src)} includes {target}.h: {library}/ is "
                                    "a library the backends use, not one that uses them")
    return problems


def mutual_include_problems(src):
    """Two files of one folder whose headers or sources include each other's header."""
    includes = collections.defaultdict(set)
    for path in src.rglob("*"):
        if path.suffix in (".h", ".cpp"):
            module = str(path.relative_to(src).with_suffix(""))
            for target in HEADER.findall(path.read_text(errors="replace")):
                if target != module:
                    includes[module].add(target)
    return [f"{a} and {b} include each other; move what both need into one of them or below"
            for a in sorted(includes) for b in sorted(includes[a])
            if a < b and a in includes.get(b, ()) and a.split("/")[0] == b.split("/")[0]]


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
    problems += internal_library_problems(src)
    problems += mutual_include_problems(src)
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
