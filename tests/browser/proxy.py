"""A reverse proxy for tests, on this machine: it serves the app under a path prefix (/referee/...), strips the
prefix before passing a request on, and names it in X-Forwarded-Prefix, as nginx or Caddy set up that way do."""

from __future__ import annotations

import http.client
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Hop-by-hop headers: they describe one connection, so a proxy never passes them on.
HOP_BY_HOP = frozenset(
    {"connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "content-length"}
)


class PrefixProxy:
    """`http://127.0.0.1:<port><prefix>/...` -> the backend's `/...`; stop() and start() keep the same port."""

    def __init__(self, backend_port: int, prefix: str = "/referee"):
        self.backend_port = backend_port
        self.prefix = prefix
        self.port = 0
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.prefix}"

    def start(self) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), self._handler())
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        """Stop answering: a phone now gets no connection at all (as when the Wi-Fi drops)."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
                """Keep the test output quiet."""

            def forward(self) -> None:
                if not (self.path == proxy.prefix or self.path.startswith(proxy.prefix + "/")):
                    self.send_error(404, "Not under the proxy's prefix")
                    return
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
                headers["X-Forwarded-Prefix"] = proxy.prefix
                headers["X-Forwarded-For"] = self.client_address[0]
                backend = http.client.HTTPConnection("127.0.0.1", proxy.backend_port, timeout=60)
                try:
                    backend.request(self.command, self.path[len(proxy.prefix) :] or "/", body or None, headers)
                    response = backend.getresponse()
                except OSError:
                    self.send_error(502, "The app is not answering")
                    return
                self.send_response(response.status, response.reason)
                for name, value in response.getheaders():
                    if name.lower() not in HOP_BY_HOP:
                        self.send_header(name, value)
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                try:
                    while chunk := response.read1(65536):  # a live stream: pass each piece on at once
                        self.wfile.write(chunk)
                        self.wfile.flush()
                except OSError:
                    pass  # the phone or the app hung up
                finally:
                    backend.close()

            do_GET = do_POST = do_HEAD = forward

        return Handler
