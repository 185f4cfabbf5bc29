"""The held-out-bank proxy for the rules search: how it might do on phrasings nobody has typed yet.

Each paraphrase bank in turn is taken out of the index and its questions are searched, each expecting the entry it
was written for. The banks are written in the rulebook's own words, so the proxy sees new sentences but few new words:
a change that costs proxy queries is fitting the sets it was tuned on (docs/rulebook-search.md). The banks are read
from the git history (the commit that added each), so run it from a clone:
    python -m tools.rulebook.proxy [--misses] [--all]      (or scripts/rulebook-proxy.py)
The figures in the docs are for banks 1-9 (2668 questions); banks 10 and 11 stay in the index and count as training
data unless --all takes them out too.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from referee.rulebook.kb import current_id, entries
from referee.rulebook.search import Index

from . import asked_for_help

REPO = Path(__file__).resolve().parents[2]
BANKS = {
    1: "f2b85fa",
    2: "b732e05",
    3: "9dd81fa",
    4: "3c27ea2",
    5: "797d02a",
    6: "67dee5b",
    7: "dc22558",
    8: "2e8e2d4",
    9: "a6bbfeb",
    # Banks 10 and 11 by words of their commit titles, which survive a rebase.
    10: "bank 10 of paraphrases",
    11: "bank 11 of paraphrases",
}


def questions_at(revision: str) -> dict[str, set[str]]:
    """Each entry's questions as entries.json had them at `revision`."""
    text = subprocess.run(
        ["git", "-C", str(REPO), "show", f"{revision}:referee/rulebook/entries.json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {item["id"]: set(item["questions"]) for item in json.loads(text)["entries"]}


def commit_of(name: str) -> str:
    """The commit a BANKS value names: itself if it is a hash, else the newest commit whose title says it."""
    if " " not in name:
        return name
    found = subprocess.run(
        ["git", "-C", str(REPO), "log", "--format=%H %s", "--fixed-strings", f"--grep={name}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return next(line.split(" ", 1)[0] for line in found if name in line.split(" ", 1)[1])


def bank(revision: str) -> dict[str, set[str]]:
    """The questions the commit `revision` added, per entry (by today's id: a merged entry holds its old ones')."""
    revision = commit_of(revision)
    after, before = questions_at(revision), questions_at(revision + "^")
    added: dict[str, set[str]] = {}
    for entry_id, questions in after.items():
        added.setdefault(current_id(entry_id) or entry_id, set()).update(questions - before.get(entry_id, set()))
    return added


@dataclass(frozen=True)
class ProxyResult:
    """Hits over the held-out banks: found first, found in the first three, out of how many; a line per bank."""

    first: int
    three: int
    total: int
    lines: tuple[str, ...]

    def summary(self) -> str:
        """ "all (2668): 91.6 / 98.4"."""
        return f"all ({self.total}): {100 * self.first / self.total:.1f} / {100 * self.three / self.total:.1f}"


def measure(numbers: Sequence[int], misses: bool = False) -> ProxyResult:
    """Take each bank in `numbers` out of the index in turn and search its questions (each miss listed if `misses`)."""
    items = entries()
    hit1 = hit3 = total = 0
    lines: list[str] = []
    for number in numbers:
        added = bank(BANKS[number])
        cases, reduced = [], []
        for item in items:
            held = added.get(item.id, set()) & set(item.questions)
            cases += [(question, item.id) for question in item.questions if question in held]
            reduced.append(replace(item, questions=tuple(q for q in item.questions if q not in held)))
        index = Index(reduced)
        first = three = 0
        for question, expected in cases:
            found = [index.items[doc].id for _, doc in index.scores(question)[:3]]
            first += found[:1] == [expected]
            three += expected in found
            if misses and found[:1] != [expected]:
                lines.append(f"  bank {number}: {question!r}: {expected}; got {', '.join(found) or 'nothing'}")
        lines.append(f"bank {number} ({len(cases)}): {100 * first / len(cases):.1f} / {100 * three / len(cases):.1f}")
        hit1, hit3, total = hit1 + first, hit3 + three, total + len(cases)
    return ProxyResult(hit1, hit3, total, tuple(lines))


DOCUMENTED_BANKS = tuple(number for number in BANKS if number <= 9)
"""The banks the docs' figures hold out (1-9; 10 and 11 stay in the index as training data)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Print top-1 / top-3 per bank held out and over all of them (and each miss with --misses)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if asked_for_help(args, __doc__):
        return 0
    result = measure(tuple(BANKS) if "--all" in args else DOCUMENTED_BANKS, misses="--misses" in args)
    print("\n".join(result.lines))
    print(result.summary())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
