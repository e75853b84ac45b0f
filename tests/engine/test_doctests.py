"""The engine's docstring examples are tests: run every one of every module of app.engine."""

import doctest
import importlib
import pkgutil

import pytest

import app.engine

MODULES = sorted(
    info.name for info in pkgutil.iter_modules(app.engine.__path__, prefix="app.engine.")
)


@pytest.mark.parametrize("name", ["app.engine", *MODULES])
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed, _attempted = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0, f"{failed} docstring example(s) of {name} failed"


def test_the_examples_cover_the_public_surface():
    attempted = sum(
        doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS).attempted
        for name in ["app.engine", *MODULES]
    )
    assert attempted >= 20
