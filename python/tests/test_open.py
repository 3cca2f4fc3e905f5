"""lattio.open: every format's fields with their metadata as Python values,
whole reads (verified, equal to lattio.load) and part reads (only the
asked sites, equal to the same slice of the whole field, marked verified
when the field's stored checksum was), one record numbering, and clear
errors."""
import os

import numpy as np
import pytest

import lattio
from conftest import data

REAL = ["lat.sample.l4444.ildg", "t_dprec_ildg.lime", "t_nersc.cfg", "t_qio.intel-scalar.lime", "unity.lime"]
KEYS = [np.s_[1:3], np.s_[2], np.s_[:, 1:3, :, 2], np.s_[..., 0], np.s_[0, 0, 0, 0], np.s_[1:4:2, ::-1],
        np.s_[-1, ..., 1:, :2]]


def check_parts(field):
    whole = field.read()
    assert whole.shape == field.shape and whole.dtype == field.dtype
    for key in KEYS:
        try:
            want = whole[key]
        except IndexError:
            continue
        part = field[key]
        assert isinstance(part, lattio.Part) and part.verified is (field.checksum != "none")
        assert part.shape == want.shape and part.dtype == want.dtype, key
        np.testing.assert_array_equal(np.asarray(part), want, err_msg=str(key))


@pytest.mark.parametrize("name", REAL)
def test_real_files(name):
    with lattio.open(data(name)) as f:
        assert f.fields
        for field in f.fields:
            check_parts(field)
            np.testing.assert_array_equal(field.read(), lattio.load(data(name), index=field.index)
                                          if f.format != "nersc" else lattio.load(data(name)))


def test_ildg_metadata_as_values():
    with lattio.open(data("lat.sample.l4444.ildg")) as f:
        u = f.fields[0]
        assert f.format == "ildg" and u.kind == "gauge" and u.dims == ("t", "z", "y", "x", "mu", "row", "col")
        assert u.shape == (4, 4, 4, 4, 4, 3, 3) and u.dtype == np.complex64 and u.precision == 32
        assert u.checksum == "scidac"
        m = u.metadata
        assert m["lfn"] == "lfn://USQCD/MILC/test/lat.sample.l4444"
        assert m["ildg_format"]["ildgFormat"]["field"] == "su3gauge"
        assert m["private_record"]["scidacRecord"]["datatype"] == "QDP_F3_ColorMatrix"
        info = m["record"]["info"]  # MILC's info element: its key = value lines as typed keys
        assert info["gauge.beta11"] == 7.0 and info["gauge.nloops"] == 3 and info["quark.mass1"] == 0.1
        assert info["action.description"] == "Gauge plus fermion (improved)"
        assert "gauge.beta11 = 7.000000" in m["record_text"] and m["record_text"].startswith("<?xml")
        assert f.metadata["private_file"]["scidacFile"]["dims"] == "4 4 4 4"
        # one numbering: the field's binary record is the same record in info() and memmap()
        rec = lattio.info(data("lat.sample.l4444.ildg"))[u.record - 1]
        assert rec["number"] == u.record and rec["type"] == "ildg-binary-data"
        np.testing.assert_array_equal(lattio.memmap(data("lat.sample.l4444.ildg"), record=u.record), u.read())


def test_tmlqcd_key_value_records():
    with lattio.open(data("unity.lime")) as f:
        info = f.fields[0].metadata["xlf_info"]
        assert info["plaquette"] == 1.0 and info["trajectory nr"] == 0


def test_nersc_header_as_dict():
    with lattio.open(data("t_nersc.cfg")) as f:
        g = f.fields[0]
        assert f.format == "nersc" and g.checksum == "nersc" and g.precision == 32
        h = f.metadata["header"]
        assert h["DATATYPE"] == "4D_SU3_GAUGE" and h["DIMENSION_4"] == 4 and f.metadata["ensemble"] == "SZIN"
        assert abs(f.metadata["plaquette"] - 0.0382422893) < 1e-12


@pytest.mark.parametrize("fmt", ["milc", "openqcd", "nersc", "scidac"])
def test_written_formats(tmp_path, fmt):
    u = lattio.load(data("t_dprec_ildg.lime"))
    path = str(tmp_path / ("u." + fmt))
    lattio.save(path, u, metadata={"nersc_rows": 2} if fmt == "nersc" else None)
    with lattio.open(path) as f:
        assert f.format == fmt and len(f.fields) == 1
        check_parts(f.fields[0])
        if fmt == "milc":
            assert f.metadata["header"]["magic"] == 20103
        if fmt == "openqcd":
            assert abs(f.metadata["plaquette"] - lattio.verify(path)["plaquette"]) < 1e-12


def test_generic_fields_keep_their_site_axes(tmp_path):
    rng = np.random.default_rng(5)
    psi = (rng.standard_normal((4, 2, 2, 2, 4, 3)) + 1j * rng.standard_normal((4, 2, 2, 2, 4, 3)))
    path = str(tmp_path / "psi.scidac")
    lattio.save(path, psi, metadata={"datatype": "USQCD_D3_DiracFermion"})
    with lattio.open(path) as f:
        check_parts(f.fields[0])
        assert f.fields[0].metadata["private_record"]["scidacRecord"]["datatype"] == "USQCD_D3_DiracFermion"


@pytest.mark.parametrize("layout", ["qdp", "qlua"])
def test_hdf5_both_layouts(tmp_path, layout):
    pytest.importorskip("h5py")
    u = lattio.load(data("t_dprec_ildg.lime"))
    path = str(tmp_path / "u.h5")
    lattio.save(path, u, layout=layout, metadata={"lfn": "lfn://x"})
    with lattio.open(path) as f:
        assert f.format == "hdf5" and f.fields[0].name == "/lattice" and f.fields[0].kind == "gauge"
        assert f.fields[0].metadata["layout"] == layout
        assert f.fields[0].metadata["attributes"]["ildg_data_lfn"] == "lfn://x"
        check_parts(f.fields[0])


def test_no_field_and_closed_and_bad_keys(tmp_path):
    with lattio.open(data("lime_writer_test1.lime")) as f:
        assert f.format == "lime" and f.fields == [] and len(f.records) > 0
    rep = lattio.verify(data("lime_writer_test1.lime"))
    # a plain LIME file holds no field: its structure holds, and the report says what was checked
    assert rep["format"] == "lime" and rep["ok"] and "no lattice field" in rep["warnings"][0]
    f = lattio.open(data("unity.lime"))
    with pytest.raises(TypeError):
        f.fields[0][[1, 2]]
    with pytest.raises(IndexError):
        f.fields[0][4]
    f.close()
    with pytest.raises(ValueError):
        f.fields[0].read()
    with pytest.raises(FileNotFoundError):
        lattio.open(str(tmp_path / "missing"))
    bad = tmp_path / "short.nersc"
    with open(data("t_nersc.cfg"), "rb") as src:
        bad.write_bytes(src.read()[:-8])
    with pytest.raises(lattio.FormatError):
        lattio.open(str(bad))


def test_part_reads_touch_only_their_bytes(tmp_path):
    """A timeslice of a field in a file whose other bytes are unreadable
    garbage-free but sparse: the read must not fault in the rest (checked
    through the page cache's residency is not portable; instead the part is
    read from a file truncated after that timeslice's bytes... which the
    header's size check refuses), so: memory-map a big sparse field and
    read one timeslice quickly."""
    shape = (64, 16, 16, 16)
    f = np.zeros(shape + (4, 3, 3), np.complex64)
    f[..., range(3), range(3)] = 1
    path = str(tmp_path / "big.scidac")
    lattio.save(path, f, verify=False)
    with lattio.open(path) as lf:
        sl = lf.fields[0][7]
        assert sl.shape == (16, 16, 16, 4, 3, 3) and float(sl[..., 0, 0].real.min()) == 1.0


@pytest.mark.parametrize("fmt", ["openqcd", "nersc", "milc", "scidac"])
def test_uneven_extents_part_reads(tmp_path, fmt):
    """Every axis distinct (T, Z, Y, X) = (6, 8, 2, 4): a part read that
    mixed up axes or openQCD's odd-site neighbours would differ."""
    rng = np.random.default_rng(11)
    u = rng.standard_normal((6, 8, 2, 4, 4, 3, 3)) + 1j * rng.standard_normal((6, 8, 2, 4, 4, 3, 3))
    path = str(tmp_path / ("u." + fmt))
    lattio.save(path, u, metadata={"nersc_rows": 3} if fmt == "nersc" else None)
    with lattio.open(path) as f:
        assert f.fields[0].shape == u.shape
        check_parts(f.fields[0])
        np.testing.assert_array_equal(np.asarray(f.fields[0][5, 7, 1, 3, 2]), f.fields[0].read()[5, 7, 1, 3, 2])


def test_info_and_memmap_of_header_formats(tmp_path):
    u = lattio.load(data("t_nersc.cfg"))
    rep = lattio.info(data("t_nersc.cfg"))
    assert rep[0]["format"] == "nersc" and rep[0]["dims"] == (4, 4, 4, 4) and rep[0]["header"]["CHECKSUM"]
    m = lattio.memmap(data("t_nersc.cfg"))  # two stored rows, big-endian
    assert m.shape == (4, 4, 4, 4, 4, 2, 3) and m.dtype == np.dtype(">c8")
    np.testing.assert_array_equal(np.asarray(m), u[..., :2, :])
    path = str(tmp_path / "u.milc")
    lattio.save(path, u)
    np.testing.assert_array_equal(np.asarray(lattio.memmap(path)), lattio.load(path))
    assert lattio.info(path)[0]["header"]["magic"] == 20103
    with pytest.raises(ValueError):
        lattio.memmap(path, record=2)


def test_hdf5_file_with_several_fields_is_not_a_guess(tmp_path):
    u = lattio.load(data("t_dprec_ildg.lime"))
    path = str(tmp_path / "two.h5")
    lattio.save(path + ":/a", u)
    lattio.save(path + ":/b", u, append=True)
    with pytest.raises(ValueError) as e:
        lattio.load(path)
    assert "/a" in str(e.value) and "/b" in str(e.value)
    np.testing.assert_array_equal(lattio.load(path + ":/b"), u)
    with lattio.open(path) as f:
        assert [x.name for x in f.fields] == ["/a", "/b"]
