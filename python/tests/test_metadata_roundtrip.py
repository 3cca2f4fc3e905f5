"""One metadata vocabulary: what lattio.open reads is what lattio.save
writes.  Over the real files of every format lattio writes with metadata
(ILDG, SciDAC, NERSC, HDF5), ``save(q, load(p), metadata=open(p).fields[0]
.metadata)`` writes p's metadata back: the user file and record XML and
the LFN byte for byte (checked on the LIME records with the tests' own
parser), the private record's date and datatype, every NERSC header key
lattio does not compute, other writers' text records (tmLQCD's xlf-info,
Grid's grid-format) byte for byte; such a record where the format cannot
hold it (NERSC, HDF5, a volume set) is a ValueError naming it, never
dropped in silence."""
import glob
import os

import numpy as np
import pytest

import lattio
from conftest import DATA, parse_lime, write_lime

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "..", "shared", "testdata")
CORPUS = sorted(glob.glob(os.path.join(DATA, "*")) + glob.glob(os.path.join(DATA, "tmlqcd", "*")) +
                glob.glob(os.path.join(HERE, "..", "..", "tests", "data", "hdf5", "*.h5")) +
                glob.glob(os.path.join(SHARED, "*")))
CORPUS = [p for p in CORPUS if os.path.isfile(p) and not p.endswith(".md")]
TEXT_RECORDS = ("scidac-file-xml", "scidac-record-xml", "ildg-data-lfn", "xlf-info", "grid-format")


def one_field(path):
    try:
        f = lattio.open(path)
    except lattio.LattioError:
        return None
    with f:
        if f.format not in ("ildg", "scidac", "nersc", "hdf5") or len(f.fields) != 1:
            return None
        return f.format, dict(f.fields[0].metadata)


FILES = [(p, x) for p in CORPUS for x in [one_field(p)] if x is not None]


def records(path):
    """{LIME record type: payload} of the metadata records, independently parsed."""
    out = {}
    for t, _off, payload in parse_lime(open(path, "rb").read()):
        out.setdefault(t, payload)
    return out


def test_the_corpus_is_covered():
    formats = {fmt for _p, (fmt, _m) in FILES}
    assert {"ildg", "scidac", "nersc", "hdf5"} <= formats, formats


@pytest.mark.parametrize("path,what", FILES, ids=[os.path.basename(p) for p, _ in FILES])
def test_metadata_round_trips(tmp_path, path, what):
    fmt, meta = what
    out = str(tmp_path / ("copy." + ("h5" if fmt == "hdf5" else fmt)))
    u = lattio.load(path)
    lattio.save(out, u, format=fmt, metadata=meta)
    with lattio.open(out) as g:
        back = g.fields[0].metadata
    for key in ("lfn", "file_text", "record_text", "scidac_date", "scidac_datatype", "ensemble"):
        if meta.get(key) is not None:
            assert back.get(key) == meta[key], (key, back.get(key), meta[key])
    if fmt == "nersc":
        computed = {"LINK_TRACE", "PLAQUETTE", "CHECKSUM", "FLOATING_POINT", "DATATYPE", "HDR_VERSION",
                    "STORAGE_FORMAT"}
        for key, value in meta["header"].items():
            if key in computed:
                continue
            assert back["header"].get(key) == value, (key, back["header"].get(key), value)
        assert abs(back["plaquette"] - meta["plaquette"]) < 1e-9
    if fmt in ("ildg", "scidac"):
        want, got = records(path), records(out)
        for t in TEXT_RECORDS:
            if t in want:
                assert got.get(t) == want[t], t
    assert np.array_equal(lattio.load(out), u)


def test_file_metadata_is_accepted_too(tmp_path):
    path = os.path.join(DATA, "lat.sample.l4444.ildg")
    with lattio.open(path) as f:
        meta = f.metadata
    out = str(tmp_path / "copy.ildg")
    lattio.save(out, lattio.load(path), metadata=meta)
    assert records(out)["scidac-file-xml"] == records(path)["scidac-file-xml"]


def test_unknown_keys_are_named():
    with pytest.raises(ValueError) as e:
        lattio.save("never.ildg", lattio.load(os.path.join(DATA, "unity.lime")), metadata={"lfn": "x", "colour": 3})
    assert "colour" in str(e.value) and "Metadata keys" in str(e.value)
    assert not os.path.exists("never.ildg")


GRID_XML = (b'<?xml version="1.0"?>\n<FieldMetaData>\n  <hdr_version>1.0</hdr_version>\n'
            b'  <plaquette>0.0382422893</plaquette>\n  <ensemble_id>grid-test</ensemble_id>\n'
            b'  <sequence_number>12</sequence_number>\n</FieldMetaData>\n')


def test_xlf_info_is_written_back(tmp_path):
    """tmLQCD's xlf-info record: its own message at the start of the file,
    its text byte for byte (no NUL added), as tmLQCD writes it."""
    path = os.path.join(DATA, "tmlqcd", "conf.0001")
    with lattio.open(path) as f:
        meta = f.fields[0].metadata
    out = str(tmp_path / "copy.ildg")
    lattio.save(out, lattio.load(path), metadata=meta)
    recs = parse_lime(open(out, "rb").read())
    assert recs[0][0] == "xlf-info" and recs[0][2] == records(path)["xlf-info"]
    assert [t for t, _o, _p in recs].count("xlf-info") == 1
    with lattio.open(out) as g:
        assert g.fields[0].metadata["xlf_info"] == meta["xlf_info"]
    assert lattio.verify(out)["ok"]


@pytest.mark.parametrize("fmt", ["nersc", "hdf5"])
def test_records_a_format_cannot_hold_are_refused(tmp_path, fmt):
    path = os.path.join(DATA, "tmlqcd", "conf.0001")
    with lattio.open(path) as f:
        meta = f.fields[0].metadata
    out = str(tmp_path / ("copy." + ("h5" if fmt == "hdf5" else fmt)))
    with pytest.raises(ValueError) as e:
        lattio.save(out, lattio.load(path), format=fmt, metadata=meta)
    assert "xlf-info" in str(e.value) and fmt in str(e.value)
    assert not os.path.exists(out)


def test_records_are_not_written_into_volume_sets(tmp_path):
    path = os.path.join(DATA, "tmlqcd", "conf.0001")
    with lattio.open(path) as f:
        meta = f.fields[0].metadata
    with pytest.raises(ValueError) as e:
        lattio.save(str(tmp_path / "set"), lattio.load(path), metadata=meta, volumes="multi", grid=(2, 1, 1, 1))
    assert "xlf-info" in str(e.value) and "volume" in str(e.value)
    assert not os.listdir(tmp_path)


def test_other_record_types_with_nul_are_refused(tmp_path):
    out = str(tmp_path / "x.ildg")
    with pytest.raises(ValueError):
        lattio.save(out, lattio.load(os.path.join(DATA, "unity.lime")),
                    metadata={"record_types": {"odd": "grid\0format"}, "odd_text": "text"})
    assert not os.path.exists(out)


@pytest.mark.parametrize("rtype", ["scidac-file-xml", "ildg-format", "two words", "x" * 128])
def test_other_record_types_lattio_cannot_write_are_refused(tmp_path, rtype):
    """A record type lattio writes itself, or one LIME cannot hold, as
    another writer's record: ArgumentError from the library, no file."""
    out = str(tmp_path / "x.ildg")
    meta = {"record_types": {"odd": rtype}, "odd_text": "text"}
    with pytest.raises(lattio.LattioError) as e:
        lattio.save(out, lattio.load(os.path.join(DATA, "unity.lime")), metadata=meta)
    assert "record type" in str(e.value), str(e.value)
    assert not os.path.exists(out)


def test_other_writers_records_are_shown(tmp_path):
    """Grid's grid-format record (its FieldMetaData XML) and any other text
    record before a field are in the field's metadata, typed, under their
    type; a binary payload of an unknown type is not; saving them writes
    the grid-format record back byte for byte, under its own type."""
    src = os.path.join(DATA, "t_dprec_ildg.lime")
    path = str(tmp_path / "grid.lime")

    recs = []
    for t, _at, p in parse_lime(open(src, "rb").read()):
        recs.append((t, p))
        if t == "ildg-format":  # Grid writes its record beside ILDG's
            recs += [("grid-format", GRID_XML), ("odd.binary", bytes(range(256)) * 4)]
    write_lime(path, recs)
    with lattio.open(path) as f:
        meta = f.fields[0].metadata
    grid = meta["grid_format"]["FieldMetaData"]
    assert grid["plaquette"] == 0.0382422893 and grid["sequence_number"] == 12 and grid["ensemble_id"] == "grid-test"
    assert meta["grid_format_text"] == GRID_XML.decode()
    assert not any(k.startswith("odd") for k in meta), sorted(meta)
    assert meta["record_types"] == {"grid_format": "grid-format"}
    out = str(tmp_path / "copy.ildg")
    lattio.save(out, lattio.load(path), metadata=meta)
    assert records(out)["grid-format"] == GRID_XML
    with lattio.open(out) as g:
        assert g.fields[0].metadata["grid_format"] == meta["grid_format"]


# --- lattio.convert: the library's conversion writes them back too ----------

CONF = os.path.join(DATA, "tmlqcd", "conf.0001")


@pytest.mark.parametrize("to", ["ildg", "scidac"])
def test_convert_writes_other_records_back(tmp_path, to):
    out = str(tmp_path / ("copy." + to))
    rep = lattio.convert(CONF, out, to=to)
    recs = parse_lime(open(out, "rb").read())
    assert recs[0][0] == "xlf-info" and recs[0][2] == records(CONF)["xlf-info"]
    assert rep["warnings"] == []


def test_convert_fields_writes_other_records_back(tmp_path):
    """tmLQCD's propagator (12 fields) to SciDAC: its propagator-type and
    inverter-info records at the start of OUT, byte for byte."""
    src = os.path.join(DATA, "tmlqcd", "source.0001.00.inverted")
    out = str(tmp_path / "prop.lime")
    lattio.convert(src, out, to="scidac")
    want = [(t, p) for t, _o, p in parse_lime(open(src, "rb").read())[:2]]
    got = [(t, p) for t, _o, p in parse_lime(open(out, "rb").read())[:2]]
    assert [t for t, _ in want] == ["propagator-type", "inverter-info"] and got == want


def test_convert_says_what_it_cannot_write(tmp_path):
    rep = lattio.convert(CONF, str(tmp_path / "c.nersc"), to="nersc")
    assert any("xlf-info" in w and "not written" in w for w in rep["warnings"]), rep["in_check"]
    rep = lattio.convert(os.path.join(DATA, "t_nersc.cfg"), str(tmp_path / "c.ildg"), to="ildg")
    assert any("NERSC header lines not written" in w for w in rep["warnings"]), rep["in_check"]


def test_convert_carries_the_nersc_header(tmp_path):
    """NERSC to NERSC: every header key lattio does not compute (the
    ensemble, creator, dates, boundaries) as IN has it."""
    src = os.path.join(DATA, "t_nersc.cfg")
    out = str(tmp_path / "c.nersc")
    rep = lattio.convert(src, out, to="nersc")
    assert rep["warnings"] == []
    with lattio.open(src) as f, lattio.open(out) as g:
        want, got = f.fields[0].metadata["header"], g.fields[0].metadata["header"]
    kept = {k for k in want if k not in ("CHECKSUM", "LINK_TRACE", "PLAQUETTE", "DATATYPE", "FLOATING_POINT",
                                         "HDR_VERSION", "STORAGE_FORMAT")}
    assert kept >= {"CREATOR", "CREATOR_HARDWARE", "CREATION_DATE", "ENSEMBLE_LABEL"}
    assert {k: got.get(k) for k in kept} == {k: want[k] for k in kept}


def test_convert_fields_says_what_hdf5_cannot_hold(tmp_path):
    if "writes" not in lattio.build_info()["library"]:
        pytest.skip("this build writes no HDF5")
    rep = lattio.convert(os.path.join(DATA, "tmlqcd", "source.0001.00.inverted"), str(tmp_path / "p.h5"), to="hdf5")
    assert rep["kind"] == "fields"
    assert any("propagator-type" in w and "not written" in w for w in rep["warnings"]), rep["warnings"]


def test_tmlqcd_propagator_metadata_round_trips(tmp_path):
    """A tmLQCD propagator (12 components) loaded as one propagator and saved
    as SciDAC with its metadata: propagator-type and inverter-info byte for
    byte at the start, the etmc-propagator-format replaced by QIO's record
    XML (derived from the array), the values equal."""
    src = os.path.join(DATA, "tmlqcd", "source.0001.00.inverted")
    with lattio.open(src) as f:
        meta = f.fields[0].metadata
    u = lattio.load(src)
    out = str(tmp_path / "prop.scidac")
    lattio.save(out, u, metadata=meta)
    want = records(src)
    got = parse_lime(open(out, "rb").read())
    assert [(t, p) for t, _o, p in got[:2]] == [(t, want[t]) for t in ("propagator-type", "inverter-info")]
    assert "etmc-propagator-format" not in {t for t, _o, _p in got}
    with lattio.open(out) as g:
        back = g.fields[0].metadata
    assert back["propagator_type"] == meta["propagator_type"] and back["inverter_info"] == meta["inverter_info"]
    assert np.array_equal(lattio.load(out), u)


def test_a_parsed_record_without_its_text_is_refused(tmp_path):
    with lattio.open(CONF) as f:
        meta = dict(f.fields[0].metadata)
    del meta["xlf_info_text"]
    out = str(tmp_path / "x.ildg")
    with pytest.raises(ValueError) as e:
        lattio.save(out, lattio.load(CONF), metadata=meta)
    assert "xlf_info_text" in str(e.value)
    assert not os.path.exists(out)


def test_convert_names_what_it_could_not_carry(tmp_path):
    """17 text records of another writer before tmLQCD's (18 with its
    xlf-info): the first 16 written back in order, the rest counted in a
    warning, never dropped in silence; a binary payload is not text and is
    counted too."""
    src = str(tmp_path / "many.lime")
    recs = [("note-%02d" % i, b"note %d\n" % i) for i in range(17)] + [("blob", bytes(range(256)))]
    recs += [(t, p) for t, _o, p in parse_lime(open(CONF, "rb").read())]
    write_lime(src, recs)
    out = str(tmp_path / "out.ildg")
    rep = lattio.convert(src, out, to="ildg")
    got = [(t, p) for t, _o, p in parse_lime(open(out, "rb").read())]
    assert got[:16] == [("note-%02d" % i, b"note %d\n" % i) for i in range(16)]
    assert not {"note-16", "blob", "xlf-info"} & {t for t, _p in got}
    assert any(w.startswith("3 more of IN's records") for w in rep["warnings"]), rep["warnings"]
