"""Every repository path a doc or a comment names exists: a reader who follows one finds the file."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOPS = ("referee", "docs", "static", "templates", "tests", "tools", "scripts", "contrib", ".ci")
# A path as prose writes it: a top folder, then folders and a file (or a folder with its trailing slash).
PATH = re.compile(r"(?<![\w./-])((?:" + "|".join(re.escape(top) for top in TOPS) + r")/[\w./-]*[\w/])")
# Where the named paths are read: docs and the README, and the comments and docstrings of our own code.
TEXT_SUFFIXES = (".md", ".py", ".html", ".js", ".css", ".toml", ".sh", ".yaml", ".service", ".conf")


def _files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [
        ROOT / name
        for name in listed.splitlines()
        if name.endswith(TEXT_SUFFIXES)
        and not name.startswith("static/vendor/")
        # The changelog is history: it names files as they were then.
        and name != "CHANGELOG.md"
        and (ROOT / name).is_file()
    ]


def _named(text: str) -> set[str]:
    found = set()
    for match in PATH.finditer(text):
        path = match.group(1).rstrip(".")
        if any(mark in path for mark in ("*", "<", "{", "...", "…")):
            continue  # a pattern or a placeholder, not a path
        found.add(path)
    return found


def test_every_path_named_in_docs_and_comments_exists() -> None:
    missing = []
    for file in _files():
        for path in sorted(_named(file.read_text(encoding="utf-8", errors="replace"))):
            if not (ROOT / path).exists():
                missing.append(f"{file.relative_to(ROOT)} names {path}")
    assert missing == []


def test_the_path_check_finds_a_path_that_is_not_there() -> None:
    nowhere = "referee" + "/nowhere.py"  # spelt apart, so that this file names no missing path itself
    assert _named(f"see {nowhere} and docs/deploy.md, or referee/web/") == {nowhere, "docs/deploy.md", "referee/web/"}
    assert not (ROOT / nowhere).exists()
