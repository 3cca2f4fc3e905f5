"""The xarray backend (engine="lattio", registered by the package's
xarray.backends entry point): named dimensions, metadata as attributes,
lazy reads (nothing on open, a timeslice reads a timeslice, the whole
variable is the verified read), dask chunks along t and open_mfdataset
over many configurations, all equal to lattio.load."""
import numpy as np
import pytest

import lattio
from conftest import data

xr = pytest.importorskip("xarray")
pytest.importorskip("dask.array")
from lattio.xarray_backend import LattioArray  # noqa: E402


class Counting:
    """LattioArray's reads and their keys, while in the with-block."""

    def __enter__(self):
        self.keys = []
        self.orig = LattioArray._read

        def read(arr, key):
            self.keys.append(key)
            return self.orig(arr, key)
        LattioArray._read = read
        return self

    def __exit__(self, *exc):
        LattioArray._read = self.orig


def test_entry_point_registered():
    assert "lattio" in xr.backends.list_engines()


def test_gauge_dataset_lazy_and_named():
    path = data("lat.sample.l4444.ildg")
    whole = lattio.load(path)
    with Counting() as c:
        ds = xr.open_dataset(path, engine="lattio")
        assert c.keys == []  # nothing read on open
        u = ds["gauge"]
        assert u.dims == ("t", "z", "y", "x", "mu", "row", "col") and u.shape == whole.shape
        assert list(ds["mu"].values) == ["x", "y", "z", "t"]
        assert u.attrs["lfn"] == "lfn://USQCD/MILC/test/lat.sample.l4444"
        assert u.attrs["ildg_format.ildgFormat.field"] == "su3gauge" and u.attrs["checksum"] == "scidac"
        assert ds.attrs["lattio_format"] == "ildg"
        ts = u.isel(t=2).values
        assert len(c.keys) == 1 and c.keys[0][0] == 2  # one read, of timeslice 2 alone
        np.testing.assert_array_equal(ts, whole[2])
        np.testing.assert_array_equal(u.values, whole)


def test_generic_fields_get_their_own_site_dimensions():
    ds = xr.open_dataset(data("t_qio.intel-scalar.lime"), engine="lattio")
    assert set(ds.data_vars) == {"field_0", "field_1", "field_2"}
    assert ds["field_2"].dims == ("t", "z", "y", "x", "field_2_s0", "field_2_s1")
    for i in range(3):
        np.testing.assert_array_equal(ds["field_%d" % i].values, lattio.load(data("t_qio.intel-scalar.lime"), index=i))


def test_typed_fields_named_by_the_type_table(tmp_path):
    """A propagator is the variable "propagator" with the table's axes,
    spin before colour, sink before source (not prefixed by the variable)."""
    p = str(tmp_path / "prop.scidac")
    a = (np.arange(2 * 2 * 2 * 2 * 144) % 7).astype(np.complex64).reshape(2, 2, 2, 2, 4, 4, 3, 3)
    lattio.save(p, a, format="scidac")
    with xr.open_dataset(p, engine="lattio") as ds:
        assert list(ds.data_vars) == ["propagator"]
        assert ds["propagator"].dims == ("t", "z", "y", "x", "spin_sink", "spin_source", "color_sink",
                                         "color_source")
        np.testing.assert_array_equal(ds["propagator"].values, a)


def test_nersc_header_attributes():
    ds = xr.open_dataset(data("t_nersc.cfg"), engine="lattio")
    assert ds.attrs["header.DATATYPE"] == "4D_SU3_GAUGE" and ds["gauge"].attrs["checksum"] == "nersc"


def test_dask_chunks_along_t():
    path = data("t_dprec_ildg.lime")
    ds = xr.open_dataset(path, engine="lattio", chunks={"t": 1})
    assert ds["gauge"].chunks[0] == (1, 1, 1, 1)
    with Counting() as c:
        plaq_t = np.abs(ds["gauge"]).sum(dim=("z", "y", "x", "mu", "row", "col")).compute()
        assert len(c.keys) == 4  # one read per chunk
    np.testing.assert_allclose(plaq_t.values, np.abs(lattio.load(path)).sum(axis=(1, 2, 3, 4, 5, 6)))


def test_preferred_chunks_are_timeslices(tmp_path):
    """chunks={} reads a timeslice per chunk, chunks="auto" grows whole
    timeslices to dask's chunk size, and any t chunking is taken without
    xarray's warning that chunks split the stored ones."""
    import dask
    import warnings
    path = data("t_dprec_ildg.lime")
    u = lattio.load(path)
    per_t = u[0].nbytes
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with xr.open_dataset(path, engine="lattio", chunks={}) as ds:
            assert ds["gauge"].chunks[0] == (1,) * u.shape[0]
            assert ds["gauge"].chunks[1:] == tuple((n,) for n in u.shape[1:])
        with xr.open_dataset(path, engine="lattio", chunks="auto") as ds:
            assert ds["gauge"].chunks[0] == (u.shape[0],)  # the whole field is far below 128 MiB
            np.testing.assert_array_equal(ds["gauge"].values, u)
        with dask.config.set({"array.chunk-size": "%dB" % (2 * per_t)}):
            with xr.open_dataset(path, engine="lattio", chunks="auto") as ds:
                assert ds["gauge"].chunks[0] == (2,) * (u.shape[0] // 2)
                assert ds["gauge"].chunks[1:] == tuple((n,) for n in u.shape[1:])  # sites never split
        for c in ({"t": 1}, {"t": 3}):
            with xr.open_dataset(path, engine="lattio", chunks=c) as ds:
                np.testing.assert_array_equal(ds["gauge"].values, u)


def test_open_mfdataset_many_configurations(tmp_path):
    base = lattio.load(data("t_dprec_ildg.lime"))
    paths = []
    for n in range(5):
        p = str(tmp_path / ("cfg.%d.ildg" % n))
        lattio.save(p, np.roll(base, n, axis=0), metadata={"lfn": "cfg %d" % n})
        paths.append(p)
    ds = xr.open_mfdataset(paths, engine="lattio", combine="nested", concat_dim="config", chunks={"t": 2})
    assert ds["gauge"].dims[0] == "config" and ds["gauge"].shape == (5,) + base.shape
    mean = ds["gauge"].mean(dim="config").compute().values
    np.testing.assert_allclose(mean, np.mean([np.roll(base, n, axis=0) for n in range(5)], axis=0))


def test_hdf5_through_xarray(tmp_path):
    pytest.importorskip("h5py")
    u = lattio.load(data("t_dprec_ildg.lime"))
    path = str(tmp_path / "u.h5")
    lattio.save(path, u, layout="qlua")
    ds = xr.open_dataset(path, engine="lattio")
    np.testing.assert_array_equal(ds["lattice"].isel(x=1).values, u[:, :, :, 1])
