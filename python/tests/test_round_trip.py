"""save then load in every format and both precisions; the files are what
other readers expect: bytes and checksums recomputed here, and `lattio
verify` (the C command) accepts them with the same plaquette."""
import json
import os

import numpy as np
import pytest

import lattio
from conftest import creation_date, lattio_cmd, parse_lime, plaquette, random_su3, scidac_sums

CASES = [("ildg", 64), ("ildg", 32), ("scidac", 64), ("scidac", 32), ("nersc", 64), ("nersc", 32),
         ("milc", 32), ("openqcd", 64), ("hdf5", 64), ("hdf5", 32)]


@pytest.mark.parametrize("fmt,prec", CASES)
def test_round_trip(tmp_path, su3, fmt, prec):
    path = str(tmp_path / ("cfg." + fmt))
    lattio.save(path, su3, format=fmt, precision=prec)
    back = lattio.load(path)
    assert back.shape == su3.shape
    assert back.dtype == (np.complex64 if prec == 32 else np.complex128)
    want = su3.astype(np.complex64) if prec == 32 else su3
    assert np.array_equal(back, want)
    assert os.listdir(tmp_path) == [os.path.basename(path)]  # no temporary left
    p = lattio_cmd("verify", "--json", path)
    assert p.returncode == 0, p.stdout + p.stderr
    rep = json.loads(p.stdout)[0]
    assert abs(rep["plaquette"] - plaquette(want)) < 1e-12
    assert abs(lattio.verify(path)["plaquette"] - plaquette(want)) < 1e-12


@pytest.mark.parametrize("prec", [32, 64])
def test_single_array_saved_double(tmp_path, su3, prec):
    """complex64 arrays are written at either precision (converted in C)."""
    u = su3.astype(np.complex64)
    lattio.save(str(tmp_path / "a.lime"), u, precision=prec)
    assert np.array_equal(lattio.load(str(tmp_path / "a.lime"), dtype=np.complex64), u)
    assert np.array_equal(lattio.load(str(tmp_path / "a.lime"), dtype=np.complex128), u.astype(np.complex128))


def test_ildg_bytes_on_disk(tmp_path, su3):
    """The ILDG record set: big-endian payload in (t, z, y, x, mu) order and a
    scidac-checksum recomputed with zlib; the metadata given is in the file."""
    path = str(tmp_path / "u.ildg")
    lattio.save(path, su3, metadata={"lfn": "lfn://test/u", "record_xml": "<info>python</info>"})
    recs = parse_lime(open(path, "rb").read())
    types = [t for t, _, _ in recs]
    assert types == ["scidac-private-file-xml", "scidac-file-xml", "scidac-private-record-xml",
                     "scidac-record-xml", "ildg-format", "ildg-data-lfn", "ildg-binary-data", "scidac-checksum"]
    payload = dict((t, p) for t, _, p in recs)
    assert payload["ildg-binary-data"] == su3.astype(">c16").tobytes()
    suma, sumb = scidac_sums(payload["ildg-binary-data"], 576)
    ck = payload["scidac-checksum"].decode()
    assert "<suma>%s</suma>" % suma in ck and "<sumb>%s</sumb>" % sumb in ck
    assert payload["ildg-data-lfn"].rstrip(b"\0") == b"lfn://test/u"
    assert b"<info>python</info>" in payload["scidac-record-xml"]
    fmt = payload["ildg-format"].decode()
    assert "<lx>6</lx><ly>2</ly><lz>2</lz><lt>4</lt>" in fmt and "<precision>64</precision>" in fmt
    assert lattio.info(path)[6]["type"] == "ildg-binary-data"


def test_same_bytes_as_convert(tmp_path, su3):
    """save writes what `lattio convert` writes from the same field (ILDG to
    NERSC; MILC to ILDG apart from the date)."""
    lattio.save(str(tmp_path / "a.ildg"), su3)
    # the NERSC header carries the time of writing to the second: the pair
    # is written again (at most twice more) when a second ticked between them
    for _ in range(3):
        p = lattio_cmd("convert", str(tmp_path / "a.ildg"), str(tmp_path / "b.nersc"), "--to", "nersc")
        assert p.returncode == 0, p.stderr
        lattio.save(str(tmp_path / "c.nersc"), su3, format="nersc")
        b, c = open(tmp_path / "b.nersc", "rb").read(), open(tmp_path / "c.nersc", "rb").read()
        if creation_date(tmp_path / "b.nersc") == creation_date(tmp_path / "c.nersc"):
            break
    assert b == c


def test_scidac_generic_field(tmp_path):
    """A non-gauge field to SciDAC and back, real and complex; its bytes."""
    rng = np.random.default_rng(3)
    for a in (rng.standard_normal((4, 3, 2, 5, 4, 3)) + 1j * rng.standard_normal((4, 3, 2, 5, 4, 3)),
              rng.standard_normal((4, 3, 2, 5))):
        path = str(tmp_path / "f.lime")
        lattio.save(path, a, format="scidac")
        b = lattio.load(path)
        assert b.dtype == a.dtype
        assert np.array_equal(b.reshape(a.shape), a)
        payload = [p for t, _, p in parse_lime(open(path, "rb").read()) if t == "scidac-binary-data"][0]
        assert payload == a.astype(">" + a.dtype.str[1:]).tobytes()
        assert lattio.verify(path)["ok"]


def test_hdf5_layouts(tmp_path, su3):
    """Both HDF5 layouts, a path inside the file, two fields in one file."""
    path = str(tmp_path / "u.h5")
    lattio.save(path + ":/cfg/U", su3, format="hdf5")
    lattio.save(path + ":/qlua", su3.astype(np.complex64), format="hdf5", layout="qlua", append=True)
    entries = lattio.info(path)
    assert [(e["path"], e["layout"], e["checksum"]) for e in entries] == [
        ("/cfg/U", "qdp", "scidac"), ("/qlua", "qlua", "sha256")]
    assert np.array_equal(lattio.load(path + ":/cfg/U"), su3)
    assert np.array_equal(lattio.load(path + ":/qlua"), su3.astype(np.complex64))
    rep = lattio.verify(path)
    assert rep["ok"] and len(rep["fields"]) == 2, rep


def test_replace_keeps_old_on_failure(tmp_path, su3):
    """A save refused before writing leaves the previous file as it was."""
    path = str(tmp_path / "u.ildg")
    lattio.save(path, su3)
    before = open(path, "rb").read()
    with pytest.raises(ValueError):
        lattio.save(path, su3[..., :2, :], format="ildg")
    with pytest.raises(ValueError):
        lattio.save(path, su3, format="openqcd", precision=32)
    with pytest.raises(ValueError):
        lattio.save(path, su3, format="milc", precision=64)
    assert open(path, "rb").read() == before
    assert os.listdir(tmp_path) == ["u.ildg"]


def test_path_forms(tmp_path, su3):
    """bytes and os.PathLike paths save and load alike; an HDF5 object path
    with doubled slashes names the same object (HDF5's own rule)."""
    b = os.fsencode(str(tmp_path / "u.ildg"))
    lattio.save(b, su3)
    assert np.array_equal(lattio.load(b), su3)
    assert np.array_equal(lattio.load(tmp_path / "u.ildg"), su3)
    target = str(tmp_path / "f.h5") + "://x//y"
    lattio.save(target, su3, format="hdf5")
    assert np.array_equal(lattio.load(target), su3)
    assert np.array_equal(lattio.load(str(tmp_path / "f.h5") + ":/x/y"), su3)
    assert [e["path"] for e in lattio.info(str(tmp_path / "f.h5"))] == ["/x/y"]
