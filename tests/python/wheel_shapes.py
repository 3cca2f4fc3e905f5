#!/usr/bin/env python3
"""`pip install` on every machine shape: for each shape, the development
packages a machine of that shape lacks are hidden from the build (not only
from PATH: their files are whited out of /usr by an overlay, its upper
layer on a tmpfs, in a private mount namespace, so CMake, pkg-config and
the compiler cannot see them),
a wheel is built from the source tree (or from an sdist), installed into
its own directory, and the package's tests for installs run against it in
the same namespace: python/tests/test_install_shape.py (what the shape
builds, HDF5 read with its checksums where the build has HDF5, the
command's serial operations without MPI), the import, command and docs
tests (the README's and docs/python.md's examples run in every install),
and for the shapes without MPI test_serial_install.py (every LIME and
header format with the built-in CRC-32, nothing of MPI linked).

Shapes (docs/install.md):
  laptop         no MPI, serial libhdf5 only; no libdeflate, no libcrypto
  bare           no MPI, no HDF5 at all (a C compiler and Python)
  mpi-no-phdf5   Open MPI without parallel HDF5 (serial libhdf5 present)
  wrappers-hidden  MPI libraries and headers present, compiler wrappers not
  full           Open MPI with parallel HDF5, libdeflate, libcrypto
  sdist          the full machine, from an sdist instead of the tree

usage: wheel_shapes.py PYTHON SRC WORK [SHAPE...]   (root; Debian's dpkg)
Prints one line per shape: built with ..., tests passed/failed."""
import glob
import os
import shutil
import subprocess
import sys
import time

MPI_DEV = ["libopenmpi-dev", "openmpi-bin", "libmpich-dev", "mpich"]
PHDF5_DEV = ["libhdf5-openmpi-dev", "libhdf5-mpich-dev"]
SHAPES = {
    "laptop": {"hide": MPI_DEV + PHDF5_DEV + ["libdeflate-dev", "libssl-dev"], "wrappers": True, "serial": True},
    "bare": {"hide": MPI_DEV + PHDF5_DEV + ["libhdf5-dev", "hdf5-tools", "libdeflate-dev", "libssl-dev"],
             "wrappers": True, "serial": True},
    "mpi-no-phdf5": {"hide": PHDF5_DEV + ["libmpich-dev", "mpich"], "wrappers": False},
    "wrappers-hidden": {"hide": ["libmpich-dev", "mpich"], "wrappers": True},
    "full": {"hide": ["libmpich-dev", "mpich"], "wrappers": False},
    "sdist": {"hide": ["libmpich-dev", "mpich"], "wrappers": False, "sdist": True},
}
TESTS = ["test_install_shape.py", "test_import.py", "test_command.py", "test_docs.py"]


def package_files(pkgs):
    """Files and symlinks (not directories) the installed packages own."""
    out = set()
    for p in pkgs:
        r = subprocess.run(["dpkg", "-L", p], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in r.stdout.splitlines():
            if line.startswith("/usr/") and (os.path.islink(line) or os.path.isfile(line)):
                out.add(line)
    return out


def wrapper_files():
    """The MPI and parallel HDF5 compiler wrappers and launchers in /usr/bin."""
    names = ["mpicc", "mpicxx", "mpic++", "mpiCC", "mpif77", "mpif90", "mpifort", "mpiexec", "mpirun",
             "orterun", "ompi_info", "h5pcc"]
    out = set()
    for n in names:
        out.update(glob.glob("/usr/bin/%s" % n) + glob.glob("/usr/bin/%s.*" % n))
    return out


def hidden_set(shape):
    files = package_files(shape["hide"])
    if shape["wrappers"]:
        files |= wrapper_files()
    # symlinks elsewhere in /usr (alternatives' links, .pc and .so links) that lead into what is hidden
    for d in ("/usr/bin", "/usr/lib/x86_64-linux-gnu/pkgconfig", "/usr/lib/x86_64-linux-gnu", "/usr/include"):
        for name in os.listdir(d):
            p = os.path.join(d, name)
            if os.path.islink(p) and (os.path.realpath(p) in files or not os.path.exists(p)):
                files.add(p)
    return files


def hidden_list(work, files):
    """The files to white out, relative to /usr, one per line in a list file."""
    path = os.path.join(work, "hidden.txt")
    with open(path, "w") as f:
        for name in sorted(files):
            f.write(os.path.relpath(name, "/usr") + "\n")
    return path


def in_namespace(work, listing, script, env):
    """Run the shell script with /usr overlaid by whiteouts of the listed
    files; the overlay's upper and work directories on a tmpfs of the
    namespace (an overlay needs an upper file system that supports it,
    whatever holds WORK)."""
    ovl = os.path.join(work, "overlay")
    os.makedirs(ovl, exist_ok=True)
    prologue = (
        "mount --make-rprivate / && mount -t tmpfs tmpfs %(o)s && mkdir %(o)s/upper %(o)s/work && "
        "while IFS= read -r p; do mkdir -p \"%(o)s/upper/$(dirname \"$p\")\" && "
        "mknod \"%(o)s/upper/$p\" c 0 0 || exit 5; done < %(l)s && "  # a character device 0/0: a whiteout
        "mount -t overlay overlay -o lowerdir=/usr,upperdir=%(o)s/upper,workdir=%(o)s/work /usr && "
    ) % {"o": ovl, "l": listing}
    return subprocess.run(["unshare", "-m", "sh", "-c", prologue + script], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


def sdist_of(py, src, work):
    d = os.path.join(work, "sdist")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    subprocess.run([py, "-c", "import sys; from scikit_build_core.build import build_sdist; build_sdist(sys.argv[1])",
                    d], cwd=src, check=True, stdout=subprocess.DEVNULL)
    (tar,) = glob.glob(os.path.join(d, "*.tar.gz"))
    return tar


def run_shape(py, src, work, name):
    shape = SHAPES[name]
    w = os.path.join(work, name)
    shutil.rmtree(w, ignore_errors=True)
    os.makedirs(w)
    what = sdist_of(py, src, w) if shape.get("sdist") else src
    listing = hidden_list(w, hidden_set(shape))
    env = dict(os.environ, PATH="/usr/local/bin:/usr/bin:/bin", LATTIO_SHAPE=name,
               LATTIO_SHAPE_SITE=os.path.join(w, "site"), LATTIO_TESTDATA=os.path.join(src, "tests", "data", "real"))
    tests = TESTS + (["test_serial_install.py"] if shape.get("serial") else [])
    if shape.get("serial"):
        env["LATTIO_SERIAL_SITE"] = env["LATTIO_SHAPE_SITE"]
    for v in ("LATTIO_BIN", "PYTHONPATH", "LD_LIBRARY_PATH"):
        env.pop(v, None)
    q = lambda s: "'" + s.replace("'", "'\\''") + "'"  # noqa: E731
    script = (
        "%(py)s -m pip wheel -v --no-build-isolation --no-deps --disable-pip-version-check -w %(w)s/wheels "
        "--config-settings=build-dir=%(w)s/build %(what)s > %(w)s/build.log 2>&1 || { tail -n 40 %(w)s/build.log; exit 3; }; "
        "grep -o 'lattio: .*' %(w)s/build.log | sed 's/^/  /'; "
        "%(py)s -m pip install --quiet --no-deps --disable-pip-version-check --target %(w)s/site %(w)s/wheels/*.whl "
        "|| exit 4; cd %(w)s && PYTHONPATH=%(w)s/site %(py)s -m pytest -q -p no:cacheprovider --color=no "
        "--basetemp=%(w)s/tmp %(tests)s"
    ) % {"py": q(py), "w": q(w), "what": q(what),
         "tests": " ".join(q(os.path.join(src, "python", "tests", t)) for t in tests)}
    t0 = time.time()
    r = in_namespace(w, listing, script, env)
    return r.returncode, r.stdout, time.time() - t0


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    py, src, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    names = sys.argv[4:] or list(SHAPES)
    failed = []
    for name in names:
        rc, out, secs = run_shape(py, src, work, name)
        lines = out.rstrip().splitlines()
        print("== %s: %s (%.0f s)" % (name, "passed" if rc == 0 else "FAILED (exit %d)" % rc, secs))
        for ln in lines if rc else [ln for ln in lines if ln.startswith("  lattio:") or " passed" in ln]:
            print(ln)
        sys.stdout.flush()
        if rc:
            failed.append(name)
    print("wheel shapes: %d of %d passed%s" % (len(names) - len(failed), len(names),
                                               "; failed: " + " ".join(failed) if failed else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
