"""The package is typed: py.typed is installed, every public function
annotates its parameters and return, mypy finds no error in the package's
sources, accepts a correct use of the API and rejects a wrong one."""
import inspect
import os
import subprocess
import sys

import pytest

import lattio

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GOOD = """
import numpy as np
import lattio
u: np.ndarray = lattio.load("cfg.ildg", verify=True, index=0)
lattio.save("out.ildg", u, precision=32, metadata={"lfn": "x"})
rep = lattio.verify("cfg.ildg")
ok: bool = bool(rep["ok"])
start, stop = lattio.local_box((4, 4, 4, 4))
try:
    lattio.load("missing.lime")
except lattio.LattioIOError as e:
    print(e.errno, e.detail)
"""
BAD = """
import lattio
lattio.load(3)
lattio.save("out.ildg", "not an array", precision="32")
"""


def mypy(*args):
    pytest.importorskip("mypy")
    return subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--config-file",
                           os.path.join(ROOT, "pyproject.toml")] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600, cwd=ROOT)


def test_py_typed_installed():
    assert os.path.isfile(os.path.join(os.path.dirname(lattio.__file__), "py.typed"))


@pytest.mark.parametrize("name", ["load", "save", "info", "verify", "memmap", "local_box"])
def test_public_functions_annotated(name):
    sig = inspect.signature(getattr(lattio, name))
    assert sig.return_annotation is not inspect.Signature.empty, name
    for p in sig.parameters.values():
        assert p.annotation is not inspect.Parameter.empty, "%s(%s) has no annotation" % (name, p.name)


def test_mypy_on_the_package():
    p = mypy(os.path.join(ROOT, "python", "lattio"))
    assert p.returncode == 0, p.stdout.decode() + p.stderr.decode()


def test_mypy_on_users_code(tmp_path):
    good, bad = tmp_path / "good.py", tmp_path / "bad.py"
    good.write_text(GOOD)
    bad.write_text(BAD)
    p = mypy(str(good))
    assert p.returncode == 0, p.stdout.decode()
    p = mypy(str(bad))
    out = p.stdout.decode()
    assert p.returncode == 1 and out.count("error:") >= 3, out
