"""Hit rates of the rules search on a set of typed questions, each with the entry it should find.

    python -m tools.rulebook.evaluate [--top3] [CASES.json ...]   (default: the sets in tests/rulebook/)
    python -m tools.rulebook.evaluate --leave-one-kind-out           (the estimate for a kind of writer not tuned on:
                                                                      tools/rulebook/generalisation.py, with the proxy)

Prints top-1 and top-3 hit rates and every query that missed (the first place, or with --top3 the first three); for a
set whose cases say what kind of writer wrote them, the rates of each kind too.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from referee.rulebook.kb import current_id
from referee.rulebook.search import search

from . import asked_for_help

CASES_DIR = Path(__file__).resolve().parents[2] / "tests" / "rulebook"
DEFAULT_CASE_FILES = (
    CASES_DIR / "search_cases.json",
    CASES_DIR / "holdout_cases.json",
    CASES_DIR / "fresh_holdout_cases.json",
    CASES_DIR / "fresh_holdout_2_cases.json",
    CASES_DIR / "fresh_holdout_3_cases.json",
    CASES_DIR / "fresh_holdout_4_cases.json",
    CASES_DIR / "fresh_holdout_5_cases.json",
    CASES_DIR / "fresh_holdout_6_cases.json",
    CASES_DIR / "fresh_holdout_7_cases.json",
    CASES_DIR / "fresh_holdout_8_cases.json",
    CASES_DIR / "fresh_holdout_9_cases.json",
    CASES_DIR / "fresh_holdout_10_cases.json",
    CASES_DIR / "fresh_holdout_11_cases.json",
    CASES_DIR / "fresh_holdout_12_cases.json",
    CASES_DIR / "fresh_holdout_13_cases.json",
    CASES_DIR / "fresh_holdout_14_cases.json",
    CASES_DIR / "fresh_holdout_15_cases.json",
    CASES_DIR / "fresh_holdout_16_cases.json",
    CASES_DIR / "fresh_holdout_17_cases.json",
    CASES_DIR / "fresh_holdout_18_cases.json",
    CASES_DIR / "fresh_holdout_19_cases.json",
    CASES_DIR / "writers_dev_cases.json",
    CASES_DIR / "writers_dev_c_cases.json",
    CASES_DIR / "sealed_a_cases.json",
    CASES_DIR / "sealed_b_cases.json",
)


@dataclass(frozen=True)
class Case:
    """A typed question, the id of the entry it should find, and what kind of writer wrote it ("" if unknown)."""

    query: str
    expected: str
    kind: str = ""


@dataclass(frozen=True)
class Outcome:
    """Where the expected entry ranked for one case (None: not in the results)."""

    case: Case
    rank: int | None
    found: tuple[str, ...]


@dataclass(frozen=True)
class Report:
    """Hit rates over a set of cases."""

    outcomes: tuple[Outcome, ...]

    @property
    def total(self) -> int:
        """How many cases."""
        return len(self.outcomes)

    def rate(self, top: int) -> float:
        """Share of cases whose expected entry ranked within the first `top` results."""
        if not self.outcomes:
            return 0.0
        return sum(1 for outcome in self.outcomes if outcome.rank is not None and outcome.rank <= top) / self.total

    @property
    def top1(self) -> float:
        """Share found first."""
        return self.rate(1)

    @property
    def top3(self) -> float:
        """Share found in the first three."""
        return self.rate(3)

    @property
    def mrr(self) -> float:
        """Mean reciprocal rank (0 for a miss)."""
        if not self.outcomes:
            return 0.0
        return sum(1 / outcome.rank for outcome in self.outcomes if outcome.rank) / self.total

    def misses(self, top: int = 1) -> tuple[Outcome, ...]:
        """Cases whose expected entry was not in the first `top` results."""
        return tuple(outcome for outcome in self.outcomes if outcome.rank is None or outcome.rank > top)

    def summary(self) -> str:
        """One line: counts and rates."""
        return (
            f"{self.total} queries: top-1 {self.top1:.1%} ({round(self.top1 * self.total)}), "
            f"top-3 {self.top3:.1%} ({round(self.top3 * self.total)}), MRR {self.mrr:.3f}"
        )

    def by_kind(self) -> dict[str, Report]:
        """The report of each kind of writer, in the order the kinds first appear (empty if no case has a kind)."""
        kinds = dict.fromkeys(outcome.case.kind for outcome in self.outcomes if outcome.case.kind)
        return {
            kind: Report(tuple(outcome for outcome in self.outcomes if outcome.case.kind == kind)) for kind in kinds
        }

    def kinds_summary(self) -> str:
        """One line per kind of writer: its rates ("" if no case has a kind)."""
        return "\n".join(f"  {kind:<12} {report.summary()}" for kind, report in self.by_kind().items())

    def details(self, top: int = 1) -> str:
        """The summary plus one line per miss: the query, where the expected entry came, what came first."""
        lines = [self.summary()]
        if self.by_kind():
            lines.append(self.kinds_summary())
        for outcome in self.misses(top):
            where = f"#{outcome.rank}" if outcome.rank else "not found"
            first = ", ".join(outcome.found[:3]) or "nothing"
            expected = outcome.case.expected
            now = current_id(expected)
            label = f"{expected} (now {now})" if now not in (None, expected) else expected
            lines.append(f"  {outcome.case.query!r}: {label} {where}; got {first}")
        return "\n".join(lines)


def load_cases(path: Path) -> tuple[Case, ...]:
    """Read a cases file: {"cases": [{"q": ..., "id": ..., "kind": ... (optional)}, ...]}."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(Case(str(item["q"]), str(item["id"]), str(item.get("kind", ""))) for item in data["cases"])


Searcher = Callable[[str], Sequence[str]]


def _default_searcher(query: str) -> list[str]:
    return [result.id for result in search(query)]


def searcher_in(language: str) -> Searcher:
    """A searcher that reads its questions in `language` ("en", "fr", "de")."""

    def found(query: str) -> list[str]:
        return [result.id for result in search(query, language=language)]

    return found


def evaluate(cases: Sequence[Case], searcher: Searcher = _default_searcher) -> Report:
    """Run every case through `searcher` (query -> ids, best first) and report the ranks.

    A case labelled with the old id of a merged entry expects the entry it was merged into (its `formerly`).
    """
    outcomes = []
    for case in cases:
        found = tuple(searcher(case.query))
        expected = current_id(case.expected) or case.expected
        rank = found.index(expected) + 1 if expected in found else None
        outcomes.append(Outcome(case, rank, found))
    return Report(tuple(outcomes))


def main(argv: Sequence[str] | None = None) -> int:
    """Print the hit rates for each cases file given (default: the test and hold-out sets)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if asked_for_help(args, __doc__):
        return 0
    if "--leave-one-kind-out" in args:
        from .generalisation import main as generalisation

        return generalisation([*(arg for arg in args if arg != "--leave-one-kind-out"), "--proxy"])
    top = 1
    if "--top3" in args:
        args.remove("--top3")
        top = 3
    paths = [Path(arg) for arg in args] or [path for path in DEFAULT_CASE_FILES if path.exists()]
    if not paths:
        print("No cases file found; pass one: python -m tools.rulebook.evaluate CASES.json", file=sys.stderr)
        return 2
    for path in paths:
        report = evaluate(load_cases(path))
        print(f"{path.name}: {report.details(top)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
