"""``python -m lattio`` and the ``lattio`` console script: the lattio command.

The command is the C program ``lattio`` (``info``, ``check``, ``verify``,
``convert``, ``extract``, ``clean``, ``container``, ``bench``, ...; see
``lattio --help``) that pip installs inside the package (``lattio/bin``).
This module runs it in place of the Python process, so its exit status,
output and behaviour under ``mpirun`` are the command's own.  It imports
nothing of the package that would start MPI.
"""
import os
import shutil
import sys
from typing import List, Optional

__all__ = ["command_path", "main"]


def command_path() -> str:
    """The lattio command's executable: the one inside the package, else the
    first ``lattio`` on ``PATH`` that is not this console script.

    Raises FileNotFoundError when there is none."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "lattio")
    if os.access(here, os.X_OK):
        return here
    me = os.path.realpath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    for d in os.environ.get("PATH", "").split(os.pathsep):
        cand = shutil.which("lattio", path=d) if d else None
        if cand and os.path.realpath(cand) != me and not _is_python_script(cand):
            return cand
    raise FileNotFoundError("the lattio command is not installed with this package (%s): reinstall it "
                            "(pip install; docs/install.md)" % here)


def _is_python_script(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(2) == b"#!" and b"python" in f.readline()
    except OSError:
        return False


def main(argv: Optional[List[str]] = None) -> int:
    """Run the lattio command with ``argv`` (default: this process's
    arguments); does not return when it starts.  Returns 127 when the
    command cannot be found."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        exe = command_path()
    except FileNotFoundError as e:
        print("lattio: %s" % e, file=sys.stderr)
        return 127
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(exe, [exe] + args)
    return 127  # not reached


if __name__ == "__main__":
    sys.exit(main())
