#!/usr/bin/env python3
"""An asymmetric 6x4x8x10 field, made here as a NERSC 4D_SU3_GAUGE_3x3 file
of random unitary matrices (checksum computed here), converted by `lattio
convert` to ILDG in 64 and 32 bits, then read back by a reader written
from formats.md alone (LIME records, ildg-format, big-endian t,z,y,x,mu
order, SciDAC checksum with zlib's CRC-32): every link agrees."""
import math
import random
import re
import struct
import zlib
from fieldutil import tu

LX, LY, LZ, LT = 6, 4, 8, 10
V = LX * LY * LZ * LT


def random_unitary(rng):
    """Gram-Schmidt on three random complex rows."""
    rows = []
    for _ in range(3):
        v = [complex(rng.uniform(-1, 1), rng.uniform(-1, 1)) for _ in range(3)]
        for r in rows:
            d = sum(a * b.conjugate() for a, b in zip(v, r))
            v = [a - d * b for a, b in zip(v, r)]
        n = math.sqrt(sum(abs(a) ** 2 for a in v))
        rows.append([a / n for a in v])
    return [x for row in rows for c in row for x in (c.real, c.imag)]


def make_nersc(path, field):
    data = struct.pack(">%dd" % len(field), *field)
    words = struct.unpack(">%dI" % (len(data) // 4), data)
    checksum = sum(words) & 0xFFFFFFFF
    hdr = ("BEGIN_HEADER\nHDR_VERSION = 1.0\nDATATYPE = 4D_SU3_GAUGE_3x3\nSTORAGE_FORMAT = 1.0\n"
           "DIMENSION_1 = %d\nDIMENSION_2 = %d\nDIMENSION_3 = %d\nDIMENSION_4 = %d\n"
           "CHECKSUM = %x\nFLOATING_POINT = IEEE64BIG\nEND_HEADER\n" % (LX, LY, LZ, LT, checksum))
    tu.write(path, hdr.encode() + data)


def rotl(v, n):
    return ((v << n) | (v >> (32 - n))) & 0xFFFFFFFF if n else v


def read_ildg(path):
    """Independent ILDG reader: returns (dims, precision, values, sums ok)."""
    data, off, recs = tu.read(path), 0, {}
    while off < len(data):
        magic, version, _flags, _res, length = struct.unpack(">IHBBQ", data[off:off + 16])
        assert magic == 0x456789AB and version == 1
        rtype = data[off + 16:off + 144].split(b"\0")[0].decode()
        recs.setdefault(rtype, data[off + 144:off + 144 + length])
        off += 144 + length + (8 - length % 8) % 8
    fmt = recs["ildg-format"].decode().rstrip("\0")
    tag = lambda t: int(re.search(r"<%s>\s*(\d+)\s*</%s>" % (t, t), fmt).group(1))
    dims = [tag(t) for t in ("lx", "ly", "lz", "lt")]
    prec = tag("precision")
    binary = recs["ildg-binary-data"]
    site = 4 * 18 * prec // 8
    suma = sumb = 0
    for r in range(len(binary) // site):
        c = zlib.crc32(binary[r * site:(r + 1) * site]) & 0xFFFFFFFF
        suma ^= rotl(c, r % 29)
        sumb ^= rotl(c, r % 31)
    ck = recs["scidac-checksum"].decode().rstrip("\0")
    stored = [int(re.search(r"<%s>\s*([0-9a-fA-F]+)\s*</%s>" % (t, t), ck).group(1), 16)
              for t in ("suma", "sumb")]
    values = struct.unpack(">%d%s" % (len(binary) // (prec // 8), "d" if prec == 64 else "f"), binary)
    return dims, prec, values, stored == [suma, sumb], len(binary)


def main():
    rng = random.Random(20250601)
    # field[((t*LZ + z)*LY + y)*LX + x][mu] -> 18 reals, stored in file order directly
    field = []
    for _ in range(V * 4):
        field.extend(random_unitary(rng))
    make_nersc("gen.nersc", field)
    p = tu.run(["verify", "gen.nersc"])
    tu.check(p.returncode == 0, "lattio verifies the generated NERSC file: %r" % p.stdout)
    for prec in (64, 32):
        q = tu.run(["convert", "gen.nersc", "gen%d.lime" % prec, "--precision", str(prec)])
        tu.check(q.returncode == 0, "convert %d: %r" % (prec, q.stderr))
        dims, got_prec, values, sums_ok, nbytes = read_ildg("gen%d.lime" % prec)
        tu.check_eq(dims, [LX, LY, LZ, LT], "dims %d" % prec)
        tu.check_eq(got_prec, prec, "precision")
        tu.check_eq(nbytes, V * 4 * 18 * prec // 8, "payload size")
        tu.check(sums_ok, "SciDAC checksum recomputed independently (%d)" % prec)
        if prec == 64:
            tu.check(values == tuple(field), "every link equal in double")
        else:
            single = tuple(struct.unpack("f", struct.pack("f", x))[0] for x in field)
            tu.check(values == single, "every link equal after rounding to single")
        # spot check of the index order: site (x=5, y=3, z=7, t=9), mu = 2, element 17
        r = 5 + LX * (3 + LY * (7 + LZ * 9))
        tu.check(abs(values[(r * 4 + 2) * 18 + 17] - field[(r * 4 + 2) * 18 + 17]) < 1e-7, "spot link")
    tu.finish()


tu.scratch()
main()
