"""Shared by lattio's Python tests: the real files, their EXPECTED.md
numbers (parsed, not copied), independent readers and observables."""
import ctypes
import os
import re
import struct
import subprocess
import zlib

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("LATTIO_TESTDATA", os.path.join(HERE, "..", "..", "tests", "data", "real"))
BIN = os.environ.get("LATTIO_BIN", os.path.join(HERE, "..", "..", "build", "bin"))


def data(name):
    return os.path.join(DATA, name)


def expected():
    """{file: (plaquette, link trace)} and {(file, n): (suma, sumb)} from EXPECTED.md."""
    text = open(data("EXPECTED.md")).read()
    obs, sums = {}, {}
    for m in re.finditer(r"^\| `([^`]+)` \| ([0-9.]+)[^|]*\| ([0-9.]+)", text, re.M):
        obs[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    for m in re.finditer(r"^\| `([^`]+)`(?:, (\w+) binary record)? \| \d+ \| ([0-9a-f]{8}) \| ([0-9a-f]{8}) \|",
                         text, re.M):
        n = {"first": 0, "second": 1, "third": 2, "twelfth": 11}[m.group(2) or "first"]
        sums[(m.group(1), n)] = (m.group(3), m.group(4))
    return obs, sums


def parse_lime(raw):
    """An independent LIME parser: [(type, offset of payload, payload)]."""
    out, off = [], 0
    while off < len(raw):
        magic, _v, _f, _r, length = struct.unpack(">IHBBQ", raw[off:off + 16])
        assert magic == 0x456789AB
        rtype = raw[off + 16:off + 144].split(b"\0")[0].decode()
        out.append((rtype, off + 144, raw[off + 144:off + 144 + length]))
        off += 144 + length + (8 - length % 8) % 8
    return out


def scidac_sums(payload, site_bytes):
    """SciDAC's checksum of a binary record, with zlib's CRC-32."""
    a = b = 0
    for r in range(len(payload) // site_bytes):
        c = zlib.crc32(payload[r * site_bytes:(r + 1) * site_bytes]) & 0xFFFFFFFF
        ra, rb = r % 29, r % 31
        a ^= ((c << ra) | (c >> (32 - ra))) & 0xFFFFFFFF if ra else c
        b ^= ((c << rb) | (c >> (32 - rb))) & 0xFFFFFFFF if rb else c
    return "%08x" % a, "%08x" % b


def plaquette(u):
    """Re tr U_p / 3 over sites and the six planes, with NumPy alone
    (u: (T, Z, Y, X, 4, 3, 3), mu = x, y, z, t on axes 3, 2, 1, 0)."""
    u = u.astype(np.complex128)
    axis = {0: 3, 1: 2, 2: 1, 3: 0}
    total = 0.0
    for mu in range(4):
        for nu in range(mu + 1, 4):
            a = u[..., mu, :, :]
            b = np.roll(u[..., nu, :, :], -1, axis=axis[mu])
            c = np.roll(u[..., mu, :, :], -1, axis=axis[nu]).conj().swapaxes(-1, -2)
            d = u[..., nu, :, :].conj().swapaxes(-1, -2)
            total += np.einsum("...ij,...jk,...kl,...li->...", a, b, c, d).real.sum()
    return total / (6 * 3 * np.prod(u.shape[:4]))


def link_trace(u):
    return np.einsum("...ii->...", u.astype(np.complex128)).real.mean() / 3


def random_su3(shape, seed):
    """Random SU(3) links of a (T, Z, Y, X) lattice (QR of Gaussian matrices)."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal(shape + (4, 3, 3)) + 1j * rng.standard_normal(shape + (4, 3, 3))
    q, r = np.linalg.qr(z)
    d = np.diagonal(r, axis1=-2, axis2=-1)
    q = q * (d / np.abs(d))[..., None, :]
    det = np.linalg.det(q)
    q[..., :, 0] /= det[..., None]  # det 1: divide one column by the determinant
    return np.ascontiguousarray(q)


_libc = ctypes.CDLL(None, use_errno=True)


def read_bytes(path, n=-1):
    """The bytes of a file another rank, maybe on another node, just wrote.
    A network file system's client (GlusterFS, NFS) caches sizes and pages:
    first an fsync, the cached pages dropped and a statx that bypasses the
    kernel's attribute cache (AT_EMPTY_PATH | AT_STATX_FORCE_SYNC, STATX_SIZE),
    as the library does before it reads."""
    os.listdir(os.path.dirname(os.path.abspath(path)))  # FUSE: READDIRPLUS renews renamed entries
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        _libc.statx(fd, b"", 0x1000 | 0x2000, 0x200, ctypes.create_string_buffer(256))
    finally:
        os.close(fd)
    with open(path, "rb") as f:
        return f.read(n)


def creation_date(path):
    """The time of writing to the second, the one part two writes of the same
    field may differ in: a NERSC header's CREATION_DATE line, a MILC
    header's 64-byte time stamp (after the magic number and four sizes),
    b"" for other formats."""
    head = read_bytes(path, 4096)
    if head[:4] in (struct.pack("<i", 20103), struct.pack(">i", 20103)):
        return head[20:84]
    m = re.search(rb"CREATION_DATE = [^\n]*", head)
    return m.group(0) if m else b""


def lattio_cmd(*args):
    return subprocess.run([os.path.join(BIN, "lattio")] + list(args), capture_output=True)


@pytest.fixture
def su3():
    return random_su3((4, 2, 2, 6), 11)


def write_lime(path, recs):
    """A LIME file of recs [(type, payload)], the first record MB, the
    last ME (one message), written with struct alone."""
    out = b""
    for i, (rtype, payload) in enumerate(recs):
        rtype = rtype.encode() if isinstance(rtype, str) else rtype
        flags = (0x80 if i == 0 else 0) | (0x40 if i == len(recs) - 1 else 0)
        out += struct.pack(">IHBBQ", 0x456789AB, 1, flags, 0, len(payload))
        out += rtype.ljust(128, b"\0") + payload + b"\0" * ((8 - len(payload) % 8) % 8)
    open(path, "wb").write(out)


def rewrite_lime(src, dst, edit):
    """src's records through edit(i, type, payload) -> (type, payload) or
    None (dropped), into dst."""
    recs = []
    for i, (rtype, _at, payload) in enumerate(parse_lime(open(src, "rb").read())):
        r = edit(i, rtype, payload)
        if r is not None:
            recs.append(r)
    write_lime(dst, recs)
