"""The htmx pages, one blueprint per thing a person does: start a table, play at it, join it, read the rules.

Each page answers plain form posts (no JavaScript) and htmx requests alike; the table's live regions are the
blocks of one partial template (`_board.html`) that the full page includes and updates re-send.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from flask import Flask, Response, current_app, request
from markupsafe import Markup

from ... import rulebook
from ...engine import Card, GameState, Variant, winners_text
from ...engine.words import N_, Sentence, names_said
from ...engine.words import worded as worded_in
from ...service import DeviceRow, permissions
from ...service.tableview import TableView
from ..i18n import catalog_wording, language, worded
from ..security import CSRF_FIELD, csrf_token
from . import asking, display, home, joining, joinpanel, lobby, logview, rematch, rules, table, whoami
from .common import error_page, http_error_page
from .labels import label_by, label_said
from .links import request_url_for, rule_title, url_cache
from .loglines import RenderedLines, log_lines_html
from .markup import log_more_html, number_buttons, player_items, wild_buttons

__all__ = ["error_page", "http_error_page", "init_app"]


def _template_helpers() -> dict[str, Any]:
    return {"csrf_token": csrf_token, "csrf_field": CSRF_FIELD}


def _watch_reason(view: TableView, device: DeviceRow | None) -> str | None:
    """Why this phone only follows the game (service.Permissions.watch_reason), in the phone's language."""
    reason: Sentence | None = permissions(view, device).watch_reason
    return None if reason is None else worded(reason)


def _names_in_words(names: list[str] | tuple[str, ...]) -> str:
    """Names as a list is said ("Bob, Cy and Dee"), with "and" in the phone's language."""
    if any(isinstance(name, Sentence) for name in names):  # a team's name is worded too: not kept
        return worded(names_said(names))
    return _names_in(tuple(names), language())


@functools.lru_cache(maxsize=1024)
def _names_in(names: tuple[str, ...], said_in: str) -> str:
    # Said once per list and language: the Bomb sheet names the same players at every tap of a round.
    return worded_in(names_said(names), catalog_wording(said_in))


def _card_picture_said(card: Card) -> Markup:
    """A card drawn as a picture (templates/_card.html, `picture`), named in this request's language."""
    return _card_picture(card, language())


@functools.lru_cache(maxsize=64)
def _card_picture(card: Card, said_in: str) -> Markup:
    # Drawn once per card and language: the "Just now" strip shows one at every tap, and the macro is the board's
    # costliest few lines of template. `Template.module` is Jinja's documented way to call a template's macro.
    module = current_app.jinja_env.get_template("_card.html").module
    # A template's macros are its module's attributes, which mypy cannot know of.
    return Markup(module.picture(card))  # type: ignore[attr-defined]


# A game's kind as the board's round line names it, when it is not the usual one ("Sudden Death · Round 2").
VARIANT_NAMES = {Variant.STANDARD: N_("Standard"), Variant.SUDDEN_DEATH: N_("Sudden Death"), Variant.TEAMS: N_("Teams")}


def _variant_name(variant: Variant) -> str:
    """The game's kind in a word or two, in the phone's language."""
    return worded(VARIANT_NAMES[variant])


# The pages of one table: they show its join link (the table's key), its phones and its live state.
TABLE_PATHS = ("/t/", "/j/")


def _table_pages_never_stored(response: Response) -> Response:
    """A table's pages are kept by no browser cache or proxy: they carry the join link and change with every card."""
    if request.path.startswith(TABLE_PATHS) and response.mimetype == "text/html":
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def _winners_said(state: GameState) -> str:
    """Who won, in this page's language ("Ann wins!", "Ann gagne !")."""
    return worded(winners_text(state))


def _names_said(names: Sequence[str]) -> str:
    """Names as a list is said aloud, with "and" in this page's language."""
    return worded(names_said(names))


def init_app(app: Flask) -> None:
    """Register the page blueprints, their template helpers and their error page."""
    blueprints = (home, table, rematch, joining, joinpanel, asking, lobby, logview, display, rules, whoami)
    for blueprint in (module.bp for module in blueprints):
        app.register_blueprint(blueprint)
    app.context_processor(_template_helpers)
    app.after_request(_table_pages_never_stored)
    app.add_template_global(rule_title)
    app.add_template_global(label_said)
    app.add_template_global(label_by)
    app.add_template_global(rulebook.games_for_switch)
    app.add_template_global(_winners_said, "winners_text")
    app.add_template_global(_names_said, "join_names")
    app.add_template_global(_watch_reason, "watch_reason")
    app.add_template_global(_names_in_words, "names_in_words")
    app.add_template_global(_variant_name, "variant_name")
    # Templates build each URL once, then reuse it (a board asks for the same ones at every tap): same URLs.
    app.add_template_global(request_url_for, "url_for")
    app.extensions["referee_urls"] = url_cache()
    app.add_template_global(log_lines_html)
    app.add_template_global(log_more_html)
    # Globals, not macros imported "with context": such an import runs the imported template again at every
    # render of every partial that imports it (three on the board).
    app.add_template_global(_card_picture_said, "card_picture")
    app.add_template_global(number_buttons)
    app.add_template_global(player_items)
    app.add_template_global(wild_buttons)
    app.extensions["referee_log_lines"] = RenderedLines()
