#!/usr/bin/env python3
"""The house keeps its rules by itself (docs/architecture.md):

1. every source path named in the code, the build files and the docs
   (src/..., tools/..., tests/..., docs/..., a file with its suffix) exists;
2. the Python package has no import circle (imports inside functions
   count: a lazy import is still a dependency);
3. with --ccn PYTHON: no function over cyclomatic complexity 20 in src,
   compat, tools or the Python package (lizard, run by PYTHON, which has it).

Usage: test_rules.py SOURCE_DIR [--ccn PYTHON]"""
import ast
import os
import re
import subprocess
import sys

ROOTS = ("src", "tools", "compat", "include", "python", "tests", "scripts", "bench", "examples", "docs", "fuzz",
         "cmake")
PATH = re.compile(r"(?<![\w./$-])((?:%s)/[\w./+-]*\.(?:c|h|py|pyx|pxi|sh|md|txt|cmake|toml|supp))(?![\w.-])"
                  % "|".join(ROOTS))
SCAN_SUFFIXES = (".c", ".h", ".py", ".pyx", ".pxi", ".sh", ".md", ".txt", ".cmake", ".toml")
SKIP_DIRS = {".git", "build", "__pycache__", "results"}  # bench/results: history names what was


def files(root):
    for top in ("README.md", "Makefile", "CMakeLists.txt", "pyproject.toml", ".ci/run"):
        if os.path.isfile(os.path.join(root, top)):
            yield top
    for d in ROOTS:
        for dirpath, dirnames, names in os.walk(os.path.join(root, d)):
            dirnames[:] = [n for n in dirnames if n not in SKIP_DIRS and not n.startswith("build")]
            for n in names:
                if n.endswith(SCAN_SUFFIXES) or n == "CMakeLists.txt":
                    yield os.path.relpath(os.path.join(dirpath, n), root)


def missing_paths(root):
    bad = []
    for rel in files(root):
        text = open(os.path.join(root, rel), errors="replace").read()
        for m in PATH.finditer(text):
            p = m.group(1).rstrip(".")
            if any(c in p for c in "*<>{}") or "NAME" in p or "XXX" in p:
                continue
            here = os.path.normpath(os.path.join(root, os.path.dirname(rel), p))
            if not os.path.exists(os.path.join(root, p)) and not os.path.exists(here):
                bad.append("%s names %s, which does not exist" % (rel, p))
    return bad


def package_imports(pkg):
    """{module: {modules of the package it imports}} (relative imports and
    lattio.X, at any depth)."""
    mods = {n[:-3] for n in os.listdir(pkg) if n.endswith(".py")}
    mods |= {n[:-4] for n in os.listdir(pkg) if n.endswith(".pyx")}
    graph = {}
    for m in mods:
        path = os.path.join(pkg, m + ".py")
        if not os.path.isfile(path):
            continue
        deps = set()
        tree = ast.parse(open(path).read())
        typing_only = set()  # `if TYPE_CHECKING:` imports are for the type checker, not a dependency
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                typing_only |= {id(n) for b in node.body for n in ast.walk(b)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    deps.add(node.module.split(".")[0])
                else:
                    deps |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lattio."):
                deps.add(node.module.split(".")[1])
            elif isinstance(node, ast.Import):
                deps |= {a.name.split(".")[1] for a in node.names if a.name.startswith("lattio.")}
        graph[m] = {d for d in deps if d in mods and d != m}
    return graph


def circles(graph):
    found = set()
    for a in graph:
        stack, seen = [(a, [a])], set()
        while stack:
            n, trail = stack.pop()
            for d in graph.get(n, ()):
                if d == a:
                    found.add(" -> ".join(sorted(set(trail))))
                elif d not in seen:
                    seen.add(d)
                    stack.append((d, trail + [d]))
    return sorted(found)


def ccn(root, python):
    p = subprocess.run([python, "-m", "lizard", "-C", "20", "-w"] +
                       [os.path.join(root, d) for d in ("src", "compat", "tools", "python/lattio")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode not in (0, 1) or "No module named" in p.stderr:
        return ["lizard could not run under %s: %s" % (python, p.stderr.strip()[:300])]
    return [line for line in p.stdout.splitlines() if "warning:" in line]


def main():
    root = sys.argv[1]
    bad = missing_paths(root)
    print("paths: %d missing" % len(bad))
    graph = package_imports(os.path.join(root, "python", "lattio"))
    loops = circles(graph)
    print("python package: %d modules, %d import circles" % (len(graph), len(loops)))
    bad += ["import circle among %s" % c for c in loops]
    if "--ccn" in sys.argv:
        over = ccn(root, sys.argv[sys.argv.index("--ccn") + 1])
        print("functions over CCN 20: %d" % len(over))
        bad += over
    for b in bad:
        print("FAIL:", b)
    print("FAIL" if bad else "ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
