#!/usr/bin/env python3
"""HDF5 files and h5py, both ways, on the real gauge configurations of
../shared/testdata (EXPECTED.md's plaquettes and checksums):

* files built here with h5py to the QDP++ and Qlua specifications
  (docs/format.md; committed r,i complex types, [t][z][y][x][4] colour
  matrices; Qlua's [x][y][z][t] groups "0".."3", big-endian, .kind, .sha256
  computed here with hashlib, .time), in double and single precision, either
  byte order, re/im compounds, plain reals, chunked and gzip-compressed, are
  read by `lattio verify` (at NP ranks) with the plaquette and link trace of
  the ILDG file;
* every file `lattio convert --to hdf5` writes (both layouts, both
  precisions, at NP ranks) is read by h5py: the colour matrices equal the
  ILDG payload, the committed types are QDP++'s / Qlua's, suma/sumb equal the
  ILDG file's scidac-checksum, each .sha256 equals hashlib's;
* LIME -> HDF5 -> LIME gives back the same bytes apart from the date;
* damaged files (truncated, a flipped data byte in either layout, a partial
  checksum attribute, a .sha256 of the wrong size) each fail `verify` with
  their own status."""
import hashlib
import json
import os
import re
import shutil
import struct
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tool_mpi"))
import mpiutil as mu  # noqa: E402
import toolutil as tu  # noqa: E402

try:
    import h5py
    import numpy as np
except ImportError as e:  # the project's scripts install them (scripts/python-deps.sh)
    sys.exit("test_h5py: %s: run scripts/python-deps.sh (make deps) first" % e)

CONFIGS = {  # file: (plaquette, link trace) from EXPECTED.md
    "lat.sample.l4444.ildg": (0.594850158947, 0.646758737419),
    "t_dprec_ildg.lime": (0.038242289410, 0.463032210005),
}


def ildg(name):
    """The ILDG gauge field of a test file as (T, Z, Y, X, 4, 3, 3) complex128,
    its precision and its stored SciDAC checksum (an independent parser)."""
    recs = tu.parse_lime(tu.read(tu.data_path(name)))
    fmt = next(r["payload"] for r in recs if r["type"] == b"ildg-format").decode()
    dims = [int(re.search(r"<%s>\s*(\d+)" % k, fmt).group(1)) for k in ("lx", "ly", "lz", "lt")]
    prec = int(re.search(r"<precision>\s*(\d+)", fmt).group(1))
    data = next(r["payload"] for r in recs if r["type"] == b"ildg-binary-data")
    raw = np.frombuffer(data, dtype=">f4" if prec == 32 else ">f8").astype(np.float64)
    lx, ly, lz, lt = dims
    u = raw.reshape(lt, lz, ly, lx, 4, 3, 3, 2)
    u = u[..., 0] + 1j * u[..., 1]
    ck = next(r["payload"] for r in recs if r["type"] == b"scidac-checksum").decode()
    sums = tuple(int(re.search(r"<%s>\s*([0-9a-fA-F]+)" % k, ck).group(1), 16) for k in ("suma", "sumb"))
    return u, prec, sums


def qlua_sha(v, f32):
    """Qlua's checksum of one (X, Y, Z, T, ...) dataset: XOR over sites of
    SHA-256(le64(4), le64(x), le64(y), le64(z), le64(t), values as LE)."""
    acc = bytearray(32)
    X, Y, Z, T = v.shape[:4]
    flat = np.ascontiguousarray(v).reshape(X * Y * Z * T, -1)
    ri = np.stack([flat.real, flat.imag], axis=-1).reshape(X * Y * Z * T, -1)
    ri = ri.astype("<f4" if f32 else "<f8")
    i = 0
    for x in range(X):
        for y in range(Y):
            for z in range(Z):
                for t in range(T):
                    h = hashlib.sha256(struct.pack("<5q", 4, x, y, z, t) + ri[i].tobytes()).digest()
                    for k in range(32):
                        acc[k] ^= h[k]
                    i += 1
    return bytes(acc)


def complex_type(dt, names=("r", "i")):
    return np.dtype([(names[0], dt), (names[1], dt)])


def as_compound(u, c):
    """Complex numbers as the compound c (its two real fields), any shape."""
    a = np.empty(u.shape, dtype=c)
    a[c.names[0]] = u.real
    a[c.names[1]] = u.imag
    return a


def write_qdp(path, u, f32=False, be=False, reim=False, reals=False, chunked=False):
    """QDP++'s layout as formats.md describes it, built with h5py."""
    dt = (">" if be else "<") + ("f4" if f32 else "f8")
    prec = "Float" if f32 else "Double"
    with h5py.File(path, "w") as f:
        c = complex_type(dt, ("re", "im") if reim else ("r", "i"))
        f[".Complex" + prec] = c
        cm = np.dtype((c, (3, 3)))
        f[".ColorMatrix" + prec + "3"] = cm
        kw = dict(chunks=(2, 2, 2, 2, 4), compression="gzip") if chunked else {}
        if reals:
            a = np.stack([u.real, u.imag], axis=-1).reshape(u.shape[:4] + (72,)).astype(dt)
            f.create_dataset("cfg/U", data=a, **kw)
            return
        d = f.create_dataset("cfg/U", shape=u.shape[:5], dtype=f[".ColorMatrix" + prec + "3"], **kw)
        d[...] = as_compound(u, c)


def write_qlua(path, u, f32=False, sha=True, bad_sha=False):
    """Qlua's layout: a group of four (X, Y, Z, T, 3, 3) big-endian datasets."""
    dt = ">f4" if f32 else ">f8"
    prec = "Float" if f32 else "Double"
    with h5py.File(path, "w") as f:
        c = complex_type(dt)
        f[".Complex" + prec] = c
        f[".ColorMatrix" + prec + "3"] = np.dtype((c, (3, 3)))
        g = f.create_group("gauge")
        for mu in range(4):
            v = np.transpose(u[:, :, :, :, mu], (3, 2, 1, 0, 4, 5))  # (X, Y, Z, T, 3, 3)
            d = g.create_dataset(str(mu), shape=v.shape[:4], dtype=f[".ColorMatrix" + prec + "3"])
            d[...] = as_compound(v, c)
            d.attrs.create(".kind", np.bytes_(b"LatticeColorMatrix"))
            if sha:
                s = qlua_sha(v, f32)
                d.attrs.create(".sha256", np.frombuffer(s[:31] if bad_sha else s, dtype=np.uint8),
                               dtype=np.dtype((np.dtype(">u1"), (31 if bad_sha else 32,))))
            d.attrs.create(".time", np.int64(int(time.time() * 1e6)), dtype=">i8")


def verify(opt, target, np_=None):
    p = mu.run_mpi(opt, np_ or opt.np, ["verify", "--json", target])
    try:
        rep = json.loads(p.stdout.decode())[0]
    except (ValueError, IndexError):
        rep = {"ok": False, "problems": [p.stderr.decode()]}
    return p.returncode, rep


def check_plaquette(opt, target, name, what):
    rc, rep = verify(opt, target)
    tu.check_eq(rc, 0, "%s: verify exit (%s)" % (what, rep.get("problems")))
    plaq, trace = CONFIGS[name]
    tu.check(abs(rep.get("plaquette", 0) - plaq) < 1e-9, "%s: plaquette %r, EXPECTED %r" % (what, rep.get("plaquette"), plaq))
    tu.check(abs(rep.get("link_trace", 0) - trace) < 1e-9, "%s: link trace %r" % (what, rep.get("link_trace")))


def built_by_h5py(opt):
    for name in CONFIGS:
        u, prec, _ = ildg(name)
        uf = u.astype(np.complex64).astype(np.complex128)
        cases = [("qdp64.h5", dict()), ("qdp32.h5", dict(f32=True)), ("qdpbe.h5", dict(be=True)),
                 ("qdp_reim.h5", dict(reim=True)), ("qdp_reals.h5", dict(reals=True)),
                 ("qdp_chunked.h5", dict(chunked=True))]
        for fn, kw in cases:
            write_qdp(fn, u, **kw)
            check_plaquette(opt, fn + ":/cfg/U", name, "%s %s" % (name, fn))
        for fn, kw in [("qlua64.h5", dict()), ("qlua32.h5", dict(f32=True))]:
            write_qlua(fn, uf if kw.get("f32") else u, **kw)
            rc, rep = verify(opt, fn)
            tu.check_eq(rc, 0, "%s %s: verify (%s)" % (name, fn, rep.get("problems")))
            tu.check_eq(rep.get("hdf5_layout"), "qlua", "%s %s: layout" % (name, fn))
            tu.check_eq(rep.get("warnings"), [], "%s %s: .sha256 present and checked" % (name, fn))
            plaq = CONFIGS[name][0]
            tu.check(abs(rep.get("plaquette", 0) - plaq) < (1e-6 if kw else 1e-9),
                     "%s %s: plaquette %r" % (name, fn, rep.get("plaquette")))


def written_by_lattio(opt):
    for name in CONFIGS:
        u, prec, sums = ildg(name)
        src = tu.data_path(name)
        for layout in ("qdp", "qlua"):
            for p in (prec, 64 if prec == 32 else 32):
                out = "w_%s_%d.h5" % (layout, p)
                if os.path.exists(out):
                    os.unlink(out)
                r = mu.run_mpi(opt, opt.np, ["convert", src, out, "--to", "hdf5", "--layout", layout,
                                             "--precision", str(p), "--path", "/cfg/0001/U"])
                what = "%s -> %s" % (name, out)
                tu.check_eq(r.returncode, 0, what + ": convert (%s)" % r.stderr.decode()[-300:])
                if r.returncode:
                    continue
                want = u if p >= prec else u.astype(np.complex64).astype(np.complex128)
                with h5py.File(out, "r") as f:
                    pr = "Float" if p == 32 else "Double"
                    tu.check(".Complex" + pr in f and ".ColorMatrix" + pr + "3" in f, what + ": committed types")
                    if layout == "qdp":
                        d = f["cfg/0001/U"]
                        tu.check_eq(d.shape, u.shape[:5], what + ": shape (T, Z, Y, X, 4)")
                        tu.check_eq(d.dtype, np.dtype(("<c8" if p == 32 else "<c16", (3, 3))), what + ": dtype")
                        got = d[...].astype(np.complex128)
                        tu.check(np.array_equal(got, want), what + ": values equal the ILDG payload")
                        if p == prec:
                            tu.check_eq((int(d.attrs["suma"]), int(d.attrs["sumb"])), sums,
                                        what + ": suma/sumb = the ILDG scidac-checksum")
                        tu.check_eq(d.attrs["scidac_datatype"].decode(), "USQCD_%s3_ColorMatrix" % ("F" if p == 32 else "D"),
                                    what + ": datatype attribute")
                    else:
                        g = f["cfg/0001/U"]
                        tu.check_eq(sorted(g.keys()), ["0", "1", "2", "3"], what + ": group of 4")
                        for mu_ in range(4):
                            d = g[str(mu_)]
                            tu.check_eq(d.dtype, np.dtype((">c8" if p == 32 else ">c16", (3, 3))), what + ": big-endian")
                            v = np.transpose(want[:, :, :, :, mu_], (3, 2, 1, 0, 4, 5))
                            tu.check(np.array_equal(d[...].astype(np.complex128), v), what + ": direction %d" % mu_)
                            tu.check_eq(d.attrs[".kind"].decode(), "LatticeColorMatrix", what + ": .kind")
                            tu.check_eq(bytes(d.attrs[".sha256"]), qlua_sha(v, p == 32), what + ": .sha256 = hashlib's")
                            tu.check(abs(int(d.attrs[".time"]) - time.time() * 1e6) < 3.6e9, what + ": .time")
                check_plaquette(opt, out + ":/cfg/0001/U", name, what) if p == prec else None


def round_trip(opt):
    for f in ("a.lime", "a.h5", "b.lime", "c.h5", "c.lime"):
        if os.path.exists(f):
            os.unlink(f)
    src = tu.data_path("t_dprec_ildg.lime")
    steps = [["convert", src, "a.lime"], ["convert", "a.lime", "a.h5", "--to", "hdf5"], ["convert", "a.h5", "b.lime"],
             ["convert", "a.lime", "c.h5", "--to", "hdf5", "--layout", "qlua"], ["convert", "c.h5", "c.lime"]]
    for s in steps:
        r = mu.run_mpi(opt, opt.np, s)
        tu.check_eq(r.returncode, 0, "round trip %s (%s)" % (" ".join(s[1:]), r.stderr.decode()[-300:]))
    # and from HDF5 to the other formats lattio writes, verified at EXPECTED's plaquette
    for fmt in ("scidac", "nersc", "milc", "openqcd"):
        out = "c." + fmt
        if os.path.exists(out):
            os.unlink(out)
        r = mu.run_mpi(opt, opt.np, ["convert", "c.h5", out, "--to", fmt])
        tu.check_eq(r.returncode, 0, "c.h5 -> %s (%s)" % (fmt, r.stderr.decode()[-300:]))
        v = mu.run_serial(["verify", "--json", out])
        rep = json.loads(v.stdout.decode())[0] if v.stdout else {}
        tol = 1e-6 if fmt == "milc" else 1e-9
        tu.check(abs(rep.get("plaquette", 0) - CONFIGS["t_dprec_ildg.lime"][0]) < tol,
                 "c.h5 -> %s: plaquette %r" % (fmt, rep.get("plaquette")))
    # convert carries IN's file XML, record XML, LFN and date through HDF5
    a = tu.read("a.lime")
    for b in ("b.lime", "c.lime"):
        tu.check(a == tu.read(b), "LIME -> HDF5 -> LIME: %s equals a.lime byte for byte" % b)
    recs = {r["type"]: r["payload"].rstrip(b"\0") for r in tu.parse_lime(tu.read(src))}
    with h5py.File("a.h5", "r") as f:
        d = f["lattice"]
        for rec, attr in ((b"scidac-record-xml", "record_xml"), (b"scidac-file-xml", "file_xml"),
                          (b"ildg-data-lfn", "ildg_data_lfn")):
            tu.check_eq(bytes(d.attrs[attr]), recs[rec], "a.h5: %s = the original's %s" % (attr, rec.decode()))


def damaged(opt):
    src = tu.data_path("t_dprec_ildg.lime")
    for layout in ("qdp", "qlua"):
        good = "good_%s.h5" % layout
        if not os.path.exists(good):
            mu.run_mpi(opt, 1, ["convert", src, good, "--to", "hdf5", "--layout", layout, "--path", "/U"])
        with h5py.File(good, "r") as f:
            d = f["U"] if layout == "qdp" else f["U/2"]
            off = d.id.get_offset()
        bad = "flip_%s.h5" % layout
        data = bytearray(tu.read(good))
        data[off + 1000] ^= 0x10
        tu.write(bad, bytes(data))
        rc, rep = verify(opt, bad)
        tu.check(rc == 1 and any("ERR_CHECKSUM" in p for p in rep.get("problems", [])),
                 "%s: a flipped data byte is ERR_CHECKSUM (%s)" % (bad, rep.get("problems")))
    data = tu.read("good_qdp.h5")
    tu.write("trunc.h5", data[: len(data) // 2])
    rc, rep = verify(opt, "trunc.h5")
    tu.check(rc == 1 and any("TRUNCATED" in p for p in rep.get("problems", [])),
             "truncated file: ERR_TRUNCATED_* (%s)" % rep.get("problems"))
    shutil.copy("good_qdp.h5", "nosumb.h5")
    with h5py.File("nosumb.h5", "r+") as f:
        del f["U"].attrs["sumb"]
    rc, rep = verify(opt, "nosumb.h5")
    tu.check(rc == 1 and any("ERR_HDF5_ATTRIBUTE" in p for p in rep.get("problems", [])),
             "suma without sumb: ERR_HDF5_ATTRIBUTE (%s)" % rep.get("problems"))
    u, _, _ = ildg("t_dprec_ildg.lime")
    write_qlua("badsha.h5", u, bad_sha=True)
    rc, rep = verify(opt, "badsha.h5")
    tu.check(rc == 1 and any("ERR_HDF5_ATTRIBUTE" in p for p in rep.get("problems", [])),
             ".sha256 of 31 bytes: ERR_HDF5_ATTRIBUTE (%s)" % rep.get("problems"))
    write_qlua("nosha.h5", u, sha=False)
    rc, rep = verify(opt, "nosha.h5")
    tu.check(rc == 0 and len(rep.get("warnings", [])) == 1 and "no stored checksum" in rep["warnings"][0],
             "no .sha256: the data read, a warning (%s)" % rep.get("warnings"))
    rc, rep = verify(opt, "good_qdp.h5:/nothing")
    tu.check(rc == 1 and any("ERR_HDF5_NOT_FOUND" in p for p in rep.get("problems", [])), "missing object: ERR_HDF5_NOT_FOUND")


def scidac_sums(a):
    """SciDAC's checksum of a (T, Z, Y, X, n) array of reals stored big-endian."""
    sites = np.ascontiguousarray(a.astype(">f8")).reshape(-1, a.shape[-1])
    suma = sumb = 0
    for r, site in enumerate(sites):
        c = zlib.crc32(site.tobytes()) & 0xFFFFFFFF
        suma ^= ((c << (r % 29)) | (c >> (32 - r % 29))) & 0xFFFFFFFF if r % 29 else c
        sumb ^= ((c << (r % 31)) | (c >> (32 - r % 31))) & 0xFFFFFFFF if r % 31 else c
    return suma, sumb


def many_fields(opt):
    """70 fields in one file, each with its SciDAC sum, the last one's wrong:
    verify reads all 70 and fails on the last, a FILE:/PATH beyond the 64th
    is found, info lists all 70 (the tool once stopped at 64 and said ok)."""
    n = 70
    rng = np.random.default_rng(7)
    with h5py.File("many.h5", "w") as f:
        for k in range(n):
            a = rng.standard_normal((2, 2, 2, 4, 3))
            d = f.create_dataset("f%02d" % k, data=a)
            suma, sumb = scidac_sums(a)
            d.attrs.create("suma", np.uint32(suma if k < n - 1 else suma ^ 1))
            d.attrs.create("sumb", np.uint32(sumb))
    rc, rep = verify(opt, "many.h5")
    tu.check_eq(rc, 1, "70 fields, the last one's sum wrong: verify exit")
    fields = rep.get("binary_records", [])
    tu.check_eq([r.get("ok") for r in fields], [True] * (n - 1) + [False], "every field verified, the 70th failed")
    tu.check("f69" in " ".join(rep.get("problems", [])), "the problem names f69: %r" % rep.get("problems"))
    rc, rep = verify(opt, "many.h5:/f68")
    tu.check_eq((rc, len(rep.get("binary_records", []))), (0, 1), "many.h5:/f68 found and verified (%r)" % rep.get("problems"))
    p = tu.run(["info", "--json", "many.h5"])
    try:
        listed = json.loads(p.stdout.decode()).get("fields", [])
    except ValueError:
        listed = []
    tu.check_eq([e.get("path") for e in listed], ["/f%02d" % k for k in range(n)], "info lists all 70 fields")


def main():
    opt = mu.options()
    tu.scratch()
    built_by_h5py(opt)
    written_by_lattio(opt)
    round_trip(opt)
    damaged(opt)
    many_fields(opt)
    tu.check_eq(mu.temporaries(), [], "no temporary left behind")
    tu.finish()


if __name__ == "__main__":
    main()
