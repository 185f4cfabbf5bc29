"""The held-out-bank proxy for the rules search (tools/rulebook/proxy.py): run from a clone, it needs the git history.

.venv/bin/python scripts/rulebook-proxy.py [--misses] [--all]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.rulebook.proxy import main  # noqa: E402 (the checkout's root goes on the path first)

if __name__ == "__main__":
    raise SystemExit(main())
