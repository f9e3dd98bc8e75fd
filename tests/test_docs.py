"""The code in the documentation runs: every ```python block of docs/architecture.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_architecture_has_examples() -> None:
    assert len(BLOCKS) >= 1


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_an_example_runs(number: int, capsys: pytest.CaptureFixture[str]) -> None:
    code = compile(BLOCKS[number], f"{DOC.name} block {number}", "exec")
    exec(code, {})  # noqa: S102 - running the repository's own documented examples is the test
    printed = capsys.readouterr().out.splitlines()
    expected = re.findall(r"^# prints: (.*)$", BLOCKS[number], re.MULTILINE)
    assert expected, "an example says what it prints"
    assert printed == expected
