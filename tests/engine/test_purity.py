"""The engine is pure: no Flask, database, clock or randomness inside it, so replaying a game gives the same state.

Two checks: every module under referee/engine is parsed and its imports inspected (including
imports inside functions and `if` blocks), and the engine is imported in a fresh interpreter to
see that none of those modules gets loaded by it.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import confusable_homoglyphs
import pytest

ENGINE = Path(__file__).resolve().parents[2] / "referee" / "engine"
PACKAGE = "referee.engine"
FORBIDDEN = frozenset({"flask", "sqlite3", "random", "time", "datetime"})
# Data libraries the engine may use: Unicode's confusables for look-alike names (engine/names.py). It reads its
# data when imported and only looks things up after; its import pulls in urllib (for its own data-update command),
# which loads time and random, so the probe below imports it before it counts what the engine loads.
DATA_LIBRARIES = frozenset({"confusable_homoglyphs"})
# Ways to import a module without an import statement.
DYNAMIC_IMPORTS = frozenset({"__import__", "import_module", "importlib", "exec", "eval"})


def engine_modules() -> list[Path]:
    modules = sorted(ENGINE.rglob("*.py"))
    assert ENGINE / "__init__.py" in modules and ENGINE / "game.py" in modules
    return modules


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


def imported_modules(path: Path, dotted: str | None = None) -> list[tuple[int, str]]:
    """Every module `path` (the module `dotted`) imports, as absolute names, with the import's line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    dotted = dotted or module_name(path)
    package = dotted if path.name == "__init__.py" else dotted.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                assert node.module is not None
                target = node.module
            found.append((node.lineno, target))
            # `from . import game` imports the submodule referee.engine.game.
            found.extend((node.lineno, f"{target}.{alias.name}") for alias in node.names if alias.name != "*")
    return found


def test_the_engine_imports_only_itself_and_the_standard_library() -> None:
    for path in engine_modules():
        for line, name in imported_modules(path):
            top = name.split(".")[0]
            where = f"{path.name}:{line} imports {name}"
            assert top not in FORBIDDEN, where
            if top == "referee":
                # Within the project, only the engine itself: not the web app, store or service.
                assert name == PACKAGE or name.startswith(PACKAGE + "."), where
            else:
                assert top in sys.stdlib_module_names or top in DATA_LIBRARIES or top == "__future__", where


@pytest.mark.parametrize("path", engine_modules(), ids=lambda path: path.name)
def test_no_forbidden_import_in(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    names = {name.split(".")[0] for _, name in imported_modules(path)}
    assert not names & FORBIDDEN
    for node in ast.walk(tree):
        # No dynamic imports that an import check would miss.
        if isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            assert name not in DYNAMIC_IMPORTS, f"{path.name}:{node.lineno} uses {name}"


def test_the_checker_sees_forbidden_imports(tmp_path: Path) -> None:
    # The parser above is only worth something if it catches each way of writing an import.
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import random\n"
        "import os.path, time as clock\n"
        "from datetime import datetime\n"
        "from .state import GameState\n"
        "from .. import store\n"
        "def later():\n"
        "    import sqlite3\n"
        "    from flask import Flask\n"
    )
    names = {name for _, name in imported_modules(sample, "referee.engine.sample")}
    assert {"random", "time", "datetime", "sqlite3", "flask"} <= {name.split(".")[0] for name in names}
    assert "referee.engine.state" in names
    assert "referee.store" in names


# A fresh interpreter (-I: isolated, -S: no site) loads the engine without running
# referee/__init__.py, which starts the Flask app; it reports what the import added to sys.modules (the data
# library, from its installed folder, is loaded first: see DATA_LIBRARIES).
PROBE = """
import json, sys, types
sys.path.append(sys.argv[2])
import confusable_homoglyphs.confusables
before = set(sys.modules)
package = types.ModuleType("referee")
package.__path__ = [sys.argv[1]]
sys.modules["referee"] = package
import referee.engine
from referee.engine import apply, make_setup, new_game, Play, Card
state = apply(new_game(make_setup(["Ann", "Bob"])), Play("Ann", Card.N5))
assert state.total == 5
print(json.dumps({"before": sorted(before), "after": sorted(sys.modules)}))
"""


def test_importing_the_engine_loads_none_of_them() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-I",
            "-S",
            "-c",
            PROBE,
            str(ENGINE.parent),
            str(Path(confusable_homoglyphs.__file__).parents[1]),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    modules = json.loads(result.stdout)
    before, after = set(modules["before"]), set(modules["after"])
    assert "referee.engine.game" in after
    loaded = after - before
    tops = {name.split(".")[0].lstrip("_") for name in loaded}
    assert not tops & FORBIDDEN, sorted(tops & FORBIDDEN)
    assert not {name for name in loaded if name.startswith("referee.") and not name.startswith(PACKAGE)}
    # `time` is built into the interpreter and may be there from the start; the rest must be absent.
    assert not (FORBIDDEN - before) & after
