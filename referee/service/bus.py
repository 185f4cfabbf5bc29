"""The change bus: writers publish "table X is now at revision N" after they commit.

Hooks are called on every publish, from the writer's thread; the live streams (referee/web/live.py) hand the
call to their event loop and return at once. Another server process's changes reach this one through the
database (store/changes.py), which also asks every stream to read its table again after a gap (`wake_all`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Bus:
    """Who to tell when a table changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hooks: list[Callable[[str, int], None]] = []
        self._wake_hooks: list[Callable[[], None]] = []

    def add_hook(self, hook: Callable[[str, int], None]) -> None:
        """Call `hook(code, revision)` on every publish, from the publishing thread; it must return at once."""
        with self._lock:
            self._hooks.append(hook)

    def add_wake_hook(self, hook: Callable[[], None]) -> None:
        """Call `hook()` when every stream must read its table again (`wake_all`); it must return at once."""
        with self._lock:
            self._wake_hooks.append(hook)

    def publish(self, code: str, revision: int) -> None:
        """Tell the hooks that the table reached `revision` (call after the commit)."""
        with self._lock:
            hooks = list(self._hooks)
        for hook in hooks:
            hook(code, revision)

    def wake_all(self) -> None:
        """Ask every stream to read its table's revision again: changes may have been missed (a lost database
        connection that hears other processes), and a stream whose table did not change sends the same numbers."""
        with self._lock:
            hooks = list(self._wake_hooks)
        for hook in hooks:
            hook()
