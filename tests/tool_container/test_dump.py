"""`lattio container dump`: text and JSON metadata of a container written by
ct_writer: tasks, files, chunk geometry, blocks, per-task bytes, blocks
and FINAL state, against the sizes computed here."""
import json
import zlib

import ctutil as ct
import toolutil as tu

CAP, ALIGN = 960, 1024


def main():
    opt = ct.options()
    tu.scratch()
    p = ct.run_writer(opt, opt.np, ["write", "c.ltc", CAP, ALIGN])
    tu.check_eq(p.returncode, 0, "writer exit status (stderr %r)" % p.stderr)
    d = ct.dump_json("c.ltc")
    sizes = [ct.size_of(t, CAP) for t in range(opt.np)]
    blocks = [max(1, (n + CAP - 1) // CAP) for n in sizes]
    tu.check_eq(d["tasks"], opt.np, "tasks")
    tu.check_eq(d["files"], 1, "files")
    tu.check_eq(d["chunk"], CAP, "chunk capacity")
    tu.check_eq(d["stride"], CAP + 64, "stride")
    tu.check_eq(d["align"], ALIGN, "alignment")
    tu.check_eq(d["blocks"], max(blocks), "blocks")
    tu.check_eq(d["complete"], True, "complete")
    tu.check_eq(d["state"], "complete", "state")
    tu.check_eq(d["stream_bytes"], sum(sizes), "stream bytes")
    tu.check_eq([s["bytes"] for s in d["streams"]], sizes, "bytes per task")
    tu.check_eq([s["blocks"] for s in d["streams"]], blocks, "blocks per task")
    tu.check_eq([s["final"] for s in d["streams"]], [True] * opt.np, "every stream final")
    crcs = ["%08x" % (zlib.crc32(ct.pattern(t, n)) & 0xFFFFFFFF) for t, n in enumerate(sizes)]
    tu.check_eq(d["stream_crcs"], True, "stream CRCs recorded")
    tu.check_eq([s["crc"] for s in d["streams"]], crcs, "stream CRC-32 per task (zlib here)")
    tu.check_eq(d["file_size"], ALIGN + max(blocks) * opt.np * (CAP + 64) + 64, "file size")
    p = ct.lattio(["container", "dump", "c.ltc"])
    tu.check_eq(p.returncode, 0, "text dump exit status")
    text = p.stdout.decode()
    tu.check("state:        complete" in text, "text state line")
    tu.check("tasks:        %d" % opt.np in text, "text tasks line")
    for t, n in enumerate(sizes):
        line = "%8d %16d %8d %5s %8s" % (t, n, blocks[t], "yes", crcs[t])
        tu.check(line in text, "text line of task %d: %r" % (t, line))
    # --chunks: every chunk's offset, bytes and CRC-32, checked here.
    c = ct.dump_json_args(["--chunks"], "c.ltc")
    for t, n in enumerate(sizes):
        want = []
        for b in range(blocks[t]):
            data = ct.pattern(t, n)[b * CAP:(b + 1) * CAP]
            want.append({"block": b, "file_offset": ALIGN + (b * opt.np + t) * (CAP + 64),
                         "used": len(data), "stream_offset": b * CAP,
                         "crc": "%08x" % (zlib.crc32(data) & 0xFFFFFFFF), "final": b == blocks[t] - 1})
        tu.check_eq(c["streams"][t]["chunks"], want, "chunks of task %d" % t)
    p = ct.lattio(["container", "dump", "--verify", "c.ltc"])
    tu.check(p.returncode == 0 and b"verified" in p.stdout, "dump --verify of an intact container")
    # Incomplete: the footer cut off -> exit 1, state incomplete, still listed.
    with open("c.ltc", "rb") as f:
        data = f.read()
    with open("cut.ltc", "wb") as f:
        f.write(data[:-64])
    p = ct.lattio(["container", "dump", "--json", "cut.ltc"])
    tu.check_eq(p.returncode, 1, "dump of a container without footer: exit 1")
    c = json.loads(p.stdout.decode())
    tu.check_eq(c["state"], "incomplete", "cut: state")
    tu.check_eq(c["error"]["name"], "ERR_CONTAINER_TRUNCATED", "cut: reason")
    tu.check_eq([s["bytes"] for s in c["streams"]], sizes, "cut: every final chunk still read")
    tu.check(b"cut.ltc: container incomplete: truncated" in p.stderr, "cut: message %r" % p.stderr)
    tu.finish()


main()
