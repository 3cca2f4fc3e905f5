#!/usr/bin/env python3
"""`lattio convert` of files of fields that are not one gauge configuration.
QDP++'s real t_qio file (three fields) and a five-field fermion file made
here (records and big-endian bytes built by toolutil and struct, not by
lattio) go to HDF5 in both layouts (one dataset per field, listed by
`lattio info`) and back to SciDAC: every binary record and its checksum
values equal IN's, byte for byte; the fermion file comes back identical.
--precision 32 stores each real as the float32 struct rounds it to, under
QIO's F datatype.  A field with a wrong checksum, a format that holds one
gauge field, and an OUT that is a directory fail with a message and leave
OUT as it was."""
import json
import os
import random
import re
import struct

from fieldutil import tu

DIMS = (4, 2, 2, 3)  # x, y, z, t
VOL = DIMS[0] * DIMS[1] * DIMS[2] * DIMS[3]
NF = 5


def private_file():
    return ('<?xml version="1.0" encoding="UTF-8"?><scidacFile><version>1.1</version><spacetime>4</spacetime>'
            '<dims>%d %d %d %d </dims><volfmt>0</volfmt></scidacFile>\0' % DIMS).encode()


def private_record(prec):
    return ('<?xml version="1.0" encoding="UTF-8"?><scidacRecord><version>1.1</version>'
            '<date>Fri Nov 27 12:00:00 2026 UTC</date><recordtype>0</recordtype>'
            '<datatype>USQCD_%s3_DiracFermion</datatype><precision>%s</precision><colors>3</colors>'
            '<spins>4</spins><typesize>%d</typesize><datacount>1</datacount></scidacRecord>\0'
            % ("D" if prec == 64 else "F", "D" if prec == 64 else "F", 24 * prec // 8)).encode()


def fermion_file(values):
    """NF fields of 64-bit fermions, no checksum records (lattio writes its own)."""
    recs = [(b"scidac-private-file-xml", private_file(), 1, 0), (b"scidac-file-xml", b"<eigen/>\0", 0, 1)]
    for v in values:
        recs += [(b"scidac-private-record-xml", private_record(64), 1, 0), (b"scidac-record-xml", b"<vec/>\0", 0, 0),
                 (b"scidac-binary-data", struct.pack(">%dd" % len(v), *v), 0, 1)]
    return tu.make_lime(recs)


def binaries(path):
    recs = tu.parse_lime(tu.read(path))
    return [r["payload"] for r in recs if r["type"] in (b"scidac-binary-data", b"ildg-binary-data")]


def sums(path):
    recs = tu.parse_lime(tu.read(path))
    return [tuple(int(x, 16) for x in re.findall(rb"<sum[ab]>([0-9a-fA-F]+)</sum[ab]>", r["payload"]))
            for r in recs if r["type"] == b"scidac-checksum"]


def convert(*args):
    p = tu.run(["convert"] + list(args))
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def h5_paths(path):
    p = tu.run(["info", "--json", path])
    return [f["path"] for f in json.loads(p.stdout.decode())["fields"]] if p.returncode == 0 else None


def round_trips():
    qio = tu.data_path("t_qio.intel-scalar.lime")
    rc, _, err = convert(qio, "tq.h5", "--to", "hdf5", "--layout", "qlua")  # field 2: 72 reals per site
    tu.check(rc == 1 and "field 2" in err and "Qlua has no lattice object of 72 reals" in err, "Qlua's kinds: " + err)
    tu.check(not os.path.exists("tq.h5"), "no OUT after a failed conversion")
    for layout in ("qdp",):
        rc, out, err = convert(qio, "tq_%s.h5" % layout, "--to", "hdf5", "--layout", layout, "--path", "/props")
        tu.check_eq((rc, err), (0, ""), "t_qio -> HDF5 %s" % layout)
        tu.check_eq(h5_paths("tq_%s.h5" % layout), ["/props/field0", "/props/field1", "/props/field2"],
                    "t_qio in HDF5 %s: one dataset per field" % layout)
        rc, out, err = convert("tq_%s.h5:/props" % layout, "tq_%s.lime" % layout, "--to", "scidac")
        tu.check_eq((rc, err), (0, ""), "HDF5 %s -> SciDAC" % layout)
        tu.check(binaries("tq_%s.lime" % layout) == binaries(qio), "t_qio via %s: binary records equal" % layout)
        tu.check_eq(sums("tq_%s.lime" % layout), sums(qio), "t_qio via %s: checksums" % layout)

    rng = random.Random(7)
    values = [[rng.uniform(-2, 2) for _ in range(VOL * 24)] for _ in range(NF)]
    tu.write("ferm.lime", fermion_file(values))
    rc, _, err = convert("ferm.lime", "ferm_sum.lime", "--to", "scidac")  # adds the checksums
    tu.check_eq((rc, err), (0, ""), "fermions -> SciDAC")
    tu.check(binaries("ferm_sum.lime") == binaries("ferm.lime"), "fermions: the bytes kept")
    tu.check_eq(len(sums("ferm_sum.lime")), NF, "fermions: a checksum per field")
    rc, out, err = convert("ferm_sum.lime", "ferm.h5", "--to", "hdf5", "--layout", "qlua")
    tu.check_eq((rc, err), (0, ""), "fermions -> HDF5 qlua")
    tu.check_eq(len(h5_paths("ferm.h5")), NF, "fermions: %d datasets" % NF)
    rc, out, err = convert("ferm.h5", "ferm_back.lime", "--to", "scidac")
    tu.check_eq((rc, err), (0, ""), "HDF5 qlua -> SciDAC")
    tu.check(tu.read("ferm_back.lime") == tu.read("ferm_sum.lime"), "fermions: SciDAC -> HDF5 -> SciDAC identical")

    rc, out, err = convert("ferm_sum.lime", "ferm32.lime", "--to", "scidac", "--precision", "32")
    tu.check_eq((rc, err), (0, ""), "fermions -> 32 bits")
    want = [struct.pack(">%df" % len(v), *v) for v in values]
    tu.check(binaries("ferm32.lime") == want, "32 bits: the float32 struct rounds to")
    recs = tu.parse_lime(tu.read("ferm32.lime"))
    priv = [r["payload"] for r in recs if r["type"] == b"scidac-private-record-xml"]
    tu.check(all(b"<datatype>USQCD_F3_DiracFermion</datatype>" in p and b"<typesize>96</typesize>" in p
                 for p in priv), "32 bits: QIO's F datatype and typesize")


def failures():
    data = bytearray(tu.read("ferm_sum.lime"))
    off = [r["offset"] for r in tu.parse_lime(bytes(data)) if r["type"] == b"scidac-binary-data"][3]
    data[off + 144 + 100] ^= 0x01
    tu.write("flip.lime", bytes(data))
    tu.write("keep.h5", b"previous contents")
    rc, _, err = convert("flip.lime", "keep.h5", "--to", "hdf5")
    tu.check_eq(rc, 1, "a wrong checksum in field 3: exit status")
    tu.check("ERR_CHECKSUM" in err and "field 3" in err, "the checksum error names the field: " + err)
    tu.check_eq(tu.read("keep.h5"), b"previous contents", "OUT untouched")
    rc, _, err = convert("ferm_sum.lime", "x.nersc", "--to", "nersc")
    tu.check_eq(rc, 1, "fields to NERSC: exit status")
    tu.check("convert to scidac or hdf5" in err and not os.path.exists("x.nersc"), "fields to NERSC: " + err)
    os.mkdir("adir")
    rc, _, err = convert("ferm_sum.lime", "adir", "--to", "scidac")
    tu.check(rc != 0 and os.path.isdir("adir") and not os.listdir("adir"), "OUT a directory is refused: " + err)
    tu.check_eq([f for f in os.listdir(".") if "lattio-" in f and "tmp" in f], [], "no temporaries")


def main():
    tu.scratch()
    round_trips()
    failures()
    tu.finish()


if __name__ == "__main__":
    main()
