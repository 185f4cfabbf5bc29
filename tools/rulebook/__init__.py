"""The rules search's measuring tools: hit rates on question sets, query speed, and docs/rules.md."""

from __future__ import annotations

from collections.abc import Sequence

HELP = frozenset({"-h", "--help"})


def asked_for_help(args: Sequence[str], usage: str | None) -> bool:
    """True, after printing `usage` (the tool's docstring), when `args` ask for it (-h, --help)."""
    if HELP.isdisjoint(args):
        return False
    print(usage or "")
    return True
