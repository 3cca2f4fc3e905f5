#!/usr/bin/env python3
"""The house's layers hold (docs/architecture.md):

1. no folder of the library calls a folder above it, and folders of the
   same height do not call each other (a call is a use of a function or
   object a file of another folder defines without `static`);
2. inside every folder (the library's and the command's) no two files use
   each other, directly or around a circle;
3. the parallel fields, volume sets and HDF5 reach the MPI layer only
   through its door, io/xfer.h (no include of io/io_internal.h);
4. bytes of a file move only in the core, io and strategy rooms: no MPI-IO
   call (MPI_File_*) and no raw pread/pwrite anywhere else in src/.

Usage: test_layers.py SOURCE_DIR"""
import os
import re
import sys

# Folder heights, bottom up.  The alternative HDF5 files h5_none.c (a
# library without HDF5) define the same calls as the real ones and are
# left out.
LAYERS = [
    ("src/core", 0), ("src/container", 1), ("src/field", 2), ("src/volumes", 3), ("compat/lime", 3),
    ("src/hdf5", 3), ("src/ops", 4), ("src/io", 5), ("src/strategy", 6), ("src/container/mpi", 7),
    ("src/field/mpi", 7), ("src/volumes/mpi", 8), ("src/hdf5/mpi", 8), ("compat/lemon", 9), ("src/ops/mpi", 9),
]
# The rooms where a file's bytes move (rule 4), and the calls that move them.
BYTE_ROOMS = ("src/core", "src/io", "src/strategy")
RAW_IO = re.compile(r"\b(MPI_File_\w+|pread|pwrite|pread64|pwrite64)\s*\(")
FOLDERS_ONLY_CIRCLES = ["tools/lattio"]
SKIP = {"src/hdf5/h5_none.c", "src/hdf5/mpi/h5_none.c"}
DEF = re.compile(r"^(?!static\b)(?:const\s+)?[A-Za-z_][\w\s\*]*?\b([A-Za-z_]\w*)\s*(?:\([^;{]*\)\s*\{|=)",
                 re.M)
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "main"}


def sources(root, folder):
    d = os.path.join(root, folder)
    return sorted(os.path.join(folder, n) for n in os.listdir(d)
                  if n.endswith(".c") and os.path.join(folder, n) not in SKIP)


def strip(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def definitions(root, files):
    defs = {}
    for f in files:
        text = strip(open(os.path.join(root, f)).read())
        for m in DEF.finditer(text):
            name = m.group(1)
            if name not in KEYWORDS and not m.group(0).lstrip().startswith(("typedef", "extern", "#")):
                defs.setdefault(name, f)
    return defs


def uses(root, files, defs):
    edges = {}
    for f in files:
        words = set(re.findall(r"\b[A-Za-z_]\w*\b", strip(open(os.path.join(root, f)).read())))
        edges[f] = sorted({defs[w] for w in words if w in defs and defs[w] != f})
    return edges


def circles(edges):
    """Pairs of files that reach each other."""
    found = []
    for a in edges:
        seen, todo = set(), list(edges[a])
        while todo:
            n = todo.pop()
            if n == a:
                found.append(a)
                break
            if n in seen or n not in edges:
                continue
            seen.add(n)
            todo.extend(edges[n])
    return found


def main():
    root = sys.argv[1]
    height = dict(LAYERS)
    folder_of = {}
    files = []
    for folder, _ in LAYERS:
        for f in sources(root, folder):
            folder_of[f] = folder
            files.append(f)
    defs = definitions(root, files)
    edges = uses(root, files, defs)
    bad = []
    for f, targets in edges.items():
        for t in targets:
            a, b = folder_of[f], folder_of[t]
            if a != b and height[b] >= height[a]:
                bad.append("%s (%s) uses %s (%s)" % (f, a, t, b))
    for folder in [fo for fo, _ in LAYERS] + FOLDERS_ONLY_CIRCLES:
        group = sources(root, folder)
        local = uses(root, group, definitions(root, group))
        for f in circles(local):
            bad.append("%s is on a circle of files inside %s" % (f, folder))
    for folder in ("src/field/mpi", "src/volumes/mpi", "src/hdf5"):
        for f in sources(root, folder) + [os.path.join(folder, n) for n in os.listdir(os.path.join(root, folder))
                                          if n.endswith(".h")]:
            if re.search(r'#\s*include\s*"[^"]*io_internal\.h"', open(os.path.join(root, f)).read()):
                bad.append("%s includes io_internal.h (the door is io/xfer.h)" % f)
    for f in files:
        if f.startswith("src/") and folder_of[f] not in BYTE_ROOMS:
            for m in RAW_IO.finditer(strip(open(os.path.join(root, f)).read())):
                bad.append("%s calls %s (bytes move in %s only)" % (f, m.group(1), ", ".join(BYTE_ROOMS)))
    print("%d files in %d layers, %d definitions, %d uses between files" %
          (len(files), len(LAYERS), len(defs), sum(len(v) for v in edges.values())))
    for b in bad:
        print("FAIL: " + b)
    if len(defs) < 300:
        print("FAIL: too few definitions found (%d): the scan is broken" % len(defs))
        bad.append("scan")
    print("PASS" if not bad else "FAIL")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
