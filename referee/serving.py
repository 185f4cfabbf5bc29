"""How `referee serve` hands requests to threads: live streams on a pool of their own, the rest on a small one."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

from waitress.task import ThreadedTaskDispatcher

from .stream import STREAM_RULE

# Any path ending like the stream's rule (a proxy may add a prefix): such a request holds its thread for
# minutes, and must never take the request pool's thread.
STREAM_PATH = re.compile(re.sub(r"<[^>]+>", "[^/]+", STREAM_RULE) + "$")

# Queueing is how the small request pool is meant to work under load, not a problem worth a warning
# per request (waitress logs "Task queue depth" whenever a task has to wait for a thread).
_queue_logger = logging.getLogger("referee.queue")
_queue_logger.setLevel(logging.ERROR)


def is_stream_request(path: str) -> bool:
    """Tell whether a request path opens a table's live stream."""
    return STREAM_PATH.search(path) is not None


class SplitDispatcher:
    """A waitress task dispatcher with two thread pools: one thread per open live stream, and few for requests.

    Waitress gives each request a thread from one pool. Streams need a thread each for as long as they are
    open (up to MAX_STREAMS), but when taps and pages used those hundreds of threads too, sixteen busy
    requests ran at once and took turns at the GIL: each SQL call releases it, and getting it back from
    another thread, often on the other core, is what made a tap cost 1.7 ms of server CPU instead of 1.0
    (docs/performance.md). With one request thread the others wait in waitress's queue, which costs nothing.
    """

    def __init__(self, request_threads: int, stream_threads: int, on_shutdown: Callable[[], None] | None = None):
        self.on_shutdown = on_shutdown
        self.requests = ThreadedTaskDispatcher()
        self.requests.queue_logger = _queue_logger
        self.streams = ThreadedTaskDispatcher()
        self.requests.set_thread_count(request_threads)
        self.streams.set_thread_count(stream_threads)

    def add_task(self, task: Any) -> None:
        """Queue a waitress task (a channel with a parsed request) on the pool its path belongs to."""
        self._pool_for(task).add_task(task)

    def _pool_for(self, task: Any) -> ThreadedTaskDispatcher:
        # Waitress queues the channel itself; the request it is about to serve is the first of its queue.
        pending = getattr(task, "requests", None)
        path = getattr(pending[0], "path", "") if pending else ""
        return self.streams if isinstance(path, str) and is_stream_request(path) else self.requests

    def set_thread_count(self, count: int) -> None:
        """Resize the request pool (waitress calls this only for dispatchers it made itself)."""
        self.requests.set_thread_count(count)

    def shutdown(self, cancel_pending: bool = True, timeout: int = 5) -> bool:
        """Stop both pools; return True if any task was still queued."""
        if self.on_shutdown is not None:
            # Wake the waiting streams first, or their threads would hold the shutdown for `timeout`.
            self.on_shutdown()
        streams = self.streams.shutdown(cancel_pending, timeout)
        requests = self.requests.shutdown(cancel_pending, timeout)
        return bool(streams or requests)
