"""The serial writer (lattio._core, no MPI: what a process that has not
initialised MPI uses) and the parallel one (lattio._lattio on a
communicator) write the same bytes, and their readers read the same values: the same ILDG and
SciDAC record sets, checksums and metadata, for gauge and generic fields in
both precisions.  The date is fixed so the files can be compared whole."""
import numpy as np
import pytest

import lattio

DATE = "Sat Nov 28 12:00:00 2026 UTC"


def fields():
    rng = np.random.default_rng(7)
    g = (rng.standard_normal((4, 2, 3, 2, 4, 3, 3)) + 1j * rng.standard_normal((4, 2, 3, 2, 4, 3, 3)))
    f = (rng.standard_normal((2, 3, 2, 4, 4, 3)) + 1j * rng.standard_normal((2, 3, 2, 4, 4, 3)))
    r = rng.standard_normal((2, 2, 2, 2, 5))
    return {"gauge": g, "fermion": f, "real": r}


@pytest.mark.parametrize("fmt", ["ildg", "scidac"])
@pytest.mark.parametrize("kind", ["gauge", "fermion", "real"])
@pytest.mark.parametrize("precision", [32, 64])
def test_serial_and_parallel_writers_agree(tmp_path, monkeypatch, fmt, kind, precision):
    pytest.importorskip("mpi4py")
    from mpi4py import MPI
    a = fields()[kind]
    if fmt == "ildg" and kind != "gauge":
        pytest.skip("ILDG holds gauge fields")
    meta = {"date": DATE, "record_xml": "<r>%s</r>" % kind}
    serial, parallel = str(tmp_path / "s.lime"), str(tmp_path / "p.lime")
    with monkeypatch.context() as m:  # the serial module even though this process initialised MPI
        m.setattr(lattio._mpi, "_initialised", lambda: None)
        lattio.save(serial, a, format=fmt, precision=precision, metadata=meta)
        back = lattio.load(serial)
    lattio.save(parallel, a, format=fmt, precision=precision, metadata=meta, comm=MPI.COMM_SELF)
    np.testing.assert_array_equal(back, lattio.load(parallel))
    with open(serial, "rb") as s, open(parallel, "rb") as p:
        assert s.read() == p.read()
    assert all(f["ok"] for f in lattio.verify(serial)["fields"])  # checksums (random links are not unitary)
