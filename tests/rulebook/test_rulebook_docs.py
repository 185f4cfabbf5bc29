"""docs/rules.md lists every house rule with its default and both readings, and is current."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from referee.engine import HOUSE_RULE_SPECS
from referee.rulebook import kb
from tools.rulebook import bench, rules_doc

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_every_switch_appears_with_its_default_and_both_readings() -> None:
    text = DOC.read_text(encoding="utf-8")
    for spec in HOUSE_RULE_SPECS:
        assert f"### `{spec.name}` (default: `{spec.default}`)" in text, spec.name
        section = text.split(f"### `{spec.name}`", 1)[1].split("\n### ", 1)[0]
        for reading in spec.readings:
            assert f"- `{reading.value}`" in section, (spec.name, reading.value)
            assert reading.source in section, (spec.name, reading.value)


def test_rules_doc_is_up_to_date() -> None:
    assert DOC.read_text(encoding="utf-8") == rules_doc.render(), (
        "docs/rules.md is out of date: run python -m tools.rulebook.rules_doc"
    )
    assert rules_doc.main(["--check"]) == 0


def test_doc_examples() -> None:
    assert doctest.testmod(kb, optionflags=doctest.ELLIPSIS).failed == 0


def test_bench_command_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--passes", "1"]) == 0
    output = capsys.readouterr().out
    assert "ms/query" in output
