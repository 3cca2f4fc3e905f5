#!/usr/bin/env python3
"""Hostile HDF5 files, each a case of the hostile tester's report (issue 28),
built here with h5py or by patching bytes: `lattio check`, `lattio verify`
and Python's `lattio.load` each end with the case's status -- the same in
all three -- within a timeout, never a crash, a hang or an "ok"; soft links
inside the file resolve alike everywhere; an append onto a damaged file is
refused with the file unchanged; LATTIO_H5_GUARD=0 still refuses what the
examination catches; nothing HDF5 prints reaches stderr (no error stack, no
"infinite loop closing library" at exit)."""
import os
import re
import struct
import subprocess
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tool_mpi"))
import mpiutil as mu  # noqa: E402
import toolutil as tu  # noqa: E402

PY = os.path.join(os.path.dirname(sys.executable), "python3")


def base(path):
    """A QDP++ gauge field at /cfg/U with suma/sumb, as lattio converts it."""
    subprocess.run([tu.LATTIO, "convert", tu.data_path("lat.sample.l4444.ildg"), "b.h5", "--to", "hdf5",
                    "--path", "/cfg/U"], check=True, stdout=subprocess.DEVNULL, env=mu.serial_env())
    os.replace("b.h5", path)
    return path


def silent(what, p):
    """HDF5 printed nothing of its own (its error stack, or its complaint at
    exit about a library it could not close)."""
    err = p.stderr.decode(errors="replace")
    tu.check("HDF5-DIAG" not in err and "infinite loop" not in err and "#000:" not in err,
             "%s: HDF5's own output on stderr: %s" % (what, err[-300:]))


def statuses(target):
    """The status names of check, verify and lattio.load on target."""
    out = []
    for cmd in ("check", "verify"):
        p = subprocess.run([tu.LATTIO, cmd, target], capture_output=True, timeout=200, env=mu.serial_env())
        silent("%s %s" % (cmd, target), p)
        m = re.findall(rb"\((ERR_[A-Z0-9_]+)\)", p.stdout + p.stderr)
        out.append(m[0].decode() if m and p.returncode else ("OK" if p.returncode == 0 else "exit %d" % p.returncode))
    code = ("import lattio, sys\ntry:\n    lattio.load(sys.argv[1])\n    print('OK')\n"
            "except lattio.LattioError as e:\n    print(e.name)\nexcept Exception as e:\n    print(type(e).__name__)\n")
    p = subprocess.run([PY, "-c", code, target], capture_output=True, timeout=200, env=mu.serial_env())
    silent("lattio.load(%s)" % target, p)
    out.append(p.stdout.decode().strip() or "python exit %d: %s" % (p.returncode, p.stderr[-300:]))
    return out


def expect(name, target, want, check="same"):
    """check: the structural check's status when it differs (damaged data
    passes `check`, which reads no data)."""
    got = statuses(target)
    want = [want if check == "same" else check, want, want]
    tu.check(got == want, "%s: check, verify, load gave %s, want %s" % (name, got, want))


def patched(src, dst, find, change):
    data = bytearray(tu.read(src))
    i = data.find(find)
    tu.check(i >= 0, "%s: %r found" % (dst, find))
    change(data, i)
    tu.write(dst, bytes(data))
    return dst


def main():
    b = base("b0.h5")
    expect("intact", b, "OK")
    # a link name's first byte set to NUL (HDF5 1.10's H5Ovisit2 recursed without end)
    expect("link name NUL", patched(b, "nul.h5", b"cfg\0", lambda d, i: d.__setitem__(i, 0)), "ERR_HDF5_DAMAGED")
    # raw data in an external FIFO: never opened
    os.mkfifo("fifo")
    with h5py.File("fifo.h5", "w") as f:
        f.create_dataset("cfg/U", shape=(4, 4, 4, 4, 72), dtype="<f8", external=[("fifo", 0, 4 ** 4 * 72 * 8)])
    expect("external FIFO", "fifo.h5", "ERR_HDF5_STORAGE")
    # chunked, 2^40 sites declared, nothing written
    with h5py.File("huge.h5", "w") as f:
        f.create_dataset("cfg/U", shape=(1 << 10, 1 << 10, 1 << 10, 1 << 10, 72), dtype="<f8", chunks=(1, 1, 1, 4, 72))
    expect("2^40 sites unwritten", "huge.h5", "ERR_HDF5_STORAGE")
    # a float with a non-IEEE exponent bias
    t = h5py.h5t.IEEE_F64LE.copy()
    t.set_ebias(1022)
    with h5py.File("bias.h5", "w") as f:
        sp = h5py.h5s.create_simple((2, 2, 2, 2, 5))
        h5py.h5d.create(f.id, b"x", t, sp)
        f["x"][...] = np.ones((2, 2, 2, 2, 5))
    expect("exponent bias 1022", "bias.h5", "ERR_HDF5_LAYOUT")
    # a filter this HDF5 lacks (deflate's id patched to bzip2's 307)
    with h5py.File("gz.h5", "w") as f:
        f.create_dataset("x", data=np.ones((2, 2, 2, 2, 5)), chunks=(1, 2, 2, 2, 5), compression="gzip")
    expect("gzip", "gz.h5", "OK")
    nofilter = patched("gz.h5", "nofilter.h5", b"deflate\0", lambda d, i: d.__setitem__(slice(i - 8, i - 6), b"\x33\x01"))
    expect("unavailable filter", nofilter, "ERR_HDF5_FILTER")
    # one byte in the middle of a gzip chunk: the filter's failure, not I/O
    with h5py.File("gz.h5", "r") as f:
        info = f["x"].id.get_chunk_info(0)
    data = bytearray(tu.read("gz.h5"))
    data[info.byte_offset + info.size // 2] ^= 0x55
    tu.write("gzbad.h5", bytes(data))
    expect("corrupt gzip chunk", "gzbad.h5", "ERR_HDF5_FILTER", check="OK")
    # Fletcher32 over a chunk whose data byte changed
    with h5py.File("f32.h5", "w") as f:
        f.create_dataset("x", data=np.arange(2 * 2 * 2 * 2 * 5, dtype="<f8").reshape(2, 2, 2, 2, 5),
                         chunks=(1, 2, 2, 2, 5), fletcher32=True)
    with h5py.File("f32.h5", "r") as f:
        off = f["x"].id.get_chunk_info(0).byte_offset
    data = bytearray(tu.read("f32.h5"))
    data[off + 20] ^= 0x40
    tu.write("f32bad.h5", bytes(data))
    expect("Fletcher32 mismatch", "f32bad.h5", "ERR_CHECKSUM", check="OK")
    # soft link to the field, external link, a soft-link loop
    tu.write("links.h5", tu.read(b))
    with h5py.File("links.h5", "a") as f:
        f["soft"] = h5py.SoftLink("/cfg/U")
        f["ext"] = h5py.ExternalLink("b0.h5", "/cfg/U")
        f["loop"] = h5py.SoftLink("/loop")
    expect("soft link", "links.h5:/soft", "OK")
    expect("external link", "links.h5:/ext", "ERR_HDF5_LINK")
    expect("soft-link loop", "links.h5:/loop", "ERR_HDF5_LINK")
    expect("no such path", "links.h5:/no/such", "ERR_HDF5_NOT_FOUND")
    # a dataset of integers named as the field
    with h5py.File("ints.h5", "w") as f:
        f["cfg/U"] = np.zeros((4, 4, 4, 4, 72), dtype=np.int32)
    expect("integer dataset", "ints.h5:/cfg/U", "ERR_HDF5_LAYOUT")
    # two fields; one bit of the second's object header turns its first
    # message (the dataspace) into a NIL one: HDF5 then takes it for a named
    # datatype, and it vanished from the listing ("1 lattice field ... ok")
    two = "two.h5"
    tu.write(two, tu.read(b))
    with h5py.File(two, "a") as f:
        f["cfg/V"] = f["cfg/U"][...]
        for k, v in f["cfg/U"].attrs.items():
            f["cfg/V"].attrs[k] = v
    got = statuses(two)  # both listed; lattio.load of the file alone names them rather than pick one
    tu.check(got == ["OK", "OK", "ValueError"], "two fields intact: check, verify, load gave %s" % got)
    expect("two fields intact, one named", two + ":/cfg/V", "OK")
    with h5py.File(two, "r") as f:
        addr = h5py.h5o.get_info(f["cfg/V"].id).addr
    data = bytearray(tu.read(two))
    tu.check_eq(data[addr + 16], 1, "the first message of a v1 object header is the dataspace")
    data[addr + 16] ^= 1
    tu.write("two_vanish.h5", bytes(data))
    expect("two fields, one object header bit", "two_vanish.h5", "ERR_HDF5_DAMAGED")
    # a contiguous dataset whose dataspace claims 2^20 times the sites it stores
    data = bytearray(tu.read(b))
    with h5py.File(b, "r") as f:
        dims = f["cfg/U"].shape[:4]
    i = data.find(struct.pack("<4Q", *dims))
    tu.check(i > 0, "the dataspace's dimensions found")
    data[i:i + 8] = struct.pack("<Q", dims[0] << 20)
    tu.write("dims.h5", bytes(data))
    expect("dataspace beyond the file", "dims.h5", "ERR_HDF5_STORAGE")
    # a path beyond lattio's 255 bytes: refused, never invisible
    with h5py.File("long.h5", "w") as f:
        f["/".join(["g" * 60] * 5) + "/U"] = np.zeros((2, 2, 2, 2, 72))
    expect("path over 255 bytes", "long.h5", "ERR_HDF5_LIMIT")
    # a Qlua gauge group with one direction's .sha256 removed, or one direction missing
    subprocess.run([tu.LATTIO, "convert", tu.data_path("lat.sample.l4444.ildg"), "q.h5", "--to", "hdf5", "--layout",
                    "qlua", "--path", "/U"], check=True, stdout=subprocess.DEVNULL, env=mu.serial_env())
    expect("Qlua intact", "q.h5", "OK")
    tu.write("q1.h5", tu.read("q.h5"))
    with h5py.File("q1.h5", "a") as f:
        del f["U/2"].attrs[".sha256"]
    expect("Qlua one .sha256 removed", "q1.h5", "ERR_HDF5_ATTRIBUTE")
    tu.write("q2.h5", tu.read("q.h5"))
    with h5py.File("q2.h5", "a") as f:
        del f["U/3"]
    expect("Qlua one direction missing", "q2.h5", "ERR_HDF5_LAYOUT")
    # one byte of the link name "0" in /U's local heap: the group would
    # dissolve into three fields; one byte of /U/0's ".sha256" name
    q = tu.read("q.h5")
    i = q.find(b"0\0\0\0\0\0\0\0" + b"1\0")
    tu.check(i > 0, "the heap holding /U's link names found")
    tu.write("q3.h5", q[:i] + b"x" + q[i + 1:])
    expect("Qlua link name of /U/0", "q3.h5", "ERR_HDF5_LAYOUT")
    i = q.find(b".sha256")
    tu.write("q4.h5", q[:i + 6] + b"x" + q[i + 7:])
    expect("Qlua /U/0 attribute name byte", "q4.h5", "ERR_HDF5_ATTRIBUTE")
    # suma stored as int64 -1
    tu.write("neg.h5", tu.read(b))
    with h5py.File("neg.h5", "a") as f:
        del f["cfg/U"].attrs["suma"]
        f["cfg/U"].attrs.create("suma", np.int64(-1))
    expect("suma -1", "neg.h5", "ERR_HDF5_ATTRIBUTE")
    # a LIME file whose second payload, at byte 512, is an .h5 file (and whose last record is cut)
    h5 = tu.read(b)
    first = b"x" * (512 - 2 * 144)
    lime = tu.make_lime([(b"a", first, 1, 0), (b"b", h5, 0, 1)])
    tu.check_eq(lime.index(h5), 512, "the .h5 payload at 512")
    tu.write("carrier.lime", lime[:-10])
    got = statuses("carrier.lime")
    tu.check(got[:2] == ["ERR_TRUNCATED_PAYLOAD"] * 2 and got[2] != "OK", "LIME carrying HDF5: %s" % got)
    # an append onto a damaged file: refused, the file unchanged
    before = tu.read("nul.h5")
    code = ("import lattio, numpy as np\nu = lattio.load('b0.h5')\ntry:\n"
            "    lattio.save('nul.h5:/more', u, format='hdf5', append=True)\n    print('OK')\n"
            "except lattio.LattioError as e:\n    print(e.name)\n")
    p = subprocess.run([PY, "-c", code], capture_output=True, timeout=200, env=mu.serial_env())
    tu.check_eq(p.stdout.decode().strip(), "ERR_HDF5_DAMAGED", "append onto a damaged file")
    tu.check_eq(tu.read("nul.h5"), before, "the damaged file unchanged")
    # without the guard's child the examination still refuses what it catches
    for name, want in (("fifo.h5", b"ERR_HDF5_STORAGE"), ("nul.h5", b"ERR_HDF5_DAMAGED"),
                       ("two_vanish.h5", b"ERR_HDF5_DAMAGED"), ("gzbad.h5", b"ERR_HDF5_FILTER")):
        p = subprocess.run([tu.LATTIO, "verify", name], capture_output=True, timeout=200,
                           env=dict(mu.serial_env(), LATTIO_H5_GUARD="0"))
        silent("no guard: verify %s" % name, p)
        tu.check(p.returncode == 1 and want in p.stdout + p.stderr, "no guard, %s: %r" % (name, p.stdout[-300:]))
    tu.finish()


tu.scratch()
main()
