"""How the rules search may do for a kind of writer it was never tuned on: the repeatable estimate.

    python -m tools.rulebook.generalisation [--proxy] [CASES.json ...]   (default: the kinds of writer's sets)
    python -m tools.rulebook.generalisation --language fr|de [--words DIR] [CASES.json ...]
                                                      (default: that language's development set)

With --language the questions are asked in French or German, and the rulebook is read in that language's words
(referee/translations/<language>/rulebook.json; with --words, DIR/<language>/rulebook.json instead, to measure a
file before it is merged).

A set written by kinds of writer (each case has a `kind`) records in "unseen" its hit rates on rankings that had not
been tuned on it, measured before any change was made for it. Those figures, not today's, estimate what a new writer
of each kind gets: once a set has been tuned on, its own phrasings flatter it. The command prints, for each set, the
last unseen figures beside today's, overall and per kind; then each kind over all the sets together, with how far the
kinds are apart (the goal: within 10 points); and with --proxy the held-out-bank proxy (tools/rulebook/proxy.py),
which a change that fits the tuning sets rather than the players' words loses.

Switching off, kind by kind, the readings a change made for that kind cannot be automated (nothing records which
kind a reading was made for), so leaving one kind out is estimated this way instead: a set from a writer the search
has not been tuned on, measured once before the change, is the honest figure.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from referee.rulebook import read_translations_from

from . import asked_for_help
from .evaluate import CASES_DIR, Case, Report, evaluate, load_cases, searcher_in

WRITER_SETS = (
    CASES_DIR / "writers_dev_cases.json",
    CASES_DIR / "writers_dev_c_cases.json",
    CASES_DIR / "sealed_a_cases.json",
    CASES_DIR / "sealed_b_cases.json",
)
"""The sets of the seven kinds of writer: the two development sets, one per writer, then the sealed sets (four kinds
and three), each measured once on a final ranking before it was committed."""

LANGUAGE_SETS = {
    "fr": (CASES_DIR / "fr_dev_cases.json",),
    "de": (CASES_DIR / "de_dev_cases.json",),
}
"""Each language's development set (tuning set): questions typed by players of that language, labelled with the
entry that answers them."""

GOAL_TOP1, GOAL_TOP3, GOAL_SPREAD = 90.0, 98.0, 10.0
"""The goal on sets the search has not seen: top-1 and top-3 (per cent), overall and for every kind within this many
points of each other."""


@dataclass(frozen=True)
class Rates:
    """Top-1 and top-3 in per cent."""

    top1: float
    top3: float

    def __str__(self) -> str:
        return f"{self.top1:5.1f} / {self.top3:5.1f}"


@dataclass(frozen=True)
class Unseen:
    """A set's hit rates on a ranking not yet tuned on it: overall and per kind of writer."""

    ranking: str
    overall: Rates
    kinds: Mapping[str, Rates]


def unseen_figures(path: Path) -> tuple[Unseen, ...]:
    """The "unseen" measurements a cases file records, oldest first (empty if it records none)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(
        Unseen(
            str(item["ranking"]),
            Rates(float(item["top1"]), float(item["top3"])),
            {kind: Rates(float(pair[0]), float(pair[1])) for kind, pair in item.get("kinds", {}).items()},
        )
        for item in data.get("unseen", ())
    )


def rates(report: Report) -> Rates:
    """A report's top-1 and top-3 in per cent."""
    return Rates(100 * report.top1, 100 * report.top3)


def spread(kinds: Mapping[str, Rates]) -> Rates:
    """How far apart the kinds are: the best kind's rates less the worst's."""
    if not kinds:
        return Rates(0.0, 0.0)
    ones = [value.top1 for value in kinds.values()]
    threes = [value.top3 for value in kinds.values()]
    return Rates(max(ones) - min(ones), max(threes) - min(threes))


def set_lines(path: Path, report: Report) -> list[str]:
    """For one set: the last unseen figures and today's, overall and per kind."""
    history = unseen_figures(path)
    before = history[-1] if history else None
    label = f"unseen (ranking {before.ranking})" if before else "unseen: not recorded"
    lines = [f"{path.name}: {report.total} queries; top-1 / top-3, {label} -> today"]
    overall = f"{before.overall}" if before else "      -      "
    lines.append(f"  {'all':<12} {report.total:>4}   {overall}  ->  {rates(report)}")
    for kind, part in report.by_kind().items():
        then = before.kinds.get(kind) if before else None
        lines.append(f"  {kind:<12} {part.total:>4}   {then if then else '      -      '}  ->  {rates(part)}")
    if before and before.kinds:
        lines.append(f"  kinds apart (best less worst), unseen: {spread(before.kinds)} points")
    return lines


def together_lines(reports: Sequence[Report]) -> list[str]:
    """Each kind over all the sets together (today), and how far the kinds are apart against the goal."""
    merged = Report(tuple(outcome for report in reports for outcome in report.outcomes))
    kinds = {kind: rates(part) for kind, part in merged.by_kind().items()}
    if not kinds:
        return []
    lines = [f"All the sets together: {merged.total} queries, {rates(merged)} today (tuned on: flattering)"]
    lines += [f"  {kind:<12} {part.total:>4}   {kinds[kind]}" for kind, part in merged.by_kind().items()]
    apart = spread(kinds)
    lines.append(
        f"  kinds apart: {apart} points (goal on unseen sets: >= {GOAL_TOP1:.0f} / {GOAL_TOP3:.0f}, "
        f"kinds within {GOAL_SPREAD:.0f})"
    )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Print the unseen and today's figures of each kinds-of-writer set, the kinds together, and the proxy if asked."""
    args = list(sys.argv[1:] if argv is None else argv)
    if asked_for_help(args, __doc__):
        return 0
    proxy = "--proxy" in args
    language = _option(args, "--language") or "en"
    words = _option(args, "--words")
    if language not in ("en", *LANGUAGE_SETS):
        print(f"--language must be one of en, {', '.join(LANGUAGE_SETS)}", file=sys.stderr)
        return 2
    if words:
        read_translations_from(Path(words))
    defaults = LANGUAGE_SETS.get(language, WRITER_SETS)
    paths = [Path(arg) for arg in args if arg != "--proxy"] or list(defaults)
    reports = []
    for path in paths:
        cases: tuple[Case, ...] = load_cases(path)
        report = evaluate(cases, searcher_in(language))
        reports.append(report)
        print("\n".join(set_lines(path, report)))
        if language != "en":
            print(report.details(3))
    print("\n".join(together_lines(reports)))
    if proxy:
        from .proxy import DOCUMENTED_BANKS, measure  # reads the git history: only when asked

        print(f"Proxy, banks 1-9 held out: {measure(DOCUMENTED_BANKS).summary()}")
    return 0


def _option(args: list[str], name: str) -> str | None:
    """The value given after `name` in `args` (both taken out of `args`), or None."""
    if name not in args:
        return None
    at = args.index(name)
    value = args[at + 1] if at + 1 < len(args) else None
    del args[at : at + 2]
    return value


if __name__ == "__main__":
    raise SystemExit(main())
