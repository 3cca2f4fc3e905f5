"""Decompositions: which block of the lattice each rank holds.

A lattice of extents (T, Z, Y, X) (array-axis order, slowest first) is cut
into a grid of (pt, pz, py, px) blocks by the library's split rule: extent n
over p ranks, the first n % p ranks get one site more.  A rank's grid
coordinates come from a Cartesian communicator (its dimensions in array-axis
order) or, for a plain communicator, from its rank in C order over the grid.
"""
from typing import TYPE_CHECKING, Optional, Sequence, Tuple

import numpy as np

from . import _core

if TYPE_CHECKING:
    from mpi4py import MPI


def _mpi():
    """mpi4py.MPI: every function here that gets a communicator imports it
    (its caller made the communicator, so this initialises nothing)."""
    from mpi4py import MPI
    return MPI


def grid_of(comm, nd, grid=None):
    """(dims, coords) of this rank for an nd-dimensional lattice."""
    MPI = _mpi()
    size, rank = comm.Get_size(), comm.Get_rank()
    if isinstance(comm, MPI.Cartcomm):
        if grid is not None:
            raise ValueError("grid= is for plain communicators: a Cartesian communicator's "
                             "dimensions are the grid")
        dims = tuple(int(d) for d in comm.Get_topo()[0])
        if len(dims) != nd:
            raise ValueError("the Cartesian communicator has %d dimensions, the lattice %d" % (len(dims), nd))
        return dims, coords_of(comm, dims, rank)
    if grid is None:
        dims = tuple(int(d) for d in MPI.Compute_dims(size, nd))
    else:
        try:
            dims = tuple(int(d) for d in grid)
        except TypeError:
            raise TypeError("grid must be a sequence of %d integers" % nd) from None
        if len(dims) != nd or any(d < 1 for d in dims):
            raise ValueError("grid %r: %d positive integers needed" % (tuple(grid), nd))
        if int(np.prod(dims)) != size:
            raise ValueError("grid %r has %d blocks for %d ranks" % (dims, int(np.prod(dims)), size))
    return dims, coords_of(comm, dims, rank)


def coords_of(comm, dims, rank):
    """Grid coordinates of `rank`: the Cartesian communicator's, else the
    rank in C order over the grid."""
    if isinstance(comm, _mpi().Cartcomm):
        return tuple(int(c) for c in comm.Get_coords(rank))
    return tuple(int(c) for c in np.unravel_index(rank, dims))


def blocks(comm, dims, extents):
    """Every rank's block as (rank, start, count, slices into the whole array)."""
    for r in range(comm.Get_size()):
        lo, count = box(extents, dims, coords_of(comm, dims, r))
        yield r, lo, count, tuple(slice(a, a + k) for a, k in zip(lo, count))


def box(extents, dims, coords):
    """(start, count) of the block at coords: the library's split rule."""
    lo, count = [], []
    for n, p, c in zip(extents, dims, coords):
        a, k = _core.split(int(n), int(p), int(c))
        lo.append(a)
        count.append(k)
    return tuple(lo), tuple(count)


def local_box(shape: Sequence[int], comm: Optional["MPI.Comm"] = None,
              grid: Optional[Sequence[int]] = None) -> Tuple[Tuple[int, ...], Tuple[int, ...]]:
    """Start and stop indices of this rank's block of a lattice array.

    ``shape`` is the whole array's shape; its first ``nd`` axes are the
    lattice (nd = the Cartesian communicator's dimensions, ``len(grid)``, or
    4).  Returns ``(start, stop)``, two tuples of nd integers, so that
    ``whole[tuple(slice(a, b) for a, b in zip(start, stop))]`` is the block
    ``lattio.load(path, comm=comm, grid=grid)`` returns on this rank.
    Without a communicator the block is the whole lattice."""
    shape = tuple(int(s) for s in shape)
    cart = None
    if comm is not None:
        from mpi4py import MPI
        cart = comm if isinstance(comm, MPI.Cartcomm) else None
    if cart is not None:
        nd = cart.Get_dim()
    elif grid is not None:
        nd = len(tuple(grid))
    else:
        nd = min(4, len(shape))
    if len(shape) < nd or any(s < 1 for s in shape[:nd]):
        raise ValueError("shape %r: %d positive lattice extents needed" % (shape, nd))
    if comm is None:
        if grid is not None and int(np.prod(tuple(grid))) != 1:
            raise ValueError("grid %r without a communicator" % (tuple(grid),))
        return (0,) * nd, shape[:nd]
    dims, coords = grid_of(comm, nd, grid)
    lo, count = box(shape[:nd], dims, coords)
    return lo, tuple(a + k for a, k in zip(lo, count))


def same_everywhere(comm, args):
    """Collective: the arguments every rank must pass alike, as (name, value)
    pairs, compared with rank 0's before anything is done; on a difference
    every rank raises :class:`lattio.RankArgumentError` (ERR_RANK_ARG) naming the first
    argument that differs (the C library's own check, ahead of calls that
    would otherwise differ between ranks and wait for each other)."""
    if comm is None or comm.Get_size() == 1:
        return
    mine = [(name, repr(value)) for name, value in args]
    root = comm.bcast(mine, root=0)
    first = next((i for i, (a, b) in enumerate(zip(mine, root)) if a != b), len(mine))
    if len(mine) != len(root):
        first = min(first, len(mine), len(root))
    first = comm.allreduce(first, op=_mpi().MIN)
    if first < len(root):
        from .errors import RankArgumentError
        raise RankArgumentError(-500, "ERR_RANK_ARG", "arguments differ between ranks",
                       "argument '%s' differs between ranks" % root[first][0])


def agree(comm, error):
    """Collective: raise on every rank the first failing rank's exception
    (an exception object or None on each rank)."""
    if comm is None or comm.Get_size() == 1:
        if error is not None:
            raise error
        return
    failed = comm.allreduce(0 if error is None else 1, op=_mpi().SUM)
    if failed == 0:
        return
    errors = comm.allgather(error)
    first = next(e for e in errors if e is not None)
    raise first
