"""Field types with QIO's metadata: every type of the library's table saved
in both precisions carries the datatype, precision, colors, spins, typesize
and datacount QIO writes (read back with an independent LIME parser and
ElementTree, not lattio), its payload is the array's bytes big-endian in
QDP++'s site order, and it loads with its axes; a site that does not fit
its type, and a file whose typesize disagrees with its datatype, are
specific errors."""
import struct
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import lattio
from conftest import parse_lime, scidac_sums

# name: (site shape, complex, datatype stem, colors, spins) -- QIO's conventions, written out here
EXPECT = {
    "colormatrix": ((3, 3), True, "ColorMatrix", 3, 0),
    "colorvector": ((3,), True, "ColorVector", 3, 0),
    "fermion": ((4, 3), True, "DiracFermion", 3, 4),
    "propagator": ((4, 4, 3, 3), True, "DiracPropagator", 3, 4),
    "staggered_propagator": ((3, 3), True, "ColorMatrix", 3, 0),
    "complex": ((), True, "Complex", 0, 0),
    "real": ((), False, "Real", 0, 0),
}


def array(site, cplx, prec, lead=(), seed=0):
    rng = np.random.default_rng(seed)
    shape = (4, 2, 2, 6) + lead + site
    a = rng.standard_normal(shape)
    if cplx:
        a = a + 1j * rng.standard_normal(shape)
        return a.astype(np.complex64 if prec == 32 else np.complex128)
    return a.astype(np.float32 if prec == 32 else np.float64)


def private_record(path):
    recs = parse_lime(open(path, "rb").read())
    xml = next(p for t, _, p in recs if t == "scidac-private-record-xml")
    root = ET.fromstring(xml.rstrip(b"\0").decode())
    return {c.tag: c.text for c in root}, recs


def test_the_table_is_the_one_written_here():
    assert set(lattio.FIELD_TYPES) == set(EXPECT)
    for name, (site, cplx, stem, colors, spins) in EXPECT.items():
        t = lattio.FIELD_TYPES[name]
        assert t["stem"] == stem and t["complex"] == cplx and len(t["axes"]) == len(site)


@pytest.mark.parametrize("prec", [32, 64])
@pytest.mark.parametrize("name", sorted(EXPECT))
@pytest.mark.parametrize("lead", [(), (5,)])
def test_qio_metadata_bytes_and_axes(tmp_path, name, prec, lead):
    site, cplx, stem, colors, spins = EXPECT[name]
    a = array(site, cplx, prec, lead)
    path = str(tmp_path / "f.scidac")
    lattio.save(path, a, field=name)
    rec, recs = private_record(path)
    p = "F" if prec == 32 else "D"
    assert rec["datatype"] == ("USQCD_%s%d_%s" % (p, colors, stem) if colors else "USQCD_%s_%s" % (p, stem))
    assert rec["precision"] == p
    reals = int(np.prod(site)) * (2 if cplx else 1)
    assert int(rec["typesize"]) == reals * prec // 8 and int(rec["datacount"]) == (lead[0] if lead else 1)
    assert int(rec.get("colors") or 0) == colors and int(rec.get("spins") or 0) == spins
    payload = next(p for t, _, p in recs if t == "scidac-binary-data")
    big = a.astype(a.dtype.newbyteorder(">"))
    assert payload == big.tobytes()  # QDP++'s order: lattice t, z, y, x then the site's axes, big-endian
    site_bytes = int(rec["typesize"]) * int(rec["datacount"])
    chk = ET.fromstring(next(p for t, _, p in recs if t == "scidac-checksum").rstrip(b"\0").decode())
    stored = tuple(int(chk.find(k).text, 16) for k in ("suma", "sumb"))
    assert stored == tuple(int(x, 16) for x in scidac_sums(payload, site_bytes))
    back = lattio.load(path)
    np.testing.assert_array_equal(back, a)
    with lattio.open(path) as f:
        fld = f.fields[0]
        assert fld.kind in (name, "colormatrix")  # a staggered propagator is stored as a colour matrix
        assert fld.dims[-len(site):] == lattio.FIELD_TYPES[fld.kind]["axes"][-len(site):] if site else True
        if lead:
            assert fld.dims[4] == "datum"


def test_propagator_is_typed_without_being_told(tmp_path):
    p = array((4, 4, 3, 3), True, 64)
    path = str(tmp_path / "p.scidac")
    lattio.save(path, p)
    rec, _ = private_record(path)
    assert (rec["datatype"], rec["typesize"], rec["datacount"], rec["spins"], rec["colors"]) == (
        "USQCD_D3_DiracPropagator", "2304", "1", "4", "3")
    assert lattio.load(path).shape == p.shape


@pytest.mark.parametrize("nc", [2, 4, 5])
def test_other_numbers_of_colours(tmp_path, nc):
    a = array((4, nc), True, 64)
    path = str(tmp_path / "f.scidac")
    lattio.save(path, a, field="fermion")
    rec, _ = private_record(path)
    assert rec["datatype"] == "USQCD_D%d_DiracFermion" % nc and int(rec["colors"]) == nc
    np.testing.assert_array_equal(lattio.load(path), a)


def test_site_that_does_not_fit_its_type(tmp_path):
    with pytest.raises(ValueError, match="propagator"):
        lattio.save(str(tmp_path / "x.scidac"), array((4, 3, 3, 3), True, 64), field="propagator")
    with pytest.raises(ValueError, match="fermion"):  # a datatype given by hand that the array contradicts
        lattio.save(str(tmp_path / "y.scidac"), array((5,), True, 64), metadata={"datatype": "USQCD_D3_DiracFermion"})
    assert not list(tmp_path.iterdir())


def test_file_whose_typesize_contradicts_its_datatype(tmp_path):
    """A file (edited here) whose private record says DiracFermion with a
    typesize of 48 bytes (datacount 2): the reader names the field and
    both sizes."""
    a = array((2, 3), True, 64)  # 2 datums of 3 complex: typesize 48
    path = tmp_path / "f.scidac"
    lattio.save(str(path), a, metadata={"datatype": "lattio_D_complex"})
    raw = bytearray(path.read_bytes())
    i = raw.index(b"lattio_D_complex")
    new = b"USQCD_D3_DiracFermion"  # says 192 bytes (4 spins x 3 colours), the payload has 96
    xml_start = raw.rindex(b"<?xml", 0, i)
    xml_end = raw.index(b"</scidacRecord>", i) + len(b"</scidacRecord>")
    xml = bytes(raw[xml_start:xml_end]).replace(b"lattio_D_complex", new)
    # the record's length field and padding change: rebuild the file from its records
    recs = parse_lime(bytes(raw))
    out = bytearray()
    for t, _, p in recs:
        if t == "scidac-private-record-xml":
            p = xml + b"\0"
        hdr = bytearray(144)
        hdr[:16] = struct.pack(">IHHQ", 0x456789AB, 1, 0, len(p))
        hdr[16:16 + len(t)] = t.encode()
        out += hdr + p + b"\0" * ((8 - len(p) % 8) % 8)
    path.write_bytes(bytes(out))
    with pytest.raises(lattio.FormatError) as e:
        lattio.load(str(path))
    assert e.value.name == "ERR_FIELD_TYPESIZE"
    assert "field 0" in e.value.detail and "192" in e.value.detail and "not 48" in e.value.detail


@pytest.mark.parametrize("layout", ["qdp", "qlua"])
@pytest.mark.parametrize("name", ["propagator", "fermion", "colorvector"])
def test_hdf5_keeps_the_type(tmp_path, layout, name):
    pytest.importorskip("h5py")
    site, cplx, _, _, _ = EXPECT[name]
    a = array(site, cplx, 64, seed=3)
    path = str(tmp_path / "f.h5")
    lattio.save(path, a, field=name, layout=layout)
    back = lattio.load(path)
    assert back.shape == a.shape
    np.testing.assert_array_equal(back, a)
    with lattio.open(path) as f:
        fld = f.fields[0]
        assert fld.kind == name and fld.shape == a.shape and fld.dims[4:] == lattio.FIELD_TYPES[name]["axes"]
        np.testing.assert_array_equal(np.asarray(fld[1:3, :, 1]), a[1:3, :, 1])


def _qdp_types(f, h5py):
    """QDP++'s committed types, built as lib/qdp_hdf5.cc builds them:
    .ComplexDouble {r, i}, .ColorMatrixDouble3 [3][3] of it,
    .PropagatorDouble3 [4][4] of that (native little-endian doubles)."""
    cplx = np.dtype([("r", "<f8"), ("i", "<f8")])
    f[".ComplexDouble"] = cplx
    colmat = h5py.h5t.array_create(h5py.h5t.py_create(cplx), (3, 3))
    colmat.commit(f.id, b".ColorMatrixDouble3")
    prop = h5py.h5t.array_create(colmat, (4, 4))
    prop.commit(f.id, b".PropagatorDouble3")
    return colmat, prop


def test_qdpxx_own_layout(tmp_path):
    """What QDP++'s HDF5Writer writes (scripts/qdpxx-proof.sh, checked against
    QDP++ itself; docs/format.md 9.2): a gauge field [T][Z][Y][X][4] of
    .ColorMatrixDouble3, a LatticePropagator [T][Z][Y][X] of
    .PropagatorDouble3, a LatticeReal [T][Z][Y][X] of doubles (no trailing
    dimension), no attributes and no checksum.  lattio reads each with its
    type's shape, and writes the same shapes and types."""
    h5py = pytest.importorskip("h5py")
    rng = np.random.default_rng(5)
    shape = (4, 2, 2, 2)
    prop = rng.standard_normal(shape + (4, 4, 3, 3)) + 1j * rng.standard_normal(shape + (4, 4, 3, 3))
    real = rng.standard_normal(shape)
    path = str(tmp_path / "qdp.h5")
    with h5py.File(path, "w") as f:
        _, ptype = _qdp_types(f, h5py)
        ds = h5py.h5d.create(f.id, b"prop", ptype, h5py.h5s.create_simple(shape))
        raw = prop.view(np.float64).reshape(shape + (4, 4, 3, 3, 2))
        ds.write(h5py.h5s.ALL, h5py.h5s.ALL, np.ascontiguousarray(raw), mtype=ptype)
        f.create_dataset("real", data=real.astype("<f8"))
    got = lattio.load(path + ":/prop")
    assert got.shape == prop.shape and np.array_equal(got, prop)
    r = lattio.load(path + ":/real")
    assert r.shape == shape and np.array_equal(r, real)
    with lattio.open(path) as fh:
        kinds = {fld.name: (fld.kind, fld.shape) for fld in fh.fields}
    assert kinds["/prop"] == ("propagator", prop.shape) and kinds["/real"][1] == shape
    # lattio's own QDP++-layout file: the same shapes and named types
    out = str(tmp_path / "lattio.h5")
    lattio.save(out + ":/prop", prop, field="propagator")
    lattio.save(out + ":/real", real, append=True, field="real")
    with h5py.File(out, "r") as f:
        assert f["prop"].shape == shape and f["real"].shape == shape
        assert f["prop"].id.get_type().get_class() == h5py.h5t.ARRAY
        assert h5py.h5t.open(f.id, b".PropagatorDouble3").equal(f["prop"].id.get_type())
