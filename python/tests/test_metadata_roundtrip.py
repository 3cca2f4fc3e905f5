"""One metadata vocabulary: what lattio.open reads is what lattio.save
writes.  Over the real files of every format lattio writes with metadata
(ILDG, SciDAC, NERSC, HDF5), ``save(q, load(p), metadata=open(p).fields[0]
.metadata)`` writes p's metadata back: the user file and record XML and
the LFN byte for byte (checked on the LIME records with the tests' own
parser), the private record's date and datatype, every NERSC header key
lattio does not compute; a record lattio does not write (tmLQCD's, the
xlf-info record) is a ValueError naming it, never dropped in silence."""
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
NOT_WRITTEN = {"xlf_info", "etmc_propagator_format", "propagator_type", "inverter_info", "gauge_checksum_copy",
               "etmc_propagator_format_text", "propagator_type_text", "inverter_info_text", "gauge_checksum_copy_text",
               "xlf_info_text"}
TEXT_RECORDS = ("scidac-file-xml", "scidac-record-xml", "ildg-data-lfn")


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
    dropped = sorted(set(meta) & NOT_WRITTEN)
    if dropped:
        with pytest.raises(ValueError) as e:
            lattio.save(out, u, format=fmt, metadata=meta)
        assert all(k in str(e.value) for k in dropped), str(e.value)
        assert not os.path.exists(out)
        return
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


def test_other_writers_records_are_shown(tmp_path):
    """Grid's grid-format record (its FieldMetaData XML) and any other text
    record before a field are in the field's metadata, typed, under their
    type; a binary payload of an unknown type is not; saving them is a
    ValueError naming them (lattio writes no grid-format record)."""
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
    with pytest.raises(ValueError) as e:
        lattio.save(str(tmp_path / "copy.ildg"), lattio.load(path), metadata=meta)
    assert "grid_format" in str(e.value)
