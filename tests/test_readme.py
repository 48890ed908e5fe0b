"""The README's Python examples are true, read the way ``python -m doctest README.md`` reads
them: the whole file as one doctest, so a closing fence right after an example's output would
be taken for more expected output (each ```python block ends with a blank line)."""

import doctest
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.skipif(not README.is_file(),
                    reason="README.md is not next to the tests (installed run)")
def test_readme_examples():
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    assert blocks, "the README has no Python examples"
    # No flags: exactly what `python -m doctest README.md` checks.
    failures, tries = doctest.testfile(str(README), module_relative=False, globs={},
                                       optionflags=0, report=False)
    prompts = sum(line.startswith(">>> ") for block in blocks for line in block.splitlines())
    assert failures == 0
    assert tries == prompts > 10, "every >>> line of the ```python blocks, and only those"
    assert all(block.endswith("\n\n") for block in blocks), \
        "a ```python block without a blank line before its closing fence"
