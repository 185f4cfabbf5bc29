"""Answers written straight to ASGI, before Flask sees a request: a sentence in plain text (or the API's JSON
error) in the phone's language, with the app's security headers, and waiting for a client to go away. The ASGI
front (referee/server/asgi.py) and the live stream (referee/web/live.py) both answer this way.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ..engine.words import worded
from .api import is_api_request
from .i18n import catalog_wording, language_of_headers
from .security import SECURITY_HEADERS

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


def security_headers() -> list[tuple[bytes, bytes]]:
    """The app's security headers, as ASGI wants them."""
    return [(name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS]


async def disconnected(receive: Receive) -> None:
    """Return when the client goes away."""
    while (await receive())["type"] != "http.disconnect":
        pass


def decrement(counter: Counter[str], key: str) -> None:
    """Count one less for `key`, forgetting it at zero (counts per address stay small)."""
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]


def _worded(scope: Scope, text: str) -> tuple[str, str]:
    """`text` (a sentence marked with N_, or a Sentence) in the language of the request, and that language.

    Worked out only for a refusal: the headers are read and a catalog loaded (once per language and process) when
    the front answers itself, never for a request it lets through."""
    language = language_of_headers(scope.get("headers", ()))
    return worded(text, catalog_wording(language)), language


async def refuse(send: Send, scope: Scope, status: int, code: str, text: str, *, close: bool = False) -> None:
    """Refuse in the front, in the phone's language: JSON under the API's prefix, as every API error is (a client
    parsing JSON breaks on a plain sentence), a plain sentence elsewhere. `close` ends the connection after the
    answer."""
    if not is_api_request(scope["path"]):
        await plain(send, scope, status, text, close=close)
        return
    said, language = _worded(scope, text)
    body = json.dumps({"error": {"code": code, "message": said}}).encode()
    headers = [(b"content-type", b"application/json"), *_answer_headers(status, close, body, language)]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def plain(send: Send, scope: Scope, status: int, text: str, *, close: bool = False) -> None:
    """Answer with a short plain-text sentence in the phone's language (and Retry-After when the client should
    come back)."""
    said, language = _worded(scope, text)
    body = said.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), *_answer_headers(status, close, body, language)]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _answer_headers(status: int, close: bool, body: bytes, language: str) -> list[tuple[bytes, bytes]]:
    """Our security headers, the length and the language; Retry-After when the client should come back;
    Connection: close when asked (a body not read whole, or not to be trusted: nothing left of it may be read as a
    request of its own)."""
    headers = [
        *security_headers(),
        (b"content-length", str(len(body)).encode()),
        (b"content-language", language.encode()),
    ]
    if status in (429, 503):
        headers.append((b"retry-after", b"10"))
    if close:
        headers.append((b"connection", b"close"))
    return headers
