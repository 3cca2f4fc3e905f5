"""tmLQCD's own files (tests/data/real/tmlqcd, written by tmLQCD on real
C-LIME and Lemon): described by their etmc-propagator-format records,
verified, loaded with the propagator's axes, their metadata as Python
values, converted; damage still refused.  Values are checked against an
independent reading of the bytes (conftest.parse_lime, zlib's CRC-32)."""
import shutil
import struct
import subprocess

import numpy as np
import pytest

import lattio
from conftest import data, expected, lattio_cmd, link_trace, parse_lime, plaquette, scidac_sums

PROP = "tmlqcd/source.0001.00.inverted"  # 12 components, 64-bit
ND = "tmlqcd/source.0001.00.hinverted"  # two flavours, 32-bit
SPLIT = "tmlqcd/source.0001.00.05.inverted"  # one component, split layout
CONF = "tmlqcd/conf.0001"
OBS, SUMS = expected()


def payloads(name):
    return [p for t, _, p in parse_lime(open(data(name), "rb").read()) if t == "scidac-binary-data"]


def test_propagator_loads_with_its_axes():
    """load gives the 12 components as one propagator (T, Z, Y, X,
    spin_sink, spin_source, color_sink, color_source): component is*3+ic
    is the sink fermion of source spin is and colour ic."""
    p = lattio.load(data(PROP))
    assert p.shape == (4, 2, 2, 2, 4, 4, 3, 3) and p.dtype == np.complex128
    for k, raw in enumerate(payloads(PROP)):
        comp = np.frombuffer(raw, ">c16").reshape(4, 2, 2, 2, 4, 3)
        assert np.array_equal(p[..., :, k // 3, :, k % 3], comp)
    # a point source at the origin: the propagator is largest there
    assert np.abs(p[0, 0, 0, 0]).sum() > np.abs(p[2, 1, 1, 1]).sum()


def test_propagator_open_and_metadata():
    f = lattio.open(data(PROP))
    assert len(f) == 12
    fld = f[0]
    assert fld.kind == "fermion" and fld.shape == (4, 2, 2, 2, 4, 3) and fld.precision == 64
    m = fld.metadata
    assert m["propagator_type"] == "DiracFermion_Sink"
    fmt = m["etmc_propagator_format"]["etmcFormat"]
    assert fmt["field"] == "diracFermion" and fmt["lt"] == 4 and fmt["flavours"] == 1
    inv = m["inverter_info"]
    assert inv["solver"] == "CG" and inv["kappa"] == 0.177 and abs(inv["mu"] - 0.141242937853) < 1e-15
    assert not any(k.startswith("scidac_") for k in m)  # nothing invented
    assert np.array_equal(f[11].read(), np.frombuffer(payloads(PROP)[11], ">c16").reshape(fld.shape))


def test_propagator_verifies_with_independent_sums():
    rep = lattio.verify(data(PROP))
    assert rep["ok"], rep["problems"]
    assert not rep.get("warnings"), rep.get("warnings")
    raws = payloads(PROP)
    assert len(rep["fields"]) == 12
    for k, raw in enumerate(raws):
        assert tuple(rep["fields"][k]["computed"]) == scidac_sums(raw, 192)
    assert tuple(rep["fields"][0]["computed"]) == SUMS[("tmlqcd/source.0001.00.inverted", 0)]
    assert tuple(rep["fields"][11]["computed"]) == SUMS[("tmlqcd/source.0001.00.inverted", 11)]


def test_command_verify_and_check():
    for name in (PROP, ND, SPLIT, CONF):
        for op in ("verify", "check"):
            r = lattio_cmd(op, data(name))
            assert r.returncode == 0, (name, op, r.stdout, r.stderr)
            assert b"ERR_" not in r.stdout + r.stderr, (name, op, r.stdout)


def test_two_flavours():
    """Two binary records per etmc-propagator-format (<flavours>2</flavours>):
    8 fermion fields, not a propagator; load names them."""
    with pytest.raises(ValueError, match="8 lattice fields"):
        lattio.load(data(ND))
    arrays = lattio.load_fields(data(ND))
    raws = payloads(ND)
    assert len(arrays) == 8
    for a, raw in zip(arrays, raws):
        assert a.shape == (4, 2, 2, 2, 4, 3) and a.dtype == np.complex64
        assert np.array_equal(a, np.frombuffer(raw, ">c8").reshape(a.shape))
    f = lattio.open(data(ND))
    # the second flavour's record shows the format record it shares
    assert f[1].metadata["etmc_propagator_format"]["etmcFormat"]["flavours"] == 2
    rep = lattio.verify(data(ND))
    assert rep["ok"] and [tuple(x["computed"]) for x in rep["fields"]] == [scidac_sums(r, 96) for r in raws]


def test_split_component_and_gauge_copy():
    a = lattio.load(data(SPLIT))
    assert a.shape == (4, 2, 2, 2, 4, 3) and a.dtype == np.complex64
    m = lattio.open(data(SPLIT))[0].metadata
    xlf = m["xlf_info"]
    assert xlf["plaquette"] == 0.417669228375 and xlf["beta"] == 6.0 and xlf["kappa"] == 0.177 and xlf["mu"] == 0.5
    assert m["gauge_checksum_copy"]["scidacChecksum"]["suma"] == "ebdb3e4d"
    u = lattio.load(data(CONF))
    plaq, trace = OBS["tmlqcd/conf.0001"]
    assert abs(plaquette(u) - plaq) < 1e-12 and abs(link_trace(u) - trace) < 1e-12


@pytest.mark.parametrize("to", ["scidac", "hdf5"])
def test_convert(tmp_path, to):
    """Every component converted and compared by the library; the SciDAC
    copy carries DiracFermion records QIO reads."""
    dst = tmp_path / ("p.h5" if to == "hdf5" else "p.lime")
    rep = lattio.convert(data(PROP), dst, to=to)
    assert rep["ok"] and rep["fields"] == 12 and rep["max_diff"] == 0
    got = lattio.load_fields(dst)
    want = lattio.load_fields(data(PROP))
    assert all(np.array_equal(g, w) for g, w in zip(got, want))
    if to == "scidac":
        assert lattio.open(dst)[0].metadata["scidac_datatype"] == "USQCD_D3_DiracFermion"


def test_damage_still_refused(tmp_path):
    """A propagator cut after a component's format record, or with a
    flipped byte, does not verify; load raises."""
    raw = open(data(PROP), "rb").read()
    recs = parse_lime(raw)
    last_format = [off - 144 for t, off, _ in recs if t == "etmc-propagator-format"][-1]
    cut = tmp_path / "cut"
    cut.write_bytes(raw[:last_format + 144 + len(recs[-3][2]) + 7 & ~7])
    assert parse_lime(cut.read_bytes())[-1][0] == "etmc-propagator-format"
    assert not lattio.verify(str(cut))["ok"]
    flip = tmp_path / "flip"
    b = bytearray(raw)
    b[recs[6][1] + 100] ^= 1  # record 7: the third component's binary record
    flip.write_bytes(bytes(b))
    with pytest.raises(lattio.ChecksumError):
        lattio.load(str(flip))
    assert not lattio.verify(str(flip))["ok"]


def _lime(records):
    """A LIME file of (type, payload, mb, me)."""
    out = b""
    for t, p, mb, me in records:
        flags = (0x8000 if mb else 0) | (0x4000 if me else 0)
        out += struct.pack(">IHHQ", 0x456789AB, 1, flags, len(p)) + t.encode().ljust(128, b"\0")
        out += p + b"\0" * (-len(p) % 8)
    return out


def test_lz_written_as_lx(tmp_path):
    """tmLQCD prints lx as <lz> in etmc-propagator-format: a 2x2x3x4
    propagator says lz 2; the record's length gives 3, the checksum holds,
    and verify says what it read."""
    rng = np.random.default_rng(7)
    comp = (rng.standard_normal((4, 3, 2, 2, 4, 3)) + 1j * rng.standard_normal((4, 3, 2, 2, 4, 3))).astype(">c16")
    raw = comp.tobytes()
    a, b = scidac_sums(raw, 192)
    fmt = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<etmcFormat>\n  <field>diracFermion</field>\n"
           "  <precision>64</precision>\n  <flavours>1</flavours>\n  <lx>2</lx>\n  <ly>2</ly>\n"
           "  <lz>2</lz>\n  <lt>4</lt>\n</etmcFormat>").encode()
    summ = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<scidacChecksum>\n  <version>1.0</version>\n"
            "  <suma>%s</suma>\n  <sumb>%s</sumb>\n</scidacChecksum>" % (a, b)).encode()
    p = tmp_path / "slip.inverted"
    p.write_bytes(_lime([("propagator-type", b"DiracFermion_Sink", 1, 1), ("inverter-info", b"solver = CG\n", 1, 0),
                         ("etmc-propagator-format", fmt, 0, 1), ("scidac-binary-data", raw, 1, 0),
                         ("scidac-checksum", summ, 0, 1)]))
    got = lattio.load(str(p))
    assert got.shape == (4, 3, 2, 2, 4, 3) and np.array_equal(got, comp)
    rep = lattio.verify(str(p))
    assert rep["ok"] and any("gives lz 2, tmLQCD's lx" in w and "lz 3" in w for w in rep["warnings"])
    bad = tmp_path / "bad"
    b2 = bytearray(p.read_bytes())
    b2[-300] ^= 4  # in the binary record: the checksum now disagrees
    bad.write_bytes(bytes(b2))
    assert not lattio.verify(str(bad))["ok"]


def test_info_command_lists_tmlqcd_records():
    r = lattio_cmd("info", data(SPLIT))
    assert r.returncode == 0
    for t in ("propagator-type", "xlf-info", "gauge-scidac-checksum-copy", "inverter-info", "etmc-propagator-format"):
        assert t.encode() in r.stdout


def test_info_fields_name_the_format_record():
    import json
    r = lattio_cmd("info", "--fields", "--json", data(ND))
    assert r.returncode == 0
    fields = json.loads(r.stdout)["fields"]
    assert [f["etmc"]["record"] for f in fields] == [3, 3, 10, 10, 15, 15, 20, 20]
    assert all(f["etmc"]["flavours"] == 2 and f["type"] == "fermion" for f in fields)
