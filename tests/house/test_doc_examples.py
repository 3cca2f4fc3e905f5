#!/usr/bin/env python3
"""Every code example in the README and docs/ is compiled or run by the tests:

1. a C block names, just before it, the example program it is taken from
   (examples/NAME.c, which the tests compile and run as example.NAME), and
   every line of the block (comments aside) is in that program;
2. the shell blocks of docs/c-guide.md run, line by line, from a scratch
   directory (`lattio` is the built command, paths under tests/data/real
   are the repository's), each exiting 0;
3. in the other shell blocks, every repository path named (scripts/...,
   bench/...) exists and every `lattio SUBCOMMAND` is one the command knows;
4. Python blocks are run by python/tests/test_docs.py (serial) and
   test_parallel.py (under mpirun), not here.

Usage: test_doc_examples.py SOURCE_DIR   (LATTIO_BIN: the built bin/)"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
EXAMPLE = re.compile(r"examples/(\w+\.c)")


def normal(code):
    code = re.sub(r"/\*.*?\*/", " ", code, flags=re.S)
    code = re.sub(r"//[^\n]*", " ", code)
    return " ".join(code.split())


def documents(root):
    yield "README.md"
    for name in sorted(os.listdir(os.path.join(root, "docs"))):
        if name.endswith(".md"):
            yield os.path.join("docs", name)


def check_c(root, doc, text, m, bad):
    before = text[:m.start()].rstrip().split("\n")[-3:]
    named = EXAMPLE.findall("\n".join(before))
    if not named:
        bad.append("%s: a C block at byte %d names no examples/*.c program before it" % (doc, m.start()))
        return 0
    path = os.path.join(root, "examples", named[-1])
    if not os.path.isfile(path):
        bad.append("%s: examples/%s does not exist" % (doc, named[-1]))
        return 0
    program = normal(open(path).read())
    lines = 0
    for line in m.group(2).split("\n"):
        code = normal(line)
        if not code:
            continue
        lines += 1
        if code not in program:
            bad.append("%s: `%s` is not in examples/%s" % (doc, code, named[-1]))
    return lines


def run_shell(root, block, bindir, bad):
    scratch = tempfile.mkdtemp(prefix="doc-sh-")
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    n = 0
    try:
        for line in block.split("\n"):
            line = line.split("#")[0].strip()
            if not line:
                continue
            line = line.replace("tests/data/real/", os.path.join(root, "tests", "data", "real") + "/")
            p = subprocess.run(shlex.split(line), cwd=scratch, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=300)
            n += 1
            print("$ %s -> %d" % (line, p.returncode))
            if p.returncode != 0:
                bad.append("docs/c-guide.md: `%s` exits %d: %s" % (line, p.returncode, p.stderr.decode()[-300:]))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return n


def check_shell_names(root, doc, block, bindir, bad):
    for line in block.split("\n"):
        words = shlex.split(line.split("#")[0]) if line.strip() else []
        for w in words:
            if re.match(r"^(scripts|bench)/", w) and not os.path.exists(os.path.join(root, w)):
                bad.append("%s: %s does not exist" % (doc, w))
        if "lattio" in words:
            i = words.index("lattio")
            if i + 1 < len(words) and not words[i + 1].startswith("-"):
                p = subprocess.run([os.path.join(bindir, "lattio"), words[i + 1], "--help"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
                if p.returncode != 0:
                    bad.append("%s: `lattio %s` is not a subcommand" % (doc, words[i + 1]))


def main():
    root = os.path.abspath(sys.argv[1])
    bindir = os.path.abspath(os.environ.get("LATTIO_BIN", os.path.join(root, "build", "bin")))
    bad = []
    counts = {"c": 0, "c_lines": 0, "sh_run": 0, "sh_checked": 0}
    for doc in documents(root):
        text = open(os.path.join(root, doc)).read()
        for m in FENCE.finditer(text):
            lang, block = m.group(1), m.group(2)
            if lang == "c":
                counts["c"] += 1
                counts["c_lines"] += check_c(root, doc, text, m, bad)
            elif lang == "sh" and doc == os.path.join("docs", "c-guide.md"):
                counts["sh_run"] += run_shell(root, block, bindir, bad)
            elif lang == "sh":
                counts["sh_checked"] += 1
                check_shell_names(root, doc, block, bindir, bad)
    print("%d C blocks (%d lines found in examples), %d shell lines run, %d shell blocks checked" %
          (counts["c"], counts["c_lines"], counts["sh_run"], counts["sh_checked"]))
    for b in bad:
        print("FAIL: " + b)
    if counts["c"] < 5 or counts["sh_run"] < 3:
        bad.append("too few examples found: the scan is broken")
        print("FAIL: too few examples found")
    print("PASS" if not bad else "FAIL")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
