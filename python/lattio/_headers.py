"""The headers of NERSC, MILC, openQCD and HiRep files read in Python for
lattio.open (their metadata as dicts), each validated against the file's
size; the library reads and verifies the data (lattio.load).
"""
from __future__ import annotations

import re
import struct
from typing import Any, Dict

import numpy as np

from ._formats import _value_code
from ._meta import _number


def _expect(size: int, want: int, what: str) -> None:
    if size != want:
        raise ValueError("%s: the file has %d bytes, its header says %d" % (what, size, want))


def _nersc(head: bytes, size: int):
    end = head.find(b"END_HEADER")
    if not head.startswith(b"BEGIN_HEADER") or end < 0:
        raise ValueError("NERSC: no BEGIN_HEADER ... END_HEADER in the first 64 KiB")
    nl = head.find(b"\n", end)
    offset = (nl if nl >= 0 else len(head)) + 1
    header: Dict[str, Any] = {}
    for line in head[:end].decode("ascii", "replace").splitlines()[1:]:
        if "=" in line:
            k, v = line.split("=", 1)
            header[k.strip()] = _number(v.strip())
    dims = tuple(int(header["DIMENSION_%d" % d]) for d in (1, 2, 3, 4))
    fp = str(header.get("FLOATING_POINT", "IEEE64BIG")).upper()
    prec = 32 if "32" in fp else 64
    little = "LITTLE" in fp
    datatype = str(header.get("DATATYPE", "4D_SU3_GAUGE")).upper()
    su = re.fullmatch(r"4D_SU(\d+)_GAUGE_(\d+)X(\d+)", datatype)
    if datatype == "4D_SU3_GAUGE":
        rows, nc = 2, 3
    elif su and su.group(1) == su.group(2) == su.group(3):
        rows = nc = int(su.group(1))
    else:
        raise ValueError("NERSC: DATATYPE %s" % datatype)
    if min(dims) < 1:
        raise ValueError("NERSC: dimensions %r" % (dims,))
    volume = int(np.prod(dims, dtype=np.int64))
    _expect(size, offset + volume * 4 * rows * nc * 2 * (prec // 8), "NERSC")
    code = ("<" if little else ">") + _value_code(prec, True)
    meta = {"header": header, "plaquette": header.get("PLAQUETTE"), "link_trace": header.get("LINK_TRACE"),
            "ensemble": header.get("ENSEMBLE_LABEL", header.get("ENSEMBLE_ID"))}
    return meta, dims, {"offset": offset, "dtype": np.dtype(code), "rows": rows, "colors": nc,
                        "precision": prec}, "nersc"


def _milc(head: bytes, size: int):
    little = struct.unpack(">i", head[:4])[0] != 20103
    e = "<" if little else ">"
    magic, x, y, z, t = struct.unpack(e + "5i", head[:20])
    if magic != 20103:
        raise ValueError("MILC: magic %d" % magic)
    stamp = head[20:84].rstrip(b"\0").decode("ascii", "replace")
    order, sum29, sum31 = struct.unpack(e + "iII", head[84:96])
    dims = (x, y, z, t)
    if min(dims) < 1:
        raise ValueError("MILC: dimensions %r" % (dims,))
    _expect(size, 96 + int(np.prod(dims, dtype=np.int64)) * 288, "MILC")
    header = {"magic": magic, "dims": dims, "time_stamp": stamp, "order": order, "sum29": "%08x" % sum29,
              "sum31": "%08x" % sum31, "byte_order": "little" if little else "big"}
    return ({"header": header, "time_stamp": stamp}, dims,
            {"offset": 96, "dtype": np.dtype(e + "c8"), "rows": 3, "precision": 32}, "milc")


def _openqcd(head: bytes, size: int):
    n0, n1, n2, n3 = struct.unpack("<4i", head[:16])
    plaq = struct.unpack("<d", head[16:24])[0]
    dims = (n1, n2, n3, n0)  # x, y, z, t
    if min(dims) < 2 or any(d % 2 for d in dims):
        raise ValueError("openQCD: dimensions %r" % (dims,))
    _expect(size, 24 + int(np.prod(dims, dtype=np.int64)) // 2 * 8 * 144, "openQCD")
    header = {"dims_txyz": (n0, n1, n2, n3), "plaquette_sum": plaq}
    return ({"header": header, "plaquette": plaq / 3.0}, dims,
            {"offset": 24, "dtype": np.dtype("<c16"), "rows": 3, "precision": 64, "openqcd": (n0, n1, n2, n3)},
            "none")


def _hirep(head: bytes, size: int):
    ng, t, x, y, z = struct.unpack(">5i", head[:20])
    plaq = struct.unpack(">d", head[20:28])[0]
    dims = (x, y, z, t)
    if not 2 <= ng <= 16 or min(dims) < 1:
        raise ValueError("HiRep: NG %d, dimensions %r" % (ng, dims))
    _expect(size, 28 + int(np.prod(dims, dtype=np.int64)) * 4 * ng * ng * 16, "HiRep")
    header = {"NG": ng, "dims_txyz": (t, x, y, z), "plaquette": plaq}
    return ({"header": header, "plaquette": plaq}, dims,
            {"offset": 28, "dtype": np.dtype(">c16"), "rows": ng, "colors": ng, "precision": 64, "hirep": True},
            "none")
