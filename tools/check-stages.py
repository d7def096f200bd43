#!/usr/bin/env python3
"""Check that Petrel's stages call downward only, from the object files.

The folders of host/ and kernels/ are stages (docs/architecture.md): each may
call only the stages below it in STAGES, and no files may call each other in
a loop. This reads `nm` of every object file the build made for libpetrel,
the CUDA library and the CLI: a file's undefined symbols are its calls, and
the file that defines a symbol is where the call goes. A call to a higher
stage, or a cycle of files that call each other, is printed with the names
behind it, and the exit status is 1 (0 when the build keeps to the stages; 2
on bad usage). Header-only code (inline functions, macros) makes no symbols
and is not seen here.

Usage: tools/check-stages.py [BUILD_DIR]    (default: build)

Standard library and binutils' nm only.
"""

import collections
import os
import subprocess
import sys

# From the ground up: a stage may call its own files and the stages before it.
STAGES = [
    "host/sys", "kernels", "host/net", "host/formula", "host/coloured", "host/io",
    "host/answers", "host/space", "host/logic", "host/engine", "host/linear",
    "host/reduce", "host/examine", "host/cli",
]
LIBRARIES = ("petrel.dir", "petrel_cuda.dir", "petrel_cli.dir")


def objects(build):
    """(source path, object path) of every object of the three libraries."""
    root = os.path.join(build, "CMakeFiles")
    for lib in LIBRARIES:
        top = os.path.join(root, lib)
        for dirpath, _, files in os.walk(top):
            for f in files:
                if f.endswith(".o"):
                    obj = os.path.join(dirpath, f)
                    yield os.path.relpath(obj, top)[:-2], obj


def symbols(obj):
    """(defined, undefined) symbol names of one object file."""
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRCV":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
    return defined, undefined


def stage_of(path):
    for k, s in enumerate(STAGES):
        if path.startswith(s + "/"):
            return k
    return None


def calls(build):
    """{(caller file, callee file): names} over files whose sources exist."""
    owner, wants = {}, {}
    for src, obj in objects(build):
        if not os.path.exists(src):  # a stale object of a moved file
            continue
        defined, undefined = symbols(obj)
        wants[src] = undefined
        for name in defined:
            owner[name] = src
    edges = collections.defaultdict(set)
    for src, names in wants.items():
        for name in names:
            if name in owner and owner[name] != src:
                edges[(src, owner[name])].add(name)
    return edges


def upward(edges):
    bad = []
    for (a, b), names in sorted(edges.items()):
        sa, sb = stage_of(a), stage_of(b)
        if sa is None or sb is None:
            bad.append(f"{a} -> {b}: a file outside the stages")
        elif sb > sa:
            bad.append(f"{a} ({STAGES[sa]}) -> {b} ({STAGES[sb]}): {' '.join(sorted(names))}")
    return bad


def cycles(edges):
    """Strongly connected components of more than one file (Tarjan, iterative)."""
    graph = collections.defaultdict(list)
    for a, b in edges:
        graph[a].append(b)
    index, low, on, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on.add(v)
            succ = graph[v]
            if i < len(succ):
                work.append((v, i + 1))
                w = succ[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return found


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1] in ("-h", "--help")):
        print(__doc__)
        return 2
    build = argv[1] if len(argv) == 2 else "build"
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    if not os.path.isdir(os.path.join(build, "CMakeFiles")):
        print(f"check-stages: {build}: not a CMake build folder", file=sys.stderr)
        return 2
    edges = calls(build)
    bad = upward(edges)
    loops = cycles(edges)
    for line in bad:
        print("check-stages: calls a higher stage:", line)
    for comp in loops:
        print("check-stages: files that call each other:", ", ".join(comp))
        for a in comp:
            for b in comp:
                if (a, b) in edges:
                    print(f"    {a} -> {b}: {' '.join(sorted(edges[(a, b)]))}")
    files = len({f for e in edges for f in e})
    print(f"check-stages: {len(edges)} calls between {files} files, "
          f"{len(bad)} to a higher stage, {len(loops)} cycles")
    return 1 if bad or loops else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
