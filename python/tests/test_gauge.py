"""lattio.gauge: plaquette (total, per plane, per timeslice), Polyakov loop,
link trace and unitarity of SU(N) arrays, vectorised in NumPy, equal to the
C library's (lattio verify) on every real gauge file to 1e-12, and
invariant under a random gauge transformation (an independent check)."""
import os

import numpy as np
import pytest

import lattio
import lattio.gauge as g
from conftest import data, random_su3

SHARED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "testdata")
REAL = [data(n) for n in ("lat.sample.l4444.ildg", "t_dprec_ildg.lime", "unity.lime", "t_nersc.cfg")]
REAL += [os.path.join(SHARED, n) for n in ("lat.sample.l4444.ildg", "t_nersc.cfg", "unity.lime")
         if os.path.isfile(os.path.join(SHARED, n))]


@pytest.mark.parametrize("path", REAL)
def test_equal_to_the_library(path):
    rep = lattio.verify(path)
    u = lattio.load(path, dtype=np.complex128)
    assert abs(g.plaquette(u) - rep["plaquette"]) < 1e-12
    assert abs(g.link_trace(u) - rep["link_trace"]) < 1e-12
    assert abs(g.unitarity(u) - rep["unitarity"]) < 1e-12
    assert abs(g.plaquette(u, per="plane").mean() - rep["plaquette"]) < 1e-12
    assert abs(g.plaquette(u, per="t").mean() - rep["plaquette"]) < 1e-12


def random_sun(shape, n, seed):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=shape + (n, n)) + 1j * rng.normal(size=shape + (n, n))
    q, r = np.linalg.qr(z)
    d = np.diagonal(r, axis1=-2, axis2=-1)
    q = q * (d / abs(d))[..., None, :]
    return q / np.linalg.det(q)[..., None, None] ** (1.0 / n)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_gauge_invariance(n):
    shape = (6, 2, 4, 2)
    u = np.stack([random_sun(shape, n, 10 + mu) for mu in range(4)], axis=4)
    gt = random_sun(shape, n, 99)
    axis = {0: 3, 1: 2, 2: 1, 3: 0}
    v = np.empty_like(u)
    for mu in range(4):  # U'_mu(x) = g(x) U_mu(x) g(x + mu)^+
        v[..., mu, :, :] = gt @ u[..., mu, :, :] @ np.conj(np.swapaxes(np.roll(gt, -1, axis=axis[mu]), -1, -2))
    assert abs(g.plaquette(u) - g.plaquette(v)) < 1e-12
    assert np.allclose(g.plaquette(u, per="t"), g.plaquette(v, per="t"), atol=1e-12)
    assert np.allclose(g.plaquette(u, per="plane"), g.plaquette(v, per="plane"), atol=1e-12)
    assert np.allclose(g.polyakov(u), g.polyakov(v), atol=1e-12)
    assert g.polyakov(u).shape == (2, 4, 2) and g.polyakov(u, mu=0).shape == (6, 2, 4)
    assert g.unitarity(u) < 1e-12


def test_unit_and_shapes():
    u = np.zeros((4, 2, 2, 2, 4, 3, 3), np.complex64)
    u[..., :, :] = np.eye(3)
    assert g.plaquette(u) == 1.0 and g.link_trace(u) == 1.0 and np.all(g.polyakov(u) == 1)
    assert g.plaquette(random_su3((4, 2, 2, 2), 1), per="t").shape == (4,)
    with pytest.raises(ValueError):
        g.plaquette(np.zeros((2, 2, 2, 2, 3, 3, 3), np.complex64))
    with pytest.raises(TypeError):
        g.plaquette(np.zeros((2, 2, 2, 2, 4, 3, 3)))
    with pytest.raises(ValueError):
        g.plaquette(u, per="x")
