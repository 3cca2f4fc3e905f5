#!/usr/bin/env python3
"""`lattio extract --record N` and `--message M --record R` give exactly the
payload bytes sliced from each real file by an independent parser, to a file
(-o) and to stdout, through both the in-kernel copy and the reader path."""
import os
import toolutil as tu


def main():
    for name in tu.LIME_FILES:
        path = tu.data_path(name)
        recs = tu.parse_lime(tu.read(path))
        msg = rec = 0
        for i, r in enumerate(recs, 1):
            if r["mb"] or i == 1:
                msg, rec = msg + 1, 0
            rec += 1
            p = tu.run(["extract", path, "--record", str(i), "-o", "out.bin"])
            tu.check_eq(p.returncode, 0, "%s --record %d exit" % (name, i))
            tu.check(tu.read("out.bin") == r["payload"], "%s record %d bytes (-o)" % (name, i))
            p = tu.run(["extract", "--record=%d" % i, path])
            tu.check(p.stdout == r["payload"], "%s record %d bytes (stdout)" % (name, i))
            p = tu.run(["extract", path, "--record", str(i), "--output", "out2.bin"],
                       env={"LATTIO_NO_COPY_RANGE": "1"})
            tu.check(p.returncode == 0 and tu.read("out2.bin") == r["payload"],
                     "%s record %d bytes (reader path)" % (name, i))
            p = tu.run(["extract", path, "--message", str(msg), "--record", str(rec)])
            tu.check(p.stdout == r["payload"], "%s message %d record %d" % (name, msg, rec))
    # -o overwrites a longer existing file completely
    tu.write("long.bin", b"z" * 100000)
    p = tu.run(["extract", tu.data_path("lime_writer_test1.lime"), "--record", "5", "-o", "long.bin"])
    tu.check_eq(tu.read("long.bin"), b"Harry Nilsson, 1971", "existing output truncated")
    # stdout redirected to a regular file (the in-kernel copy path with an fd)
    with open("redir.bin", "wb") as f:
        p = tu.run(["extract", tu.data_path("unity.lime"), "--record", "3"], stdin=None)
        f.write(p.stdout)
    with open("redir2.bin", "wb") as f:
        import subprocess
        rc = subprocess.call([tu.LATTIO, "extract", tu.data_path("unity.lime"), "--record", "3"], stdout=f)
    tu.check_eq(rc, 0, "redirected stdout exit")
    want = tu.parse_lime(tu.read(tu.data_path("unity.lime")))[2]["payload"]
    tu.check(tu.read("redir2.bin") == want, "redirected stdout bytes")
    tu.check_eq(os.path.getsize("redir2.bin"), 147456, "redirected size")
    tu.finish()


tu.scratch()
main()
