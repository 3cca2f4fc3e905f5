"""Helpers for the `lattio container` tests: the stream sizes and bytes that
ct_writer.c writes (computed here independently), running ct_writer under
mpirun, and an independent builder of container files (docs/format.md
section 8) for the damaged-file tests.

Command line of every script: --mpiexec PATH --flavor openmpi|mpich
[--preflags "FLAGS"] [--np N] --writer PATH."""
import argparse
import glob
import json
import os
import shlex
import struct
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tool"))
import toolutil as tu  # noqa: E402,F401

LAUNCHER_VARS = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MPI_LOCALNRANKS")
SLOW_CHUNKS = 40


def options():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", default="mpirun")
    ap.add_argument("--flavor", default="openmpi")
    ap.add_argument("--preflags", default="")
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--writer", default="")
    ap.add_argument("--mode", default="")
    ap.add_argument("--io", default="", help="Open MPI MPI-IO component (ompio, or its ROMIO: romio321 in 4.1, romio341 in 5.0)")
    global _io
    opt = ap.parse_args()
    _io = opt.io
    return opt


_io = ""


def size_of(task, cap, slow=False):
    if slow:
        return SLOW_CHUNKS * cap
    return [3 * cap + 17, 0, cap, 1, 2 * cap - 5, 5 * cap + 123][task % 6]


def pattern(task, n, first=0):
    """Bytes first .. first+n-1 of task's stream: (i*131 + t*7 + (i>>8)*3 + 1) mod 256."""
    return bytes(((i * 131 + task * 7 + (i >> 8) * 3 + 1) & 0xFF) for i in range(first, first + n))


def serial_env():
    e = {k: v for k, v in os.environ.items() if k not in LAUNCHER_VARS}
    e["ASAN_OPTIONS"] = "detect_leaks=0"  # Open MPI leaks at exit
    if _io:
        e["OMPI_MCA_io"] = _io
    return e


def launcher(opt, np):
    cmd = [opt.mpiexec, "-n", str(np)] + shlex.split(opt.preflags)
    if opt.flavor == "openmpi" and "--oversubscribe" not in opt.preflags:
        cmd.append("--oversubscribe")
    return cmd


def writer_cmd(opt, np, args):
    return launcher(opt, np) + [opt.writer] + [str(a) for a in args]


def run_writer(opt, np, args, timeout=600):
    """Run ct_writer on np ranks; returns CompletedProcess (text).  Under load
    Open MPI 4.1 sometimes reports a rank "exiting improperly" although every
    rank finalised (see tests/CMakeLists.txt); such a run, with no message
    from ct_writer itself, is retried once."""
    for attempt in (1, 2):
        p = subprocess.run(writer_cmd(opt, np, args), env=serial_env(), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout, universal_newlines=True)
        flake = "exiting improperly" in p.stderr and "ct_writer rank" not in p.stderr
        if p.returncode == 0 or not flake or attempt == 2:
            return p
        print("retrying ct_writer after Open MPI's improper-exit report", file=sys.stderr)


def lattio(args, **kw):
    """Run the lattio command serially; returns CompletedProcess (bytes)."""
    return subprocess.run([tu.LATTIO] + [str(a) for a in args], env=serial_env(),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600, **kw)


def dump_json(path, expect_rc=0):
    return dump_json_args([], path, expect_rc)


def dump_json_args(args, path, expect_rc=0):
    p = lattio(["container", "dump", "--json"] + args + [path])
    tu.check_eq(p.returncode, expect_rc, "dump --json %s exit status (stderr %r)" % (path, p.stderr))
    return json.loads(p.stdout.decode())


def temporaries(d="."):
    return sorted(glob.glob(os.path.join(d, "*.lattio-tmp.*")))


# --- an independent container builder (docs/format.md section 8) ---------

def _crc(b):
    return zlib.crc32(b) & 0xFFFFFFFF


def header(cid, ntasks, align, stride, data_start=None, magic=b"LATTIOTC", version=1):
    data_start = align if data_start is None else data_start
    h = magic + struct.pack(">IIQIIIIIIQQQ", version, 96, cid, ntasks, 1, 0, 0, ntasks, 0,
                            align, stride, data_start) + bytes(20)
    return h + struct.pack(">I", _crc(h))


def trailer(cid, task, final, block, used, offset, data):
    t = b"LTIOCHNK" + struct.pack(">QIIQQQI", cid, task, 1 if final else 0, block, used, offset,
                                  _crc(data)) + bytes(8)
    return t + struct.pack(">I", _crc(t))


def footer(cid, nblocks, total):
    f = b"LTIOCEND" + struct.pack(">QQQ", cid, nblocks, total) + bytes(28)
    return f + struct.pack(">I", _crc(f))


def build(streams, cap, align, cid=0x1234ABCD, close=True):
    """Bytes of a single-file container holding `streams` (list of bytes)
    with chunk capacity cap (cap + 64 a multiple of align)."""
    stride = cap + 64
    assert stride % align == 0
    n = len(streams)
    blocks = [max(1, (len(s) + cap - 1) // cap) for s in streams]
    nb = max(blocks)
    out = bytearray(align + nb * n * stride)
    out[0:96] = header(cid, n, align, stride)
    for t, s in enumerate(streams):
        for b in range(blocks[t]):
            data = s[b * cap:(b + 1) * cap]
            off = align + (b * n + t) * stride
            out[off:off + len(data)] = data
            out[off + cap:off + stride] = trailer(cid, t, b == blocks[t] - 1, b, len(data),
                                                  b * cap, data)
    if close:
        out += footer(cid, nb, sum(len(s) for s in streams))
    return bytes(out)
