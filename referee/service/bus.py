"""The per-table change bus: writers publish "table X is now at revision N" after they commit.

Listeners are streams waiting on a thread (the Flask route, for WSGI servers and tests); hooks are called on
every publish, from the writer's thread (the ASGI front hands them to its event loop).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable


class Listener:
    """One open stream waiting for a table's next version."""

    def __init__(self, code: str, version: int):
        self.code = code
        self.version = version
        self._changed = threading.Event()
        self.closed = False

    def notify(self, version: int) -> None:
        """Record that the table reached `version` and wake the stream."""
        if version > self.version:
            self.version = version
            self._changed.set()

    def wake(self) -> None:
        """Wake the stream to read its table again, whatever version it last heard of."""
        self._changed.set()

    def wait(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for a change; return True if one came."""
        changed = self._changed.wait(timeout)
        self._changed.clear()
        return changed

    def close(self) -> None:
        """Stop waiting (server shutdown or a newer stream from the same page)."""
        self.closed = True
        self._changed.set()


class Bus:
    """Tables' listeners, with a cap on how many streams may be open at once."""

    def __init__(self, max_listeners: int = 200):
        self.max_listeners = max_listeners
        self._lock = threading.Lock()
        self._listeners: dict[str, set[Listener]] = defaultdict(set)
        self._hooks: list[Callable[[str, int], None]] = []
        self._wake_hooks: list[Callable[[], None]] = []
        self._closed = False

    def add_wake_hook(self, hook: Callable[[], None]) -> None:
        """Call `hook()` when every stream must read its table again (`wake_all`); it must return at once."""
        with self._lock:
            self._wake_hooks.append(hook)

    def add_hook(self, hook: Callable[[str, int], None]) -> None:
        """Call `hook(code, revision)` on every publish, from the publishing thread; it must return at once."""
        with self._lock:
            self._hooks.append(hook)

    @property
    def open_streams(self) -> int:
        """How many streams are open now."""
        with self._lock:
            return sum(len(listeners) for listeners in self._listeners.values())

    def subscribe(self, code: str, version: int) -> Listener | None:
        """Return a new listener for the table, or None when the server holds its maximum or is stopping."""
        with self._lock:
            if self._closed or sum(len(listeners) for listeners in self._listeners.values()) >= self.max_listeners:
                return None
            listener = Listener(code, version)
            self._listeners[code].add(listener)
            return listener

    def unsubscribe(self, listener: Listener) -> None:
        """Forget a listener whose stream ended."""
        with self._lock:
            listeners = self._listeners.get(listener.code)
            if listeners is not None:
                listeners.discard(listener)
                if not listeners:
                    del self._listeners[listener.code]

    def publish(self, code: str, version: int) -> None:
        """Tell every listener of the table that it reached `version` (call after the commit)."""
        with self._lock:
            listeners = list(self._listeners.get(code, ()))
            hooks = list(self._hooks)
        for listener in listeners:
            listener.notify(version)
        for hook in hooks:
            hook(code, version)

    def wake_all(self) -> None:
        """Wake every stream to read its table's revision again: changes may have been missed (a lost database
        connection that hears other processes), and a stream whose table did not change sends the same numbers."""
        with self._lock:
            listeners = [listener for group in self._listeners.values() for listener in group]
            hooks = list(self._wake_hooks)
        for listener in listeners:
            listener.wake()
        for hook in hooks:
            hook()

    def close_all(self) -> None:
        """End every stream and accept no new ones (server shutdown)."""
        with self._lock:
            self._closed = True
            listeners = [listener for group in self._listeners.values() for listener in group]
        for listener in listeners:
            listener.close()
