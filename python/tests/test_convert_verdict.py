"""One conversion: `lattio convert --json` (the command) and
`lattio.convert` (Python) run the same library call (lattio_convert) and
say the same of every case: gauge fields between every format, files of
fields, joins and splits of QIO volume sets, and inputs cut at every
record boundary or damaged, outputs that are inputs.  Each case runs in
two directories with the same relative names; the two reports, the
outputs' checksums and what is left on disk must agree."""
import json
import os
import subprocess
import sys

import pytest

import lattio
from conftest import data, parse_lime

GAUGE = ["lat.sample.l4444.ildg", "t_dprec_ildg.lime", "unity.lime", "t_nersc.cfg"]
TARGETS = [("ildg", None), ("scidac", 32), ("nersc", None), ("hirep", None), ("milc", None), ("hdf5", None)]


def command(cwd, args):
    p = subprocess.run([sys.executable, "-m", "lattio", "convert", "--json"] + args, cwd=cwd,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    assert p.returncode in (0, 1), p.stderr
    return p.returncode, json.loads(p.stdout)


def python(cwd, src, dst, kwargs, monkeypatch):
    monkeypatch.chdir(cwd)
    try:
        return lattio.convert(src, dst, **kwargs), None
    except lattio.LattioError as e:
        return None, e


def checks(rep):
    """What a verification says, without the paths it names."""
    if rep is None:
        return None
    return (rep["ok"], rep["status"], rep["format"], rep["problems"],
            [(r["suma"], r["sumb"], r["ok"]) for r in rep["binary_records"]], rep.get("plaquette"))


def same(case, tmp_path, monkeypatch, src, dst, args, kwargs):
    """Run case in two directories; assert the command and Python agree."""
    a, b = tmp_path / ("cmd_" + case), tmp_path / ("py_" + case)
    for d in (a, b):
        d.mkdir()
        for name in os.listdir(tmp_path / "inputs"):
            os.link(tmp_path / "inputs" / name, d / name)
    rc, cmd = command(a, [src, dst] + args)
    rep, err = python(b, src, dst, kwargs, monkeypatch)
    assert rc == (0 if cmd["ok"] else 1), case
    if err is not None:  # Python raises what the report says
        assert not cmd["ok"] and err.name == cmd["status"], (case, err, cmd["status"])
        assert cmd["problems"] and err.what == cmd["problems"][0]["path"], case
        for p in cmd["problems"]:
            assert p["text"] in err.detail, (case, p)
        assert sorted(os.listdir(a)) == sorted(os.listdir(b)), case  # nothing left behind by either
        return cmd
    assert cmd["ok"], (case, cmd["problems"])
    for key in ("kind", "in_format", "out_format", "precision", "fields", "max_diff", "objects", "problems"):
        assert cmd.get(key) == rep.get(key), (case, key, cmd.get(key), rep.get(key))
    assert checks(cmd["in_check"]) == checks(rep["in_check"]), case
    assert checks(cmd["out_check"]) == checks(rep["out_check"]), case
    assert sorted(os.listdir(a)) == sorted(os.listdir(b)), case
    return cmd


@pytest.fixture
def inputs(tmp_path):
    d = tmp_path / "inputs"
    d.mkdir()
    for name in GAUGE + ["t_qio.intel-scalar.lime"]:
        os.link(data(name), d / name) if os.stat(data(name)).st_dev == os.stat(d).st_dev else \
            open(d / name, "wb").write(open(data(name), "rb").read())
    return d


@pytest.mark.parametrize("name", GAUGE)
def test_gauge_to_every_format(name, inputs, tmp_path, monkeypatch):
    for to, precision in TARGETS:
        args = ["--to", to] + (["--precision", str(precision)] if precision else [])
        kwargs = {"to": to, "precision": precision}
        cmd = same("%s_%s" % (name, to), tmp_path, monkeypatch, name, "out." + to, args, kwargs)
        assert cmd["kind"] == "gauge" and cmd["ok"], (name, to)
        # the conversion's own comparison: OUT's plaquette is IN's within OUT's precision
        assert abs(cmd["out_check"]["plaquette"] - cmd["in_check"]["plaquette"]) < 1e-6


def test_fields(inputs, tmp_path, monkeypatch):
    src = "t_qio.intel-scalar.lime"
    cmd = same("fields_scidac", tmp_path, monkeypatch, src, "f.lime", ["--to", "scidac"], {"to": "scidac"})
    assert cmd["kind"] == "fields" and cmd["fields"] == 3 and cmd["max_diff"] == 0
    cmd = same("fields_qlua", tmp_path, monkeypatch, src, "f.h5", ["--to", "hdf5", "--layout", "qlua"],
               {"to": "hdf5", "layout": "qlua"})
    assert [o[1] for o in cmd["objects"]] == ["/lattice/field0", "/lattice/field1", "/lattice/field2"]
    cmd = same("fields_ildg", tmp_path, monkeypatch, src, "f.ildg", [], {})
    assert cmd["status"] == "ERR_UNSUPPORTED" and "convert to scidac or hdf5" in cmd["problems"][0]["text"]


def test_output_is_input(inputs, tmp_path, monkeypatch):
    cmd = same("self", tmp_path, monkeypatch, "unity.lime", "unity.lime", ["--to", "scidac"], {"to": "scidac"})
    assert cmd["status"] == "ERR_OUTPUT_IS_INPUT" and cmd["problems"][0]["path"] == "unity.lime"


def test_damaged_and_cut_inputs(inputs, tmp_path, monkeypatch):
    """IN cut at every record start and inside every payload, and with a byte
    of every payload flipped: the same verdict, and no OUT."""
    raw = open(data("t_dprec_ildg.lime"), "rb").read()
    variants = []
    for rtype, at, payload in parse_lime(raw):
        variants.append(("cut%d" % (at - 144), raw[:at - 144]))
        if payload:
            variants.append(("half%d" % at, raw[:at + len(payload) // 2]))
            flipped = bytearray(raw)
            flipped[at + len(payload) // 2] ^= 0x10
            kind = "data" if rtype.endswith("binary-data") else "text"  # text damage may be harmless
            variants.append(("flip%s%d" % (kind, at), bytes(flipped)))
    verdicts = set()
    for name, body in variants:
        if not body:
            continue
        open(inputs / ("%s.lime" % name), "wb").write(body)
        cmd = same(name, tmp_path, monkeypatch, "%s.lime" % name, "o.ildg", [], {})
        os.unlink(inputs / ("%s.lime" % name))
        verdicts.add(cmd["status"])
        if name.startswith("flipdata"):
            assert cmd["status"] == "ERR_CHECKSUM", name
        assert not os.path.exists(tmp_path / ("cmd_" + name) / "o.ildg") or cmd["ok"], name
    assert {"ERR_CHECKSUM", "OK"} <= verdicts, verdicts


def test_volume_sets(inputs, tmp_path, monkeypatch):
    base = "cfg"
    cmd = same("split", tmp_path, monkeypatch, "t_dprec_ildg.lime", base, ["--volumes", "multi", "--grid", "1,1,1,2"],
               {"volumes": "multi", "grid": (1, 1, 1, 2)})
    assert cmd["kind"] == "split" and cmd["out_check"]["volumes"] == 2
    for d in ("cmd_", "py_"):
        os.link(tmp_path / (d + "split") / "cfg.vol0000", inputs / ("%scfg.vol0000" % d)) if d == "cmd_" else None
        os.link(tmp_path / (d + "split") / "cfg.vol0001", inputs / ("%scfg.vol0001" % d)) if d == "cmd_" else None
    cmd = same("join", tmp_path, monkeypatch, "cmd_cfg", "joined.lime", [], {})
    assert cmd["kind"] == "join" and cmd["ok"]
    joined = open(tmp_path / "cmd_join" / "joined.lime", "rb").read()
    assert joined == open(tmp_path / "py_join" / "joined.lime", "rb").read()
    cmd = same("join_into_volume", tmp_path, monkeypatch, "cmd_cfg", "cmd_cfg.vol0001", [], {})
    assert cmd["status"] == "ERR_OUTPUT_IS_INPUT" and cmd["problems"][0]["path"] == "cmd_cfg.vol0001"
