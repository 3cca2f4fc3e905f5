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
