"""Shared helpers for the `lattio` command tests: running the tool, an
independent LIME parser/builder, and assertion counting."""
import os
import shutil
import struct
import subprocess
import sys

LATTIO = os.path.abspath(os.path.join(os.environ.get("LATTIO_BIN", "."), "lattio"))
DATA = os.path.abspath(os.environ.get("LATTIO_TESTDATA", "."))
HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden")
LIME_FILES = ["lime_writer_test1.lime", "unity.lime", "t_dprec_ildg.lime",
              "lat.sample.l4444.ildg", "t_qio.intel-scalar.lime"]
ALL_FILES = LIME_FILES + ["t_nersc.cfg"]

_checks = 0


def scratch():
    """Work in a fresh ./scratch directory (tests run in their own working
    directory, which keeps files from earlier runs)."""
    shutil.rmtree("scratch", ignore_errors=True)
    os.mkdir("scratch")
    os.chdir("scratch")


_failures = 0


def run(args, cwd=None, env=None, stdin=None):
    """Run lattio with args; returns CompletedProcess with bytes output."""
    e = dict(os.environ)
    if env:
        e.update(env)
    return subprocess.run([LATTIO] + list(args), cwd=cwd, env=e, stdin=stdin,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)


def check(cond, what):
    global _checks, _failures
    _checks += 1
    if not cond:
        _failures += 1
        print("FAILED:", what, file=sys.stderr)
    return cond


def check_eq(got, want, what):
    return check(got == want, "%s: got %r, want %r" % (what, got, want))


def finish():
    if _failures:
        print("%d of %d checks failed" % (_failures, _checks), file=sys.stderr)
        sys.exit(1)
    print("all %d checks passed" % _checks)
    sys.exit(0)


def data_path(name):
    return os.path.join(DATA, name)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def parse_lime(data):
    """Independent LIME parser: list of dicts per record."""
    recs = []
    off = 0
    while off < len(data):
        magic, version, flags, _res, length = struct.unpack(">IHBBQ", data[off:off + 16])
        assert magic == 0x456789AB, "bad magic at %d" % off
        rtype = data[off + 16:off + 144].split(b"\0")[0]
        pad = (8 - length % 8) % 8
        recs.append({"offset": off, "type": rtype, "length": length, "padding": pad,
                     "mb": bool(flags & 0x80), "me": bool(flags & 0x40),
                     "payload": data[off + 144:off + 144 + length]})
        off += 144 + length + pad
    return recs


def lime_header(rtype, length, mb, me):
    flags = (0x80 if mb else 0) | (0x40 if me else 0)
    return struct.pack(">IHBBQ", 0x456789AB, 1, flags, 0, length) + rtype.ljust(128, b"\0")


def make_lime(records):
    """records: list of (type bytes, payload bytes, mb, me)."""
    out = b""
    for rtype, payload, mb, me in records:
        out += lime_header(rtype, len(payload), mb, me) + payload
        out += b"\0" * ((8 - len(payload) % 8) % 8)
    return out


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)
