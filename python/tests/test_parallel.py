"""Under mpirun (2 or 3 ranks): blocks of parallel loads equal the serial
load, parallel saves equal serial ones byte for byte, and a failure on one
rank raises the same exception on every rank.  Skipped on one process."""
import os
import shutil
import tempfile

import numpy as np
import pytest
from mpi4py import MPI

import lattio
from conftest import creation_date, data, random_su3, read_bytes

WORLD = MPI.COMM_WORLD
pytestmark = pytest.mark.skipif(WORLD.Get_size() < 2, reason="run under mpirun -np 2 or more")


@pytest.fixture
def shared_dir():
    """A directory all ranks see (rank 0 makes it)."""
    d = tempfile.mkdtemp(prefix="lattio-py-", dir=os.environ.get("LATTIO_PYTEST_DIR", ".")) \
        if WORLD.Get_rank() == 0 else None
    d = WORLD.bcast(d, root=0)
    yield d
    WORLD.Barrier()
    if WORLD.Get_rank() == 0:
        shutil.rmtree(d, ignore_errors=True)


def block(whole, comm, grid=None):
    lo, hi = lattio.local_box(whole.shape, comm, grid)
    return np.ascontiguousarray(whole[tuple(slice(a, b) for a, b in zip(lo, hi))])


def gathered_equal(mine, want):
    """True on every rank when every rank's block equals its reference."""
    return WORLD.allreduce(int(mine.shape == want.shape and np.array_equal(mine, want)), op=MPI.MIN) == 1


def grids():
    n = WORLD.Get_size()
    return [None, (n, 1, 1, 1), (1, 1, 1, n), (1, n, 1, 1)]


@pytest.mark.parametrize("name", ["t_dprec_ildg.lime", "lat.sample.l4444.ildg", "t_nersc.cfg"])
@pytest.mark.parametrize("g", range(4))
def test_load_plain_comm(name, g):
    whole = lattio.load(data(name))
    mine = lattio.load(data(name), comm=WORLD, grid=grids()[g])
    assert gathered_equal(mine, block(whole, WORLD, grids()[g]))


def test_load_cartesian():
    n = WORLD.Get_size()
    for dims in ([1, 1, n, 1], [n, 1, 1, 1]):
        cart = WORLD.Create_cart(dims, periods=[True] * 4, reorder=False)
        for name, index in (("t_dprec_ildg.lime", None), ("t_qio.intel-scalar.lime", 2)):
            whole = lattio.load(data(name), index=index)
            mine = lattio.load(data(name), comm=cart, index=index)
            lo, hi = lattio.local_box(whole.shape, cart)
            coords = cart.Get_coords(cart.Get_rank())
            assert all(lo[d] == lattio._lattio.split(whole.shape[d], dims[d], coords[d])[0] for d in range(4))
            assert gathered_equal(mine, whole[tuple(slice(a, b) for a, b in zip(lo, hi))])
        cart.Free()


@pytest.mark.parametrize("fmt", ["ildg", "scidac", "nersc", "milc", "hdf5"])
def test_uneven_save(shared_dir, fmt):
    """A 5x3x2x7 lattice (uneven over 2 and 3 ranks) saved in blocks equals
    the serial save byte for byte (same date) and loads back whole."""
    u = random_su3((5, 3, 2, 7), 5)
    meta = {"date": "Tue Nov 24 00:00:00 2026 UTC"} if fmt in ("ildg", "scidac") else {}
    prec = 32 if fmt == "milc" else 64
    par, ser = os.path.join(shared_dir, "par." + fmt), os.path.join(shared_dir, "ser." + fmt)
    for grid in ((WORLD.Get_size(), 1, 1, 1), (1, 1, 1, WORLD.Get_size())):
        # a NERSC header holds the time of writing to the second: the pair is
        # written again (at most twice more) when a second ticked between them
        for _ in range(3):
            lattio.save(par, block(u, WORLD, grid), format=fmt, comm=WORLD, grid=grid, metadata=meta,
                        precision=prec)
            if WORLD.Get_rank() == 0:
                lattio.save(ser, u, format=fmt, metadata=meta, precision=prec)
            WORLD.Barrier()
            if WORLD.allreduce(creation_date(par) == creation_date(ser), op=MPI.LAND):
                break
        want = u.astype(np.complex64) if prec == 32 else u
        assert np.array_equal(lattio.load(par), want)
        if fmt != "hdf5":  # HDF5 files hold a creation time
            assert read_bytes(par) == read_bytes(ser)
        assert gathered_equal(lattio.load(par, comm=WORLD, grid=grid), block(want, WORLD, grid))
    WORLD.Barrier()


def test_other_records_save(shared_dir):
    """tmLQCD's configuration saved with its metadata (the xlf-info record
    written back) in blocks: byte for byte rank 0's serial save."""
    src = data(os.path.join("tmlqcd", "conf.0001"))
    u = lattio.load(src)
    with lattio.open(src) as f:
        meta = dict(f.fields[0].metadata, date="Tue Nov 24 00:00:00 2026 UTC")
    par, ser = os.path.join(shared_dir, "par.ildg"), os.path.join(shared_dir, "ser.ildg")
    lattio.save(par, block(u, WORLD), comm=WORLD, metadata=meta)
    if WORLD.Get_rank() == 0:
        lattio.save(ser, u, metadata=meta)
        assert read_bytes(par) == read_bytes(ser)
        assert read_bytes(par)[144:144 + len(meta["xlf_info_text"])] == meta["xlf_info_text"].encode()
    WORLD.Barrier()


@pytest.mark.parametrize("fmt", ["scidac", "hdf5"])
def test_multi_field_save(shared_dir, fmt):
    """Three fermion fields on a 5x3x2x7 lattice (uneven blocks) saved in
    one collective pass: the SciDAC file equals rank 0's serial save byte for
    byte (same date), both load back field by field, and load_fields under
    the communicator gives every rank its blocks."""
    rng = np.random.default_rng(8)
    vs = [rng.standard_normal((5, 3, 2, 7, 4, 3)) + 1j * rng.standard_normal((5, 3, 2, 7, 4, 3)) for _ in range(3)]
    meta = {"date": "Tue Nov 24 00:00:00 2026 UTC"}
    suffix = ".lime" if fmt == "scidac" else ".h5"
    par, ser = os.path.join(shared_dir, "par" + suffix), os.path.join(shared_dir, "ser" + suffix)
    grid = (1, 1, 1, WORLD.Get_size())
    lattio.save(par, [block(v, WORLD, grid) for v in vs], format=fmt, comm=WORLD, grid=grid, metadata=meta,
                field="fermion")
    if WORLD.Get_rank() == 0:
        lattio.save(ser, vs, format=fmt, metadata=meta, field="fermion")
    WORLD.Barrier()
    if fmt == "scidac":
        assert read_bytes(par) == read_bytes(ser)
    for got in (lattio.load_fields(par), lattio.load_fields(ser)):
        assert len(got) == 3 and all(np.array_equal(a, b) for a, b in zip(got, vs))
    mine = lattio.load_fields(par, comm=WORLD, grid=grid)
    assert all(gathered_equal(m, block(v, WORLD, grid)) for m, v in zip(mine, vs))
    # a rank with another number of fields: every rank refuses, nothing written
    other = os.path.join(shared_dir, "other" + suffix)
    with pytest.raises(lattio.RankArgumentError):
        lattio.save(other, [block(v, WORLD, grid) for v in vs[:2 if ODD else 3]], format=fmt, comm=WORLD,
                    grid=grid)
    WORLD.Barrier()
    assert not os.path.exists(other)


@pytest.mark.parametrize("fmt", ["ildg", "hirep", "hdf5"])
def test_sun_save_load(shared_dir, fmt):
    """An SU(4) field in blocks: saved collectively, loaded in blocks and
    whole equal to it, its plaquette NumPy's (test_sun.plaquette)."""
    from test_sun import plaquette, random_sun
    u = random_sun(4, 9)
    path = os.path.join(shared_dir, "sun4." + fmt)
    lattio.save(path, block(u, WORLD), format=fmt, comm=WORLD)
    assert gathered_equal(lattio.load(path, comm=WORLD), block(u, WORLD))
    assert np.array_equal(lattio.load(path), u)
    assert abs(lattio.verify(path)["plaquette"] - plaquette(u)) < 1e-12


def test_failure_on_one_rank(shared_dir):
    """Rank 1 alone passes a bad array or dtype: every rank raises, none hangs,
    and no file is made."""
    u = random_su3((4, 2, 2, 2), 9)
    path = os.path.join(shared_dir, "u.ildg")
    mine = block(u, WORLD)
    bad = block(u, WORLD)[..., ::2, :] if WORLD.Get_rank() == 1 else mine
    with pytest.raises(ValueError):
        lattio.save(path, bad, comm=WORLD)
    # one rank short along a dimension no rank splits (at 4 ranks the z extent
    # the test cut before is split already): blocks that tile no lattice
    ax = next(i for i in range(4) if mine.shape[i] == u.shape[i] > 1)
    short = np.take(mine, range(mine.shape[ax] - 1), axis=ax)
    wrong = short if WORLD.Get_rank() == 1 else mine  # blocks that tile no lattice
    with pytest.raises(ValueError):
        lattio.save(path, np.ascontiguousarray(wrong), comm=WORLD)
    with pytest.raises(ValueError):  # metadata refused on rank 1 alone
        lattio.save(path, mine, comm=WORLD, metadata={"lfn": 7 if WORLD.Get_rank() == 1 else "x"})
    assert not os.path.exists(path)
    lattio.save(path, mine, comm=WORLD)
    with pytest.raises(ValueError):
        lattio.load(path, comm=WORLD, dtype=np.int8 if WORLD.Get_rank() == 1 else None)
    with pytest.raises(ValueError):
        lattio.load(path, comm=WORLD, grid=(1, 1, 1, 1) if WORLD.Get_rank() == 1 else None)
    with pytest.raises(lattio.FormatError):
        lattio.load(data("lime_writer_test1.lime"), comm=WORLD)
    with pytest.raises(ValueError):  # NERSC: rank 0 reads, then the ranks agree before it sends
        lattio.load(data("t_nersc.cfg"), comm=WORLD, dtype=np.int8 if WORLD.Get_rank() == 1 else None)


ODD = WORLD.Get_rank() == 1


@pytest.mark.parametrize("fmt", ["ildg", "hdf5"])
@pytest.mark.parametrize("arg", ["format", "precision", "dtype", "verify", "layout", "append", "metadata", "path"])
def test_arguments_that_differ(shared_dir, fmt, arg):
    """Rank 1 alone passes one argument different: every rank raises
    RankArgumentError (ERR_RANK_ARG) naming it, nothing hangs, and the
    previous file is byte for byte as it was."""
    u = random_su3((4, 2, 2, 2), 11)
    path = os.path.join(shared_dir, "u." + fmt)
    mine = block(u, WORLD)
    lattio.save(path, mine, comm=WORLD, format=fmt)
    before = read_bytes(path)
    kw = dict(format=fmt)
    if ODD:
        kw.update({"format": dict(format="scidac" if fmt == "ildg" else "ildg"), "precision": dict(precision=32),
                   "dtype": {}, "verify": dict(verify=False), "layout": dict(layout="qlua"),
                   "append": dict(append=True), "metadata": dict(metadata={"lfn": "other"}),
                   "path": {}}[arg])
    arr = mine.astype(np.complex64) if ODD and arg == "dtype" else mine
    target = path + ("x" if ODD and arg == "path" else "")
    with pytest.raises(lattio.RankArgumentError) as e:
        lattio.save(target, arr, comm=WORLD, **kw)
    assert isinstance(e.value, lattio.MPIError) and isinstance(e.value, ValueError)
    assert e.value.name == "ERR_RANK_ARG" and "differs between ranks" in e.value.detail
    WORLD.Barrier()
    assert read_bytes(path) == before
    assert not os.path.exists(path + "x")
    with pytest.raises(lattio.RankArgumentError):
        lattio.load(path, comm=WORLD, verify=not ODD)


@pytest.mark.parametrize("fmt", ["ildg", "hdf5"])
def test_empty_blocks(shared_dir, fmt):
    """More ranks than sites along x: the blocks load returns, some empty,
    save as they are, and the file equals the serial save's data."""
    n = WORLD.Get_size()
    u = random_su3((2, 2, 2, n - 1), 13)
    grid = (1, 1, 1, n)
    mine = block(u, WORLD, grid)
    assert WORLD.allreduce(int(mine.size == 0), op=MPI.SUM) >= 1
    path = os.path.join(shared_dir, "e." + fmt)
    lattio.save(path, mine, comm=WORLD, grid=grid, format=fmt)
    back = lattio.load(path, comm=WORLD, grid=grid)
    assert gathered_equal(back, mine)
    assert np.array_equal(lattio.load(path), u)


def test_checksum_error_everywhere(shared_dir):
    path = os.path.join(shared_dir, "bad.lime")
    if WORLD.Get_rank() == 0:
        shutil.copy(data("t_dprec_ildg.lime"), path)
        with open(path, "r+b") as f:
            f.seek(1936 + 144 + 100)
            f.write(b"\x7f")
    WORLD.Barrier()
    with pytest.raises(lattio.ChecksumError) as e:
        lattio.load(path, comm=WORLD)
    assert "e6ca40a6" in e.value.detail
    hdf = os.path.join(shared_dir, "x.h5")
    with pytest.raises(lattio.LattioError):
        lattio.load(hdf + ":/nothing", comm=WORLD)


def test_python_guide_parallel_examples(shared_dir, monkeypatch):
    """Every parallel example of docs/python.md runs as printed under
    mpirun, in a directory all ranks share."""
    from test_docs import guide_blocks

    blocks = guide_blocks(parallel=True)
    assert blocks, "docs/python.md has a parallel example"
    monkeypatch.chdir(shared_dir)
    for i, code in enumerate(blocks):
        scope = {}
        exec(compile(code, "docs/python.md parallel block %d" % i, "exec"), scope)
        assert np.array_equal(scope["again"], scope["mine"])  # the same blocks, 32-bit both


@pytest.mark.parametrize("kind", ["part", "multi"])
def test_volume_set_blocks(kind):
    """QIO's volume sets read over the ranks (each rank its share of the
    volumes, every site sent to its block) equal the serial single file."""
    whole = lattio.load(data("qio-volumes/single/binary_test"), index=3)
    mine = lattio.load(data("qio-volumes/%s/binary_test" % kind), comm=WORLD, index=3)
    assert gathered_equal(mine, block(whole, WORLD))
    with pytest.raises(ValueError, match="global data"):
        lattio.load(data("qio-volumes/%s/binary_test" % kind), comm=WORLD, index=2)


@pytest.mark.parametrize("volumes", ["multi", "part"])
def test_volume_set_save(shared_dir, volumes):
    """save(volumes=, comm=) writes every rank's block into a volume set (a
    volume per rank or per node) that loads whole on one rank and in
    blocks on all, equal to the array."""
    rng = np.random.default_rng(11)
    whole = rng.standard_normal((4, 2, 3, 4, 4, 3)) + 1j * rng.standard_normal((4, 2, 3, 4, 4, 3))
    base = os.path.join(shared_dir, "fermion")
    lattio.save(base, block(whole, WORLD), format="scidac", comm=WORLD, volumes=volumes, field="fermion")
    if WORLD.Get_rank() == 0:
        assert np.array_equal(lattio.load(base), whole)
    assert gathered_equal(lattio.load(base, comm=WORLD), block(whole, WORLD))


def test_convert_collective(shared_dir):
    """lattio.convert(comm=): the collective library call; every rank gets
    rank 0's report, the output equals the serial conversion's checksums,
    and a refused output raises the same error on every rank."""
    out = os.path.join(shared_dir, "o.scidac")
    rep = lattio.convert(data("t_dprec_ildg.lime"), out, to="scidac", comm=WORLD)
    assert rep["ok"] and rep["kind"] == "gauge" and rep["max_diff"] == 0
    assert WORLD.allgather(rep["out_check"]["binary_records"]) == [rep["out_check"]["binary_records"]] * WORLD.size
    serial = lattio.verify(out)
    assert [f["computed"] for f in serial["fields"]] == [[r["suma"], r["sumb"]] for r in rep["out_check"]["binary_records"]]
    rep = lattio.convert(data("t_qio.intel-scalar.lime"), os.path.join(shared_dir, "f.h5"), to="hdf5", comm=WORLD)
    assert rep["kind"] == "fields" and rep["fields"] == 3
    with pytest.raises(lattio.ArgumentError) as e:
        lattio.convert(out, out, comm=WORLD)
    assert e.value.name == "ERR_OUTPUT_IS_INPUT"
    assert WORLD.allgather(e.value.name) == ["ERR_OUTPUT_IS_INPUT"] * WORLD.size
    # other writers' records (tmLQCD's xlf-info; a propagator's records) written back over the ranks
    for src, to in (("conf.0001", "ildg"), ("source.0001.00.inverted", "scidac")):
        src = data(os.path.join("tmlqcd", src))
        out = os.path.join(shared_dir, "tm." + to)
        rep = lattio.convert(src, out, to=to, comm=WORLD)
        if WORLD.rank == 0:
            head = read_bytes(src)
            n = int.from_bytes(head[8:16], "big")
            assert read_bytes(out)[:144 + n] == head[:144 + n]  # the first record, header and text
            assert rep["warnings"] == []
    # ranks that pass different arguments: ERR_RANK_ARG on every rank, nothing written
    other = os.path.join(shared_dir, "o2.lime")
    with pytest.raises(lattio.RankArgumentError):
        lattio.convert(data("t_dprec_ildg.lime"), other, to="scidac" if WORLD.rank == 0 else "ildg", comm=WORLD)
    assert not os.path.exists(other)
