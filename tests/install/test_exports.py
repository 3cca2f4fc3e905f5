#!/usr/bin/env python3
"""Issue 16: the shared library exports exactly its API.  The dynamic symbols
that liblattio.so defines (nm -D --defined-only) are exactly the functions
the public headers declare (lattio.h, lime.h, lime_utils.h, lemon.h): no
internal function, no test hook, and every declared function exists.
With --serial, liblattio-serial against the MPI-free declarations: lattio.h
up to its MPI half (#ifndef LATTIO_NO_MPI), lime.h and lime_utils.h.
Usage: test_exports.py LIB INCLUDE_DIR [--serial]"""
import re
import subprocess
import sys

HEADERS = ("lattio.h", "lime.h", "lime_utils.h", "lemon.h")
PREFIX = re.compile(r"^(lattio_|lime|lemon|big_endian_)")


def declared(include, serial):
    names = set()
    for h in HEADERS:
        if serial and h == "lemon.h":
            continue
        text = open("%s/%s" % (include, h)).read()
        if serial and "#ifndef LATTIO_NO_MPI" in text:
            text = text[:text.index("#ifndef LATTIO_NO_MPI")]
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
        for decl in text.split(";"):
            decl = " ".join(decl.split())
            if decl.startswith("static ") or decl.startswith("typedef ") or "{" in decl and "(" not in decl:
                continue
            m = re.search(r"\b([A-Za-z_]\w*)\s*\(", decl)
            if m and PREFIX.match(m.group(1)) and not decl.startswith("#"):
                names.add(m.group(1))
    return names


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], stdout=subprocess.PIPE, check=True).stdout
    syms = set()
    for line in out.decode().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TtWiDdBbRrVv":
            syms.add(parts[2].split("@")[0])
    return {s for s in syms if not s.startswith("_")}


def main():
    lib, include = sys.argv[1], sys.argv[2]
    serial = "--serial" in sys.argv[3:]
    want, got = declared(include, serial), exported(lib)
    extra, missing = sorted(got - want), sorted(want - got)
    print("%d functions declared, %d symbols exported" % (len(want), len(got)))
    if extra:
        print("exported but not in the public headers: %s" % ", ".join(extra))
    if missing:
        print("declared but not exported: %s" % ", ".join(missing))
    ok = len(want) > (90 if serial else 150) and not extra and not missing
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


main()
