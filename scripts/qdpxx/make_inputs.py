"""make_inputs.py L T -- the proof's fields, written by lattio: a random
SU(3) gauge field (gauge.lime, ILDG), a random propagator (prop.lime,
SciDAC USQCD_D3_DiracPropagator) and a random real field (real.lime,
SciDAC), the same three in QDP++'s HDF5 layout (lattio.h5: /cfg/U, /prop,
/real), and the arrays themselves (fields.npz) for the comparisons."""
import sys

import numpy as np

import lattio

L, T = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(2026)
shape = (T, L, L, L)
z = rng.standard_normal(shape + (4, 3, 3)) + 1j * rng.standard_normal(shape + (4, 3, 3))
q, r = np.linalg.qr(z)
d = np.diagonal(r, axis1=-2, axis2=-1)
u = q * (d / np.abs(d))[..., None, :]
u[..., :, 0] /= np.linalg.det(u)[..., None]  # SU(3): determinant 1
u = np.ascontiguousarray(u)
prop = rng.standard_normal(shape + (4, 4, 3, 3)) + 1j * rng.standard_normal(shape + (4, 4, 3, 3))
real = rng.standard_normal(shape)
lattio.save("gauge.lime", u, format="ildg")
lattio.save("prop.lime", prop, format="scidac", field="propagator")
lattio.save("real.lime", real, format="scidac", field="real")
lattio.save("lattio.h5:/cfg/U", u)
lattio.save("lattio.h5:/prop", prop, append=True, field="propagator")
lattio.save("lattio.h5:/real", real, append=True, field="real")
np.savez("fields.npz", u=u, prop=prop, real=real)
