#!/usr/bin/env python3
"""tmlqcd-compare.py A B -- compare two LIME files written by tmLQCD record
by record: the same record types, MB/ME flags and lengths, binary records
byte for byte, metadata records line by line with tmLQCD's clock lines
("date = ...", "time = ...") aside.  The LIME headers are parsed here, with
no lattio code, so the comparison is independent of the library it proves.
Prints one line per file pair; exits 1 when they differ.
"""
import struct
import sys

MAGIC = 0x456789AB
CLOCK = ("date", "time")  # tmLQCD's xlf-info and inverter-info stamp these


def records(path):
    """[(type, mb, me, payload)] of a LIME file."""
    out = []
    with open(path, "rb") as f:
        data = f.read()
    at = 0
    while at < len(data):
        if len(data) - at < 144:
            raise ValueError("%s: %d bytes after the last record, less than a header" % (path, len(data) - at))
        magic, version, flags, length = struct.unpack(">IHHQ", data[at:at + 16])
        if magic != MAGIC:
            raise ValueError("%s: no LIME magic at byte %d" % (path, at))
        rtype = data[at + 16:at + 144].split(b"\0", 1)[0].decode("ascii", "replace")
        body = data[at + 144:at + 144 + length]
        if len(body) != length:
            raise ValueError("%s: record %d is cut short" % (path, len(out) + 1))
        out.append((rtype, bool(flags & 0x8000), bool(flags & 0x4000), body))
        at += 144 + (length + 7) // 8 * 8
    return out


def clockless(payload):
    """A metadata payload's lines without tmLQCD's clock lines."""
    lines = payload.decode("utf-8", "replace").split("\n")
    return [line for line in lines if line.strip().split("=")[0].strip() not in CLOCK]


def differ(a, b):
    """The first difference between two record lists, or None."""
    if len(a) != len(b):
        return "%d records against %d" % (len(a), len(b))
    for n, (ra, rb) in enumerate(zip(a, b), 1):
        if ra[:3] != rb[:3]:
            return "record %d: %s MB=%d ME=%d against %s MB=%d ME=%d" % ((n,) + ra[:3] + rb[:3])
        if ra[0].endswith("binary-data"):
            if ra[3] != rb[3]:
                return "record %d (%s): payloads differ" % (n, ra[0])
        elif clockless(ra[3]) != clockless(rb[3]):
            return "record %d (%s): metadata differ beyond the clock lines" % (n, ra[0])
    return None


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        return 2
    try:
        what = differ(records(argv[1]), records(argv[2]))
    except (OSError, ValueError) as e:
        print("%s: %s" % (argv[1], e))
        return 1
    if what:
        print("%s and %s DIFFER: %s" % (argv[1], argv[2], what))
        return 1
    print("%s and %s: the same, %d records (clock lines aside)" % (argv[1], argv[2], len(records(argv[1]))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
