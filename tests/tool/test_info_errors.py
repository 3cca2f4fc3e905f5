#!/usr/bin/env python3
"""`lattio info` on a damaged file lists the records before the damage, then
fails with one stderr line naming file, problem, record and offset (exit 1);
--json then still prints a valid document with an error object; unusable
arguments exit 2."""
import json
import toolutil as tu


def main():
    data = tu.read(tu.data_path("t_dprec_ildg.lime"))
    tu.write("t.lime", data[:149536 + 144 + 50])
    p = tu.run(["info", "t.lime"])
    tu.check_eq(p.returncode, 1, "exit")
    tu.check_eq(p.stderr, b"lattio info: t.lime: file ends inside a record payload (ERR_TRUNCATED_PAYLOAD)"
                b" at record 8, offset 149536\n", "stderr line")
    tu.check_eq(p.stdout.count(b"Message:"), 7, "seven records listed before the damage")
    p = tu.run(["info", "--json", "t.lime"])
    doc = json.loads(p.stdout)
    tu.check_eq(len(doc["records"]), 7, "json records")
    want = {"status": "ERR_TRUNCATED_PAYLOAD", "code": -203, "message": "file ends inside a record payload",
            "record": 8, "offset": 149536, "field": -1}
    tu.check_eq({k: doc["error"].get(k) for k in want}, want, "json error")
    tu.write("u.lime", data[:1936 + 144 + 1000])
    p = tu.run(["info", "u.lime"])
    tu.check_eq(p.stderr, b"lattio info: u.lime: record length larger than the whole file (ERR_LENGTH_BEYOND_EOF)"
                b" at record 7, offset 1936\n", "length beyond EOF line")
    tu.write("e.lime", b"")
    p = tu.run(["info", "--json", "e.lime"])
    tu.check(p.returncode == 0 and json.loads(p.stdout) == {"file": "e.lime", "records": []}, "empty file")
    p = tu.run(["info", "nothere.lime"])
    tu.check(p.returncode == 1 and p.stderr == b"lattio info: nothere.lime: cannot open file (ERR_OPEN): No such file or directory\n",
             "missing file %r" % p.stderr)
    for args in (["info"], ["info", "a", "b"], ["info", "--xml", "a"]):
        tu.check_eq(tu.run(args).returncode, 2, "usage %s" % args)
    tu.finish()


tu.scratch()
main()
