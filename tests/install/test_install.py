#!/usr/bin/env python3
"""Issue 16: installs run from any prefix, and serial programs need no MPI.

1. `cmake --install BUILD --prefix P` into a fresh directory; P/bin/lattio
   --version runs with no LD_LIBRARY_PATH (run path $ORIGIN/../lib).
2. An external CMake project (find_package(lattio)) builds two programs: one
   on lattio::serial using only lime.h and the serial LIME reader, one on
   lattio::lattio; both run.
3. The same serial program built through pkg-config (lattio-serial, found
   with --with-path, no environment variable) runs; a C-LIME program built
   with nothing but `-L P/lib -llime` (the C-LIME library's name, no run
   path) runs, and so does one built the way QIO's CMake build links C-LIME
   (find_package(CLime CONFIG) with -DCLime_DIR=P/lib/cmake/CLime, then
   find_library(liblime.a) two levels up and lime.h in ../include): both
   static, no liblattio loaded.
4. The serial programs do not depend on MPI: ldd lists no libmpi, and where
   the test may make a mount namespace, they run with Open MPI's library
   directory hidden (while the MPI program, as a control, does not start).
5. A Lemon program built with `-llemon` (tmLQCD's spelling), no run path,
   runs; and one built the way tmLQCD's CMake build asks for Lemon
   (FetchContent_Declare(lemon GIT_REPOSITORY ... FIND_PACKAGE_ARGS NAMES
   lemon), -DCMAKE_PREFIX_PATH=P, offline): find_package finds lattio's
   lemonConfig.cmake, FetchContent clones nothing, lemon::lemon links
   lattio (its symbols are in the program) and the program runs.
Usage: test_install.py --build DIR --cmake CMAKE --cc CC --mpicc MPICC"""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool"))
import toolutil as tu  # noqa: E402

SERIAL_C = r"""
#include <lime.h>
#include <lattio.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
    FILE *f = DCAP(fopen)(argv[1], "rb");
    LimeReader *r = limeCreateReader(f);
    int n = 0;
    while (limeReaderNextRecord(r) == LIME_SUCCESS) n++;
    limeDestroyReader(r);
    fclose(f);
    lattio_lime_reader *lr = NULL;
    int count = 0;
    if (lattio_lime_reader_open(argv[1], &lr) != LATTIO_OK) return 1;
    lattio_field_count(lr, &count);
    lattio_lime_reader_close(lr);
    printf("%d records, %d fields, lattio %s\n", n, count, lattio_version());
    return n > 0 ? 0 : 1;
}
"""

MPI_C = r"""
#include <lattio.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    printf("lattio %s with MPI\n", lattio_version());
    MPI_Finalize();
    return 0;
}
"""

LEMON_C = r"""
#include <lemon.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    LemonRecordHeader *h = lemonCreateHeader(1, 1, "lemon-test", 8);
    int ok = h && h->data_length == 8;
    lemonDestroyHeader(h);
    printf("lemon %s\n", ok ? "ok" : "FAILED");
    MPI_Finalize();
    return ok ? 0 : 1;
}
"""

LIME_C = r"""
#include <lime.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 2;
    LimeReader *r = limeCreateReader(f);
    int n = 0;
    while (limeReaderNextRecord(r) == LIME_SUCCESS) n++;
    limeDestroyReader(r);
    fclose(f);
    printf("%d records\n", n);
    return n > 0 ? 0 : 1;
}
"""

# The lines of QIO's CMakeLists.txt that find an external C-LIME.
QIO_STYLE_CMAKELISTS = """
cmake_minimum_required(VERSION 3.17)
project(qio_style C)
find_package(CLime CONFIG REQUIRED)
find_library(CLime_LIB_FILE liblime.a liblime.so PATHS ${CLime_DIR}/../.. NO_DEFAULT_PATH)
get_filename_component(CLime_LIBDIR ${CLime_LIB_FILE} DIRECTORY)
find_file(CLime_HEADER_FILE lime.h PATHS ${CLime_LIBDIR}/../include NO_DEFAULT_PATH)
if(NOT CLime_LIB_FILE OR NOT CLime_HEADER_FILE)
  message(FATAL_ERROR "liblime.a or lime.h not where QIO looks")
endif()
add_executable(lime_prog lime.c)
target_link_libraries(lime_prog PRIVATE CLime::lime)
"""

# The lines of tmLQCD's CMakeLists.txt (etmc/tmLQCD cfc9c118) that get Lemon:
# FetchContent tries find_package(lemon) first and clones real Lemon only
# when that fails (this test runs offline: a clone would fail the configure).
TMLQCD_STYLE_CMAKELISTS = """
cmake_minimum_required(VERSION 3.24)
project(tmlqcd_style C)
find_package(MPI REQUIRED)
include(FetchContent)
FetchContent_Declare(
  lemon
  GIT_REPOSITORY https://github.com/etmc/lemon
  GIT_TAG e40cda10d18284795f840a04ecbb4d63007fee3d
  FIND_PACKAGE_ARGS NAMES lemon)
FetchContent_MakeAvailable(lemon)
if(NOT lemon_LATTIO)
  message(FATAL_ERROR "lemon is not lattio's")
endif()
add_executable(lemon_prog lemon.c)
target_link_libraries(lemon_prog PRIVATE lemon::lemon)
"""

CMAKELISTS = """
cmake_minimum_required(VERSION 3.20)
project(consumer C)
find_package(lattio REQUIRED)
add_executable(serial_prog serial.c)
target_link_libraries(serial_prog PRIVATE lattio::serial)
add_executable(mpi_prog mpi.c)
target_link_libraries(mpi_prog PRIVATE lattio::lattio)
"""


def cmake_project(opt, san, name, files, args, what):
    """A fresh CMake project `name` of `files`, configured with `args` and
    built (each step checked); its build directory."""
    src = os.path.abspath(name)
    shutil.rmtree(src, ignore_errors=True)
    os.makedirs(src)
    for fname, text in files.items():
        tu.write(os.path.join(src, fname), text.encode())
    bld = os.path.join(src, "build")
    p = run([opt.cmake, "-S", src, "-B", bld] + args +
            ["-DCMAKE_C_FLAGS=" + " ".join(san), "-DCMAKE_EXE_LINKER_FLAGS=" + " ".join(san)])
    tu.check_eq(p.returncode, 0, "%s configure (%r)" % (what, p.stdout[-600:] + p.stderr[-600:]))
    p = run([opt.cmake, "--build", bld])
    tu.check_eq(p.returncode, 0, "%s build (%r)" % (what, p.stdout[-600:] + p.stderr[-600:]))
    return bld


def tmlqcd_route(opt, prefix, san):
    """A project that gets Lemon as tmLQCD does builds on lattio's lemon::lemon."""
    p = run([opt.cmake, "--version"])
    version = tuple(int(x) for x in p.stdout.split()[2].decode().split(".")[:2]) if p.returncode == 0 else (0, 0)
    if version < (3, 24):
        print("note: CMake %s has no FIND_PACKAGE_ARGS (tmLQCD needs 3.26): its route not built" % (version,))
        return
    tbld = cmake_project(opt, san, "tmlqcd_style", {"lemon.c": LEMON_C, "CMakeLists.txt": TMLQCD_STYLE_CMAKELISTS},
                         ["-DCMAKE_PREFIX_PATH=" + prefix, "-DCMAKE_C_COMPILER=" + opt.mpicc,
                          "-DFETCHCONTENT_FULLY_DISCONNECTED=ON"], "tmLQCD-style")
    tu.check(not os.path.exists(os.path.join(tbld, "_deps", "lemon-src")), "FetchContent cloned nothing")
    prog = os.path.join(tbld, "lemon_prog")
    p = run([prog])
    tu.check(p.returncode == 0 and p.stdout.startswith(b"lemon ok"), "lemon::lemon program runs: %r" % (p.stdout + p.stderr))
    syms = run(["nm", prog]).stdout
    tu.check(b"lattio_" in syms, "lemon::lemon is lattio's (lattio's symbols in the program)")


def clean_env():
    """No LD_LIBRARY_PATH, no PKG_CONFIG_PATH, no CMake or MPI hints."""
    keep = ("PATH", "HOME", "LANG", "OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM",
            "OMPI_MCA_btl", "HYDRA_LAUNCHER", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")
    return {k: v for k, v in os.environ.items() if k in keep}


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=clean_env(),
                          timeout=600, **kw)


def uses_mpi(prog):
    p = run(["ldd", prog])
    return b"libmpi" in p.stdout or b"libopen-" in p.stdout, p.stdout


def hidden_mpi_run(prog, arg):
    """Run prog with Open MPI's library directory hidden under an empty tmpfs
    in a private mount namespace; None when that is not allowed here."""
    libdir = None
    for d in ("/usr/lib/x86_64-linux-gnu/openmpi/lib", "/usr/lib/aarch64-linux-gnu/openmpi/lib",
              "/usr/lib64/openmpi/lib", "/usr/lib/x86_64-linux-gnu/mpich/lib"):
        if os.path.isdir(d):
            libdir = d
            break
    if not libdir or not shutil.which("unshare"):
        return None
    probe = run(["unshare", "-m", "sh", "-c", "mount -t tmpfs none %s" % libdir])
    if probe.returncode != 0:
        return None
    return run(["unshare", "-m", "sh", "-c", 'mount -t tmpfs none "$0" && exec "$1" "$2"',
                libdir, prog, arg])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--cmake", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--mpicc", required=True)
    ap.add_argument("--sanitize", default="OFF")
    opt = ap.parse_args()
    # a sanitized lattio needs sanitized consumers (the runtime must come first)
    san = ["-fsanitize=address,undefined"] if opt.sanitize.upper() in ("ON", "1", "TRUE") else []
    prefix = os.path.abspath("prefix")
    shutil.rmtree(prefix, ignore_errors=True)
    p = run([opt.cmake, "--install", opt.build, "--prefix", prefix])
    tu.check_eq(p.returncode, 0, "install (%r)" % p.stderr[-500:])
    p = run([prefix + "/bin/lattio", "--version"])
    tu.check(p.returncode == 0 and p.stdout.startswith(b"lattio "), "installed lattio runs: %r" % (p.stdout + p.stderr))
    data = tu.data_path("unity.lime")

    # find_package
    src = os.path.abspath("consumer")
    shutil.rmtree(src, ignore_errors=True)
    os.makedirs(src)
    for name, text in (("serial.c", SERIAL_C), ("mpi.c", MPI_C), ("CMakeLists.txt", CMAKELISTS)):
        tu.write(os.path.join(src, name), text.encode())
    bld = os.path.join(src, "build")
    p = run([opt.cmake, "-S", src, "-B", bld, "-DCMAKE_PREFIX_PATH=" + prefix, "-DCMAKE_C_COMPILER=" + opt.cc,
             "-DCMAKE_C_FLAGS=" + " ".join(san), "-DCMAKE_EXE_LINKER_FLAGS=" + " ".join(san)])
    tu.check_eq(p.returncode, 0, "find_package(lattio) configure (%r)" % p.stderr[-800:])
    p = run([opt.cmake, "--build", bld])
    tu.check_eq(p.returncode, 0, "consumer build (%r)" % (p.stdout[-800:] + p.stderr[-800:]))
    serial_cm = os.path.join(bld, "serial_prog")
    p = run([serial_cm, data])
    tu.check(p.returncode == 0 and p.stdout.startswith(b"4 records, 1 fields"), "lattio::serial program: %r" % (p.stdout + p.stderr))
    p = run([os.path.join(bld, "mpi_prog")])
    tu.check(p.returncode == 0 and b"with MPI" in p.stdout, "lattio::lattio program: %r" % (p.stdout + p.stderr))

    # pkg-config (no PKG_CONFIG_PATH: --with-path) and -llime
    pc = run(["pkg-config", "--with-path=" + prefix + "/lib/pkgconfig", "--with-path=" + prefix + "/lib64/pkgconfig",
              "--cflags", "--libs", "lattio-serial"])
    tu.check_eq(pc.returncode, 0, "pkg-config lattio-serial (%r)" % pc.stderr)
    flags = pc.stdout.decode().split()
    serial_pc = os.path.abspath("serial_pc")
    p = run([opt.cc, "-std=c11"] + san + ["-o", serial_pc, os.path.join(src, "serial.c")] + flags)
    tu.check_eq(p.returncode, 0, "pkg-config build (%r)" % p.stderr[-500:])
    p = run([serial_pc, data])
    tu.check(p.returncode == 0 and p.stdout.startswith(b"4 records"), "pkg-config program runs: %r" % (p.stdout + p.stderr))
    libdir = os.path.join(prefix, "lib")
    tu.check(not os.path.exists(os.path.join(libdir, "liblime.so")), "liblime is a static archive, as C-LIME's")
    tu.write("lime.c", LIME_C.encode())
    serial_lime = os.path.abspath("serial_lime")
    p = run([opt.cc, "-std=c11"] + san + ["-I" + prefix + "/include", "-o", serial_lime, "lime.c",
             "-L" + libdir, "-llime"])
    tu.check_eq(p.returncode, 0, "-llime build (%r)" % p.stderr[-500:])
    p = run([serial_lime, data])
    tu.check(p.returncode == 0 and p.stdout.startswith(b"4 records"), "-llime program runs: %r" % (p.stdout + p.stderr))
    tu.check(b"liblattio" not in run(["ldd", serial_lime]).stdout, "-llime program is static")

    # QIO's CMake route: -DCLime_DIR=<prefix>/lib/cmake/CLime
    qbld = cmake_project(opt, san, "qio_style", {"lime.c": LIME_C, "CMakeLists.txt": QIO_STYLE_CMAKELISTS},
                         ["-DCLime_DIR=" + os.path.join(libdir, "cmake", "CLime"), "-DCMAKE_C_COMPILER=" + opt.cc],
                         "QIO-style CLime")
    qprog = os.path.join(qbld, "lime_prog")
    p = run([qprog, data])
    tu.check(p.returncode == 0 and p.stdout.startswith(b"4 records"), "CLime::lime program runs: %r" % (p.stdout + p.stderr))

    # a Lemon program linked -llemon, as tmLQCD's build does, no run path
    tu.write("lemon_prog.c", LEMON_C.encode())
    lemon_prog = os.path.abspath("lemon_prog")
    p = run([opt.mpicc, "-std=c11"] + san + ["-I" + prefix + "/include", "-o", lemon_prog, "lemon_prog.c",
             "-L" + libdir, "-llemon"])
    tu.check_eq(p.returncode, 0, "-llemon build (%r)" % p.stderr[-500:])
    p = run([lemon_prog])
    tu.check(p.returncode == 0 and p.stdout.startswith(b"lemon ok"), "-llemon program runs: %r" % (p.stdout + p.stderr))

    # tmLQCD's CMake route: -DCMAKE_PREFIX_PATH=<prefix>, FetchContent finding lemon first
    tmlqcd_route(opt, prefix, san)

    # no MPI in the serial programs
    for prog in (serial_cm, serial_pc, serial_lime, qprog):
        mpi, listing = uses_mpi(prog)
        tu.check(not mpi, "%s does not depend on MPI (ldd: %r)" % (os.path.basename(prog), listing))
    control = hidden_mpi_run(os.path.join(bld, "mpi_prog"), "x")
    if control is None:
        print("note: cannot hide the MPI libraries here (no mount namespace); ldd was checked")
    else:
        tu.check(control.returncode != 0, "control: the MPI program does not start with MPI hidden")
        for prog in (serial_cm, serial_pc, serial_lime, qprog):
            h = hidden_mpi_run(prog, data)
            tu.check(h.returncode == 0 and h.stdout.startswith(b"4 records"),
                     "%s runs with MPI hidden: %r" % (os.path.basename(prog), h.stdout + h.stderr))
    tu.finish()


tu.scratch()
main()
