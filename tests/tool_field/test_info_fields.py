#!/usr/bin/env python3
"""`lattio info --fields`: the real QDP++ t_qio file's three fields at the
offsets, lengths and record numbers EXPECTED.md gives, with the shapes its
metadata give (typesize / 8 complex numbers, datacount 4 on a leading
axis); a fermion field made here (records built by toolutil, not lattio)
with its type, axes (t z y x spin color) and stored checksum; the same
field whose record XML says a typesize its datatype cannot have, and one
whose binary record is shorter than its metadata say, and a piece of a
QIO partfile volume (volfmt 2): exit 1 naming the field and the error."""
import json
import struct

from fieldutil import tu

PRIV_FILE = (b'<?xml version="1.0" encoding="UTF-8"?><scidacFile><version>1.1</version>'
             b'<spacetime>4</spacetime><dims>2 2 2 2 </dims><volfmt>0</volfmt></scidacFile>\0')


def private_record(typesize):
    return ('<?xml version="1.0" encoding="UTF-8"?><scidacRecord><version>1.1</version>'
            '<date>today</date><recordtype>0</recordtype><datatype>USQCD_F3_DiracFermion</datatype>'
            '<precision>F</precision><colors>3</colors><spins>4</spins><typesize>%d</typesize>'
            '<datacount>1</datacount></scidacRecord>\0' % typesize).encode()


def fermion_file(typesize=96, cut=0):
    data = struct.pack(">%df" % (16 * 24), *[float(i % 97) for i in range(16 * 24)])
    data = data[:len(data) - cut]
    return tu.make_lime([(b"scidac-private-file-xml", PRIV_FILE, 1, 0), (b"scidac-file-xml", b"<f/>\0", 0, 1),
                         (b"scidac-private-record-xml", private_record(typesize), 1, 0),
                         (b"scidac-record-xml", b"<r/>\0", 0, 0), (b"scidac-binary-data", data, 0, 1)])


def info(path, *extra):
    p = tu.run(["info", "--fields"] + list(extra) + [path])
    p.stdout, p.stderr = p.stdout.decode(), p.stderr.decode()
    return p, (json.loads(p.stdout) if "--json" in extra and p.returncode == 0 else None)


def main():
    tu.scratch()
    p, doc = info(tu.data_path("t_qio.intel-scalar.lime"), "--json")
    tu.check_eq(p.returncode, 0, "t_qio: exit status")
    got = [(f["record"], f["offset"], f["length"]) for f in doc["fields"]]
    tu.check_eq(got, [(5, 1256, 4096), (9, 6480, 36864), (13, 44472, 147456)], "t_qio: records, offsets, lengths")
    tu.check_eq([f["shape"] for f in doc["fields"]], [[8, 4, 4, 4], [8, 4, 4, 4, 9], [8, 4, 4, 4, 4, 9]],
                "t_qio: shapes (typesize 8, 72, 72 x 4 of 32-bit complex)")
    tu.check_eq([f["type"] for f in doc["fields"]], ["untyped"] * 3, "t_qio: datatype Lattice is untyped")
    tu.check_eq(doc["fields"][0]["checksum"], ["db7837af", "633915aa"], "t_qio: stored checksum of field 0")

    tu.write("fermion.lime", fermion_file())
    p, doc = info("fermion.lime", "--json")
    tu.check_eq(p.returncode, 0, "fermion: exit status")
    f = doc["fields"][0]
    tu.check_eq((f["type"], f["shape"], f["axes"], f["complex"], f["checksum"]),
                ("fermion", [2, 2, 2, 2, 4, 3], ["t", "z", "y", "x", "spin", "color"], True, None),
                "fermion: type, shape, axes, no checksum")
    p, _ = info("fermion.lime")
    tu.check("shape     2 2 2 2 4 3 (t z y x spin color)" in p.stdout, "text output names the axes")

    tu.write("bad_typesize.lime", fermion_file(typesize=48, cut=16 * 48))  # length fits, type not
    p, _ = info("bad_typesize.lime")
    tu.check_eq(p.returncode, 1, "typesize against the datatype: exit status")
    tu.check("ERR_FIELD_TYPESIZE" in p.stderr and "field 0" in p.stderr, "the error names the field: " + p.stderr)

    tu.write("volume.lime", fermion_file().replace(b"<volfmt>0</volfmt>", b"<volfmt>2</volfmt>"))
    p, _ = info("volume.lime")
    tu.check(p.returncode == 1 and "ERR_UNSUPPORTED" in p.stderr and "partfile" in p.stderr,
             "a QIO partfile volume piece is refused by name: " + p.stderr)

    tu.write("short.lime", fermion_file(cut=96))
    p, _ = info("short.lime")
    tu.check_eq(p.returncode, 1, "short binary record: exit status")
    tu.check("ERR_FIELD_LENGTH" in p.stderr, "the length error is named: " + p.stderr)
    return tu.finish()


if __name__ == "__main__":
    raise SystemExit(main())
