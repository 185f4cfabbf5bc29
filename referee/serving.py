"""How `referee serve` hands requests to threads: one for requests, one per live stream, two for backlogged clients."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from typing import Any

from waitress.task import ThreadedTaskDispatcher

# Threads for taps, pages and polls; live streams get a pool of their own (referee/serving.py). One is
# the fastest: requests are short and all need the one GIL, so a second thread mostly takes turns with
# the first at a cost (measured in docs/performance.md). `--threads` raises it.
REQUEST_THREADS = 1
# Stream threads beyond MAX_STREAMS answer the "too many streams" 503 while the cap is reached.
SPARE_STREAM_THREADS = 4

# The live stream's URL rule (referee/stream.py): a stream holds its thread for minutes while it waits.
STREAM_RULE = "/t/<code>/events"
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


class _Pool(ThreadedTaskDispatcher):
    """Waitress's thread pool, with threads named after what they serve."""

    def __init__(self, name: str, threads: int):
        super().__init__()
        self.name = name
        self.set_thread_count(threads)

    def start_new_thread(self, target: Callable[[int], object], thread_no: int) -> None:
        """Start a daemon thread named `<pool>-<number>` (waitress names them all `waitress-<number>`)."""
        thread = threading.Thread(target=target, name=f"{self.name}-{thread_no}", args=(thread_no,), daemon=True)
        thread.start()


REQUEST_POOL = "referee-request"


def on_request_thread() -> bool:
    """True when the current thread is the request pool's: no request may wait long there."""
    return threading.current_thread().name.startswith(f"{REQUEST_POOL}-")


class SplitDispatcher:
    """A waitress task dispatcher with three thread pools: live streams, ordinary requests, backlogged clients.

    Waitress gives each request a thread from one pool. Streams need a thread each for as long as they are
    open (up to MAX_STREAMS), but when taps and pages used those hundreds of threads too, sixteen busy
    requests ran at once and took turns at the GIL: each SQL call releases it, and getting it back from
    another thread, often on the other core, is what made a tap cost 1.7 ms of server CPU instead of 1.0
    (docs/performance.md). With one request thread the others wait in waitress's queue, which costs nothing.

    That one thread must never wait on a client. Waitress makes a thread wait when a connection has more
    than 16 MB of answers its client has not read (a client sending hundreds of requests at once and
    reading none). Browsers send a request only after reading the previous answer, so a connection with
    unread answers or several requests queued goes to a small pool of its own: such a client can only
    hold up itself.
    """

    def __init__(
        self,
        request_threads: int,
        stream_threads: int,
        on_shutdown: Callable[[], None] | None = None,
        backlog_threads: int = 2,
    ):
        self.on_shutdown = on_shutdown
        self.requests = _Pool(REQUEST_POOL, request_threads)
        self.requests.queue_logger = _queue_logger
        self.streams = _Pool("referee-stream", stream_threads)
        self.backlogged = _Pool("referee-backlog", backlog_threads)
        self.backlogged.queue_logger = _queue_logger

    @property
    def pools(self) -> tuple[ThreadedTaskDispatcher, ...]:
        """Every pool of threads."""
        return (self.requests, self.streams, self.backlogged)

    def add_task(self, task: Any) -> None:
        """Queue a waitress task (a channel with a parsed request) on the pool it belongs to."""
        self._pool_for(task).add_task(task)

    def _pool_for(self, task: Any) -> ThreadedTaskDispatcher:
        # Waitress queues the channel itself; the request it is about to serve is the first of its queue.
        pending = getattr(task, "requests", None) or []
        path = getattr(pending[0], "path", "") if pending else ""
        if isinstance(path, str) and is_stream_request(path):
            return self.streams
        if len(pending) > 1 or getattr(task, "total_outbufs_len", 0) > 0:
            return self.backlogged
        return self.requests

    def set_thread_count(self, count: int) -> None:
        """Resize the request pool (waitress calls this only for dispatchers it made itself)."""
        self.requests.set_thread_count(count)

    def shutdown(self, cancel_pending: bool = True, timeout: int = 5) -> bool:
        """Stop every pool; return True if any task was still queued."""
        for pool in self.pools:
            pool.set_thread_count(0)  # no thread picks up new work from here on
        if self.on_shutdown is not None:
            # Then wake the waiting streams, or their threads would hold the shutdown for `timeout`.
            self.on_shutdown()
        return any([pool.shutdown(cancel_pending, timeout) for pool in self.pools])
