#!/usr/bin/env python3
"""`lattio info`, `info --json`, `check` and `extract` under mpirun -n NP
give exactly the serial run's standard output, standard error (one message,
from rank 0) and exit status on every real file in tests/data/real and on
damaged files; `extract -o` of the first, last and biggest record of every
real file writes the serial command's bytes, which are also the payload an
independent Python parser finds; failed extracts leave no output and no
temporary file, and an existing output file untouched.  (Each mpirun costs
about a second, so records and JSON are sampled rather than exhaustive.)"""
import os
import mpiutil as mu
import toolutil as tu


def damaged():
    """Damaged copies: truncated payload, trailing junk, bad magic, bad flags."""
    data = tu.read(tu.data_path("t_dprec_ildg.lime"))
    tu.write("trunc.lime", data[:149536 + 144 + 50])
    tu.write("trail.lime", data + b"junkjunk")
    tu.write("magic.lime", b"\x12" + data[1:])
    tu.write("mbme.lime", tu.make_lime([(b"a", b"1", True, False), (b"b", b"2", True, True)]))
    return ["trunc.lime", "trail.lime", "magic.lime", "mbme.lime"]


def same(opt, args, what):
    s = mu.run_serial(args)
    m = mu.run_mpi(opt, opt.np, args)
    tu.check_eq(m.returncode, s.returncode, what + ": exit status")
    tu.check_eq(m.stdout, s.stdout, what + ": stdout")
    tu.check_eq(m.stderr, s.stderr, what + ": stderr")
    return s, m


def extract_all(opt, path, name):
    recs = tu.parse_lime(tu.read(path))
    biggest = max(range(len(recs)), key=lambda k: recs[k]["length"]) + 1
    for i in sorted({1, len(recs), biggest}):
        rec = recs[i - 1]
        args = ["extract", path, "--record", str(i), "-o"]
        s = mu.run_serial(args + ["s.bin"])
        m = mu.run_mpi(opt, opt.np, args + ["m.bin"])
        what = "%s record %d" % (name, i)
        tu.check_eq((m.returncode, m.stdout, m.stderr), (0, b"", b""), what + ": mpi run")
        tu.check_eq(s.returncode, 0, what + ": serial run")
        tu.check_eq(tu.read("m.bin"), tu.read("s.bin"), what + ": bytes")
        tu.check_eq(tu.read("m.bin"), rec["payload"], what + ": payload")
        tu.check_eq(mu.temporaries(), [], what + ": no temporaries")
    same(opt, ["extract", path, "--record", str(biggest)], name + " biggest record to stdout")


def extract_errors(opt):
    w = tu.data_path("lime_writer_test1.lime")
    cases = [["extract", w, "--record", "6", "-o", "x.bin"],
             ["extract", "missing.lime", "--record", "1", "-o", "x.bin"],
             ["extract", "trunc.lime", "--type", "scidac-checksum", "-o", "x.bin"],
             ["extract", "magic.lime", "--record", "1", "-o", "x.bin"],
             ["extract", w, "--record", "1", "-o", "nodir/x.bin"],
             ["extract", w, "--message", "2", "--record", "3"],
             ["extract", w, "--record", "0"]]
    for args in cases:
        s, m = same(opt, args, "error %s" % args[1:])
        tu.check(s.returncode != 0 and s.stderr.count(b"\n") == 1, "one message %r" % s.stderr)
        tu.check(not os.path.exists("x.bin"), "no output for %s" % args[1:])
        tu.check_eq(mu.temporaries(), [], "no temporaries after %s" % args[1:])
    # an existing output file is replaced only by a complete extract
    tu.write("x.bin", b"previous")
    same(opt, cases[0], "missing record, existing output")
    tu.check_eq(tu.read("x.bin"), b"previous", "existing output untouched")


def main():
    opt = mu.options()
    files = [tu.data_path(f) for f in sorted(os.listdir(tu.DATA))
             if f != "EXPECTED.md" and os.path.isfile(tu.data_path(f))]
    tu.check(len(files) >= 6, "real files found")
    bad = damaged()
    for path in files + bad:
        same(opt, ["info", path], os.path.basename(path) + " info")
    for path in [tu.data_path("t_qio.intel-scalar.lime"), tu.data_path("t_nersc.cfg")] + bad[:2]:
        same(opt, ["info", "--json", path], os.path.basename(path) + " info --json")
    for path in bad:
        same(opt, ["check", path], path + " check")
    same(opt, ["extract", tu.data_path("unity.lime"), "--type", "ildg-binary-data", "-o", "t.bin"],
         "--type")
    tu.check_eq(tu.read("t.bin"), tu.parse_lime(tu.read(tu.data_path("unity.lime")))[2]["payload"],
                "--type payload")
    for path in files:
        if path.endswith(".cfg"):
            continue
        extract_all(opt, path, os.path.basename(path))
    extract_errors(opt)
    same(opt, ["check"] + files, "check of all files at once")
    same(opt, ["--version"], "--version")
    tu.finish()


tu.scratch()
main()
