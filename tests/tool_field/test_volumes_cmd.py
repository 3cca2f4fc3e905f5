#!/usr/bin/env python3
"""`lattio info`, `verify` and `convert` of QIO volume sets: QIO's partfile
set listed (volumes, sites, fields; JSON), verified field by field, joined
into QIO's single file and split back into QIO's volumes byte for byte; a
damaged or incomplete set fails with the volume named and leaves no
output; unusable volume options exit 2."""
import json
import os
import shutil
from fieldutil import tu

PART = tu.data_path("qio-volumes/part/binary_test")
SINGLE = tu.data_path("qio-volumes/single/binary_test")


def info_and_verify():
    p = tu.run(["info", PART])
    tu.check(p.returncode == 0 and b"QIO partfile set (volfmt 2) of 4 volumes, 4 fields" in p.stdout,
             "info: %r" % p.stdout[:200])
    p = tu.run(["info", "--json", PART])
    doc = json.loads(p.stdout)
    tu.check_eq([v["sites"] for v in doc["volumes"]], [128] * 4, "sites per volume")
    tu.check_eq([f["checksum"] for f in doc["fields"]][3], ["92249621", "bbac102e"], "field 3 checksum")
    tu.check_eq(doc["fields"][3]["axes"], ["t", "z", "y", "x", "mu", "row", "col"], "gauge axes")
    p = tu.run(["verify", "--json", PART])
    rep = json.loads(p.stdout)[0]
    tu.check_eq([(b["suma"], b["ok"]) for b in rep["binary_records"]],
                [("65999bf7", True), ("f791abfd", True), ("343a3571", True), ("92249621", True)],
                "every field's checksum over the volumes")
    # QIO's test matrices are not unitary: verify says so, after every checksum held
    tu.check(p.returncode == 1 and b"ERR_UNITARITY" in p.stdout and b"ERR_CHECKSUM" not in p.stdout,
             "verify: %r" % p.stdout[-300:])


def join_and_split():
    p = tu.run(["convert", PART, "joined"])
    tu.check_eq(p.returncode, 0, "join exit: %r" % p.stderr)
    tu.check_eq(tu.read("joined"), tu.read(SINGLE), "joined = QIO's single file")
    p = tu.run(["convert", SINGLE, "mine", "--volumes", "part", "--grid", "4,1,1,1"])
    tu.check_eq(p.returncode, 0, "split exit: %r" % p.stderr)
    for k in range(4):
        tu.check_eq(tu.read("mine.vol%04d" % k), tu.read(PART + ".vol%04d" % k), "volume %d" % k)
    p = tu.run(["convert", SINGLE, "io", "--volumes", "partdir", "--grid", "4,1,1,1", "--io-grid", "2,1,1,1"])
    tu.check(p.returncode == 0 and os.path.isfile("vol0000/io") and os.path.isfile("vol0002/io"),
             "partitions in directories")
    p = tu.run(["info", "io"])
    tu.check(b"partfile-dir set (volfmt 3) of 2 volumes" in p.stdout, "info of the dir set: %r" % p.stdout[:120])


def failures():
    for k in range(4):
        shutil.copy(PART + ".vol%04d" % k, "bad.vol%04d" % k)
    raw = bytearray(tu.read("bad.vol0002"))
    raw[-200] ^= 1
    tu.write("bad.vol0002", bytes(raw))
    tu.write("out", b"previous")
    p = tu.run(["convert", "bad", "out"])
    tu.check(p.returncode == 1 and b"ERR_CHECKSUM" in p.stderr, "damaged set: %r" % p.stderr)
    tu.check_eq(tu.read("out"), b"previous", "previous output kept")
    os.remove("bad.vol0001")
    p = tu.run(["verify", "bad"])
    tu.check(p.returncode == 1 and b"ERR_VOLUME_SITES" in p.stdout and b"a volume missing" in p.stdout,
             "missing volume: %r" % p.stdout)
    p = tu.run(["info", "bad"])
    tu.check(p.returncode == 1 and b"ERR_VOLUME_SITES" in p.stderr, "info of a short set: %r" % p.stderr)
    for args in (["--volumes", "chunks", "--grid", "1,1,1,1"], ["--volumes", "part"],
                 ["--grid", "2,1,1,1"], ["--volumes", "part", "--grid", "2,x,1,1"],
                 ["--volumes", "part", "--grid", "2,1,1,1", "--to", "nersc"],
                 ["--volumes", "part", "--grid", "2,1,1,1", "--io-grid", "2,1"]):
        p = tu.run(["convert", SINGLE, "v"] + args)
        tu.check(p.returncode == 2, "usage %s: %r" % (args, p.stderr))
    p = tu.run(["convert", SINGLE, "v", "--volumes", "part", "--grid", "3,1,1,1"])
    tu.check(p.returncode == 1 and b"do not divide" in p.stderr, "grid that does not fit: %r" % p.stderr)
    tu.check(not os.path.exists("v.vol0000"), "no volume written")
    tu.check_eq([f for f in os.listdir(".") if "lattio-tmp" in f], [], "no temporaries")


def main():
    info_and_verify()
    join_and_split()
    failures()
    tu.finish()


tu.scratch()
main()
