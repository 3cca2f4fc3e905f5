"""SU(N) gauge fields for N = 2, 4, 5: random SU(N) links (QR of Gaussian
matrices) saved as ILDG, SciDAC, NERSC and HiRep come back equal with the
shape (T, Z, Y, X, 4, N, N), and the plaquette and link trace lattio
computes (verify, the NERSC and HiRep headers) are the ones NumPy computes
here; HDF5 in both layouts holds them as QDP++ and Qlua name N x N
matrices (read back with h5py).  Files written here byte by byte with struct, as Grid writes an ILDG
SU(2) field (<field>su2gauge</field>) and as HiRep writes its format (t, x,
y, z sites, directions t, x, y, z), load with the right links; formats that
hold SU(3) only (MILC, openQCD) refuse SU(N) with a specific error, and
the command converts between the others."""
import re
import struct

import numpy as np
import pytest

import lattio
from conftest import lattio_cmd, parse_lime, scidac_sums

SHAPE = (4, 2, 2, 4)  # T, Z, Y, X
FORMATS = ("ildg", "scidac", "nersc", "hirep")


def random_sun(n, seed):
    rng = np.random.default_rng(seed)
    z = rng.standard_normal(SHAPE + (4, n, n)) + 1j * rng.standard_normal(SHAPE + (4, n, n))
    q, r = np.linalg.qr(z)
    d = np.diagonal(r, axis1=-2, axis2=-1)
    q = q * (d / abs(d))[..., None, :]
    return q / (np.linalg.det(q) ** (1.0 / n))[..., None, None]


def plaquette(u):
    """Re tr U_p / N averaged over sites and the six planes (mu = x, y, z, t
    on array axes 3, 2, 1, 0)."""
    n, total = u.shape[-1], 0.0
    for mu in range(4):
        for nu in range(mu + 1, 4):
            a, d = u[..., mu, :, :], u[..., nu, :, :]
            b = np.roll(d, -1, axis=3 - mu)
            c = np.roll(a, -1, axis=3 - nu)
            p = a @ b @ np.conj(np.swapaxes(c, -1, -2)) @ np.conj(np.swapaxes(d, -1, -2))
            total += np.trace(p, axis1=-2, axis2=-1).real.mean()
    return total / 6 / n


def link_trace(u):
    return np.trace(u, axis1=-2, axis2=-1).real.mean() / u.shape[-1]


@pytest.mark.parametrize("n", [2, 4, 5])
@pytest.mark.parametrize("fmt", FORMATS)
def test_round_trip_and_observables(tmp_path, n, fmt):
    u = random_sun(n, n)
    path = str(tmp_path / ("u." + fmt))
    lattio.save(path, u, format=fmt)
    back = lattio.load(path)
    assert back.shape == SHAPE + (4, n, n) and np.array_equal(back, u)
    rep = lattio.verify(path)
    assert rep["ok"], rep["problems"]
    assert abs(rep["plaquette"] - plaquette(u)) < 1e-12
    assert abs(rep["link_trace"] - link_trace(u)) < 1e-12
    f = lattio.open(path)
    assert f.fields[0].shape == SHAPE + (4, n, n)
    assert np.array_equal(f.fields[0][1:3, :, 1], u[1:3, :, 1])
    if fmt == "nersc":
        head = open(path, "rb").read(4096).decode("ascii", "replace")
        assert "DATATYPE = 4D_SU%d_GAUGE_%dx%d\n" % (n, n, n) in head
        assert abs(float(re.search(r"PLAQUETTE = (\S+)", head).group(1)) - plaquette(u)) < 1e-11
    if fmt == "hirep":
        raw = open(path, "rb").read(28)
        assert struct.unpack(">5i", raw[:20]) == (n, 4, 4, 2, 2)  # NG, T, X, Y, Z
        assert abs(struct.unpack(">d", raw[20:])[0] - plaquette(u)) < 1e-12


def grid_ildg(u, path):
    """An ILDG file as Grid writes an SU(N) one: ildg-format with su<N>gauge,
    the links big-endian in ILDG order, the SciDAC checksum."""
    n, (t, z, y, x) = u.shape[-1], SHAPE
    data = u.astype(">c16").tobytes()
    a, b = scidac_sums(data, 4 * n * n * 16)
    fmt = ('<?xml version="1.0" encoding="UTF-8"?><ildgFormat><version>1.0</version><field>su%dgauge</field>'
           '<precision>64</precision><lx>%d</lx><ly>%d</ly><lz>%d</lz><lt>%d</lt></ildgFormat>' % (n, x, y, z, t))
    recs = [(b"ildg-format", fmt.encode(), 1, 0), (b"ildg-binary-data", data, 0, 0),
            (b"scidac-checksum", ("<scidacChecksum><version>1.0</version><suma>%s</suma><sumb>%s</sumb>"
                                  "</scidacChecksum>" % (a, b)).encode(), 0, 1)]
    out = b""
    for rtype, payload, mb, me in recs:
        out += struct.pack(">IHBBQ", 0x456789AB, 1, (0x80 if mb else 0) | (0x40 if me else 0), 0, len(payload))
        out += rtype.ljust(128, b"\0") + payload + b"\0" * ((8 - len(payload) % 8) % 8)
    open(path, "wb").write(out)


def hirep_file(u, path, plaq):
    n, (t, z, y, x) = u.shape[-1], SHAPE
    body = u.transpose(0, 3, 2, 1, 4, 5, 6)[..., [3, 0, 1, 2], :, :]  # sites t, x, y, z; links t, x, y, z
    open(path, "wb").write(struct.pack(">5id", n, t, x, y, z, plaq) + body.astype(">c16").tobytes())


def test_files_written_by_other_codes(tmp_path):
    u = random_sun(2, 7)
    grid_ildg(u, str(tmp_path / "grid.ildg"))
    assert [t for t, _, _ in parse_lime(open(tmp_path / "grid.ildg", "rb").read())][0] == "ildg-format"
    assert np.array_equal(lattio.load(str(tmp_path / "grid.ildg")), u)
    assert lattio.verify(str(tmp_path / "grid.ildg"))["ok"]
    v = random_sun(4, 8)
    hirep_file(v, str(tmp_path / "cfg.hirep"), plaquette(v))
    assert lattio.format_of("cfg.hirep") == "hirep"
    assert np.array_equal(lattio.load(str(tmp_path / "cfg.hirep")), v)
    rep = lattio.verify(str(tmp_path / "cfg.hirep"))
    assert rep["ok"] and abs(rep["plaquette"] - plaquette(v)) < 1e-12
    hirep_file(v, str(tmp_path / "bad.hirep"), plaquette(v) + 0.01)  # a header plaquette that is wrong
    with pytest.raises(lattio.ChecksumError):
        lattio.load(str(tmp_path / "bad.hirep"))


@pytest.mark.parametrize("layout", ["qdp", "qlua"])
def test_hdf5(tmp_path, layout):
    """QDP++'s [..][4] of .ColorMatrixDouble<N>, Qlua's group of N x N directions."""
    h5py = pytest.importorskip("h5py")
    u = random_sun(4, 6)
    path = str(tmp_path / "u.h5")
    lattio.save(path, u, format="hdf5", layout=layout)
    assert np.array_equal(lattio.load(path), u)
    rep = lattio.verify(path)
    assert rep["ok"] and abs(rep["plaquette"] - plaquette(u)) < 1e-12
    with h5py.File(path, "r") as f:
        if layout == "qdp":  # [t][z][y][x][4] of 4 x 4 complex
            assert f["lattice"].shape == SHAPE + (4,) and f["lattice"].dtype.subdtype[1] == (4, 4)
            assert np.array_equal(f["lattice"][()], u)
        else:  # direction y: [x][y][z][t] of 4 x 4 complex
            assert f["lattice/1"].shape == SHAPE[::-1] and f["lattice/1"].dtype.subdtype[1] == (4, 4)
            assert np.array_equal(f["lattice/1"][()].transpose(3, 2, 1, 0, 4, 5), u[..., 1, :, :])
    p = lattio_cmd("convert", path, str(tmp_path / "u.hirep"), "--to", "hirep")
    assert p.returncode == 0, p.stderr
    assert np.array_equal(lattio.load(str(tmp_path / "u.hirep")), u)


def test_su3_only_formats_refuse(tmp_path):
    u = random_sun(4, 3)
    for fmt in ("milc", "openqcd"):
        with pytest.raises(ValueError, match="SU\\(3\\)"):
            lattio.save(str(tmp_path / ("u." + fmt)), u, format=fmt)
    lattio.save(str(tmp_path / "u.nersc"), u)
    p = lattio_cmd("convert", str(tmp_path / "u.nersc"), str(tmp_path / "u.milc"), "--to", "milc")
    assert p.returncode == 1 and b"SU(4)" in p.stderr and b"SU(3) gauge fields only" in p.stderr


def test_command_converts(tmp_path):
    u = random_sun(5, 4)
    src = str(tmp_path / "u.nersc")
    lattio.save(src, u)
    last = src
    for fmt in ("hirep", "ildg", "scidac", "nersc"):
        out = str(tmp_path / ("c." + fmt))
        p = lattio_cmd("convert", last, out, "--to", fmt)
        assert p.returncode == 0, p.stderr
        assert np.array_equal(lattio.load(out), u)
        last = out
    p = lattio_cmd("verify", last)
    assert p.returncode == 0 and b"SU(5)" in p.stdout
