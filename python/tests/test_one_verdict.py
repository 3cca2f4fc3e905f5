"""One verdict, one listing: `lattio verify --json` (the command), `lattio.verify` (Python)
and the library's report agree on every file, damaged or not; `lattio info
--json` and `lattio.info` list the same records (lattio_info_file's).

Each real file and each file made here (a multi-field SciDAC file, a NERSC
file, a QIO volume set) is cut at every record boundary (and inside each
record's header and payload) and damaged in every record kind; the
command's object and Python's report must say the same: ok, status,
problems, warnings and every field's checksums."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import lattio
from conftest import data, parse_lime, random_su3

REAL = ["lat.sample.l4444.ildg", "t_dprec_ildg.lime", "unity.lime", "t_qio.intel-scalar.lime",
        "lime_writer_test1.lime", "t_nersc.cfg"]


def command(path):
    p = subprocess.run([sys.executable, "-m", "lattio", "verify", "--json", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    assert p.returncode in (0, 1), p.stderr
    objs = json.loads(p.stdout)
    assert len(objs) == 1
    return p.returncode, objs[0]


def agree(path):
    """The command and Python say the same of path; returns Python's report."""
    rc, cmd = command(path)
    rep = lattio.verify(path)
    lib = rep["report"]
    for key in ("ok", "status", "format", "problems", "warnings", "binary_records"):
        assert cmd[key] == lib[key], (path, key, cmd[key], lib[key])
    assert rep["ok"] == cmd["ok"] and rep["status"] == cmd["status"], path
    assert rc == (0 if cmd["ok"] else 1), (path, rc)
    for f, r in zip(rep["fields"], cmd["binary_records"]):
        assert f["computed"] == [r["suma"], r["sumb"]] and f["ok"] == r["ok"], path
    return rep


def boundaries(raw):
    """Offsets to cut a LIME file at: every record's start, inside its
    header, at its payload, inside the payload, and at its end."""
    cuts = set()
    for _type, at, payload in parse_lime(raw):
        start = at - 144
        cuts.update({start, start + 8, at, at + len(payload) // 2, at + len(payload)})
    return sorted(c for c in cuts if 0 < c < len(raw))


def made_files(tmp_path):
    out = []
    a = np.arange(2 * 2 * 2 * 4 * 3, dtype=np.complex128).reshape(4, 2, 2, 2, 3)
    multi = str(tmp_path / "multi.scidac")
    lattio.save(multi, [a, 2 * a, 3 * a], format="scidac")
    out.append(multi)
    u = random_su3((4, 2, 2, 2), 7)
    nersc = str(tmp_path / "cfg.nersc")
    lattio.save(nersc, u, format="nersc")
    out.append(nersc)
    return out


def variants(src, tmp_path):
    """(name, path) of every cut and damaged copy of src."""
    raw = open(src, "rb").read()
    base = os.path.basename(src)
    if raw[:4] != b"\x45\x67\x89\xab":  # not LIME: cut the header and the data, flip a data byte
        cuts = [len(raw) // 4, len(raw) // 2, len(raw) - 1]
        flips = [len(raw) - 100]
    else:
        cuts = boundaries(raw)
        flips = [at + len(p) // 2 for _t, at, p in parse_lime(raw) if p]
    for c in cuts:
        p = tmp_path / ("%s.cut%d" % (base, c))
        p.write_bytes(raw[:c])
        yield p
    for f in flips:
        b = bytearray(raw)
        b[f] ^= 0x10
        p = tmp_path / ("%s.flip%d" % (base, f))
        p.write_bytes(bytes(b))
        yield p


@pytest.mark.parametrize("name", REAL)
def test_real_files_cut_and_damaged(name, tmp_path):
    assert agree(data(name))["ok"]
    seen = 0
    for p in variants(data(name), tmp_path):
        agree(str(p))
        seen += 1
    assert seen >= 3


def test_made_files_cut_and_damaged(tmp_path):
    for src in made_files(tmp_path):
        assert agree(src)["ok"], src
        for p in variants(src, tmp_path):
            agree(str(p))


def test_the_findings(tmp_path):
    """The cases "two verdicts" named: an ILDG file cut after its binary
    record fails (no checksum record), one cut after its file-level records
    fails (a SciDAC file without its field), a plain LIME file is ok."""
    raw = open(data("lat.sample.l4444.ildg"), "rb").read()
    recs = parse_lime(raw)
    types = [t for t, _a, _p in recs]
    end = lambda i: recs[i][1] + len(recs[i][2]) + (8 - len(recs[i][2]) % 8) % 8
    cut = tmp_path / "after_binary.ildg"
    cut.write_bytes(raw[:end(types.index("ildg-binary-data"))])
    rep = agree(str(cut))
    assert not rep["ok"] and rep["status"] == "ERR_NO_CHECKSUM", rep
    cut = tmp_path / "after_file_xml.ildg"
    cut.write_bytes(raw[:end(types.index("scidac-file-xml"))])
    rep = agree(str(cut))
    assert not rep["ok"] and rep["status"] == "ERR_NOT_FOUND", rep


@pytest.mark.parametrize("kind", ["multi", "part"])
def test_volume_set(kind, tmp_path):
    """QIO's volume sets whole, with their last volume cut, and without it."""
    src = data(os.path.join("qio-volumes", kind))
    for n in os.listdir(src):
        shutil.copy(os.path.join(src, n), tmp_path / n)
    base = str(tmp_path / "binary_test")
    agree(base)
    last = tmp_path / sorted(os.listdir(src))[-1]
    raw = last.read_bytes()
    last.write_bytes(raw[:-40])
    assert not agree(base)["ok"]
    os.unlink(last)
    assert not agree(base)["ok"]


def info_command(args):
    p = subprocess.run([sys.executable, "-m", "lattio", "info", "--json"] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    return p.returncode, json.loads(p.stdout)


@pytest.mark.parametrize("name", REAL)
def test_one_listing(name, tmp_path):
    """`lattio info --json` and lattio.info list the same records (both are
    lattio_info_file's), and a file cut inside a record fails in both with
    the status the command's "error" names."""
    path = data(name)
    rc, cmd = info_command([path])
    if "error" in cmd:  # not LIME (NERSC): the command says where; Python describes the header
        assert rc == 1 and cmd["error"]["status"] == "ERR_BAD_MAGIC"
        return
    whole = cmd["records"]
    assert rc == 0 and lattio.info(path) == whole
    raw = open(path, "rb").read()
    cut = tmp_path / "cut.lime"
    cut.write_bytes(raw[:whole[-1]["data_offset"] + 1])
    rc, cmd = info_command([str(cut)])
    assert rc == 1 and cmd["records"] == whole[:len(cmd["records"])] and len(cmd["records"]) >= len(whole) - 1
    with pytest.raises(lattio.LattioError) as e:
        lattio.info(str(cut))
    assert e.value.name == cmd["error"]["status"] and e.value.status == cmd["error"]["code"]


def test_one_listing_of_a_volume_set():
    base = os.path.join(data("qio-volumes"), "multi", "binary_test")
    rc, cmd = info_command(["--fields", base])
    assert rc == 0 and cmd["volfmt"] == 1 and len(cmd["volumes"]) == 4
    assert lattio.info(base) == cmd["fields"] and len(cmd["fields"]) == 4
