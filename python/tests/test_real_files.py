"""Every real file of tests/data/real through the Python API, checked
against EXPECTED.md and an independent reading of the bytes."""
import numpy as np
import pytest

import lattio
from conftest import data, expected, link_trace, parse_lime, plaquette, scidac_sums

OBS, SUMS = expected()
GAUGE = ["unity.lime", "t_dprec_ildg.lime", "lat.sample.l4444.ildg", "t_nersc.cfg"]


@pytest.mark.parametrize("name", GAUGE)
def test_gauge_plaquette(name):
    u = lattio.load(data(name))
    assert u.shape == (4, 4, 4, 4, 4, 3, 3)
    assert u.dtype == (np.complex64 if name in ("lat.sample.l4444.ildg", "t_nersc.cfg") else np.complex128)
    assert u.dtype.isnative and u.flags.c_contiguous
    plaq, trace = OBS[name]
    tol = 1e-9 if name != "t_nersc.cfg" else 2e-9
    assert abs(plaquette(u) - plaq) < tol
    assert abs(link_trace(u) - trace) < tol
    rep = lattio.verify(data(name))
    assert rep["ok"], rep["problems"]
    assert abs(rep["plaquette"] - plaq) < tol and abs(rep["link_trace"] - trace) < tol


@pytest.mark.parametrize("name", ["unity.lime", "t_dprec_ildg.lime", "lat.sample.l4444.ildg"])
def test_gauge_bytes(name):
    """load equals the binary record read by an independent parser."""
    recs = parse_lime(open(data(name), "rb").read())
    payload = next(p for t, _, p in recs if t == "ildg-binary-data")
    u = lattio.load(data(name))
    ref = np.frombuffer(payload, dtype=">c16" if u.dtype == np.complex128 else ">c8").reshape(u.shape)
    assert np.array_equal(u, ref)
    rep = lattio.verify(data(name))
    assert tuple(rep["fields"][0]["computed"]) == SUMS[(name, 0)] == scidac_sums(payload, 4 * 9 * u.itemsize)


def test_nersc_rows():
    """t_nersc.cfg (two rows stored) equals t_dprec_ildg.lime's first two rows."""
    a = lattio.load(data("t_nersc.cfg"))
    b = lattio.load(data("t_dprec_ildg.lime"))
    assert np.array_equal(a[..., :2, :], b[..., :2, :].astype(np.complex64))
    assert np.abs(a.astype(np.complex128) - b).max() < 1e-6


def test_qio_fields():
    """t_qio's three SciDAC fields: shapes from their datatypes, values equal
    to the big-endian payloads, checksums as EXPECTED.md."""
    name = "t_qio.intel-scalar.lime"
    recs = [p for t, _, p in parse_lime(open(data(name), "rb").read()) if t == "scidac-binary-data"]
    rep = lattio.verify(data(name))
    assert rep["ok"] and len(rep["fields"]) == 3
    for i, payload in enumerate(recs):
        a = lattio.load(data(name), index=i)
        assert a.shape[:4] == (8, 4, 4, 4)
        ref = np.frombuffer(payload, dtype=">" + a.dtype.str[1:]).reshape(a.shape)
        assert np.array_equal(a, ref)
        assert a.nbytes == len(payload)
        assert tuple(rep["fields"][i]["computed"]) == SUMS[(name, i)]
    # the datatype ("Lattice") names no structure: complex components,
    # datacount 4 a leading axis
    shapes = [lattio.load(data(name), index=i).shape[4:] for i in range(3)]
    assert shapes == [(), (9,), (4, 9)]


def test_info_records():
    """lattio.info lists lime_writer_test1.lime's records as EXPECTED.md does."""
    recs = lattio.info(data("lime_writer_test1.lime"))
    got = [(r["offset"], r["type"], r["length"], r["padding"], r["mb"], r["me"]) for r in recs]
    assert got == [(0, "lime-test-text1", 45, 3, True, False), (192, "lime-test-text1", 40, 0, False, True),
                   (376, "lime-test-text1", 31, 1, True, False), (552, "lime-test-text2", 23, 1, False, True),
                   (720, "lime-test-text3", 19, 5, True, True)]
    assert [(r["message"], r["record"]) for r in recs] == [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1)]
    with pytest.raises(lattio.FormatError) as e:
        lattio.load(data("lime_writer_test1.lime"))
    assert e.value.name == "ERR_NOT_FOUND"


@pytest.mark.parametrize("name", ["unity.lime", "t_dprec_ildg.lime", "lat.sample.l4444.ildg"])
def test_memmap_equals_load(name):
    m = lattio.memmap(data(name))
    assert isinstance(m, np.memmap) and not m.flags.writeable
    assert m.dtype.byteorder == ">"
    assert np.array_equal(m, lattio.load(data(name)))
    assert np.array_equal(lattio.memmap(data(name), "ildg-binary-data"), m)


def test_memmap_records():
    name = "t_qio.intel-scalar.lime"
    third = lattio.memmap(data(name), 13)  # record 13 is the third binary record
    assert np.array_equal(third, lattio.load(data(name), index=2))
    xml = lattio.memmap(data(name), "scidac-file-xml")
    assert xml.dtype == np.uint8 and bytes(xml[:5]) == b"<?xml"
    with pytest.raises(ValueError):
        lattio.memmap(data(name), 15)
    with pytest.raises(lattio.FormatError):
        lattio.memmap(data(name), "no-such-type")
    with pytest.raises(TypeError):
        lattio.memmap(data(name), 1.5)
