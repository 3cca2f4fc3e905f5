#!/usr/bin/env python3
"""The base files of the HDF5 damage sweep (sweep.c), each holding fields
whose checksums lattio verifies, so a damaged variant read "ok" with other
values is caught: a QDP++ and a Qlua file written by `lattio convert`, and
h5py's own writing of the same field (QDP++ with its suma/sumb, Qlua with
.sha256 from hashlib), two fields in one file, and a chunked, gzip- and
Fletcher32-filtered dataset.  Usage: sweep_files.py OUTDIR; prints the
paths."""
import hashlib
import os
import struct
import subprocess
import sys

import h5py
import numpy as np

LATTIO = os.path.join(os.environ.get("LATTIO_BIN", "."), "lattio")
DATA = os.environ.get("LATTIO_TESTDATA", ".")


def convert(src, out, *args):
    subprocess.run([LATTIO, "convert", src, out, "--to", "hdf5"] + list(args), check=True,
                   stdout=subprocess.DEVNULL)
    return out


def qlua_sha(v, real):
    """Qlua's sum of an (X, Y, Z, T, 3, 3) complex dataset: XOR over sites of
    SHA-256(le64(4), le64(x), le64(y), le64(z), le64(t), values as little-endian `real`s)."""
    acc = bytearray(32)
    for (x, y, z, t) in np.ndindex(*v.shape[:4]):
        site = v[x, y, z, t]
        vals = np.stack([site.real, site.imag], axis=-1).astype("<" + real).tobytes()
        h = hashlib.sha256(struct.pack("<5q", 4, x, y, z, t) + vals).digest()
        acc = bytearray(a ^ b for a, b in zip(acc, h))
    return bytes(acc)


def h5py_copies(qdp, out):
    """h5py's writing of the QDP++ field of `qdp` (committed types, suma/sumb
    copied) in three files: one field, two fields, chunked and filtered."""
    with h5py.File(qdp, "r") as f:
        d = f["/lattice"]
        u, attrs, shape = d[...], dict(d.attrs), d.shape
        ctype = d.dtype
    paths = []
    for name, where, kw in (("qdp_h5py.h5", ["/cfg/U"], {}),
                            ("two_fields_h5py.h5", ["/a/U", "/b/U"], {}),
                            ("qdp_chunked_h5py.h5", ["/cfg/U"],
                             dict(chunks=(2, 2, 2, 2, 4), compression="gzip", fletcher32=True))):
        p = os.path.join(out, name)
        with h5py.File(p, "w") as g:
            base = ctype.subdtype[0] if ctype.subdtype else ctype
            prec = "Float" if base.itemsize == 8 else "Double"
            g[".Complex" + prec] = base
            g[".ColorMatrix" + prec + "3"] = np.dtype((base, (3, 3)))
            for w in where:
                ds = g.create_dataset(w, shape=shape, dtype=g[".ColorMatrix" + prec + "3"], **kw)
                ds[...] = u
                for k, v in attrs.items():
                    ds.attrs[k] = v
        paths.append(p)
    return paths


def h5py_qlua(qdp, out):
    """A Qlua gauge group written by h5py, .sha256 computed here."""
    with h5py.File(qdp, "r") as f:
        u = f["/lattice"][...]
    real, prec = ("f4", "Float") if u.dtype.itemsize == 8 else ("f8", "Double")
    p = os.path.join(out, "qlua_h5py.h5")
    with h5py.File(p, "w") as g:
        big = np.dtype([("r", ">" + real), ("i", ">" + real)])
        g[".Complex" + prec] = big
        g[".ColorMatrix" + prec + "3"] = np.dtype((big, (3, 3)))
        grp = g.create_group("gauge")
        for mu in range(4):
            v = np.transpose(u[:, :, :, :, mu], (3, 2, 1, 0, 4, 5))
            a = np.empty(v.shape, dtype=big)
            a["r"], a["i"] = v.real, v.imag
            ds = grp.create_dataset(str(mu), shape=v.shape[:4], dtype=g[".ColorMatrix" + prec + "3"])
            ds[...] = a
            ds.attrs.create(".kind", np.bytes_(b"LatticeColorMatrix"))
            ds.attrs.create(".sha256", np.frombuffer(qlua_sha(v, real), dtype=np.uint8),
                            dtype=np.dtype((np.dtype(">u1"), (32,))))
    return p


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    src = os.path.join(DATA, "lat.sample.l4444.ildg")
    qdp = convert(src, os.path.join(out, "qdp_lattio.h5"))
    qlua = convert(src, os.path.join(out, "qlua_lattio.h5"), "--layout", "qlua")
    for p in [qdp, qlua] + h5py_copies(qdp, out) + [h5py_qlua(qdp, out)]:
        print(p)


main()
