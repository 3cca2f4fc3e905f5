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


@pytest.mark.parametrize("volumes", ["multi", "part", "partdir"])
def test_save_volumes(tmp_path, volumes):
    """save(volumes=) cuts the lattice by grid, a volume per node; load reads
    the set back; fields of the table keep their metadata."""
    rng = np.random.default_rng(7)
    prop = (rng.standard_normal((4, 2, 2, 4, 4, 4, 3, 3)) + 1j * rng.standard_normal((4, 2, 2, 4, 4, 4, 3, 3)))
    base = str(tmp_path / "prop")
    lattio.save(base, prop, format="scidac", volumes=volumes, grid=(2, 1, 1, 2))
    names = sorted(os.listdir(str(tmp_path)) if volumes != "partdir" else os.listdir(str(tmp_path / "vol0000")))
    assert names[0] in ("prop.vol0000", "prop")
    got = lattio.load(base)
    assert got.dtype == prop.dtype and np.array_equal(got, prop)
    left = [f for f in os.listdir(str(tmp_path)) if "lattio" in f]
    assert left == [], "no temporary left: %r" % left


def test_save_volumes_arguments(tmp_path):
    a = np.zeros((2, 2, 2, 2, 3), dtype=np.complex64)
    with pytest.raises(ValueError, match="needs grid"):
        lattio.save(str(tmp_path / "x"), a, format="scidac", volumes="part")
    with pytest.raises(ValueError, match="'multi', 'part' or 'partdir'"):
        lattio.save(str(tmp_path / "x"), a, format="scidac", volumes="chunks", grid=(1, 1, 1, 2))
    with pytest.raises(ValueError, match="ILDG or SciDAC"):
        lattio.save(str(tmp_path / "x.h5"), a, volumes="part", grid=(1, 1, 1, 2))
    with pytest.raises(lattio.LattioError, match="do not divide"):
        lattio.save(str(tmp_path / "x"), a, format="scidac", volumes="part", grid=(1, 1, 1, 3))
    assert os.listdir(str(tmp_path)) == []


def test_open(tmp_path):
    """lattio.open of a volume set: its lattice fields with shapes and
    metadata; read() verified, parts sliced."""
    with lattio.open(SETS["multi"]) as f:
        assert f.format == "scidac" and [x.index for x in f.fields] == [0, 3]
        g = f.fields[1]
        assert g.kind == "gauge" and g.shape == (4, 4, 4, 8, 4, 3, 3) and g.checksum == "scidac"
        assert g.metadata["scidac_datatype"] == "QDP_F3_ColorMatrix"
        whole = lattio.load(SINGLE, index=3)
        assert np.array_equal(g.read(), whole)
        part = g[1:3, :, 2]
        assert part.verified and np.array_equal(part, whole[1:3, :, 2])  # sliced from a verified whole read
