#!/usr/bin/env python3
"""`lattio extract` failures: no such record/type/message (exit 1, one
specific line, no output file created), damaged and missing files (exit 1,
status named), unusable arguments (exit 2)."""
import os
import toolutil as tu


def fails(args, code, pieces, what):
    p = tu.run(args)
    err = p.stderr.decode("latin-1")
    tu.check_eq(p.returncode, code, what + " exit code")
    tu.check(err.count("\n") == 1 and err.startswith("lattio extract: "), what + ": one line: %r" % err)
    for s in pieces:
        tu.check(s in err, "%s: %r in %r" % (what, s, err))
    tu.check_eq(p.stdout, b"", what + " stdout")


def main():
    w = tu.data_path("lime_writer_test1.lime")
    fails(["extract", w, "--record", "6", "-o", "x.bin"], 1,
          [w + ": no record 6 (the file has 5 records)", "ERR_NOT_FOUND"], "record 6")
    tu.check(not os.path.exists("x.bin"), "no output file for a missing record")
    fails(["extract", w, "--type", "nope"], 1, ["no record of type 'nope'", "ERR_NOT_FOUND"], "type")
    fails(["extract", w, "--type", "lime-test-text1", "--nth", "4"], 1,
          ["only 3 records of type 'lime-test-text1', no number 4"], "nth")
    fails(["extract", w, "--message", "2", "--record", "3"], 1, ["no record 3 in message 2"], "msg rec")
    fails(["extract", "missing.lime", "--record", "1"], 1, ["missing.lime: cannot open file (ERR_OPEN)"], "missing")
    data = tu.read(tu.data_path("t_dprec_ildg.lime"))
    tu.write("trunc.lime", data[:1936 + 144 + 1000])
    fails(["extract", "trunc.lime", "--record", "8"], 1,
          ["trunc.lime: record length larger than the whole file (ERR_LENGTH_BEYOND_EOF) at record 7, offset 1936"],
          "length beyond end")
    tu.write("trunc2.lime", data[:149536 + 144 + 50])
    fails(["extract", "trunc2.lime", "--type", "scidac-checksum"], 1,
          ["trunc2.lime: file ends inside a record payload (ERR_TRUNCATED_PAYLOAD) at record 8, offset 149536"],
          "truncated payload")
    p = tu.run(["extract", "trunc.lime", "--record", "6"])
    tu.check(p.returncode == 0 and p.stdout == b"lfn://foo.bar/jimmy\0", "records before the damage")
    tu.write("garbage.lime", b"hello world, not lime" * 20)
    fails(["extract", "garbage.lime", "--record", "1"], 1, ["ERR_BAD_MAGIC"], "bad magic")
    fails(["extract", w, "--record", "1", "-o", "nodir/out.bin"], 1, ["nodir/out.bin: cannot create a temporary file beside it", "No such file or directory"], "bad -o")
    for args in (["extract"], ["extract", w], ["extract", w, "--record", "0"], ["extract", w, "--record", "x"],
                 ["extract", w, "--record"], ["extract", w, "--bogus"], ["extract", w, "--nth", "2"],
                 ["extract", w, "--type", "a", "--record", "1"], ["extract", w, "--message", "1"],
                 ["extract", w, w, "--record", "1"], ["extract", w, "--record", "-1"]):
        fails(args, 2, ["--help"], "usage %s" % args[2:])
    tu.finish()


tu.scratch()
main()
