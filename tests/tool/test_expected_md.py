#!/usr/bin/env python3
"""`lattio info --json` agrees with the record tables of
tests/data/real/EXPECTED.md (written from the files' producers, not by us):
offsets, types, lengths, padding, MB/ME flags; plus the sentence about the
binary records of t_qio.intel-scalar.lime."""
import json
import os
import re
import toolutil as tu


def parse_tables(text):
    """{file: [(offset, type, length, padding, mb, me)]} from the code blocks
    that follow a line `name`."""
    tables = {}
    name = None
    in_block = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_block = not in_block
            continue
        if in_block and name:
            m = re.match(r"^(\d+)\s+(\S+)\s+(\d+)\s+(\d+)\s*(.*)$", line)
            if m:
                flags = m.group(5).split("(")[0].split()
                tables[name].append((int(m.group(1)), m.group(2), int(m.group(3)),
                                     int(m.group(4)), "MB" in flags, "ME" in flags))
            continue
        m = re.match(r"^`([^`]+\.[a-z]+)`(\s|$)", line)
        if m:
            name = m.group(1)
            tables.setdefault(name, [])
    return {k: v for k, v in tables.items() if v}


def info_json(name):
    p = tu.run(["info", "--json", name], cwd=tu.DATA)
    tu.check_eq(p.returncode, 0, "info --json %s exit code" % name)
    return json.loads(p.stdout.decode("ascii"))


def main():
    with open(tu.data_path("EXPECTED.md")) as f:
        text = f.read()
    tables = parse_tables(text)
    tu.check_eq(sorted(tables), sorted(["lime_writer_test1.lime", "unity.lime",
                                        "t_dprec_ildg.lime", "lat.sample.l4444.ildg"]),
                "tables found in EXPECTED.md")
    for name, rows in tables.items():
        doc = info_json(name)
        tu.check_eq(doc["file"], name, "file field")
        got = [(r["offset"], r["type"], r["length"], r["padding"], r["mb"], r["me"])
               for r in doc["records"]]
        tu.check_eq(got, rows, "records of %s" % name)
        last = doc["records"][-1]
        tu.check_eq(last["offset"] + 144 + last["length"] + last["padding"],
                    os.path.getsize(tu.data_path(name)), "%s ends after its last record" % name)
    # t_qio: "14 records; binary records at header offsets 1256 (4096 bytes),
    # 6480 (36864 bytes) and 44472 (147456 bytes), each followed by its scidac-checksum"
    m = re.search(r"`t_qio\.intel-scalar\.lime`: (\d+) records; binary records at header offsets "
                  r"(\d+) \((\d+) bytes\),\s+(\d+) \((\d+) bytes\) and (\d+) \((\d+) bytes\)", text)
    tu.check(m is not None, "t_qio sentence found")
    if m:
        v = [int(x) for x in m.groups()]
        recs = info_json("t_qio.intel-scalar.lime")["records"]
        tu.check_eq(len(recs), v[0], "t_qio record count")
        for off, length in [(v[1], v[2]), (v[3], v[4]), (v[5], v[6])]:
            idx = [i for i, r in enumerate(recs) if r["offset"] == off]
            if tu.check(len(idx) == 1, "t_qio record at %d" % off):
                r = recs[idx[0]]
                tu.check_eq((r["type"], r["length"]), ("scidac-binary-data", length), "t_qio @%d" % off)
                tu.check_eq(recs[idx[0] + 1]["type"], "scidac-checksum", "checksum after @%d" % off)
    tu.finish()


tu.scratch()
main()
