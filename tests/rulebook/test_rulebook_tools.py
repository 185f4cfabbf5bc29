"""The rules search's measuring commands answer --help with how to use them, instead of reading it as a file or
running a measurement."""

from __future__ import annotations

import pytest

from tools.rulebook import evaluate, generalisation, proxy, rules_doc


@pytest.mark.parametrize("tool", [evaluate, generalisation, proxy, rules_doc], ids=lambda tool: tool.__name__)
@pytest.mark.parametrize("asked", ["--help", "-h"])
def test_each_command_says_how_to_use_it(tool: object, asked: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert tool.main([asked]) == 0  # type: ignore[attr-defined]
    said = capsys.readouterr().out
    assert said.strip() == (tool.__doc__ or "").strip()
    assert "python -m tools.rulebook." in said
