"""Every Python example of docs/research.md runs as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_document_has_its_examples() -> None:
    assert len(EXAMPLES) >= 9


@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_example_runs_as_written(number: int, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(EXAMPLES[number], f"{DOC.name}, example {number + 1}", "exec"),
             {"__name__": "__example__"})
    assert out.getvalue().strip(), "every example prints what it shows"
