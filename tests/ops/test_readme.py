"""The README shows the app as it is: its pictures of the lobby, a table, the standings and the table display are
in docs/screenshots/ and every picture the README shows exists (scripts/screenshots.py makes them)."""

from __future__ import annotations

import re
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_picture_the_readme_shows_exists_and_the_four_screens_are_there() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+)\)|<img [^>]*src=\"([^\"]+)\"", readme)
    paths = [first or second for first, second in pictures]
    for name in ("lobby", "table", "standings", "table-display"):
        assert f"docs/screenshots/{name}.png" in paths, name
    for path in paths:
        data = (ROOT / path).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", path
        width, height = struct.unpack(">II", data[16:24])
        assert width >= 320 and height >= 320, (path, width, height)
