"""CSRF tokens, security headers, per-address rate limits, trusted proxies, and the Host names the server answers to."""

from __future__ import annotations

import functools
import hmac
import ipaddress
import itertools
import math
import secrets
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from flask import Flask, Request, Response, request, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature
from werkzeug.middleware.proxy_fix import ProxyFix

from ..engine.words import N_

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

CSRF_FIELD = "csrf"
CSRF_HEADER = "X-CSRF-Token"

# Scripts, styles and connections only from the app itself: no CDN, no inline script, no framing.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


def csrf_token() -> str:
    """Return this browser's CSRF token, creating it on first use."""
    token = session.get(CSRF_FIELD)
    if not isinstance(token, str):
        token = new_csrf_token()
    return token


def new_csrf_token() -> str:
    """Give this browser a new CSRF token (when its device key changes) and return it."""
    token = secrets.token_urlsafe(24)
    session[CSRF_FIELD] = token
    return token


def csrf_ok() -> bool:
    """True if the current form post carries this browser's CSRF token."""
    expected = session.get(CSRF_FIELD)
    sent = request.form.get(CSRF_FIELD) or request.headers.get(CSRF_HEADER) or ""
    return isinstance(expected, str) and hmac.compare_digest(expected.encode(), sent.encode())


# Signed session cookies remembered once checked: a café's phones, several times over.
SESSION_ENTRIES = 4096


class CheckedCookieSessions(SecureCookieSessionInterface):
    """Flask's signed cookie sessions, each cookie's signature checked once per process and then remembered.

    A phone sends the same cookie with every tap and refresh, and checking it (two HMACs, base64 and JSON) was
    one of the larger costs a tap has and an API action has not (docs/performance.md). The key is the whole
    signed cookie, so any other cookie, changed or forged, is checked in full; only cookies that passed are kept
    (a stranger's forgeries cannot fill the cache), with their signing time, so they still expire on time.
    """

    def __init__(self, entries: int = SESSION_ENTRIES) -> None:
        self._checked = functools.lru_cache(maxsize=entries)(self._check)

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """The request's session: its cookie's contents, checked or remembered, or an empty one."""
        if not app.secret_key:
            return super().open_session(app, request)
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return self.session_class()
        try:
            contents, signed_at = self._checked(app, cookie)
        except BadSignature:
            return self.session_class()
        if time.time() - signed_at > app.permanent_session_lifetime.total_seconds():
            return self.session_class()
        # A new session each time, as Flask makes: the kept contents are copied, never handed out.
        return self.session_class(contents)

    def _check(self, app: Flask, cookie: str) -> tuple[dict[str, Any], float]:
        serializer = self.get_signing_serializer(app)
        assert serializer is not None  # open_session checked the secret key
        max_age = int(app.permanent_session_lifetime.total_seconds())
        contents, signed_at = serializer.loads(cookie, max_age=max_age, return_timestamp=True)
        return contents, signed_at.timestamp()


SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    # Join links carry a secret: never leak the page address to anyone else.
    ("Referrer-Policy", "no-referrer"),
)
# A file a page loads (a stylesheet, a script, an icon, the web app manifest) is the app's own fixed bytes, with
# nothing a player or a stranger sent in it. The policy, the framing rule and the referrer rule guard the page
# that loads it: a script runs under its page's policy and its requests carry its page's referrer rule, and a
# stylesheet may load only what its page's policy allows. What a file needs is that its declared type is believed
# (nosniff: no file runs as a script or shows as a page because of what its bytes look like). The other three
# would add 310 bytes to each of the five files of a phone's first load (docs/performance.md).
FILE_HEADERS: tuple[tuple[str, str], ...] = (("X-Content-Type-Options", "nosniff"),)
# The endpoints that serve such files. Their errors (a 404 page) are documents and get every header, and so does
# the service worker (/sw.js), which runs under the policy sent with its own script.
FILE_ENDPOINTS = frozenset({"static", "pwa.manifest"})
# The pages a search engine may list: the front page and the rules. A table's pages, its join links, the API and
# the rules search's answers are nobody's business but the table's: they tell search engines not to list them
# (a join link pasted somewhere public must not become a search result).
PAGES_TO_LIST = frozenset({"home.index", "rules.index", "rules.entry"})
NOT_LISTED_HEADERS = (*SECURITY_HEADERS, ("X-Robots-Tag", "noindex, nofollow"))


def _listable(response: Response) -> bool:
    """Whether a search engine could list this answer at all: a GET's with a body. A form post's answer and a 204
    or 304 never are, and a tap's answer and the board refresh after it stay 66 bytes lighter (docs/performance.md)."""
    return request.method in ("GET", "HEAD") and response.status_code not in (204, 304)


def add_security_headers(response: Response) -> Response:
    """Set the headers a response carries (unless a view chose its own): every one on documents, the live
    stream, the API and errors, with "do not list" on all but the front page and the rules; only nosniff on the
    files a page loads."""
    endpoint = request.endpoint
    headers = NOT_LISTED_HEADERS if _listable(response) and endpoint not in PAGES_TO_LIST else SECURITY_HEADERS
    if endpoint in FILE_ENDPOINTS and response.status_code in (200, 206, 304):
        headers = FILE_HEADERS
    # One pass over the names: Headers.setdefault raises and catches a KeyError per missing header.
    present = {name.lower() for name, _ in response.headers.items()}
    for name, value in headers:
        if name.lower() not in present:
            response.headers.add(name, value)
    return response


class RateCounts(Protocol):
    """Where processes sharing a database count rate-limited events together (the store's rate_events rows)."""

    def count_rate_event(self, limiter: str, key: str, *, limit: int, window: float, now: float) -> bool:
        """Count one event for `key` unless `limit` were counted in the last `window` seconds."""

    def rate_event_leaving(self, limiter: str, key: str, *, limit: int, after: float) -> float | None:
        """When the event that must leave the window before `key` may count another was counted."""

    def take_back_rate_event(self, limiter: str, key: str) -> None:
        """Forget the newest event counted for `key`."""

    def forget_rate_events(self, limiter: str, before: float) -> None:
        """Delete the events `limiter` counted before `before`."""


class Limiter(Protocol):
    """A per-key limit on events in a sliding window (RateLimiter in memory, SharedRateLimiter in the database)."""

    def allow(self, key: str) -> bool:
        """Count one event for `key`; return False (and count nothing) if it is over the limit."""

    def retry_after(self, key: str) -> int:
        """Whole seconds until `key` may count one more event."""

    def release(self, key: str) -> None:
        """Take back the newest event counted for `key`."""


class RateLimiter:
    """A sliding-window count of events per key (an address), kept in memory."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        """Count one event for `key`; return False (and count nothing) if it is over the limit."""
        now = self.clock()
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return False
            hits.append(now)
            if len(self._hits) > 10_000:
                self._hits = {k: v for k, v in self._hits.items() if v and v[-1] > now - self.window}
            return True

    def retry_after(self, key: str) -> int:
        """Whole seconds until `key` may count one more event: when its oldest counted event leaves the window.

        For a 429's Retry-After: a fixed guess sent clients back too early, to be refused again and again until
        the sliding minute had passed.
        """
        now = self.clock()
        with self._lock:
            hits = self._hits.get(key)
            if not hits or len(hits) < self.limit:
                return 0
            return max(1, math.ceil(hits[0] + self.window - now))

    def release(self, key: str) -> None:
        """Take back the newest event counted for `key` (it was refused after all: it should not count)."""
        with self._lock:
            hits = self._hits.get(key)
            if hits:
                hits.pop()


class SharedRateLimiter:
    """A sliding-window count of events per key kept in the database: server processes sharing it count together,
    so P processes behind one proxy allow what one would, not P times as much.

    The same methods as RateLimiter; each count is a write to the database, so it is used only when processes share.
    """

    # Events older than the window no longer count; every so often they are deleted.
    SWEEP_EVERY = 500

    def __init__(
        self, store: RateCounts, name: str, limit: int, window: float, clock: Callable[[], float] = time.time
    ) -> None:
        # The wall clock, not time.monotonic: every process (and machine) must read the same time.
        self.store = store
        self.name = name
        self.limit = limit
        self.window = window
        self.clock = clock
        self._counts = itertools.count(1)

    def allow(self, key: str) -> bool:
        """Count one event for `key`; return False (and count nothing) if it is over the limit."""
        now = self.clock()
        allowed = self.store.count_rate_event(self.name, key, limit=self.limit, window=self.window, now=now)
        if next(self._counts) % self.SWEEP_EVERY == 0:
            self.store.forget_rate_events(self.name, now - self.window)
        return allowed

    def retry_after(self, key: str) -> int:
        """Whole seconds until `key` may count one more event (0 if it may now)."""
        now = self.clock()
        leaving = self.store.rate_event_leaving(self.name, key, limit=self.limit, after=now - self.window)
        if leaving is None:
            return 0
        wait = leaving + self.window - now
        return math.ceil(wait) if wait > 0 else 0

    def release(self, key: str) -> None:
        """Take back the newest event counted for `key` (it was refused after all: it should not count)."""
        self.store.take_back_rate_event(self.name, key)


class TrustedProxyFix:
    """Honour X-Forwarded-For, -Proto, -Host, -Port, -Prefix (one hop) only from a trusted proxy (default: this host).

    Anyone on the Wi-Fi can send X-Forwarded-For: believing it from every peer would let one phone
    pose as endless addresses and slip past the per-address limits on new tables and joins.
    """

    def __init__(self, app: WSGIApplication, trusted: Iterable[str] = ("127.0.0.1", "::1")):
        self.app = app
        self.trusted = frozenset(trusted)
        # X-Forwarded-Prefix: a proxy serving the app under a path (/referee/) that it strips before passing on.
        self.fixed = ProxyFix(app, x_for=1, x_proto=1, x_host=1, x_port=1, x_prefix=1)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REMOTE_ADDR") in self.trusted:
            return self.fixed(environ, start_response)
        return self.app(environ, start_response)


def trusted_client_address(scope: Mapping[str, Any], trusted: frozenset[str]) -> str:
    """The client's address in an ASGI request: the peer, or the last X-Forwarded-For hop if a trusted proxy sent it.

    The same rule as TrustedProxyFix, for the ASGI front's per-address caps (one hop, as ProxyFix x_for=1).
    """
    client = scope.get("client")
    peer = str(client[0]) if client else "?"
    if peer not in trusted:
        return peer
    for name, value in scope.get("headers", ()):
        if name == b"x-forwarded-for":
            hops = [hop.strip() for hop in value.decode("latin-1").split(",") if hop.strip()]
            if hops:
                return str(hops[-1])
    return peer


# Names that always mean this machine (and, for a phone, the server it is talking to).
LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})


# Suffixes home routers and mDNS give a machine's name on the LAN (laptop.local, laptop.lan, laptop.fritz.box).
LAN_SUFFIXES = ("local", "lan", "home", "home.arpa", "internal", "localdomain", "fritz.box")


@functools.cache
def machine_names() -> frozenset[str]:
    """This machine's own names: its host name, and its short name under the suffixes a LAN gives it."""
    try:
        name = socket.gethostname().lower().rstrip(".")
    except OSError:
        return frozenset()
    short = name.split(".")[0]
    if not short:
        return frozenset()
    return frozenset({name, short, *(f"{short}.{suffix}" for suffix in LAN_SUFFIXES)})


def host_name(host: str) -> str | None:
    """Return the name in a Host header without its port, lower case (None if it is malformed)."""
    host = host.strip().lower()
    if host.startswith("["):  # an IPv6 literal: [::1]:8000
        name, bracket, port = host[1:].partition("]")
        if not bracket or (port and not (port.startswith(":") and port[1:].isdigit())):
            return None
        return name
    name, colon, port = host.rpartition(":")
    if not colon:
        name = host
    elif not port.isdigit():
        return None
    return name.rstrip(".") or None


def is_ip_literal(name: str) -> bool:
    """True if `name` is an IPv4 or IPv6 address rather than a name."""
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_allowed(host: str, allowed: Iterable[str]) -> bool:
    """True if a request for `host` is meant for this server: an IP address, localhost, this machine's names,
    or a configured public name (".example.org" also allows its subdomains).

    Any other name is how DNS rebinding gets in: a web page at evil.example that re-points its own name at
    this server's LAN address, so that the player's browser lets the page read the answers.
    """
    name = host_name(host)
    if name is None:
        return False
    if is_ip_literal(name) or name in LOCAL_NAMES or name in machine_names():
        return True
    for entry in allowed:
        entry = entry.lower().rstrip(".")
        if name == entry or (entry.startswith(".") and (name.endswith(entry) or name == entry[1:])):
            return True
    return False


BAD_HOST_MESSAGE = N_(
    "This address is not a name this server answers to. Open it by its IP address (as the QR code "
    "shows), or the host can add the name to REFEREE_ALLOWED_HOSTS."
)
