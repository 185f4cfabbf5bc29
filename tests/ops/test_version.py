"""The version: one number, in the package's metadata, printed by `referee --version`, named in CHANGELOG.md."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from referee import DISTRIBUTION, create_app, version

ROOT = Path(__file__).resolve().parents[2]
REFEREE = str(Path(sys.executable).with_name("referee"))


def test_referee_version_prints_the_packages_version_which_the_changelog_names() -> None:
    written = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", written) and written != "0.1.0"
    assert version() == metadata.version(DISTRIBUTION) == written
    done = subprocess.run([REFEREE, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == f"referee {written}\n"
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## [{written}] - " in changelog


def test_the_rules_panel_and_the_rules_document_name_the_release_they_are_from(tmp_path: Path) -> None:
    """A family comparing the panel with a printed docs/rules.md can see whether both are of the same release."""
    app = create_app({"DATA_DIR": str(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path / 'r.sqlite3'}"})
    page = app.test_client().get("/rules").get_data(as_text=True)
    assert f"The rules of 5 Alive Referee {version()}." in page
    assert (ROOT / "docs" / "rules.md").read_text().rstrip().endswith(f"5 Alive Referee {version()}; {RELEASES}*")


RELEASES = "CHANGELOG.md says what each release changed."
