#!/usr/bin/env python3
"""lattio's one rule for outputs: an existing output that is not a regular
file -- a character device (a node made here with /dev/null's numbers), a
FIFO, a socket, a directory, a symbolic link -- is never replaced.  Every
command that writes a file (convert to each format, extract -o, pack,
container cat -o) exits 1 with ERR_NOT_REGULAR naming what the output is,
the node stays what it was, and no temporary is left behind."""
import os
import socket
import stat
import toolutil as tu


def nodes():
    """name -> a predicate that it is still what it was."""
    made = {}
    try:
        os.mknod("chardev", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        made["chardev"] = (stat.S_ISCHR, b"a character device")
    except PermissionError:
        print("not root: no character device made")
    os.mkfifo("fifo")
    made["fifo"] = (stat.S_ISFIFO, b"a FIFO")
    s = socket.socket(socket.AF_UNIX)
    s.bind("sock")
    made["sock"] = (stat.S_ISSOCK, b"a socket")
    os.mkdir("dir")
    made["dir"] = (stat.S_ISDIR, b"a directory")
    tu.write("victim", b"not to be touched")
    os.symlink("victim", "link")
    made["link"] = (stat.S_ISLNK, b"a symbolic link")
    return made, s


def temporaries():
    return sorted(f for f in os.listdir(".") if ".lattio-tmp." in f)


def main():
    tu.write("in.lime", tu.read(tu.data_path("t_dprec_ildg.lime")))
    tu.write("pack.list", b"in.lime x\n")
    made, sock = nodes()
    for out, (still, what) in made.items():
        runs = [["convert", "in.lime", out, "--to", t] for t in ("ildg", "nersc", "milc", "openqcd", "hdf5")]
        runs += [["extract", "in.lime", "--record", "1", "-o", out], ["pack", "pack.list", out]]
        for args in runs:
            p = tu.run(args)
            tu.check(p.returncode == 1 and b"(ERR_NOT_REGULAR)" in p.stderr and what in p.stderr,
                     "%s: exit %d, %r" % (args, p.returncode, p.stderr))
            tu.check(still(os.lstat(out).st_mode), "%s: %s is still %s" % (args, out, what.decode()))
    tu.check_eq(tu.read("victim"), b"not to be touched", "the symlink's target")
    tu.check_eq(temporaries(), [], "no temporary left")
    sock.close()
    tu.finish()


tu.scratch()
main()
