"""Helpers for tests of the `lattio` command under an MPI launcher.

Command line of every script: --mpiexec PATH --flavor openmpi|mpich
[--preflags "FLAGS"] [--np N].  The launcher environment (Open MPI's run-as-
root and transport variables, Hydra's fork launcher) comes from CTest, as for
the library's MPI tests."""
import argparse
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool"))
import toolutil as tu  # noqa: E402

LAUNCHER_VARS = ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MPI_LOCALNRANKS")


def options(*extra):
    """Parse the common options plus `extra` option names (string values)."""
    ap = argparse.ArgumentParser()
    for name in extra:
        ap.add_argument(name)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--flavor", default="openmpi")
    ap.add_argument("--preflags", default="")
    ap.add_argument("--np", type=int, default=2)
    return ap.parse_args()


def launcher(opt, np):
    """The mpirun command line for np ranks."""
    return [opt.mpiexec, "-n", str(np)] + shlex.split(opt.preflags)


# Open MPI's launcher writes its own notices to stderr between lines of
# dashes (e.g. after a rank exits non-zero); they are the launcher's text, not
# the command's, so run_mpi removes them.
NOTICE = re.compile(rb"^-{40,}\n.*?^-{40,}\n", re.S | re.M)
# Open MPI 5's launcher (its PMIx server in prterun) also reports a rank that
# exited non-zero as "[host:pid] PMIX ERROR: PMIX_ERR_UNREACH in file
# .../pmix_server.c at line N": the launcher's line, not the command's.
PMIX_NOTICE = re.compile(rb"^\[[^\]\n]*\] PMIX ERROR: PMIX_ERR_UNREACH in file [^\n]*\n", re.M)


def launcher_race(stderr):
    """Open MPI 4.x's launcher sometimes fails a job whose every rank finished
    (open-mpi/ompi#7833, not fixed on 4.x): its notice names rank N "with PID
    0" "exiting improperly"."""
    return any(b"with PID 0 on" in m and b"exiting improperly" in m for m in NOTICE.findall(stderr))


def serial_env():
    """The environment without any launcher variable: a plain serial run."""
    return {k: v for k, v in os.environ.items() if k not in LAUNCHER_VARS}


def run_serial(args, cwd=None):
    return subprocess.run([tu.LATTIO] + list(args), cwd=cwd, env=serial_env(),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=900)


def run_mpi(opt, np, args, cwd=None, prog=None, env=None):
    """Run `lattio args` (or prog args) on np ranks; the launcher's notices
    are removed from stderr.  Only on Open MPI's launcher race is the job run
    once more, and the second result counts."""
    e = serial_env()
    e.update(env or {})
    cmd = launcher(opt, np) + [prog or tu.LATTIO] + list(args)
    for attempt in (1, 2):
        p = subprocess.run(cmd, cwd=cwd, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=900)
        if attempt == 2 or p.returncode == 0 or not launcher_race(p.stderr):
            break
        sys.stderr.write("mpiutil: Open MPI launcher race (open-mpi/ompi#7833): running the job again\n")
    return subprocess.CompletedProcess(p.args, p.returncode, p.stdout, PMIX_NOTICE.sub(b"", NOTICE.sub(b"", p.stderr)))


def temporaries(d="."):
    return [f for f in os.listdir(d) if ".lattio-tmp." in f]
