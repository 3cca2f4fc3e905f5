"""Files that lie, and what each gives: one verdict from the library (the
command and Python alike), a specific error, never a silent result.

Each case is one of the findings of "One verdict and one door" (issue 42):
a multi-field file without one field's binary record, metadata that
contradicts itself (datatype against colors and precision, su04gauge, a
second checksum record, a fifth NERSC dimension), a number that does not
fit, control bytes in printed metadata, NaN saved to formats whose header
carries the plaquette, a FIFO named as a volume, and the cost of verifying
many small fields."""
import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import lattio
from conftest import data, parse_lime, random_su3, rewrite_lime


def command(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "lattio"] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)


def both(path):
    """Python's report, checked to be the command's."""
    rep = lattio.verify(path)
    p = command("verify", "--json", path)
    cmd = json.loads(p.stdout)[0]
    assert (cmd["ok"], cmd["status"], cmd["problems"]) == (rep["ok"], rep["status"], rep["problems"])
    return rep


def fields(tmp_path, n, sites=(2, 2, 2, 2)):
    a = np.arange(int(np.prod(sites)) * 3, dtype=np.complex64).reshape(tuple(sites) + (3,))
    path = str(tmp_path / ("f%d.scidac" % n))
    lattio.save(path, [a * (k + 1) for k in range(n)], format="scidac")
    return path


def test_missing_binary_record(tmp_path):
    src = fields(tmp_path, 3)
    second = [i for i, (t, _a, _p) in enumerate(parse_lime(open(src, "rb").read())) if t == "scidac-binary-data"][1]
    cut = str(tmp_path / "cut.scidac")
    rewrite_lime(src, cut, lambda i, t, p: None if i == second else (t, p))
    rep = both(cut)
    assert not rep["ok"] and rep["status"] == "ERR_BAD_METADATA", rep
    assert any("binary record" in q and "missing" in q for q in rep["problems"]), rep["problems"]
    with pytest.raises(lattio.FormatError):
        lattio.load(cut, index=1)


def test_second_checksum_record(tmp_path):
    src = fields(tmp_path, 1)
    recs = parse_lime(open(src, "rb").read())
    k = [t for t, _a, _p in recs].index("scidac-checksum")
    bad = str(tmp_path / "two.scidac")
    other = recs[k][2].replace(b"<suma>", b"<suma>1", 1)
    rewrite_lime(src, bad, lambda i, t, p: (t, p))
    # the same file with a second, contradicting checksum record appended after the first
    from conftest import write_lime
    write_lime(bad, [(t, p) for t, _a, p in recs[:k + 1]] + [("scidac-checksum", other)] +
               [(t, p) for t, _a, p in recs[k + 1:]])
    rep = both(bad)
    assert rep["status"] == "ERR_BAD_METADATA" and "scidac-checksum" in rep["problems"][0], rep


def test_colors_contradict_datatype(tmp_path):
    u = random_su3((2, 2, 2, 2), 3)
    src = str(tmp_path / "u.scidac")
    lattio.save(src, u, format="scidac")
    bad = str(tmp_path / "c4.scidac")
    rewrite_lime(src, bad, lambda i, t, p: (t, p.replace(b"<colors>3</colors>", b"<colors>4</colors>")))
    assert open(bad, "rb").read() != open(src, "rb").read()
    rep = both(bad)
    assert rep["status"] == "ERR_BAD_METADATA" and "says 3 colors" in " ".join(rep["problems"]), rep
    prec = str(tmp_path / "prec.scidac")  # <precision> F against a D datatype
    rewrite_lime(src, prec, lambda i, t, p: (t, p.replace(b"_D3_", b"_F3_")))
    rep = both(prec)
    assert rep["status"] == "ERR_BAD_METADATA" and "-bit" in " ".join(rep["problems"]), rep


def test_number_out_of_range_is_a_format_error(tmp_path):
    src = str(tmp_path / "u.scidac")
    lattio.save(src, random_su3((2, 2, 2, 2), 3), format="scidac")
    bad = str(tmp_path / "big.scidac")
    rewrite_lime(src, bad, lambda i, t, p: (t, p.replace(b"<colors>3</colors>", b"<colors>99999999999999999999</colors>")))
    assert open(bad, "rb").read() != open(src, "rb").read()
    with pytest.raises(lattio.FormatError):
        lattio.load(bad)
    assert both(bad)["status"] == "ERR_BAD_XML"


def test_su04gauge_and_escapes(tmp_path):
    src = data("lat.sample.l4444.ildg")
    for name, field in [("su04", b"su04gauge"), ("esc", b"s\x1b[31mXgauge")]:
        bad = str(tmp_path / name)
        rewrite_lime(src, bad, lambda i, t, p: (t, p.replace(b"su3gauge", field)))
        rep = both(bad)
        assert rep["status"] == "ERR_BAD_METADATA", rep
        for args in (["verify", bad], ["info", "--fields", bad], ["verify", "--json", bad]):
            p = command(*args)
            assert p.returncode == 1 and b"\x1b" not in p.stdout + p.stderr, (args, p.stdout, p.stderr)


def test_nersc_fifth_dimension(tmp_path):
    raw = open(data("t_nersc.cfg"), "rb").read()
    bad = tmp_path / "d5.cfg"
    bad.write_bytes(raw.replace(b"DIMENSION_4", b"DIMENSION_5", 1))
    with pytest.raises(lattio.FormatError):
        lattio.load(str(bad))
    assert not both(str(bad))["ok"]


@pytest.mark.parametrize("fmt", ["nersc", "openqcd", "hirep"])
def test_nan_is_not_saved_where_the_header_holds_the_plaquette(tmp_path, fmt):
    u = random_su3((2, 2, 2, 2), 5)
    u[0, 0, 0, 0, 0, 0, 0] = np.nan
    path = str(tmp_path / ("nan." + fmt))
    with pytest.raises(lattio.LattioError) as e:
        lattio.save(path, u, format=fmt)
    assert "NaN" in str(e.value) and not os.path.exists(path)
    lattio.save(str(tmp_path / "nan.ildg"), u, format="ildg")  # ILDG keeps the values and their checksum


def test_fifo_volume_does_not_hang(tmp_path):
    for n in os.listdir(data("qio-volumes/part")):
        (tmp_path / n).write_bytes(open(os.path.join(data("qio-volumes/part"), n), "rb").read())
    os.unlink(tmp_path / "binary_test.vol0002")
    os.mkfifo(tmp_path / "binary_test.vol0002")
    p = command("verify", str(tmp_path / "binary_test"), timeout=30)
    assert p.returncode == 1 and b"FIFO" in p.stdout + p.stderr, p.stdout + p.stderr
    assert not lattio.verify(str(tmp_path / "binary_test"))["ok"]


def test_many_small_fields_verify_in_linear_time(tmp_path):
    """500 one-site fields: the record index is read once per file, not
    once per field (it was 30 s for 500, 7.7 s for 250)."""
    times = {}
    for n in (250, 500):
        path = fields(tmp_path, n, sites=(1, 1, 1, 1))
        best = float("inf")
        for _ in range(2):
            t = time.perf_counter()
            rep = lattio.verify(path)
            best = min(best, time.perf_counter() - t)
        assert rep["ok"] and len(rep["fields"]) == n
        times[n] = best
    print("verify: 250 fields %.3f s, 500 fields %.3f s" % (times[250], times[500]))
    assert times[500] < 3.0 * times[250] + 0.05, times  # linear: ~2x; quadratic: ~4x
