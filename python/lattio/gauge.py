"""Gauge observables of SU(N) link arrays, in NumPy, for analysis.

``u`` is a gauge field as :func:`lattio.load` returns it:
``(T, Z, Y, X, 4, N, N)`` complex, links ``mu = 0, 1, 2, 3`` along
``x, y, z, t`` (ILDG order; the lattice axes run t, z, y, x), periodic.
Every observable is the one ``lattio verify`` reports (Re tr / N), computed
vectorised over the whole lattice: the C library's numbers to rounding
(tests compare them to 1e-12 on every real file).

    >>> u = lattio.load("cfg.ildg")
    >>> lattio.gauge.plaquette(u)                 # average over sites and the six planes
    >>> lattio.gauge.plaquette(u, per="plane")    # (6,): xy, xz, xt, yz, yt, zt
    >>> lattio.gauge.plaquette(u, per="t")        # (T,): per timeslice
    >>> lattio.gauge.polyakov(u).mean()           # the Polyakov loop, averaged over space
"""
from __future__ import annotations

from typing import Optional, Tuple, Union

import numpy as np

__all__ = ["PLANES", "plaquette", "polyakov", "link_trace", "unitarity"]

#: The six planes (mu, nu) in the order ``plaquette(per="plane")`` gives them.
PLANES: Tuple[Tuple[int, int], ...] = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
_AXIS = {0: 3, 1: 2, 2: 1, 3: 0}  # link direction -> lattice axis of (T, Z, Y, X)


def _links(u: np.ndarray) -> Tuple[np.ndarray, int]:
    u = np.asarray(u)
    if u.ndim != 7 or u.shape[4] != 4 or u.shape[5] != u.shape[6] or u.shape[5] < 1:
        raise ValueError("a gauge field is (T, Z, Y, X, 4, N, N), not %r" % (u.shape,))
    if u.dtype.kind != "c":
        raise TypeError("a gauge field is complex, not %s" % u.dtype)
    return u.astype(np.complex128, copy=False), u.shape[5]


def _plane(u: np.ndarray, mu: int, nu: int, n: int) -> np.ndarray:
    """Re tr U_mu(x) U_nu(x+mu) U_mu(x+nu)^+ U_nu(x)^+ / N at every site."""
    ab = u[..., mu, :, :] @ np.roll(u[..., nu, :, :], -1, axis=_AXIS[mu])
    dc = u[..., nu, :, :] @ np.roll(u[..., mu, :, :], -1, axis=_AXIS[nu])
    return np.einsum("...ij,...ij->...", ab, dc.conj()).real / n


def plaquette(u: np.ndarray, *, per: Optional[str] = None) -> Union[float, np.ndarray]:
    """The average plaquette Re tr U_p / N: over the sites and the six
    planes (``per=None``), per plane (``per="plane"``, shape (6,), in
    :data:`PLANES` order), or per timeslice of the plaquette's base site
    (``per="t"``, shape (T,))."""
    if per not in (None, "plane", "t"):
        raise ValueError("per must be None, 'plane' or 't', not %r" % (per,))
    u, n = _links(u)
    fields = [_plane(u, mu, nu, n) for mu, nu in PLANES]
    if per == "plane":
        return np.array([f.mean() for f in fields])
    if per == "t":
        return np.mean([f.mean(axis=(1, 2, 3)) for f in fields], axis=0)
    return float(np.mean([f.mean() for f in fields]))


def polyakov(u: np.ndarray, mu: int = 3) -> np.ndarray:
    """The Polyakov loop tr(prod U_mu) / N along direction ``mu`` (3: t) at
    every site of the other three axes (complex; ``.mean()`` averages over
    them).  Shape: the lattice without axis ``mu``."""
    if mu not in _AXIS:
        raise ValueError("mu must be 0, 1, 2 or 3 (x, y, z, t), not %r" % (mu,))
    u, n = _links(u)
    axis = _AXIS[mu]
    links = np.moveaxis(u[..., mu, :, :], axis, 0)  # (L, rest..., N, N)
    loop = links[0]
    for step in links[1:]:  # along the loop's direction only, every site at once
        loop = loop @ step
    return np.trace(loop, axis1=-2, axis2=-1) / n


def link_trace(u: np.ndarray) -> float:
    """The average link trace Re tr U / N over sites and directions."""
    u, n = _links(u)
    return float(np.trace(u, axis1=-2, axis2=-1).real.mean() / n)


def unitarity(u: np.ndarray) -> float:
    """max |U^+ U - 1| over links and matrix elements (what ``lattio
    verify`` holds to 1e-5); infinity when a link is not finite."""
    u, n = _links(u)
    dev = np.abs(np.conj(np.swapaxes(u, -1, -2)) @ u - np.eye(n))
    return float("inf") if np.isnan(dev).any() else float(dev.max())
