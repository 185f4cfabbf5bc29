"""Links phones open: a table's join link, on an address a phone on the same Wi-Fi can reach (the machine's LAN
address or the public URL behind a proxy, never "localhost")."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit, urlunsplit

from flask import current_app, url_for

from ..service.tableview import TableView

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost"}


def lan_address() -> str | None:
    """Return this machine's LAN IPv4 address, or None when it has no network.

    Connecting a UDP socket sends nothing; it only asks the kernel which interface would be used.
    """
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect((probe, 9))
                address = str(sock.getsockname()[0])
            except OSError:
                continue
        if not ipaddress.ip_address(address).is_loopback and address != "0.0.0.0":
            return address
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if not ipaddress.ip_address(address).is_loopback:
                return address
    except OSError:
        pass
    return None


def is_loopback_host(hostname: str) -> bool:
    """True if `hostname` only works on this machine (localhost, 127.x, ::1)."""
    name = hostname.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def phone_url(url: str, lan: str | None) -> str:
    """Return `url` with a loopback host swapped for the LAN address `lan` (port kept)."""
    parts = urlsplit(url)
    if not parts.hostname or not lan or not is_loopback_host(parts.hostname):
        return url
    netloc = lan if parts.port is None else f"{lan}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


ALL_INTERFACES = ("0.0.0.0", "::", "")


def link_for_phones(url: str, *, listen_host: str | None, public_url: str | None, lan: str | None) -> str:
    """Return `url` (built from the request) on an address the server really listens on.

    `public_url` (behind a proxy) wins; bound to every interface, a loopback host becomes the LAN address
    (the host phone may have opened localhost); bound to one address (loopback included), the request's
    own host is the one that works. `listen_host` None means not known (another WSGI server): as all.
    """
    if public_url:
        parts, base = urlsplit(url), urlsplit(public_url.rstrip("/"))
        return urlunsplit((base.scheme, base.netloc, base.path + parts.path, parts.query, parts.fragment))
    if listen_host is None or listen_host in ALL_INTERFACES:
        return phone_url(url, lan)
    return url


def join_url(view: TableView) -> str:
    """Return the link a phone opens to join the table, on an address other phones can reach."""
    url = url_for("joining.ask", code=view.code, secret=view.join_secret, _external=True)
    config = current_app.config
    listen_host = config.get("LISTEN_HOST")
    lan = lan_address() if listen_host is None or listen_host in ALL_INTERFACES else None
    return link_for_phones(url, listen_host=listen_host, public_url=config.get("PUBLIC_URL") or None, lan=lan)
