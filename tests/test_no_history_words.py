"""Docs and comments describe the project as it is now: no play test, session, issue, tuning pass, date or person.

How the code came to be belongs in the git log. A reader of a comment needs the reason ("a fixed Retry-After sent
clients back too early"), not the label of the report that found it ("play test 7c"), which means nothing to anyone
who was not there and goes stale as the code moves on.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HISTORY = re.compile(
    "|".join(
        (
            r"\bplay[- ]?test(?:s|ers?|ing)?\b",  # "play test 7c", "playtest 9a", "a play tester's table"
            r"\(\d{1,2}[a-c]\)",  # a play test's bare label: "(9a)"
            r"\bfinding \d+\b",  # "play test 3, finding 6"
            r"\bsessions? (?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty\w*|\w+teen|\d+)\b",
            r"\bnew engineers?\b",
            r"\bthe lead\b",
            r"\bissues?[ -]#?\d+",  # "issue 12", "issue #2", "issue-12 goal"
            # A tuning pass: "pass 7", "pass-6 ranking", "passes 12 and 13"; "pass 21" is the game's total.
            r"\bpass(?:es)?[- ](?!21\b)\d+\b",
            r"(?<![\w-])20\d\d-[01]\d-[0-3]\d(?![\w-])",  # a date of work; not one inside a file name
        )
    ),
    re.IGNORECASE,
)

# Not prose: pictures, databases, and the translation catalogs (whose gettext headers carry dates).
BINARY = (".png", ".sqlite3", ".ico", ".mo", ".po", ".pot")
RULEBOOK = "referee/rulebook/entries.json"
# This file names the words it looks for, in its patterns and in the examples that check them.
THIS_FILE = Path(__file__).resolve().relative_to(ROOT).as_posix()


def _scanned() -> list[str]:
    """The repository's own text that a reader takes as describing the project: code, tests, docs, scripts."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [
        name
        for name in listed.splitlines()
        # JSON is data (a question set's "about" records how it was made), but the rulebook is what players read.
        # static/vendor/ is not ours.
        if not name.endswith(BINARY)
        and (not name.endswith(".json") or name == RULEBOOK)
        and not name.startswith("static/vendor/")
        and name != THIS_FILE
        and (ROOT / name).is_file()
        and (
            name.startswith(("referee/", "tools/", "scripts/", "templates/", "static/"))
            or (name.startswith("tests/") and name.endswith(".py"))
            or (name.startswith("docs/") and name.count("/") == 1 and name.endswith(".md"))
            or name == "README.md"
        )
    ]


def history_words(text: str) -> list[tuple[int, str]]:
    """Each line (numbered from 1) that names a play test, a session, an issue, a tuning pass, a date or a person."""
    return [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1) if HISTORY.search(line)]


def test_no_doc_or_comment_tells_history() -> None:
    found = [
        f"{name}:{number}: {line[:100]}"
        for name in _scanned()
        for number, line in history_words((ROOT / name).read_text(encoding="utf-8"))
    ]
    assert found == [], "say why in plain words; the history goes in the git log:\n" + "\n".join(found)


def test_the_check_knows_history_from_the_game() -> None:
    told = """
        # Said first (9a).
        # (play test 7b: 100 at once, against a cap of 24)
        '''Playtest 8b: after a database restart.'''
        A play tester's table.
        play test 3, finding 6
        measured in session eighteen
        written by a new engineer
        the lead's decision
        See issue #2 and issue 12.
        the issue-12 phases
        added in pass 12, before passes 12 and 13, on the pass-6 ranking
        measured on 2026-11-24
    """
    game = """
        A number that would pass 21 stays in your hand.
        referee backup /data/referee-2026-11-22.sqlite3
        the Pass card; round 2; a first round; def test_pass_me_by
        a display test; the session cookie; session.get("device")
    """
    assert [number for number, _ in history_words(told)] == list(range(2, 14))
    assert history_words(game) == []
