"""Settings: the defaults below, then `REFEREE_*` environment variables, then the caller's overrides; read once.

Flask's own loader reads the environment (`REFEREE_MAX_STREAMS=300` sets `MAX_STREAMS` to the number 300);
`finish()` then fills in what depends on the instance folder (the database, the cookie-signing key) and
normalises the few settings a person types as text (comma-separated lists of proxies and host names).
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from .web.redaction import redacted_logger

ENV_PREFIX = "REFEREE"
log = redacted_logger(__name__)
# Where an installed copy keeps its data (XDG's user data folder): a wheel has no folder of its own to write in.
DATA_FOLDER_NAME = "five-alive-referee"
# The checkout this package sits in, if it sits in one (an editable install): its data stays in `instance/`.
_CLONE = Path(__file__).resolve().parent.parent


def data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """Return the folder for the database and the cookie key: REFEREE_DATA_DIR, a clone's instance/, or XDG's."""
    chosen = environ.get(f"{ENV_PREFIX}_DATA_DIR")
    if chosen:
        return Path(chosen).expanduser().resolve()
    if (_CLONE / "pyproject.toml").is_file() and (_CLONE / "referee" / "__init__.py").is_file():
        return _CLONE / "instance"
    base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return (Path(base).expanduser() / DATA_FOLDER_NAME).resolve()


class Defaults:
    """Every setting and its default; `REFEREE_<NAME>` overrides one (see docs/deploy.md)."""

    MAX_CONTENT_LENGTH = 64 * 1024
    SESSION_COOKIE_NAME = "referee"
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    PERMANENT_SESSION_LIFETIME = timedelta(days=365)
    # Send the cookie only when it changes: refreshing it put ~280 bytes on every response, static
    # files and 204 polls included (docs/performance.md). It still lasts a year from the last change.
    SESSION_REFRESH_EACH_REQUEST = False
    # Live streams are coroutines under `referee serve` (referee/server/asgi.py): a few KB each, so thousands fit. The
    # per-address caps keep one client (or one broken script) from taking them all; past a cap the page polls.
    MAX_STREAMS = 2000
    MAX_STREAMS_PER_ADDRESS = 24
    MAX_REQUESTS_PER_ADDRESS = 32
    # Open connections per address, in each process (referee/server/serving.py); past it a new one is closed as it is
    # accepted, before it costs a thread or a log line. A phone holds up to seven while a page loads (a browser
    # opens six to one server, plus the live stream) and one or two between taps: 512 lets a café of some 150
    # phones behind one NAT address load pages at once, while one address can no longer take every open file.
    # Trusted proxies are not counted: behind one, every phone's connection comes from it.
    MAX_CONNECTIONS_PER_ADDRESS = 512
    # Seconds a request's body may take to arrive, and as many again for each 256 KB it announces
    # (referee/server/asgi.py reads it before a thread takes the request): a tap gets 10 s, a 1 MB import 50 s
    # (168 kbit/s, a weak mobile uplink). Past it: 408.
    BODY_SECONDS = 10.0
    # Seconds a connection may sit without a request, before its first as well as between them: this is what
    # closes idle and slow-header connections (a header line every few seconds does not keep one open).
    KEEP_ALIVE_SECONDS = 10.0
    # The address phones should open, when the server sits behind a proxy (`referee serve --public-url`):
    # join links and QR codes use it instead of the address a request came in on. Empty: work it out.
    PUBLIC_URL = ""
    # The address `referee serve --host` listens on (it sets this); empty: every interface, or not known.
    LISTEN_HOST = ""
    STREAM_KEEPALIVE = 15.0
    STREAM_MAX_SECONDS = 300.0
    TABLES_PER_MINUTE = 60
    JOINS_PER_MINUTE = 60
    # Generous: a script replaying a whole game at 20 actions a second never meets it; a runaway loop does.
    TOKEN_ACTIONS_PER_MINUTE = 1200
    MAX_ACTIONS_PER_TABLE = 10_000
    # On when more than one server process may share the database, so each tells the others of its changes
    # (docs/scaling.md). None: on for PostgreSQL, whose whole point here is processes on several machines (a
    # hosted service that forgot the variable would lose every live update between them, silently); off for
    # SQLite, one process's file, unless `referee serve --workers N` turns it on for its workers.
    CROSS_PROCESS_UPDATES: bool | None = None
    TRUST_PROXY = True
    # Only these peers may set X-Forwarded-* (a reverse proxy on this machine); see docs/security.md.
    TRUSTED_PROXIES: tuple[str, ...] = ("127.0.0.1", "::1")
    # Host names answered besides IP addresses, localhost and this machine's own names: the public name
    # behind a proxy ("cards.example.org"; ".example.org" allows its subdomains). Others get a 400, the
    # defence against DNS rebinding (docs/security.md).
    ALLOWED_HOSTS: tuple[str, ...] = ()


def finish(config: dict[str, Any], instance: Path, environ: Mapping[str, str] = os.environ) -> None:
    """Fill in the settings that depend on the instance folder and normalise typed-in lists."""
    instance.mkdir(parents=True, exist_ok=True)
    # DATABASE_URL without the prefix too: it is the name hosting platforms and the README use.
    config.setdefault("DATABASE_URL", environ.get("DATABASE_URL") or f"sqlite:///{instance / 'referee.sqlite3'}")
    for name in ("TRUSTED_PROXIES", "ALLOWED_HOSTS"):
        if isinstance(config[name], str):
            config[name] = tuple(part.strip() for part in config[name].split(",") if part.strip())
    for name, parse in VARIABLE_ONLY.items():
        # The variable as typed (Flask has read it as JSON into the config, "abc" and -5 included).
        text = environ.get(f"{ENV_PREFIX}_{name}")
        if text is None:
            continue
        try:
            parse(text)
        except SettingError as error:
            raise SettingError(f"{ENV_PREFIX}_{name} {error}, not {text[:60]!r}") from None
    config["CROSS_PROCESS_UPDATES"] = _cross_process(config["CROSS_PROCESS_UPDATES"], config["DATABASE_URL"])
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = secret_key(instance / "secret_key")


def _cross_process(value: object, database_url: str) -> bool:
    """Whether server processes tell each other of changes: as set, else on for PostgreSQL only."""
    from .store import is_postgres

    if value is None:
        return is_postgres(database_url)
    if isinstance(value, str):
        # The variable as Flask read it when it is not JSON ("yes", "off"); JSON's true and false arrive as bools.
        return _switch(value)
    return bool(value)


def secret_key(path: Path) -> str:
    """Return the key that signs cookies, kept in `path`; create it readable by this user only."""
    try:
        # O_EXCL: two processes starting at once cannot both write a key; 0600 from the first byte.
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            log.warning("%s can be read by other users of this machine: chmod 600 it", path)
        return path.read_text().strip()
    key = secrets.token_hex(32)
    with os.fdopen(descriptor, "w") as file:
        file.write(key)
    return key


class SettingError(ValueError):
    """A setting given a value it cannot take; the message is the one line `referee` prints."""


def _whole(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise SettingError(f"must be a whole number from {low} to {high}") from None
        if not low <= value <= high:
            raise SettingError(f"must be a whole number from {low} to {high}")
        return value

    return parse


def _positive(text: str) -> int:
    return _whole(1, 100_000_000)(text)


def _seconds(text: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        raise SettingError("must be a number of seconds, such as 300") from None
    if not 1 <= value <= 86_400:
        raise SettingError("must be a number of seconds from 1 to 86400")
    return value


SWITCH_WORDS = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}


def _switch(text: str) -> bool:
    try:
        return SWITCH_WORDS[text.strip().lower()]
    except KeyError:
        raise SettingError("must be true or false") from None


def _text(text: str) -> str:
    if not text.strip():
        raise SettingError("must not be empty")
    return text.strip()


def _names(text: str) -> tuple[str, ...]:
    parts = tuple(part.strip().lower() for part in text.split(",") if part.strip())
    for part in parts:
        if not all(ch.isalnum() or ch in ".-" for ch in part):
            raise SettingError(f"must list host names separated by commas; {part[:40]!r} is not one")
    return parts


def _proxies(text: str) -> tuple[str, ...]:
    import ipaddress

    parts = tuple(part.strip() for part in text.split(",") if part.strip())
    for part in parts:
        try:
            ipaddress.ip_address(part)
        except ValueError:
            raise SettingError(f"must list IP addresses separated by commas; {part[:40]!r} is not one") from None
    return parts


LOG_LEVELS = ("debug", "info", "warning", "error")


def _log_level(text: str) -> str:
    level = text.strip().lower()
    if level not in LOG_LEVELS:
        raise SettingError(f"must be one of {', '.join(LOG_LEVELS)}")
    return level


def _public_url(text: str) -> str:
    from urllib.parse import urlsplit

    url = text.strip()
    try:
        parts = urlsplit(url)
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
        parts = urlsplit("")
    if parts.scheme not in ("http", "https") or not parts.hostname or not port_ok or parts.query or parts.fragment:
        raise SettingError("must be the address phones open, like https://cards.example.org")
    return url.rstrip("/")


def _database(text: str) -> str:
    from .store import database_path, is_postgres

    try:
        if not is_postgres(text.strip()):
            database_path(text.strip())
    except ValueError:
        raise SettingError(
            "must look like sqlite:///PATH (three slashes, then the file's path) or postgresql://…"
        ) from None
    return text.strip()


@dataclass(frozen=True)
class Setting:
    """One setting of `referee serve`: its flag, its environment variable, how to read it and what it does."""

    name: str  # the ServeSettings field and, upper-cased, the REFEREE_<NAME> variable
    parse: Callable[[str], Any]
    default: Any
    help: str
    env: str = ""  # the variable, when it is not REFEREE_<NAME>
    metavar: str = "N"

    @property
    def flag(self) -> str:
        """The command-line flag, e.g. --max-streams."""
        return "--" + self.name.replace("_", "-")

    @property
    def variable(self) -> str:
        """The environment variable, e.g. REFEREE_MAX_STREAMS."""
        return self.env or f"{ENV_PREFIX}_{self.name.upper()}"


DEFAULT_PORT = 8000

# The settings that are variables only (docs/deploy.md): a bad value stops the server with one line naming the
# variable, as a bad flag does (play test 7b: a traceback, or a table "full at -5 entries").
VARIABLE_ONLY: dict[str, Callable[[str], Any]] = {
    "STREAM_KEEPALIVE": _seconds,
    "BODY_SECONDS": _seconds,
    "TOKEN_ACTIONS_PER_MINUTE": _positive,
    "MAX_ACTIONS_PER_TABLE": _positive,
    "TABLES_PER_MINUTE": _positive,
    "JOINS_PER_MINUTE": _positive,
    "CROSS_PROCESS_UPDATES": _switch,
}

SETTINGS: tuple[Setting, ...] = (
    Setting("host", _text, "0.0.0.0", "address to listen on (default: every address of this machine)", metavar="ADDR"),
    Setting("port", _whole(1, 65535), DEFAULT_PORT, f"TCP port (default {DEFAULT_PORT})"),
    # 4 is serving.REQUEST_THREADS (tests/ops/test_settings.py keeps them equal; config must not import the server).
    Setting("threads", _whole(1, 64), 4, "threads per process for pages, taps and the API (default 4)"),
    Setting(
        "workers",
        _whole(1, 64),
        1,
        "server processes sharing the port; they share tables and live updates through the database (default 1)",
    ),
    Setting(
        "data_dir",
        _text,
        None,
        "folder for the database and the cookie key (default: instance/ in a clone, else "
        "$XDG_DATA_HOME/five-alive-referee or ~/.local/share/five-alive-referee)",
        metavar="DIR",
    ),
    Setting(
        "database",
        _database,
        None,
        "database as sqlite:///PATH or postgresql://USER@HOST/NAME (default: referee.sqlite3 in the data folder)",
        env="DATABASE_URL",
        metavar="URL",
    ),
    Setting(
        "max_streams", _whole(1, 100_000), Defaults.MAX_STREAMS, "most live streams open per process (default 2000)"
    ),
    Setting(
        "max_streams_per_address",
        _whole(1, 100_000),
        Defaults.MAX_STREAMS_PER_ADDRESS,
        "most live streams from one address; past it the page polls (default 24)",
    ),
    Setting(
        "max_requests_per_address",
        _whole(1, 100_000),
        Defaults.MAX_REQUESTS_PER_ADDRESS,
        "most requests in progress from one address; past it 429 (default 32)",
    ),
    Setting(
        "max_connections_per_address",
        _whole(1, 100_000),
        Defaults.MAX_CONNECTIONS_PER_ADDRESS,
        "most connections open from one address (trusted proxies excepted); past it a new one is closed (default 512)",
    ),
    Setting(
        "keep_alive_seconds",
        _seconds,
        Defaults.KEEP_ALIVE_SECONDS,
        "seconds a connection may wait for its next request before it is closed (default 10)",
        metavar="S",
    ),
    Setting(
        "stream_max_seconds",
        _seconds,
        Defaults.STREAM_MAX_SECONDS,
        "seconds before a live stream ends and the phone reconnects (default 300)",
        metavar="S",
    ),
    Setting(
        "trusted_proxies",
        _proxies,
        Defaults.TRUSTED_PROXIES,
        "comma-separated addresses whose X-Forwarded-* headers are believed (default 127.0.0.1,::1)",
        metavar="ADDRS",
    ),
    Setting(
        "allowed_hosts",
        _names,
        Defaults.ALLOWED_HOSTS,
        "comma-separated host names answered besides IP addresses, localhost and this machine's names, "
        "e.g. cards.example.org (.example.org allows its subdomains too)",
        metavar="NAMES",
    ),
    Setting(
        "public_url",
        _public_url,
        None,
        "the address phones open, when a proxy serves this one under another name (e.g. https://cards.example.org);"
        " join links and QR codes use it",
        metavar="URL",
    ),
    Setting("log_level", _log_level, "info", f"least important log lines shown: {', '.join(LOG_LEVELS)}", metavar="L"),
)


@dataclass(frozen=True)
class ServeSettings:
    """Everything `referee serve` was told, from flags, then REFEREE_* variables, then defaults."""

    host: str
    port: int
    threads: int
    workers: int
    data_dir: Path
    database: str
    max_streams: int
    max_streams_per_address: int
    max_requests_per_address: int
    max_connections_per_address: int
    keep_alive_seconds: float
    stream_max_seconds: float
    trusted_proxies: tuple[str, ...]
    allowed_hosts: tuple[str, ...]
    public_url: str | None
    log_level: str

    def app_config(self) -> dict[str, Any]:
        """The Flask settings these imply (create_app's overrides)."""
        return {
            "DATA_DIR": str(self.data_dir),
            "DATABASE_URL": self.database,
            "MAX_STREAMS": self.max_streams,
            "MAX_STREAMS_PER_ADDRESS": self.max_streams_per_address,
            "MAX_REQUESTS_PER_ADDRESS": self.max_requests_per_address,
            "MAX_CONNECTIONS_PER_ADDRESS": self.max_connections_per_address,
            "KEEP_ALIVE_SECONDS": self.keep_alive_seconds,
            "STREAM_MAX_SECONDS": self.stream_max_seconds,
            "TRUSTED_PROXIES": self.trusted_proxies,
            "ALLOWED_HOSTS": self.allowed_hosts,
            # Join links name an address the server really listens on (referee/web/links.py: join_url).
            "LISTEN_HOST": self.host,
            "PUBLIC_URL": self.public_url or "",
        }

    def environ(self) -> dict[str, str]:
        """These settings as the environment variables that give them (for worker processes)."""
        values = {setting.variable: getattr(self, setting.name) for setting in SETTINGS}
        values["REFEREE_TRUSTED_PROXIES"] = ",".join(self.trusted_proxies)
        values["REFEREE_ALLOWED_HOSTS"] = ",".join(self.allowed_hosts)
        return {name: str(value) for name, value in values.items() if value is not None}


def resolve(given: Mapping[str, str | None], environ: Mapping[str, str] = os.environ) -> ServeSettings:
    """Turn flags (`given`, as typed; None = not given) and the environment into settings; SettingError if bad."""
    values: dict[str, Any] = {}
    for setting in SETTINGS:
        typed = given.get(setting.name)
        source, text = (setting.flag, typed) if typed is not None else (setting.variable, environ.get(setting.variable))
        if setting.name == "database" and text is None:
            source, text = (f"{ENV_PREFIX}_DATABASE_URL", environ.get(f"{ENV_PREFIX}_DATABASE_URL"))
        if text is None:
            values[setting.name] = setting.default
            continue
        try:
            values[setting.name] = setting.parse(text)
        except SettingError as error:
            # An error that quotes the value already does not quote it twice ("'proxy.lan' is not one").
            typed = "" if repr(text.strip()[:40]) in str(error) else f", not {text[:60]!r}"
            raise SettingError(f"{source} {error}{typed}") from None
    folder = Path(values["data_dir"]).expanduser().resolve() if values["data_dir"] else data_dir(environ)
    values["data_dir"] = folder
    values["database"] = values["database"] or f"sqlite:///{folder / 'referee.sqlite3'}"
    return ServeSettings(**values)
