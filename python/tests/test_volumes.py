"""QIO volume sets (multifile and partfile) through lattio.load and
load_fields: QIO's own sets (qio-test2/3 on 4 ranks) load as the single
file QIO wrote alongside them, each volume checked; a set whose volumes
disagree raises a lattio exception naming the volume; global data and
subsets are not lattice fields."""
import os
import shutil

import numpy as np
import pytest

import lattio
from conftest import BIN, data

SINGLE = data("qio-volumes/single/binary_test")
SETS = {"part": data("qio-volumes/part/binary_test"), "multi": data("qio-volumes/multi/binary_test")}


@pytest.mark.parametrize("kind", sorted(SETS))
def test_load_equals_single(kind):
    for index in (0, 3):
        want = lattio.load(SINGLE, index=index)
        got = lattio.load(SETS[kind], index=index)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert np.array_equal(got, want)
    gauge = lattio.load(SETS[kind])
    assert gauge.shape == (4, 4, 4, 8, 4, 3, 3) and gauge.dtype == np.complex64


@pytest.mark.parametrize("kind", sorted(SETS))
def test_load_fields(kind):
    got = lattio.load_fields(SETS[kind])
    want = lattio.load_fields(SINGLE)
    assert [g.shape for g in got] == [(4, 4, 4, 8, 2), (4, 4, 4, 8, 4, 3, 3)]
    assert all(np.array_equal(g, w) for g, w in zip(got, want))


@pytest.mark.parametrize("index,what", [(1, "subset"), (2, "global data")])
def test_not_lattice_fields(index, what):
    with pytest.raises(ValueError, match=what):
        lattio.load(SETS["part"], index=index)


def copy_set(tmp_path, skip=None):
    base = tmp_path / "set"
    for k in range(4):
        if k != skip:
            shutil.copy(SETS["part"] + ".vol%04d" % k, str(base) + ".vol%04d" % k)
    return str(base)


def test_missing_volume(tmp_path):
    base = copy_set(tmp_path, skip=1)
    with pytest.raises(lattio.FormatError, match="ERR_VOLUME_SITES"):
        lattio.load(base)


def test_damaged_volume(tmp_path):
    base = copy_set(tmp_path)
    raw = bytearray(open(base + ".vol0002", "rb").read())
    raw[-100] ^= 0x40  # inside the gauge field's part
    open(base + ".vol0002", "wb").write(bytes(raw))
    with pytest.raises(lattio.ChecksumError):
        lattio.load(base, index=3)
    assert lattio.load(base, index=3, verify=False).shape == (4, 4, 4, 8, 4, 3, 3)
    assert np.array_equal(lattio.load(base, index=0), lattio.load(SINGLE, index=0))


def test_stale_volume(tmp_path):
    base = copy_set(tmp_path)
    shutil.copy(base + ".vol0001", base + ".vol0004")  # a larger, older set's volume
    with pytest.raises(lattio.FormatError, match="ERR_VOLUME_SITES.*another set"):
        lattio.load(base)


def test_command_round_trip(tmp_path):
    """lattio convert splits the single file as QIO's layout did (QIO's
    volumes byte for byte) and joins it back (QIO's single file)."""
    import subprocess
    tool = os.path.join(BIN, "lattio")
    base = str(tmp_path / "mine")
    subprocess.run([tool, "convert", SINGLE, base, "--volumes", "part", "--grid", "4,1,1,1"], check=True,
                   capture_output=True)
    for k in range(4):
        assert open(base + ".vol%04d" % k, "rb").read() == open(SETS["part"] + ".vol%04d" % k, "rb").read()
    subprocess.run([tool, "convert", base, str(tmp_path / "joined")], check=True, capture_output=True)
    assert open(str(tmp_path / "joined"), "rb").read() == open(SINGLE, "rb").read()
    assert np.array_equal(lattio.load(base), lattio.load(SINGLE))
