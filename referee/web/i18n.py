"""Each phone in its own language: English, French or German, chosen per phone, at the same table.

A phone speaks what its browser asks for (Accept-Language) until someone picks a language with the switch; the
pick is remembered in a cookie of that phone alone. The table display has its own pick, so a screen across the
table can stay in one language whatever the phone beside it reads. Flask-Babel finds the words in
`referee/translations/<language>/LC_MESSAGES/messages.mo` (docs/translations.md: how to add a language).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urlsplit

from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations
from flask import Blueprint, Flask, Response, g, redirect, request
from flask_babel import Babel, get_locale, get_translations
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie
from werkzeug.wrappers import Response as BaseResponse

from ..engine.words import worded as worded_in

# The languages the app speaks, each named in itself (a French phone's switch says "Français").
LANGUAGES = {"en": "English", "fr": "Français", "de": "Deutsch"}
DEFAULT_LANGUAGE = "en"
# Cookies that remember a pick: one for the phones' pages, one for the table display.
LANGUAGE_COOKIE = "lang"
DISPLAY_LANGUAGE_COOKIE = "display_lang"
ONE_YEAR = 365 * 24 * 3600
# The catalogs, where Flask-Babel finds them (init_app): referee/translations/<language>/LC_MESSAGES/messages.mo.
CATALOGS = Path(__file__).resolve().parents[1] / "translations"

bp = Blueprint("language", __name__)


def _is_display() -> bool:
    """The table display's pages keep their own language."""
    return (request.endpoint or "").startswith("display.")


def select_language() -> str:
    """The language of this request: the phone's (or display's) pick, else the browser's, else English."""
    picked = request.cookies.get(DISPLAY_LANGUAGE_COOKIE if _is_display() else LANGUAGE_COOKIE)
    if picked in LANGUAGES:
        return picked
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT_LANGUAGE


def language() -> str:
    """The language this request is answered in ("en", "fr" or "de")."""
    return str(get_locale() or DEFAULT_LANGUAGE)


def _local_path(target: str | None) -> str:
    """`target` if it is a path on this server (never another site: the switch is no open redirect), else "/"."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


@bp.get("/language/<code>")
def choose(code: str) -> BaseResponse:
    """Remember this phone's (or, with ?for=display, the table display's) language and go back to the page."""
    target = _local_path(request.args.get("next"))
    response = redirect(target, 303)
    if code in LANGUAGES:
        cookie = DISPLAY_LANGUAGE_COOKIE if request.args.get("for") == "display" else LANGUAGE_COOKIE
        response.set_cookie(cookie, code, max_age=ONE_YEAR, samesite="Lax", httponly=True)
    return response


# What is worded per language: pages and the API's sentences. Static files are the same in every language, and
# a Vary on them would keep browsers from caching them for a year.
WORDED = frozenset({"text/html", "application/json"})


def _vary_on_language(response: Response) -> Response:
    """Worded answers differ by the browser's language and the pick: a cache must keep them apart."""
    if response.mimetype in WORDED:
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def init_app(app: Flask) -> None:
    """Choose each request's language; give templates the switch's languages and the current one."""
    Babel(app, locale_selector=select_language, default_translation_directories="translations")
    app.register_blueprint(bp)
    app.after_request(_vary_on_language)
    app.add_template_global(language)
    app.add_template_global(worded)
    # The templates' _() and ngettext() read the request's catalog once per request: Flask-Babel's own look it up at
    # every call (the context, the locale and its name, the cache), and a board says about fifty sentences. Jinja
    # still fills the placeholders (newstyle). The method is the i18n extension's, which Flask-Babel adds (Jinja's
    # documentation, "i18n Extension"); mypy does not see methods an extension adds.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda message: request_translations().gettext(message),
        lambda singular, plural, n: request_translations().ngettext(singular, plural, n),
        newstyle=True,
    )
    app.jinja_env.globals["languages"] = LANGUAGES


class Wording:
    """One language's words for the engine's Sentences (engine/words.py): its catalog, and Babel's numbers."""

    def __init__(self, translations: NullTranslations, language: str):
        self.translations = translations
        self.language = language

    def gettext(self, message: str, /) -> str:
        """`message` as the catalog says it (the English itself when it does not have it)."""
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        """The form of a sentence with a count of `n`."""
        return self.translations.ngettext(singular, plural, n)

    def number(self, value: int) -> str:
        """`value` as the language writes it."""
        return _number(value, self.language)


@functools.lru_cache(maxsize=4096)
def _number(value: int, language: str) -> str:
    # The log's numbers are few (totals, lives, rounds), and Babel's format_decimal was three quarters of the time a
    # log line took to word in German (profiled: 0.28 ms a number).
    return format_decimal(value, locale=language)


def request_translations() -> NullTranslations:
    """This request's catalog (Flask-Babel's for the request's language), looked up once per request."""
    found: NullTranslations | None = g.get("referee_translations")
    if found is None:
        found = g.referee_translations = get_translations()
    return found


def request_wording() -> Wording:
    """The words of this request's language, from Flask-Babel's catalog for it."""
    return Wording(request_translations(), language())


def worded(said: str) -> str:
    """`said` (a Sentence of the service or the engine, or a sentence marked with N_) in this request's language."""
    return worded_in(said, request_wording())


# --- outside a Flask request: the ASGI front's own answers (referee/server/asgi.py, referee/web/live.py) --------


@functools.cache
def catalog_wording(language: str) -> Wording:
    """The words of `language`, its catalog read once per process (with Babel's documented Translations.load)."""
    return Wording(Translations.load(str(CATALOGS), [language]), language)


def language_of_headers(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The language of a request Flask never sees, from its ASGI headers: the phone's pick (its cookie), else its
    browser's Accept-Language, else English. Read only to word a refusal: a request let through pays nothing."""
    cookie = accept = b""
    for name, value in headers:
        if name == b"cookie":
            cookie += b"; " + value if cookie else value
        elif name == b"accept-language":
            accept = value
    picked = parse_cookie(cookie.decode("latin-1")).get(LANGUAGE_COOKIE) if cookie else None
    if picked in LANGUAGES:
        return picked
    browser = parse_accept_header(accept.decode("latin-1"), LanguageAccept).best_match(LANGUAGES)
    return browser or DEFAULT_LANGUAGE
