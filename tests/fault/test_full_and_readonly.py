#!/usr/bin/env python3
"""Issue 17, item 7: a file system that fills up, then one that is read-only
(a 4 MiB tmpfs mounted by the test, then remounted read-only; skipped with
a message, exit 77, when the test may not mount).  Each write into it:
  - the parallel writer (tests/fault/writer.c, 2 ranks, ~6 MB): every rank
    reports the same status, with the system's reason (No space left on
    device / Read-only file system);
  - `lattio convert`, `lattio extract -o` and `lattio pack`: exit 1 with the
    system's reason in the message;
and after each: the previous file byte-identical, no temporary left."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool_mpi"))
import mpiutil as mu  # noqa: E402
import toolutil as tu  # noqa: E402

MNT = "fs"


def mount(opts):
    return subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", MNT],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def unmount():
    subprocess.run(["umount", MNT], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def previous_intact(path, data, what):
    tu.check_eq(tu.read(path), data, "%s: previous %s byte-identical" % (what, path))
    tu.check_eq(mu.temporaries(MNT), [], "%s: no temporary left" % what)


def writer_fails(opt, reason, what):
    p = mu.run_mpi(opt, 2, [MNT + "/OUT.lime", "2"], prog=opt.prog)
    lines = [ln for ln in p.stdout.decode(errors="replace").splitlines() if ln.startswith("writer:")]
    tu.check(p.returncode != 0, "%s: the writer fails" % what)
    tu.check(len(lines) == 2 and len(set(lines)) == 1, "%s: the same status on both ranks %r" % (what, lines))
    tu.check(all(reason in ln for ln in lines), "%s: the reason '%s' in %r" % (what, reason, lines))


def tools_fail(reason, what):
    unity = tu.data_path("unity.lime")
    runs = [["convert", unity, MNT + "/OUT.lime", "--to", "openqcd"],
            ["extract", unity, "--record", "3", "-o", MNT + "/OUT.lime"],
            ["pack", "list", MNT + "/OUT.lime"]]
    for args in runs:
        p = mu.run_serial(args)
        tu.check_eq(p.returncode, 1, "%s: lattio %s fails (%r)" % (what, args[0], p.stderr))
        tu.check(reason.encode() in p.stderr, "%s: lattio %s says '%s': %r" % (what, args[0], reason, p.stderr))


def main():
    opt = mu.options("--prog")
    unmount()
    os.makedirs(MNT, exist_ok=True)
    m = mount("size=4m")
    if m.returncode != 0:
        print("SKIPPED: cannot mount a tmpfs here (%s); the disk-full and read-only cases need it"
              % m.stderr.decode(errors="replace").strip())
        sys.exit(77)
    try:
        previous = tu.read(tu.data_path("unity.lime"))
        tu.write(MNT + "/OUT.lime", previous)
        big = bytes(range(256)) * 4096  # 1 MiB for pack: more than is left below
        tu.write("big.bin", big)
        tu.write("list", b"big.bin data\nbig.bin data\nbig.bin data\n")
        # disk full: the writer needs ~6 MB of 4 MiB
        writer_fails(opt, "No space left on device", "disk full")
        previous_intact(MNT + "/OUT.lime", previous, "disk full, writer")
        # fill it up to a few KiB for the commands
        with open(MNT + "/filler", "wb") as f:
            try:
                while True:
                    f.write(b"\0" * 65536)
                    f.flush()
            except OSError:
                pass
        os.truncate(MNT + "/filler", max(0, os.path.getsize(MNT + "/filler") - 8192))
        tools_fail("No space left on device", "disk full")
        previous_intact(MNT + "/OUT.lime", previous, "disk full, commands")
        os.remove(MNT + "/filler")
        # read-only
        r = subprocess.run(["mount", "-o", "remount,ro", MNT], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        tu.check_eq(r.returncode, 0, "remount read-only (%r)" % r.stderr)
        writer_fails(opt, "Read-only file system", "read-only")
        tools_fail("Read-only file system", "read-only")
        previous_intact(MNT + "/OUT.lime", previous, "read-only")
    finally:
        unmount()
    tu.finish()


tu.scratch()
main()
