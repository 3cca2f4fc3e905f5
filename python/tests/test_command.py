"""`python -m lattio` and the `lattio` console script pip installs run the
lattio command shipped inside the package: its output and exit status."""
import os
import subprocess
import sys

import pytest

from conftest import data


def run(args):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


def test_python_m_lattio_version():
    p = run([sys.executable, "-m", "lattio", "--version"])
    assert p.returncode == 0 and p.stdout.startswith(b"lattio "), p.stdout + p.stderr


def test_the_command_is_in_the_package():
    from lattio.__main__ import command_path

    path = command_path()
    assert os.path.basename(os.path.dirname(path)) == "bin" and os.access(path, os.X_OK), path


def test_exit_status_is_the_commands(tmp_path):
    good = run([sys.executable, "-m", "lattio", "verify", data("lat.sample.l4444.ildg")])
    assert good.returncode == 0 and b"ok" in good.stdout, good.stdout + good.stderr
    bad = tmp_path / "cut.lime"
    bad.write_bytes(open(data("lime_writer_test1.lime"), "rb").read()[:200])
    p = run([sys.executable, "-m", "lattio", "check", str(bad)])
    assert p.returncode not in (0, 127), p.stdout + p.stderr
    p = run([sys.executable, "-m", "lattio", "no-such-subcommand"])
    assert p.returncode != 0 and b"unknown command" in p.stderr


def test_console_script():
    script = os.path.join(os.path.dirname(sys.executable), "lattio")
    if not os.path.exists(script):
        pytest.skip("not installed by pip into this environment")
    p = run([script, "--version"])
    assert p.returncode == 0 and p.stdout.startswith(b"lattio "), p.stdout + p.stderr
