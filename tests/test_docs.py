"""The documentation site: every public name has its reference entry, and every public
docstring has the numpydoc sections a reader needs and states its cost.

Needs Sphinx and numpydoc (the "docs" dependency group); skipped with the reason without them.
Runs from a source tree (docs/ beside the tests).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import coinsrow

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

# numpydoc's validation codes checked on every public docstring: Parameters documented (PR01)
# and no unknown ones (PR02), a Returns section (RT01); a "Raises" section is checked here
# below, as is the cost.
CHECKED = {"PR01", "PR02", "RT01"}


def _public() -> Iterator[tuple[str, object]]:
    """(qualified name, object) of every public function, class and method of the API."""
    for name in coinsrow.__all__:
        obj = getattr(coinsrow, name)
        if inspect.ismodule(obj):
            for member in obj.__all__:
                yield f"{obj.__name__}.{member}", getattr(obj, member)
        elif inspect.isclass(obj):
            yield f"coinsrow.{name}", obj
            for attr, value in vars(obj).items():
                if not attr.startswith("_") and inspect.isfunction(value):
                    yield f"coinsrow.{name}.{attr}", value
        elif callable(obj):
            yield f"coinsrow.{name}", obj


def _takes_arguments(obj: object) -> bool:
    try:
        parameters = inspect.signature(obj).parameters  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return any(p not in ("self", "cls") for p in parameters)


def _is_tuple(obj: object) -> bool:
    return inspect.isclass(obj) and issubclass(obj, tuple)


PUBLIC = sorted(_public(), key=lambda item: item[0])


@pytest.mark.parametrize(("name", "obj"), PUBLIC, ids=[name for name, _ in PUBLIC])
def test_docstring_sections(name: str, obj: object) -> None:
    validate = pytest.importorskip(
        "numpydoc.validate", reason="numpydoc (the 'docs' dependency group) validates docstrings")
    errors = {code: message for code, message in validate.validate(name)["errors"]
              if code in CHECKED}
    if inspect.isclass(obj):
        errors.pop("RT01", None)  # a class documents its constructor's parameters
    assert not errors, f"{name}: {errors}"
    doc = inspect.getdoc(obj) or ""
    sections = set(re.findall(r"^(\w[\w ]*)\n-{3,}$", doc, re.M))
    if _takes_arguments(obj) and not _is_tuple(obj):
        assert "Raises" in sections, f"{name}: no Raises section"
    if not _is_tuple(obj):
        assert re.search(r"\bO\(", doc), f"{name}: its cost, O(...), is not stated"


# The theme and MyST call Sphinx APIs that a later Sphinx removes: their notices are not
# this project's to fix (a warning of the build itself fails it: -W).
SPHINX_NOTICES = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning",
                                           "ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("sphinx", reason="Sphinx (the 'docs' dependency group) builds the site")
    pytest.importorskip("numpydoc", reason="the site's docstrings are numpydoc's")
    pytest.importorskip("myst_parser", reason="the site's pages are MyST Markdown")
    pytest.importorskip("furo", reason="the site's theme")
    if not (DOCS / "conf.py").is_file():
        pytest.skip("no docs/conf.py next to the tests (an installed package)")
    from sphinx.cmd.build import build_main

    out = tmp_path_factory.mktemp("html")
    status = build_main(["-W", "--keep-going", "-q", "-b", "html", "-d",
                         str(out / ".doctrees"), str(DOCS), str(out)])
    assert status == 0, "the site does not build without warnings"
    return out


@SPHINX_NOTICES
def test_every_public_name_has_its_reference_entry(html: Path) -> None:
    ids: set[str] = set()
    for page in (html / "reference").glob("*.html"):
        ids |= set(re.findall(r'\bid="([^"]+)"', page.read_text(encoding="utf-8")))
    missing = [name for name, _ in PUBLIC if name not in ids]
    for name in coinsrow.__all__:
        obj = getattr(coinsrow, name)
        entry = f"module-coinsrow.{name}" if inspect.ismodule(obj) else f"coinsrow.{name}"
        if entry not in ids:
            missing.append(entry)
    assert not missing, f"no reference entry for {sorted(set(missing))}"


@SPHINX_NOTICES
def test_reference_entries_show_their_sections(html: Path) -> None:
    text = "".join(page.read_text(encoding="utf-8")
                   for page in (html / "reference").glob("*.html"))
    for name, obj in PUBLIC:
        if inspect.isclass(obj):
            continue
        start = text.index(f'id="{name}"')
        end = text.find('class="sig sig-object', start)  # the next entry
        entry = text[start:end if end >= 0 else None]
        assert "Returns" in entry, f"{name}: no Returns in its entry"
        if _takes_arguments(obj):
            assert "Parameters" in entry and "Raises" in entry, name
