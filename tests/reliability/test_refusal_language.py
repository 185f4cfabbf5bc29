"""The real server's own refusals (the ASGI front answers them before the app sees the request) are said in the
phone's language: its pick (the `lang` cookie), else its browser's Accept-Language."""

from __future__ import annotations

import json
import socket

from tools.harness import HOST, LiveServer

# 100 MB announced: the front refuses it at once, before reading the body.
HUGE = b"Content-Length: 104857600\r\n"


def _refused(port: int, path: str, extra: bytes) -> tuple[bytes, dict[str, str], bytes]:
    """Announce a body far over the limit; return the status line, headers and body of the answer."""
    with socket.create_connection((HOST, port), timeout=5) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode()
            + b"Content-Type: application/json\r\n"
            + extra
            + HUGE
            + b"\r\n"
            + b"[" * 1024
        )
        answer = b""
        while chunk := sock.recv(65536):  # the front closes the connection after this answer
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return status.encode(), headers, body


def test_a_body_too_large_is_refused_in_german_on_a_german_phone(live_server: LiveServer) -> None:
    german = b"Accept-Language: de-DE,de;q=0.9,en;q=0.5\r\n"
    status, headers, body = _refused(live_server.port, "/api/v1/tables", german)
    assert status.startswith(b"HTTP/1.1 413")
    assert json.loads(body) == {"error": {"code": "too_large", "message": "Das war zu viel auf einmal."}}
    assert headers["content-language"] == "de"
    # A page's form gets the plain sentence, in German too.
    status, headers, body = _refused(live_server.port, "/t/ABCDEF/play", german)
    assert status.startswith(b"HTTP/1.1 413") and body.decode() == "Das war zu viel auf einmal."
    # The phone's own pick outranks its browser's; a phone with neither reads English, word for word as before.
    _, _, body = _refused(live_server.port, "/t/ABCDEF/play", german + b"Cookie: lang=fr\r\n")
    assert body.decode() == "C'était trop à envoyer d'un coup."
    _, headers, body = _refused(live_server.port, "/t/ABCDEF/play", b"")
    assert body.decode() == "That was too much to send at once." and headers["content-language"] == "en"
