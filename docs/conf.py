"""Sphinx configuration of the coinsrow documentation.

Built with ``python -m sphinx -W --keep-going -b html docs OUT`` (and ``-b doctest``) from a
source tree where the compiled core is built in place (``python setup.py build_ext --inplace``)
or from an environment where coinsrow is installed. No network: no intersphinx inventory is
fetched and the theme ships its own assets.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# The source tree first, so that its in-place build (not another installed coinsrow) is read.
sys.path.insert(0, str(ROOT))

from docutils import nodes  # noqa: E402
from sphinx import addnodes  # noqa: E402
from sphinx.application import Sphinx  # noqa: E402

import coinsrow  # noqa: E402

project = "coinsrow"
author = "coinsrow developers"
copyright = "coinsrow developers"
release = coinsrow.__version__
version = release

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.doctest",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "**/.ipynb_checkpoints"]

# Markdown: heading anchors so that the notes' ``page.md#heading`` links resolve. No maths
# extension: the notes write their formulas as text, and the pages load nothing from elsewhere.
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3

# The API reference: numpydoc sections; members in source order.
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False}
autodoc_typehints = "none"  # the signatures and the Parameters sections say the types
autosummary_generate = False
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# Every public docstring keeps these numpydoc rules (tests/test_docs.py checks them too):
# parameters documented, a Returns section.
numpydoc_validation_checks = {"PR01", "PR02", "RT01"}

# The examples of the guides and of the docstrings run under ``-b doctest``; a docstring's
# examples use the names of its own module (as tests/test_doctests.py runs them).
doctest_global_setup = """
import coinsrow
from coinsrow import *
from coinsrow.silver_dollar import winner, winning_move
import importlib.util
# The game-AI guide's examples need the optional `games` group (skipped without it).
without_games = not all(importlib.util.find_spec(name) for name in
                        ("pyspiel", "gymnasium", "pettingzoo"))
"""

# No intersphinx: the build needs no network.
html_theme = "furo"
html_title = f"coinsrow {release}"
# Wide tables scroll visibly on a phone; each API entry's cost stands out (_static/coinsrow.css).
html_static_path = ["_static"]
html_css_files = ["coinsrow.css"]
html_show_sourcelink = False
html_show_sphinx = False  # no footer credit linking out of the site
html_copy_source = False
html_theme_options = {
    "navigation_with_keys": True,
}


def _repository_file_links_as_text(app: object, doctree: nodes.document) -> None:
    """A Markdown link to a file of the repository outside docs/ (the README's link to
    ``benchmarks/results/results.md``, shown on the performance page) becomes the file's
    name as code, as on PyPI without a source URL: the site holds only docs/. Only links
    naming a file that exists are changed; any other broken link still fails the build."""
    source = Path(doctree["source"]).parent
    for node in list(doctree.findall(addnodes.pending_xref)):
        if node.get("reftype") != "myst" or node.get("refdomain") == "doc":
            continue
        path = str(node["reftarget"]).split("#", 1)[0]
        candidates = [(ROOT / path).resolve(), (source / path).resolve()]
        if path and any(c.is_file() and c.is_relative_to(ROOT)
                        and not c.is_relative_to(ROOT / "docs") for c in candidates):
            text = nodes.literal(path, path)
            node.replace_self([text, nodes.Text(" (in the source repository)")])


_NOTE = re.compile(r"(?<![\w/`])docs/([a-z-]+)\.md\b")


def _notes_as_links(app: object, what: str, name: str, obj: object, options: object,
                    lines: list[str]) -> None:
    """The docstrings name the maintainers' notes by their path (``docs/rows.md``), which is
    what ``help()`` can show; on the site the path links to the note's page."""
    for i, line in enumerate(lines):
        lines[i] = _NOTE.sub(
            lambda m: f":doc:`docs/{m.group(1)}.md </{m.group(1)}>`"
            if (DOCS / f"{m.group(1)}.md").is_file() else m.group(0), line)


def _cost_on_its_own_line(app: object, what: str, name: str, obj: object, options: object,
                          lines: list[str]) -> None:
    """The docstrings give each call's cost as a paragraph of its own, "Cost: O(n) ...";
    on the site it is marked (a bar beside it, _static/coinsrow.css) so that a reader finds
    it in the entry at a glance. Runs after numpydoc has turned the sections into
    reStructuredText."""
    for i in reversed(range(len(lines))):
        line = lines[i]
        if line.lstrip().startswith("Cost:") and (i == 0 or not lines[i - 1].strip()):
            indent = line[: len(line) - len(line.lstrip())]
            lines[i:i] = [f"{indent}.. rst-class:: coinsrow-cost", ""]


def setup(app: Sphinx) -> None:
    app.connect("doctree-read", _repository_file_links_as_text)
    app.connect("autodoc-process-docstring", _notes_as_links)
    app.connect("autodoc-process-docstring", _cost_on_its_own_line)
