#!/usr/bin/env python3
"""`lattio verify` and `lattio convert` under mpirun -n NP against serial
runs.  verify --json on every real file, on a file with a flipped link byte
and on one without a checksum: the same exit status and stderr, the same
JSON apart from the last digits of the parallel sums (plaquette, link
trace, unitarity within 1e-12).  convert of ILDG/SciDAC files (read and
written in parallel: a trace shows lattio_open per binary record) and of NERSC (rank 0 alone): OUT has the serial OUT's
records with identical types, flags and payload bytes, except the <date>
element of scidac-private-record-xml; both OUTs verify; a corrupt IN fails
in both with the same message and no OUT."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool_mpi"))
import mpiutil as mu  # noqa: E402
import toolutil as tu  # noqa: E402

FLOATS = ("plaquette", "link_trace", "unitarity")


def near(a, b):
    return abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))


def json_same(s, m, what):
    """JSON values equal, the observables within rounding."""
    if isinstance(s, dict) and isinstance(m, dict):
        tu.check_eq(sorted(m), sorted(s), what + ": keys")
        for k in s:
            if k in FLOATS and isinstance(s[k], float) and isinstance(m.get(k), float):
                tu.check(near(s[k], m[k]), "%s: %s %r vs serial %r" % (what, k, m[k], s[k]))
            else:
                json_same(s[k], m.get(k), what + "." + k)
    elif isinstance(s, list) and isinstance(m, list):
        tu.check_eq(len(m), len(s), what + ": length")
        for i, (a, b) in enumerate(zip(s, m)):
            json_same(a, b, "%s[%d]" % (what, i))
    else:
        tu.check_eq(m, s, what)


def verify_same(opt, paths, what):
    s = mu.run_serial(["verify", "--json"] + paths)
    m = mu.run_mpi(opt, opt.np, ["verify", "--json"] + paths)
    tu.check_eq(m.returncode, s.returncode, what + ": exit status")
    tu.check_eq(m.stderr, s.stderr, what + ": stderr")
    js, jm = json.loads(s.stdout.decode()), json.loads(m.stdout.decode())
    json_same(js, jm, what)
    return s.returncode, js


def without_date(rec):
    p = rec["payload"]
    if rec["type"] == b"scidac-private-record-xml":
        p = re.sub(rb"<date>[^<]*</date>", b"<date/>", p)
    return (rec["type"], rec["mb"], rec["me"], rec["padding"], p)


def convert_same(opt, src, extra, what):
    for f in ("s.lime", "m.lime"):
        if os.path.exists(f):
            os.unlink(f)
    s = mu.run_serial(["convert", src, "s.lime"] + extra)
    m = mu.run_mpi(opt, opt.np, ["convert", src, "m.lime"] + extra)
    tu.check_eq((s.returncode, s.stderr), (0, b""), what + ": serial run")
    tu.check_eq((m.returncode, m.stderr), (0, b""), what + ": mpi run")
    tu.check_eq(m.stdout.replace(b"m.lime", b"s.lime"), s.stdout, what + ": report")
    ds, dm = tu.read("s.lime"), tu.read("m.lime")
    tu.check_eq(len(dm), len(ds), what + ": file size")
    rs, rm = tu.parse_lime(ds), tu.parse_lime(dm)
    tu.check_eq([r["type"] for r in rm], [r["type"] for r in rs], what + ": record types")
    for i, (a, b) in enumerate(zip(rs, rm)):
        tu.check(without_date(a) == without_date(b), "%s: record %d (%s) differs" % (what, i + 1, a["type"]))
    dates = [r for r in rm if r["type"] == b"scidac-private-record-xml"]
    tu.check(dates and all(re.search(rb"<date>[^<]+</date>", r["payload"]) for r in dates),
             what + ": a date in the private record XML")
    rc, _ = verify_same(opt, ["m.lime"], what + ": verify OUT")
    tu.check_eq(rc, 0, what + ": OUT verifies")
    tu.check_eq(mu.temporaries(), [], what + ": no temporaries")


def fields_via_hdf5(opt):
    """t_qio's fields to HDF5 and back, both under mpirun: the binary
    records come back byte for byte."""
    src = tu.data_path("t_qio.intel-scalar.lime")
    m = mu.run_mpi(opt, opt.np, ["convert", src, "f.h5", "--to", "hdf5", "--path", "/f"])
    if m.returncode == 1 and b"(ERR_HDF5_UNAVAILABLE)" in m.stderr:  # the feature is not built: said, not failed
        print("skipped: the HDF5 cases (this lattio was built without HDF5: -DLATTIO_HDF5=OFF)")
        return
    tu.check_eq((m.returncode, m.stderr), (0, b""), "t_qio -> HDF5 under mpirun")
    m = mu.run_mpi(opt, opt.np, ["convert", "f.h5:/f", "f.lime", "--to", "scidac"])
    tu.check_eq((m.returncode, m.stderr), (0, b""), "HDF5 -> SciDAC under mpirun")
    bins = [[r["payload"] for r in tu.parse_lime(tu.read(p)) if r["type"] == b"scidac-binary-data"]
            for p in (src, "f.lime")]
    tu.check(len(bins[0]) == 3 and bins[0] == bins[1], "t_qio via HDF5 under mpirun: binary records equal")


def main():
    opt = mu.options()
    real = [tu.data_path(f) for f in tu.ALL_FILES]
    rc, js = verify_same(opt, real, "real files")
    tu.check_eq(rc, 0, "real files verify")
    tu.check(len(js) == len(real) and all(o["ok"] for o in js), "every real file ok")
    for name in tu.ALL_FILES:
        verify_same(opt, [tu.data_path(name)], name)
    # the records are read through the MPI layer: lattio_open traces once per record
    m = mu.run_mpi(opt, opt.np, ["verify", tu.data_path("t_qio.intel-scalar.lime")],
                   env={"LATTIO_TRACE": "1"})
    tu.check_eq(m.returncode, 0, "traced parallel verify")
    # (the open's trace line, not ROMIO's hint "... for all UNIX-like file systems")
    opens = len(re.findall(rb"file system \S+ \(f_type", m.stderr))
    tu.check_eq(opens, 3, "t_qio's 3 binary records opened in parallel (traces)")
    data = bytearray(tu.read(tu.data_path("t_dprec_ildg.lime")))
    data[1936 + 144 + 5000] ^= 0x10
    tu.write("flip.lime", bytes(data))
    rc, js = verify_same(opt, ["flip.lime"], "flipped byte")
    tu.check_eq(rc, 1, "flipped byte fails")
    tu.check(any("ERR_CHECKSUM" in p for p in js[0]["problems"]), "flipped byte: ERR_CHECKSUM")
    recs = tu.parse_lime(tu.read(tu.data_path("lat.sample.l4444.ildg")))
    tu.write("nosum.lime", tu.make_lime([(r["type"], r["payload"], r["mb"], r["me"])
                                          for r in recs if r["type"] != b"scidac-checksum"]))
    rc, js = verify_same(opt, ["nosum.lime"], "no checksum")
    tu.check_eq(rc, 1, "no checksum fails")
    convert_same(opt, tu.data_path("t_dprec_ildg.lime"), [], "ildg 64 -> ildg")
    convert_same(opt, tu.data_path("lat.sample.l4444.ildg"), ["--to", "scidac", "--precision", "64"],
                 "ildg 32 -> scidac 64")
    convert_same(opt, tu.data_path("unity.lime"), ["--precision", "32"], "unity -> ildg 32")
    convert_same(opt, tu.data_path("t_nersc.cfg"), [], "nersc -> ildg (rank 0)")
    convert_same(opt, tu.data_path("t_qio.intel-scalar.lime"), ["--to", "scidac"], "t_qio's 3 fields -> scidac")
    fields_via_hdf5(opt)
    s = mu.run_serial(["convert", "flip.lime", "s2.lime"])
    m = mu.run_mpi(opt, opt.np, ["convert", "flip.lime", "m2.lime"])
    tu.check_eq((m.returncode, m.stderr.replace(b"m2.lime", b"s2.lime")), (s.returncode, s.stderr),
                "corrupt IN: status and message")
    tu.check_eq(s.returncode, 1, "corrupt IN fails")
    tu.check(not os.path.exists("m2.lime") and not os.path.exists("s2.lime"), "corrupt IN: no OUT")
    tu.check_eq([f for f in os.listdir(".") if "lattio-convert" in f], [], "corrupt IN: no temporary")
    tu.finish()


if __name__ == "__main__":
    main()
