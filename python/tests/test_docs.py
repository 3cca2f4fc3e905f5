"""Every public function and exception class is documented (issue 15,
item 5: ``help(lattio.load)`` is useful): a docstring that explains each
keyword parameter of the function's signature."""
import inspect

import pytest

import lattio

PUBLIC = [name for name in lattio.__all__ if callable(getattr(lattio, name))]


def test_package_docstring():
    assert lattio.__doc__ and "lattio.load" in lattio.__doc__


@pytest.mark.parametrize("name", PUBLIC)
def test_docstring_names_parameters(name):
    obj = getattr(lattio, name)
    doc = inspect.getdoc(obj)
    assert doc and len(doc) > 40, "%s has no useful docstring" % name
    if inspect.isclass(obj):
        return
    for p in inspect.signature(obj).parameters.values():
        assert p.name in doc, "lattio.%s's docstring does not explain %r" % (name, p.name)


def readme_blocks(parallel):
    """The README's Python blocks: the parallel one (it imports mpi4py) or
    the serial ones, with the repository's test data paths."""
    import os
    import re

    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    with open(os.path.join(root, "README.md")) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    data = os.path.join(root, "tests", "data") + os.sep
    return [b.replace("tests/data/", data) for b in blocks if ("mpi4py" in b) == parallel]


def test_readme_python_example(tmp_path, monkeypatch):
    """The README's serial Python example runs as printed in every install
    (tests/python/wheel_shapes.py runs this file against each; an install
    without HDF5 (docs/install.md) stops at the HDF5 line with HDF5Error)."""
    blocks = readme_blocks(parallel=False)
    assert blocks, "the README has a Python example"
    monkeypatch.chdir(tmp_path)
    code = blocks[0]
    if lattio.build_info()["hdf5_read"] is None:  # the HDF5 line refused by name, the rest run
        (line,) = [ln for ln in code.splitlines() if ".h5" in ln]
        code = code.replace(line, "")
        with pytest.raises(lattio.HDF5Error):
            exec(compile("import lattio\n" + line.strip(), "README.md", "exec"), {})
    exec(compile(code, "README.md", "exec"), {})
    assert (tmp_path / "cfg.nersc").is_file()


def test_readme_parallel_example(tmp_path, monkeypatch):
    """The README's MPI example runs as printed (one process here; under
    mpirun in test_parallel.py's way) where the install has MPI and
    parallel HDF5."""
    import importlib.util

    if importlib.util.find_spec("lattio._lattio") is None or "parallel" not in lattio.build_info()["library"]:
        pytest.skip("this install has no MPI module or no parallel HDF5 (docs/install.md)")
    pytest.importorskip("mpi4py")
    (code,) = readme_blocks(parallel=True)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md (MPI)", "exec"), {})
    assert (tmp_path / "cfg.h5").is_file()
    assert lattio.verify(str(tmp_path / "cfg.h5"))["ok"]


def guide_blocks(parallel):
    """The Python blocks of docs/python.md: the parallel ones (they import
    mpi4py) or the serial ones, with the repository's test data paths."""
    import os
    import re

    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    with open(os.path.join(root, "docs", "python.md")) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    data = os.path.join(root, "tests", "data") + os.sep
    return [b.replace("tests/data/", data) for b in blocks if ("mpi4py" in b) == parallel]


def test_python_guide_serial_examples(tmp_path, monkeypatch):
    """Every serial example of docs/python.md runs as printed (the parallel
    ones run in test_parallel.py under mpirun)."""
    blocks = guide_blocks(parallel=False)
    assert blocks, "docs/python.md has serial examples"
    monkeypatch.chdir(tmp_path)
    for i, code in enumerate(blocks):
        if ".h5" in code and lattio.build_info()["hdf5_read"] is None:  # an install without HDF5 says so
            with pytest.raises(lattio.HDF5Error):
                exec(compile(code, "docs/python.md block %d" % i, "exec"), {})
            continue
        exec(compile(code, "docs/python.md block %d" % i, "exec"), {})
