#!/usr/bin/env python3
"""`lattio info --fs PATH` shows the file system holding PATH as lattio's
strategies see it; its f_type, mount type and block size agree with an
independent reading (coreutils' `stat -f`, /proc/self/mountinfo parsed
here, os.stat), and its kind with the magic-number table of docs/cluster.md.
With --expect KIND (the cluster runs) the kind must be KIND.  A path that
does not exist yet is shown through its directory; a missing directory is
ERR_STAT with the system's reason (exit 1)."""
import json
import os
import re
import subprocess
import sys
import toolutil as tu

KINDS = {0xEF53: "local", 0x58465342: "local", 0x9123683E: "local", 0x794C7630: "local",
         0x01021994: "tmpfs", 0x858458F6: "tmpfs", 0x6969: "nfs", 0x0BD00BD0: "lustre",
         0x47504653: "gpfs", 0x19830326: "beegfs", 0x00C36400: "cephfs", 0x65735546: "fuse"}


def mount_type(path):
    """The type of the mount whose point is the longest prefix of path."""
    best, kind = -1, ""
    with open("/proc/self/mountinfo") as f:
        for line in f:
            left, right = line.split(" - ", 1)
            point = left.split()[4].replace("\\040", " ")
            inside = path == point or path.startswith(point.rstrip("/") + "/")
            if inside and len(point) > best:
                # the kernel escapes blanks, '#' and '\\' as octal (\043: mfs#host:port)
                fields = [re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), x) for x in right.split()]
                best, kind = len(point), fields[0]
                if kind == "fuse" and len(fields) > 1 and "#" in fields[1][1:]:  # mfsmount: mfs#host:port
                    kind = "fuse." + fields[1].split("#", 1)[0]
    return kind


def independent(path):
    magic = int(subprocess.run(["stat", "-f", "-c", "%t", path], capture_output=True, check=True,
                               text=True).stdout, 16)
    mtype = mount_type(os.path.realpath(path))
    kind = KINDS.get(magic, "unknown")
    if kind == "fuse" and mtype == "fuse.glusterfs":
        kind = "glusterfs"
    if kind == "fuse" and mtype in ("fuse.mfs", "fuse.moosefs", "fuse.mfsmount"):
        kind = "moosefs"
    return {"fs_type": kind, "fs_mount_type": mtype, "fs_magic": "0x%x" % magic,
            "block": os.stat(path).st_blksize}


def show(path):
    p = tu.run(["info", "--fs", "--json", path])
    tu.check_eq(p.returncode, 0, "exit for %s (%r)" % (path, p.stderr))
    doc = json.loads(p.stdout)
    want = dict(independent(path), path=path)
    tu.check_eq(doc, want, "--fs --json on %s" % path)
    text = tu.run(["info", "--fs", path]).stdout.decode()
    tu.check("file system: %s\n" % want["fs_type"] in text and "f_type:      %s\n" % want["fs_magic"] in text,
             "text output on %s: %r" % (path, text))
    return doc


def main(expect):
    doc = show(os.getcwd())
    if expect:
        tu.check_eq(doc["fs_type"], expect, "kind of the run's directory")
    p = tu.run(["info", "--fs", "--json", "not-yet.lime"])
    tu.check_eq(json.loads(p.stdout)["fs_type"], doc["fs_type"], "a new file: its directory")
    if os.path.isdir("/dev/shm"):
        tu.check_eq(show("/dev/shm")["fs_type"], "tmpfs", "/dev/shm")
    p = tu.run(["info", "--fs", "no/such/dir/f"])
    tu.check_eq((p.returncode, p.stderr), (1, b"lattio info: no/such/dir/f: cannot query file size or file"
                b" system (ERR_STAT): No such file or directory\n"), "missing directory")
    tu.check_eq(tu.run(["info", "--fs"]).returncode, 2, "missing PATH")
    tu.finish()


if "--expect" in sys.argv:
    # One process per node started by mpiexec; the command it runs is a
    # user's on that node, not a rank (launcher variables would make it one).
    for var in [v for v in os.environ if v.startswith(("OMPI_", "PMI", "PMIX_", "MPI_LOCAL"))]:
        del os.environ[var]
    main(sys.argv[sys.argv.index("--expect") + 1])
else:
    tu.scratch()
    main(None)
