"""Write the fingerprints of the rule texts that tests/rulebook checks our own words against.

The rule texts (../shared/rules-sources/*.txt) are not ours to commit. What the check needs is only whether a run
of seven words in a rulebook entry also occurs in a source, so the repository keeps a hash of every 7-word run
(shingle) of the sources instead: enough to spot copying, useless for reading the texts back. Run this after the
sources change:  python scripts/fingerprint-rules-sources.py [SOURCES_DIR]
Must match `_words` and `_fingerprint` in tests/rulebook/test_rulebook_entries.py (that test compares the two
whenever the sources are beside the clone, as in CI).
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "rulebook" / "rules_sources_fingerprints.txt"
SIZE = 7


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9=+]+", text.casefold())


def fingerprint(gram: tuple[str, ...]) -> str:
    return hashlib.sha256(("five-alive-referee shingle:" + " ".join(gram)).encode()).hexdigest()[:16]


def main() -> None:
    sources = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "rules-sources"
    texts = sorted(sources.glob("*.txt"))
    if not texts:
        raise SystemExit(f"no rule texts (*.txt) in {sources}")
    prints: set[str] = set()
    for path in texts:
        found = words(path.read_text(encoding="utf-8"))
        prints |= {fingerprint(tuple(found[i : i + SIZE])) for i in range(len(found) - SIZE + 1)}
    header = f"# {len(prints)} hashes of 7-word runs of {len(texts)} rule texts, by {Path(__file__).name}\n"
    OUT.write_text(header + "".join(f"{line}\n" for line in sorted(prints)), encoding="utf-8")
    print(f"wrote {len(prints)} fingerprints to {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
