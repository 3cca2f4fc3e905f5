#!/usr/bin/env python3
"""`lattio check` on damaged files: each problem on one line
`FILE: record R at offset O: message (ERR_NAME)`, MB/ME as warnings,
exit 1; clean files `FILE: ok, N records` exit 0; missing file exit 1 with a
message; no file or unknown option exit 2."""
import toolutil as tu


def main():
    clean = tu.read(tu.data_path("t_dprec_ildg.lime"))
    tu.write("trunc.lime", clean[:1936 + 144 + 1000])
    p = tu.run(["check", "trunc.lime"])
    tu.check_eq(p.returncode, 1, "truncated exit")
    out = p.stdout.decode()
    tu.check(out.startswith("trunc.lime: record 7 at offset 1936: ") and out.rstrip().endswith("(ERR_TRUNCATED_PAYLOAD)")
             or out.rstrip().endswith("(ERR_LENGTH_BEYOND_EOF)"), "truncated line %r" % out)
    tu.write("trail.lime", clean + b"junkjunk")
    p = tu.run(["check", "trail.lime"])
    tu.check(p.returncode == 1 and b"(ERR_TRAILING_BYTES)" in p.stdout and b"offset 149816" in p.stdout,
             "trailing bytes %r" % p.stdout)
    flags = tu.make_lime([(b"a", b"1", True, False), (b"b", b"2", True, True)])
    tu.write("flags.lime", flags)
    p = tu.run(["check", "flags.lime"])
    tu.check(p.returncode == 1 and p.stdout.startswith(b"flags.lime: warning: record 2 at offset 152: ")
             and b"(ERR_MBME)" in p.stdout, "MB/ME warning %r" % p.stdout)
    p = tu.run(["check", tu.data_path("unity.lime"), "missing.lime", "trail.lime"])
    tu.check_eq(p.returncode, 1, "mixed exit")
    tu.check(p.stdout.decode().startswith(tu.data_path("unity.lime") + ": ok, 4 records\n"), "clean line first")
    tu.check(b"trail.lime: " in p.stdout, "later files still checked")
    tu.check(p.stderr.startswith(b"lattio check: missing.lime: cannot open file: ") and p.stderr.count(b"\n") == 1,
             "missing file message %r" % p.stderr)
    p = tu.run(["check", tu.data_path("unity.lime"), tu.data_path("lat.sample.l4444.ildg")])
    tu.check_eq(p.returncode, 0, "two clean files")
    tu.check_eq(p.stdout.count(b": ok, "), 2, "two ok lines")
    tu.check_eq(tu.run(["check"]).returncode, 2, "no file")
    tu.check_eq(tu.run(["check", "--frob", "x"]).returncode, 2, "unknown option")
    tu.finish()


tu.scratch()
main()
