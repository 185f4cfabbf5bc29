"""Settings: one table (`SETTINGS`) of every setting, its default, how it is read, what it does, and whether it is a
flag of `referee serve` or an environment variable only. The app's defaults, the flags and `--help`, `resolve()`,
the workers' environment and the check of the variables are all read from it.

Under any server the app starts from `APP_DEFAULTS`; Flask's own loader then reads the `REFEREE_*` variables
(`REFEREE_MAX_STREAMS=300` sets `MAX_STREAMS` to the number 300), then the caller's overrides. `finish()` fills in
what depends on the data folder (the database, the cookie-signing key), normalises the lists a person types as text
and refuses a bad value of a variable-only setting. `referee serve` reads its flags and their variables with
`resolve()` and hands the app what they say (`ServeSettings.app_config`).
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

from .service import MAX_ACTIONS
from .web.redaction import redacted_logger

ENV_PREFIX = "REFEREE"
log = redacted_logger(__name__)
# Where an installed copy keeps its data (XDG's user data folder): a wheel has no folder of its own to write in.
DATA_FOLDER_NAME = "five-alive-referee"
# The database's file in the data folder, unless a database is given.
DATABASE_FILE = "referee.sqlite3"
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


def default_database(folder: Path) -> str:
    """The database used when none is given: its file in the data folder."""
    return f"sqlite:///{folder / DATABASE_FILE}"


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


def _any_text(text: str) -> str:
    return text


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


def as_typed(value: object) -> str:
    """A setting's value written as a person types it: lists comma-separated, 10.0 as 10."""
    if isinstance(value, tuple):
        return ",".join(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass(frozen=True)
class Setting:
    """One setting: its name, its default, how to read it as typed, what it does, and where it can be given."""

    name: str  # the flag (--max-streams), the ServeSettings field and, upper-cased, the app's key and REFEREE_<NAME>
    default: Any  # None: worked out at start-up, as `default_text` says
    parse: Callable[[str], Any]
    help: str
    variable_only: bool = False  # not a flag of `referee serve`: the app reads the variable (finish() checks it)
    app: bool = True  # the app reads it; False: only `referee serve` does (where and how to serve)
    default_text: str = ""  # the default in words, where the value alone does not say it
    app_key: str = ""  # the app's key, when it is not NAME
    env: tuple[str, ...] = ()  # the variables that give it, the first winning, when not just REFEREE_<KEY>
    metavar: str = "N"

    @property
    def key(self) -> str:
        """The app's configuration key, e.g. MAX_STREAMS."""
        return self.app_key or self.name.upper()

    @property
    def flag(self) -> str:
        """The command-line flag, e.g. --max-streams."""
        return "--" + self.name.replace("_", "-")

    @property
    def variables(self) -> tuple[str, ...]:
        """The environment variables that give it, the first winning, e.g. (REFEREE_MAX_STREAMS,)."""
        return self.env or (f"{ENV_PREFIX}_{self.key}",)

    @property
    def variable(self) -> str:
        """The environment variable that gives it, e.g. REFEREE_MAX_STREAMS."""
        return self.variables[0]

    @property
    def typed_default(self) -> str | None:
        """The default as a person would type it ("127.0.0.1,::1", "10"); None when there is none to type."""
        return None if self.default is None or self.default == () else as_typed(self.default)

    @property
    def help_line(self) -> str:
        """What `referee serve --help` says of it, its default written from the value."""
        if self.typed_default is None:
            return f"{self.help} (default{':' if self.default_text else ''} {self.default_text or 'none'})"
        note = f": {self.default_text}" if self.default_text else ""
        return f"{self.help} (default {self.typed_default}{note})"


SETTINGS: tuple[Setting, ...] = (
    # Where and how `referee serve` serves: only it reads these four (app=False).
    Setting(
        "host",
        "0.0.0.0",
        _text,
        "address to listen on",
        app=False,
        default_text="every address of this machine",
        metavar="ADDR",
    ),
    Setting("port", 8000, _whole(1, 65535), "TCP port", app=False),
    # Requests are short and share one GIL, so a few threads overlap database waits without taking turns at the
    # GIL for nothing (docs/performance.md).
    Setting("threads", 4, _whole(1, 64), "threads per process for pages, taps and the API", app=False),
    Setting(
        "workers",
        1,
        _whole(1, 64),
        "server processes sharing the port; they share tables and live updates through the database",
        app=False,
    ),
    Setting(
        "data_dir",
        None,
        _text,
        "folder for the database and the cookie key",
        default_text=f"instance/ in a clone, else $XDG_DATA_HOME/{DATA_FOLDER_NAME} or "
        f"~/.local/share/{DATA_FOLDER_NAME}",
        metavar="DIR",
    ),
    # DATABASE_URL without the prefix first: it is the name hosting platforms and the README use.
    Setting(
        "database",
        None,
        _database,
        "database as sqlite:///PATH or postgresql://USER@HOST/NAME",
        default_text=f"{DATABASE_FILE} in the data folder",
        app_key="DATABASE_URL",
        env=("DATABASE_URL", f"{ENV_PREFIX}_DATABASE_URL"),
        metavar="URL",
    ),
    # Live streams are coroutines under `referee serve` (referee/server/asgi.py): a few KB each, so thousands fit.
    # The per-address caps keep one client (or one broken script) from taking them all; past a cap the page polls.
    Setting("max_streams", 2000, _whole(1, 100_000), "most live streams open per process"),
    Setting(
        "max_streams_per_address", 24, _whole(1, 100_000), "most live streams from one address; past it the page polls"
    ),
    Setting(
        "max_requests_per_address", 32, _whole(1, 100_000), "most requests in progress from one address; past it 429"
    ),
    # Open connections per address, in each process (referee/server/serving.py); past it a new one is closed as it
    # is accepted, before it costs a thread or a log line. A phone holds up to seven while a page loads (a browser
    # opens six to one server, plus the live stream) and one or two between taps: 512 lets a café of some 150
    # phones behind one NAT address load pages at once, while one address can no longer take every open file.
    # Trusted proxies are not counted: behind one, every phone's connection comes from it.
    Setting(
        "max_connections_per_address",
        512,
        _whole(1, 100_000),
        "most connections open from one address (trusted proxies excepted); past it a new one is closed",
    ),
    # Before its first request as well as between them: this is what closes idle and slow-header connections (a
    # header line every few seconds does not keep one open).
    Setting(
        "keep_alive_seconds",
        10.0,
        _seconds,
        "seconds a connection may wait for its next request before it is closed",
        metavar="S",
    ),
    Setting(
        "stream_max_seconds",
        300.0,
        _seconds,
        "seconds before a live stream ends and the phone reconnects",
        metavar="S",
    ),
    # Only these peers may set X-Forwarded-* (a reverse proxy on this machine); see docs/security.md.
    Setting(
        "trusted_proxies",
        ("127.0.0.1", "::1"),
        _proxies,
        "comma-separated addresses whose X-Forwarded-* headers are believed",
        metavar="ADDRS",
    ),
    # The public name behind a proxy; any other name gets a 400, the defence against DNS rebinding
    # (docs/security.md).
    Setting(
        "allowed_hosts",
        (),
        _names,
        "comma-separated host names answered besides IP addresses, localhost and this machine's names, "
        "e.g. cards.example.org, or .example.org for its subdomains too",
        metavar="NAMES",
    ),
    # Join links and QR codes use it instead of the address a request came in on; none: work it out.
    Setting(
        "public_url",
        None,
        _public_url,
        "the address phones open, when a proxy serves this one under another name (e.g. https://cards.example.org);"
        " join links and QR codes use it",
        metavar="URL",
    ),
    Setting(
        "log_level",
        "info",
        _log_level,
        f"least important log lines shown: {', '.join(LOG_LEVELS)}",
        app=False,
        metavar="L",
    ),
    # Variables only: a bad value stops the server with one line naming the variable, as a bad flag does, rather
    # than a traceback or a table "full" at -5 entries.
    # The ASGI front (referee/server/asgi.py) reads a body before a thread takes the request: a tap gets 10 s, a
    # 1 MB import 50 s (168 kbit/s, a weak mobile uplink). Past it: 408.
    Setting(
        "body_seconds",
        10.0,
        _seconds,
        "seconds a request's body may take to arrive, and as many again for each 256 KB it announces",
        variable_only=True,
    ),
    Setting(
        "stream_keepalive",
        15.0,
        _seconds,
        "seconds between the comment lines that keep routers and proxies from closing an idle stream",
        variable_only=True,
    ),
    # Generous: a script replaying a whole game at 20 actions a second never meets it; a runaway loop does.
    Setting(
        "token_actions_per_minute",
        1200,
        _positive,
        "actions sent with one table's API token a minute",
        variable_only=True,
    ),
    # The service's own cap by default (referee/service/base.py says why).
    Setting("max_actions_per_table", MAX_ACTIONS, _positive, "actions a table's log holds", variable_only=True),
    Setting("tables_per_minute", 60, _positive, "new tables from one address a minute", variable_only=True),
    Setting("joins_per_minute", 60, _positive, "joins from one address a minute", variable_only=True),
    # A variable only: it should not show in `ps`. Any text will do.
    Setting(
        "secret_key",
        None,
        _any_text,
        "the key that signs cookies",
        variable_only=True,
        default_text="a key created in the data folder",
    ),
    # On when more than one server process may share the database, so each tells the others of its changes
    # (docs/scaling.md). None: on for PostgreSQL, whose whole point here is processes on several machines (a
    # hosted service that forgot the variable would lose every live update between them, silently); off for
    # SQLite, one process's file, unless `referee serve --workers N` turns it on for its workers.
    Setting(
        "cross_process_updates",
        None,
        _switch,
        "whether server processes tell each other of their changes through the database",
        variable_only=True,
        default_text="true on PostgreSQL, false on SQLite",
    ),
)

SERVE_FLAGS = tuple(setting for setting in SETTINGS if not setting.variable_only)
"""The settings `referee serve` takes as flags (each also from its variable)."""


def setting(name: str) -> Setting:
    """The setting called `name` (e.g. "port")."""
    return next(each for each in SETTINGS if each.name == name)


APP_DEFAULTS: Mapping[str, Any] = {
    # Flask's own configuration, fixed by the app rather than set by an operator.
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "SESSION_COOKIE_NAME": "referee",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Lax",
    "PERMANENT_SESSION_LIFETIME": timedelta(days=365),
    # Send the cookie only when it changes: refreshing it put ~280 bytes on every response, static files and 204
    # polls included (docs/performance.md). It still lasts a year from the last change.
    "SESSION_REFRESH_EACH_REQUEST": False,
    "TRUST_PROXY": True,
    # The address `referee serve --host` listens on (it sets this); empty: every interface, or not known.
    "LISTEN_HOST": "",
    **{each.key: each.default for each in SETTINGS if each.app},
}
"""Every setting the app reads, at its default (`REFEREE_<NAME>` overrides one; see docs/deploy.md)."""


def finish(config: dict[str, Any], instance: Path, environ: Mapping[str, str] = os.environ) -> None:
    """Fill in the settings that depend on the instance folder, normalise typed-in lists and check the variables."""
    instance.mkdir(parents=True, exist_ok=True)
    if not config.get("DATABASE_URL"):
        config["DATABASE_URL"] = environ.get("DATABASE_URL") or default_database(instance)
    for each in SETTINGS:
        if isinstance(each.default, tuple) and isinstance(config[each.key], str):
            config[each.key] = tuple(part.strip() for part in config[each.key].split(",") if part.strip())
        if each.variable_only:
            # The variable as typed (Flask has read it as JSON into the config, "abc" and -5 included).
            _read(each, each.variable, environ.get(each.variable))
    config["CROSS_PROCESS_UPDATES"] = _cross_process(config["CROSS_PROCESS_UPDATES"], config["DATABASE_URL"])
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = secret_key(instance / "secret_key")


def _read(each: Setting, source: str, text: str | None) -> Any:
    """The setting's value as `text` (from `source`, a flag or a variable) gives it; SettingError naming the source."""
    if text is None:
        return each.default
    try:
        return each.parse(text)
    except SettingError as error:
        # An error that quotes the value already does not quote it twice ("'proxy.lan' is not one").
        typed = "" if repr(text.strip()[:40]) in str(error) else f", not {text[:60]!r}"
        raise SettingError(f"{source} {error}{typed}") from None


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


@dataclass(frozen=True)
class ServeSettings:
    """Everything `referee serve` was told, from flags, then REFEREE_* variables, then defaults (one field a flag)."""

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
        """The app's settings these imply (create_app's overrides)."""
        values = {each.key: getattr(self, each.name) for each in SERVE_FLAGS if each.app}
        values["DATA_DIR"] = str(self.data_dir)
        # Join links name an address the server really listens on (referee/web/links.py: join_url).
        values["LISTEN_HOST"] = self.host
        return values

    def environ(self) -> dict[str, str]:
        """These settings as the environment variables that give them (for worker processes)."""
        values = {each.variable: getattr(self, each.name) for each in SERVE_FLAGS}
        return {name: as_typed(value) for name, value in values.items() if value is not None}


def resolve(given: Mapping[str, str | None], environ: Mapping[str, str] = os.environ) -> ServeSettings:
    """Turn flags (`given`, as typed; None = not given) and the environment into settings; SettingError if bad."""
    values: dict[str, Any] = {}
    for each in SERVE_FLAGS:
        sources = [(each.flag, given.get(each.name))] + [(name, environ.get(name)) for name in each.variables]
        source, text = next(((source, text) for source, text in sources if text is not None), (each.flag, None))
        values[each.name] = _read(each, source, text)
    folder = Path(values["data_dir"]).expanduser().resolve() if values["data_dir"] else data_dir(environ)
    values["data_dir"] = folder
    values["database"] = values["database"] or default_database(folder)
    return ServeSettings(**values)
