"""The examples in the docstrings are true (run against the installed package)."""

import doctest
import importlib
import pkgutil

import pytest

import coinsrow

MODULES = sorted(
    name
    for _, name, _ in pkgutil.iter_modules(coinsrow.__path__, "coinsrow.")
    if name not in ("coinsrow._core", "coinsrow.__main__")
) + ["coinsrow"]


# The game-AI adapters import their optional frameworks (the `games` group).
FRAMEWORKS = {"coinsrow.spiel": ("pyspiel",), "coinsrow._aec": ("gymnasium", "pettingzoo"),
              "coinsrow.envs": ("gymnasium",)}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    for framework in FRAMEWORKS.get(name, ()):
        pytest.importorskip(framework, reason=f"{name} needs {framework} (the games group)")
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0, f"{failures} of {tried} examples failed in {name}"
