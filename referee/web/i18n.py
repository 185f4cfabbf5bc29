"""Each phone in its own language: English, French or German, chosen per phone, at the same table.

A phone speaks what its browser asks for (Accept-Language) until someone picks a language with the switch; the
pick is remembered in a cookie of that phone alone. The table display has its own pick, so a screen across the
table can stay in one language whatever the phone beside it reads. Flask-Babel finds the words in
`referee/translations/<language>/LC_MESSAGES/messages.mo` (docs/translations.md: how to add a language).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from pathlib import Path
from urllib.parse import urlsplit

from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations
from flask import Blueprint, Flask, Response, redirect, request
from flask_babel import Babel
from markupsafe import Markup, escape
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie
from werkzeug.wrappers import Response as BaseResponse

from ..engine.words import Sentence
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
    return browser_language(request.headers.get("Accept-Language", ""))


@functools.lru_cache(maxsize=256)
def browser_language(accept_language: str) -> str:
    """The language the app speaks that an Accept-Language header prefers, else English."""
    # Kept per header: phones send a handful of different headers, and reading one is most of choosing (bounded,
    # as a stranger may send any).
    return parse_accept_header(accept_language, LanguageAccept).best_match(LANGUAGES) or DEFAULT_LANGUAGE


# The language chosen for the request being answered: set at its first `language()`, forgotten when the request
# ends (init_app's teardown), so a thread's next request chooses its own.
_REQUEST_LANGUAGE: ContextVar[str | None] = ContextVar("referee_request_language", default=None)


def language() -> str:
    """The language this request is answered in ("en", "fr" or "de")."""
    # Chosen once per request by the same selector Flask-Babel is given (init_app), without its Locale objects
    # and context lookups: a tap's board asks about eighteen times, and Flask-Babel's get_locale was a tenth of
    # the board's cost in the phone's language (profiled). Kept in a context variable, not on flask.g: reading g
    # through its proxy costs ten times as much.
    found = _REQUEST_LANGUAGE.get()
    if found is None:
        found = select_language()
        _REQUEST_LANGUAGE.set(found)
    return found


def _forget_language(_error: BaseException | None = None) -> None:
    _REQUEST_LANGUAGE.set(None)


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
    app.teardown_request(_forget_language)
    app.register_blueprint(bp)
    app.after_request(_vary_on_language)
    app.add_template_global(language)
    app.add_template_global(worded)
    # Jinja's i18n extension (which Flask-Babel adds) answers each _() through three calls of its own and a lookup of
    # the request's catalog. The request's words are bound once per render instead (`template_words`), as context
    # variables, which take precedence over the extension's globals. The globals stay for what renders outside a
    # view's context: macros imported without context, the ASGI front's pages. Both follow Jinja's newstyle
    # gettext: the catalog's words are markup, the values filled in are escaped.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda message: request_translations().gettext(message),
        lambda singular, plural, n: request_translations().ngettext(singular, plural, n),
        newstyle=True,
    )
    app.context_processor(lambda: template_words(request_translations()))
    app.jinja_env.globals["languages"] = LANGUAGES


class Wording:
    """One language's words for the engine's Sentences (engine/words.py): its catalog, and Babel's numbers."""

    def __init__(self, translations: NullTranslations, language: str):
        self.translations = translations
        self.language = language
        # The app's own sentences, looked up once: a board says about fifty, and a catalog's lookup of a sentence it
        # does not have (every English one) takes four calls. Bounded by the sentences the code marks (a few hundred).
        self._kept: dict[str, str] = {}

    def gettext(self, message: str, /) -> str:
        """`message` as the catalog says it (the English itself when it does not have it)."""
        found = self._kept.get(message)
        if found is None:
            if len(self._kept) >= 4096:
                self._kept.clear()
            found = self._kept[message] = self.translations.gettext(message)
        return found

    def said(self, text: str) -> str:
        """`text` (a Sentence, or a sentence marked with N_) in this language (engine.words.worded)."""
        if self.language == DEFAULT_LANGUAGE and isinstance(text, Sentence):
            # A Sentence is its English text already, filled when it was made (engine/words.py).
            return str.__str__(text)
        return worded_in(text, self)

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
    """This request's catalog: the one Flask-Babel reads for the request's language, loaded once per process."""
    return catalog_wording(language()).translations


@functools.lru_cache(maxsize=16)
def template_words(translations: NullTranslations) -> dict[str, Callable[..., Markup]]:
    """The templates' `_`, `gettext` and `ngettext` for one catalog, made once per catalog (one per language)."""
    gettext, ngettext = translations.gettext, translations.ngettext
    # A sentence without values is the same at every render: kept, as the board says about twenty at each tap.
    # Bounded, though templates only say their own literal sentences.
    kept: dict[str, Markup] = {}

    def say(message: str, /, **values: object) -> Markup:
        # Always a format, as Jinja's own: "%%" is "%" whether or not a value is given.
        if values:
            return filled(gettext(message), **values)
        found = kept.get(message)
        if found is None:
            if len(kept) >= 1024:
                kept.clear()
            found = kept[message] = Markup(gettext(message)) % values
        return found

    def say_counted(singular: str, plural: str, num: int, /, **values: object) -> Markup:
        values.setdefault("num", num)
        return Markup(ngettext(singular, plural, num)) % values

    return {"_": say, "gettext": say, "ngettext": say_counted}


def filled(sentence: str, /, **values: object) -> Markup:
    """A catalog's `sentence` (markup) with `values` (escaped) in their places, as Jinja's newstyle gettext fills it."""
    if only_named_strings(sentence):
        # The same as Markup's %, which escapes each value through a helper object of its own: about half the time.
        return Markup(sentence % {name: escape(value) for name, value in values.items()})
    return Markup(sentence) % values


# A value's place in a sentence, "%(name)s", or a "%%" sign: what every sentence of the app is made of.
_NAMED_STRING_OR_PERCENT = re.compile(r"%(?:%|\([A-Za-z_]\w*\)s)")


@functools.lru_cache(maxsize=4096)
def only_named_strings(sentence: str) -> bool:
    """True if every % in `sentence` is a "%(name)s" or a "%%" (no %d, %r, or positional %s)."""
    return "%" not in _NAMED_STRING_OR_PERCENT.sub("", sentence)


def request_wording() -> Wording:
    """The words of this request's language (one Wording per language and process, so what it keeps lasts)."""
    return catalog_wording(language())


def worded(said: str) -> str:
    """`said` (a Sentence of the service or the engine, or a sentence marked with N_) in this request's language."""
    return request_wording().said(said)


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
    return browser_language(accept.decode("latin-1"))
