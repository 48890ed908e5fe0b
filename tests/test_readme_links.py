"""The README and the docs point only at files of the repository, and work on PyPI.

Every relative link or image of README.md, CHANGELOG.md, CONTRIBUTING.md, docs/*.md and the
guides (docs/guide/*.md) names
a file tracked in the repository (and a heading that exists, for ``#fragment``s); every path
of the repository quoted in their code (``coinsrow/_core.pyx``, ``python benchmarks/run.py``)
exists; nothing points outside the repository. PyPI shows the README without the repository
around it: the description setup.py gives it (``pypi_description``) has no relative link or
image left, with or without a public URL for the sources.

Runs in a git checkout (the files are those ``git ls-files`` lists); skipped elsewhere (an
sdist or a wheel being tested).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import warnings
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = ["README.md", "CHANGELOG.md", "CONTRIBUTING.md", "docs/*.md", "docs/guide/*.md"]

# Fenced code blocks (group 1: their text) and code spans (group 2).
CODE = re.compile(r"^ {0,3}(?:```|~~~)[^\n]*\n(.*?)^ {0,3}(?:```|~~~)[ \t]*$"
                  r"|(?<!`)`+(?!`)(.+?)(?<!`)`+(?!`)", re.M | re.S)
# [text](target "title"), ![alt](target), <a href="target">, <img src="target">
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^\s()<>]+)>?(?:\s+\"[^\"]*\")?\s*\)"
                  r"|<(?:a|img)\b[^>]*?\b(?:href|src)=[\"']([^\"']+)[\"']")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.M)
# A path in code: two or more components (a/b, ../a/b.md), file names of letters, digits, . _ -
CODE_PATH = re.compile(r"(?<![\w/.:-])((?:\.\.?/)*[\w.-]+(?:/[\w.-]+)+)")
GYMNASIUM_ID = re.compile(r"/[A-Z][\w]*-v\d+$")
URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")


def _tracked() -> set[str]:
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout: the repository's files are not known here")
    result = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            timeout=60, check=True)
    return {name for name in result.stdout.decode().split("\0") if name}


def _documents(tracked: set[str]) -> list[str]:
    names = sorted({name for pattern in DOCUMENTS for name in tracked
                    if Path(name).match(pattern)
                    and name.count("/") == pattern.count("/")})
    assert "README.md" in names
    return names


def _without_code(text: str) -> str:
    return CODE.sub(lambda match: " " * len(match.group(0)), text)


def _code(text: str) -> list[str]:
    return [match.group(1) or match.group(2) or "" for match in CODE.finditer(text)]


def _fenced(text: str) -> list[str]:
    return [match.group(1) for match in CODE.finditer(text) if match.group(1) is not None]


def github_slug(heading: str) -> str:
    """The id GitHub (and PyPI) give a heading: lower case, punctuation dropped, '-' for ' '."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def _slugs(text: str) -> set[str]:
    slugs: set[str] = set()
    without_fences = CODE.sub(lambda m: m.group(0) if m.group(1) is None else "", text)
    for heading in HEADING.findall(without_fences):
        slug = base = github_slug(heading)
        n = 0
        while slug in slugs:  # GitHub numbers repeated headings: a, a-1, a-2, ...
            n += 1
            slug = f"{base}-{n}"
        slugs.add(slug)
    return slugs


def _links(text: str) -> list[str]:
    return [match.group(1) or match.group(2) for match in LINK.finditer(_without_code(text))]


def _in_repository(path: Path) -> str | None:
    """``path`` relative to the repository root, or None if it leaves the repository."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return None


def test_links_and_images_point_at_files_in_the_repository() -> None:
    tracked = _tracked()
    directories = {parent.as_posix() for name in tracked for parent in Path(name).parents}
    problems = []
    for document in _documents(tracked):
        text = (ROOT / document).read_text(encoding="utf-8")
        for target in _links(text):
            if URL.match(target):
                continue
            path_part, _, fragment = target.partition("#")
            if not path_part:  # #heading of this document
                if fragment not in _slugs(text):
                    problems.append(f"{document}: {target}: no such heading here")
                continue
            name = _in_repository(ROOT / document / ".." / path_part)
            if name is None:
                problems.append(f"{document}: {target}: outside the repository")
            elif name not in tracked and name not in directories:
                problems.append(f"{document}: {target}: not a file of the repository")
            elif fragment and name.endswith(".md") and name in tracked \
                    and fragment not in _slugs((ROOT / name).read_text(encoding="utf-8")):
                problems.append(f"{document}: {target}: no such heading in {name}")
    assert not problems, "\n".join(problems)


def test_paths_quoted_in_code_exist_in_the_repository() -> None:
    tracked = _tracked()
    directories = {parent.as_posix() for name in tracked for parent in Path(name).parents}
    top_level = {name.split("/", 1)[0] for name in tracked}
    problems = []
    checked = 0
    for document in _documents(tracked):
        for code in _code((ROOT / document).read_text(encoding="utf-8")):
            for quoted in CODE_PATH.findall(code):
                path = quoted.rstrip("/.")
                if not path.startswith(".") and path.split("/", 1)[0] not in top_level:
                    continue  # not a path of this repository (a module, a URL, a data file)
                if GYMNASIUM_ID.search(path):
                    continue  # an environment's id, "namespace/Name-vN", not a path
                checked += 1
                name = _in_repository(ROOT / path)
                if name is None:
                    problems.append(f"{document}: `{quoted}`: outside the repository")
                elif name not in tracked and name not in directories:
                    problems.append(f"{document}: `{quoted}`: not a file of the repository")
    assert not problems, "\n".join(problems)
    assert checked >= 3, "the README quotes paths of the repository (benchmarks/run.py, ...)"


def _setup_module() -> ModuleType:
    setup_py = ROOT / "setup.py"
    if not setup_py.is_file() or not (ROOT / "README.md").is_file():
        pytest.skip("no setup.py and README.md next to the tests (an installed package)")
    pytest.importorskip("setuptools", reason="setup.py needs setuptools (in the 'test' group)")
    spec = importlib.util.spec_from_file_location("coinsrow_setup", setup_py)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not as __main__: setup() does not run
    return module


@pytest.mark.parametrize("source_url", [None, "https://example.org/coinsrow"])
def test_pypi_description_has_no_relative_link(source_url: str | None) -> None:
    module = _setup_module()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    description = module.pypi_description(readme, source_url)
    relative = [target for target in _links(readme) if not URL.match(target)
                and not target.startswith("#")]
    assert relative, "the README has relative links: this test would check nothing"
    slugs = _slugs(description)
    for target in _links(description):
        if target.startswith("#"):
            assert target[1:] in slugs, f"{target}: no such heading on the PyPI page"
        else:
            assert URL.match(target), f"{target}: a relative link, broken on PyPI"
    if source_url:
        assert description.count(f"]({source_url}/") == len(relative)
        assert len(_links(description)) == len(_links(readme))
    else:  # the files are still named, as text
        for target in relative:
            assert target.split("#")[0] in description
    # The rest of the README is untouched.
    assert description.count("\n") == readme.count("\n")
    assert _fenced(description) == _fenced(readme)


def test_pypi_description_renders_as_on_pypi() -> None:
    module = _setup_module()
    with warnings.catch_warnings():  # "Markdown renderers are not available": skipped below
        warnings.simplefilter("ignore")
        renderer = pytest.importorskip(
            "readme_renderer.markdown", reason="readme_renderer[md] renders as PyPI does")
        readme = (ROOT / "README.md").read_text(encoding="utf-8")
        html = renderer.render(module.pypi_description(readme, module.source_url()))
    if html is None:
        pytest.skip("readme_renderer has no Markdown renderer (install readme_renderer[md])")
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    for href in re.findall(r'\bhref="([^"]+)"', html):
        assert URL.match(href) or (href.startswith("#") and href[1:] in ids), href
    for src in re.findall(r'\bsrc="([^"]+)"', html):
        assert URL.match(src), src
