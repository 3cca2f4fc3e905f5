"""Damaged containers through `lattio container`: each problem has its own
message naming the file, exit status 1, never a crash.  The containers are
built here from docs/format.md section 8 (independently of the library); the
intact one must read back exactly."""
import struct
import zlib

import ctutil as ct
import toolutil as tu

CAP, ALIGN = 192, 256
STREAMS = [ct.pattern(0, 500), b"", ct.pattern(2, 192), ct.pattern(3, 7)]


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)
    return name


def reseal(data, off, size):
    """Recompute the CRC-32 in the last 4 bytes of the record at off."""
    rec = data[off:off + size - 4]
    return data[:off] + rec + struct.pack(">I", zlib.crc32(rec) & 0xFFFFFFFF) + data[off + size:]


def expect_fail(cmd, path, name, text):
    extra = {"cat": ["--task", "0"], "split": ["part"], "defrag": ["out.ltc"]}.get(cmd, [])
    p = ct.lattio(["container", cmd, path] + extra)
    tu.check_eq(p.returncode, 1, "%s %s: exit status (stderr %r)" % (cmd, path, p.stderr))
    err = p.stderr.decode()
    tu.check(err.startswith("lattio container %s: %s: " % (cmd, path)), "%s: names the file: %r" % (path, err))
    tu.check(name in err and text in err, "%s: message %r has %s / %r" % (path, err, name, text))
    tu.check_eq(err.count("\n"), 1, "%s: one line" % path)
    return p


def main():
    ct.options()
    tu.scratch()
    good = ct.build(STREAMS, CAP, ALIGN)
    write("good.ltc", good)
    d = ct.dump_json("good.ltc")
    tu.check_eq([s["bytes"] for s in d["streams"]], [len(s) for s in STREAMS], "independent file: sizes")
    tu.check_eq(d["blocks"], 3, "independent file: blocks")
    p = ct.lattio(["container", "cat", "good.ltc"])
    tu.check(p.returncode == 0 and p.stdout == b"".join(STREAMS), "independent file: cat")

    # Cut inside block 1: no footer.
    write("cut.ltc", good[:ALIGN + 4 * (CAP + 64) + 100])
    expect_fail("cat", "cut.ltc", "ERR_CONTAINER_TRUNCATED", "truncated or never closed")
    expect_fail("dump", "cut.ltc", "ERR_CONTAINER_TRUNCATED", "shown as recovery reads it")
    p = ct.lattio(["container", "cat", "--recover", "cut.ltc"])
    tu.check(p.returncode == 0 and p.stdout == STREAMS[0][:CAP] + STREAMS[2] + STREAMS[3],
             "cut: --recover reads the complete chunks (task 0 one chunk, others final)")
    # Shorter than the header.
    write("tiny.ltc", good[:50])
    expect_fail("cat", "tiny.ltc", "ERR_CONTAINER_TRUNCATED", "truncated")
    expect_fail("dump", "tiny.ltc", "ERR_CONTAINER_TRUNCATED", "truncated")
    write("empty.ltc", b"")
    expect_fail("dump", "empty.ltc", "ERR_CONTAINER_TRUNCATED", "truncated")
    # Wrong magic.
    write("magic.ltc", b"LATTIOTX" + good[8:])
    expect_fail("dump", "magic.ltc", "ERR_CONTAINER_MAGIC", "wrong magic")
    expect_fail("split", "magic.ltc", "ERR_CONTAINER_MAGIC", "wrong magic")
    # Inconsistent sizes: the footer's stream total off by one, CRC valid.
    foot = len(good) - 64
    bad = bytearray(good)
    bad[foot + 24:foot + 32] = struct.pack(">Q", sum(len(s) for s in STREAMS) + 1)
    write("sizes.ltc", reseal(bytes(bad), foot, 64))
    expect_fail("cat", "sizes.ltc", "ERR_CONTAINER)", "contradict")
    # Footer block count contradicting the file size.
    bad = bytearray(good)
    bad[foot + 16:foot + 24] = struct.pack(">Q", 7)
    write("blocks.ltc", reseal(bytes(bad), foot, 64))
    expect_fail("defrag", "blocks.ltc", "ERR_CONTAINER", "metadata corrupt")
    # A damaged trailer in the middle of task 0's stream.
    tr = ALIGN + (CAP + 64) - 64
    write("trailer.ltc", good[:tr + 30] + bytes([good[tr + 30] ^ 1]) + good[tr + 31:])
    expect_fail("cat", "trailer.ltc", "ERR_CONTAINER_CHUNK", "trailer")
    # Unknown version (header resealed).
    bad = bytearray(good)
    bad[8:12] = struct.pack(">I", 2)
    write("version.ltc", reseal(bytes(bad), 0, 96))
    expect_fail("dump", "version.ltc", "ERR_CONTAINER_VERSION", "version")
    # Hostile header: 2^28 tasks in a tiny file -> refused quickly, or listed bounded.
    bad = bytearray(good[:ALIGN + 2 * (CAP + 64)])
    bad[24:28] = struct.pack(">I", 1 << 28)
    bad[40:44] = struct.pack(">I", 1 << 28)
    write("many.ltc", reseal(bytes(bad), 0, 96))
    p = ct.lattio(["container", "dump", "many.ltc"])
    tu.check_eq(p.returncode, 1, "hostile task count: exit 1")
    tu.check(len(p.stdout) < 100000, "hostile task count: bounded output")
    p = ct.lattio(["container", "defrag", "--recover", "many.ltc", "many2.ltc"])
    tu.check_eq(p.returncode, 1, "hostile task count: defrag refuses")
    # A flipped data byte: the chunk's CRC-32 catches it; other tasks read.
    data_off = ALIGN + (1 * 4 + 0) * (CAP + 64) + 10  # task 0, block 1
    write("flip.ltc", good[:data_off] + bytes([good[data_off] ^ 0x40]) + good[data_off + 1:])
    expect_fail("cat", "flip.ltc", "ERR_CONTAINER_CHECKSUM", "CRC-32")
    p = ct.lattio(["container", "cat", "flip.ltc", "--task", "2"])
    tu.check(p.returncode == 0 and p.stdout == STREAMS[2], "flip: other tasks read")
    p = ct.lattio(["container", "cat", "flip.ltc", "--task", "0", "--no-verify"])
    want = bytearray(STREAMS[0])
    want[CAP + 10] ^= 0x40
    tu.check(p.returncode == 0 and p.stdout == bytes(want), "flip: --no-verify reads the bytes as stored")
    p = ct.lattio(["container", "dump", "--verify", "flip.ltc"])
    tu.check_eq(p.returncode, 1, "flip: dump --verify fails")
    tu.check(b"flip.ltc: container data fails its CRC-32" in p.stderr and b"task 0, block 1" in p.stderr,
             "flip: dump --verify names the chunk: %r" % p.stderr)
    # repair of the cut file (built here): task 0 keeps its one complete chunk.
    p = ct.lattio(["container", "repair", "cut.ltc", "-o", "fixed.ltc"])
    tu.check_eq(p.returncode, 0, "repair -o (stderr %r)" % p.stderr)
    tu.check(b"       0              192 no" in p.stdout and b"       3                7 yes" in p.stdout,
             "repair report per task: %r" % p.stdout)
    d = ct.dump_json("fixed.ltc")
    tu.check_eq([s["bytes"] for s in d["streams"]], [CAP, 0, len(STREAMS[2]), len(STREAMS[3])], "repaired sizes")
    p = ct.lattio(["container", "cat", "fixed.ltc"])
    tu.check(p.returncode == 0 and p.stdout == STREAMS[0][:CAP] + STREAMS[2] + STREAMS[3], "repaired bytes")
    tu.check_eq(open("cut.ltc", "rb").read(), good[:ALIGN + 4 * (CAP + 64) + 100], "repair -o leaves the input")
    expect_fail("repair", "magic.ltc", "ERR_CONTAINER_MAGIC", "wrong magic")
    # Not a file, missing file.
    expect_fail("dump", ".", "", "not a regular file")
    expect_fail("dump", "missing.ltc", "", "cannot open")
    tu.finish()


main()
