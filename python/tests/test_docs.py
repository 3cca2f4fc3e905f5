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


def test_readme_python_example(tmp_path, monkeypatch):
    """The README's Python example runs as printed (from the repository
    root, writing into a scratch directory)."""
    import os
    import re

    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    with open(os.path.join(root, "README.md")) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    assert blocks, "the README has a Python example"
    code = blocks[0].replace("tests/data/real/", os.path.join(root, "tests", "data", "real") + os.sep)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    assert (tmp_path / "cfg.h5").is_file()


def guide_blocks(parallel):
    """The Python blocks of docs/python.md: the parallel ones (they import
    mpi4py) or the serial ones, with the repository's test data paths."""
    import os
    import re

    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    with open(os.path.join(root, "docs", "python.md")) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    data = os.path.join(root, "tests", "data", "real") + os.sep
    return [b.replace("tests/data/real/", data) for b in blocks if ("mpi4py" in b) == parallel]


def test_python_guide_serial_examples(tmp_path, monkeypatch):
    """Every serial example of docs/python.md runs as printed (the parallel
    ones run in test_parallel.py under mpirun)."""
    blocks = guide_blocks(parallel=False)
    assert blocks, "docs/python.md has serial examples"
    monkeypatch.chdir(tmp_path)
    for i, code in enumerate(blocks):
        exec(compile(code, "docs/python.md block %d" % i, "exec"), {})
