"""The translations' workflow (docs/translations.md), one command per step, run from the repository's top:

    python -m tools.translations extract    # the app's words -> referee/translations/messages.pot
    python -m tools.translations update     # each language's messages.po gains the new words, marked to do
    python -m tools.translations compile    # messages.po -> messages.mo, what the app reads
    python -m tools.translations add LANG   # a new language's folder, from the template

Each step is Babel's own command (`pybabel`), with the options this project uses, so that every catalog is made
the same way; tests/test_translations.py checks the result (every word translated, placeholders kept, nothing left
unextracted, every .mo up to date).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = ROOT / "referee" / "translations"
TEMPLATE = CATALOGS / "messages.pot"
MAPPING = ROOT / "tools" / "babel.cfg"
# The marks a translatable sentence carries besides gettext's own, with the arguments that are its text (None: the
# first): N_ marks one worded later (at the edge), N_plural a sentence with a count as its singular and plural
# (referee/engine/words.py).
KEYWORDS: dict[str, tuple[int, int] | None] = {"N_": None, "N_plural": (1, 2), "lazy_gettext": None}


def _pybabel(*arguments: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *arguments], cwd=ROOT, check=True)


def extract() -> None:
    """Write the template of every translatable sentence in our Python and templates."""
    keywords = [
        part
        for keyword, spec in KEYWORDS.items()
        for part in ("-k", keyword if spec is None else f"{keyword}:{','.join(map(str, spec))}")
    ]
    _pybabel(
        "extract",
        "-F",
        str(MAPPING),
        *keywords,
        "--no-location",
        "--sort-output",
        "--project",
        "5 Alive Referee",
        "--copyright-holder",
        "the 5 Alive Referee authors",
        "-o",
        str(TEMPLATE),
        ".",
    )


def update() -> None:
    """Bring each language's catalog up to the template (new sentences empty, changed ones marked fuzzy)."""
    _pybabel("update", "--no-wrap", "-i", str(TEMPLATE), "-d", str(CATALOGS))


def compile_catalogs() -> None:
    """Compile each language's catalog into the .mo file the app reads."""
    _pybabel("compile", "-d", str(CATALOGS))


def add(language: str) -> None:
    """Start a new language's catalog from the template."""
    _pybabel("init", "--no-wrap", "-i", str(TEMPLATE), "-d", str(CATALOGS), "-l", language)


def main(argv: list[str]) -> int:
    """Run one step of the workflow."""
    steps = {"extract": extract, "update": update, "compile": compile_catalogs}
    if len(argv) == 2 and argv[0] == "add":
        add(argv[1])
        return 0
    if len(argv) != 1 or argv[0] not in steps:
        print(__doc__, file=sys.stderr)
        return 2
    steps[argv[0]]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
