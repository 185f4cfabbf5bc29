"""What keeps a board's render cheap: URLs built once per request, log lines rendered once, form fields in Python.

A tap answers with the whole board, and rendering it was most of a tap's server time (docs/performance.md):
the board built the same "act" URL for every form (about 40 `url_for` calls per render) and re-rendered the
30 newest log lines, of which only one is new after a tap. The output is the same as without these helpers.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from flask import current_app, g, request, url_for
from markupsafe import Markup, escape

from ..engine import CardOption
from ..security import CSRF_FIELD, csrf_token
from ..tableview import TableView
from .logview import LogLine

# Rendered log lines kept: 100 tables' boards (30 lines each) and change; about 300 bytes a line.
LOG_LINE_ENTRIES = 4096


def request_url_for(endpoint: str, **values: Any) -> str:
    """`url_for`, remembered for the rest of this request (a board asks for the same URLs many times)."""
    key = (endpoint, *sorted(values.items()))
    try:
        built: dict[tuple[Any, ...], str] = g.referee_urls
    except AttributeError:
        built = g.referee_urls = {}
    url = built.get(key)
    if url is None:
        url = built[key] = url_for(endpoint, **values)
    return url


def action_fields(view: TableView, kind: str, player: str | None = None) -> Markup:
    """The hidden fields every action form posts: the CSRF token, the action's kind, its player, and the version
    the phone saw (a stale version is refused, so two phones tapping at once never count a card twice).

    In Python rather than a Jinja macro: a board has about ten action forms, and as a macro these fields
    were a third of the board's render.
    """
    player_field = "" if player is None else f'<input type="hidden" name="player" value="{escape(player)}">'
    return Markup(
        f'<input type="hidden" name="{CSRF_FIELD}" value="{escape(csrf_token())}">\n'
        f'<input type="hidden" name="kind" value="{escape(kind)}">\n'
        f"{player_field}\n"
        f'<input type="hidden" name="version" value="{int(view.version)}">'
    )


def action_form_attrs(view: TableView) -> Markup:
    """The attributes of a form that posts one action: a plain post without JavaScript, an htmx swap with it."""
    url = escape(request_url_for("table.act", code=view.code))
    return Markup(f'method="post" action="{url}" hx-post="{url}"')


def number_buttons(numbers: list[CardOption], total: int) -> Markup:
    """The card pad's number buttons (templates/_pad.html), in Python for the same reason as `action_fields`.

    No aria-label: a button's name is its text, "7 makes 14" (the arrow is drawn, the word is read), so it
    starts with what a voice-control user reads off the button; a disabled card's reason is its description.
    """
    parts = []
    for option in numbers:
        value, label, makes = escape(option.card.value), escape(option.card.label), total + (option.card.number or 0)
        if option.allowed:
            shown = (
                "goes bust"
                if option.busts
                else f'<span aria-hidden="true">→</span><span class="visually-hidden">makes</span> {makes}'
            )
            sub = f'<span class="sub">{shown}</span>\n        '
            disabled = ""
        else:
            reason = escape(option.reason)
            sub = (
                f'<span class="sub" title="{reason}">makes {makes}</span><span id="why-{value}" hidden>{reason}</span>'
            )
            disabled = f'disabled aria-describedby="why-{value}"'
        parts.append(
            f'\n      \n      <button type="submit" name="card" value="{value}" data-label="{label}"\n'
            f'              class="card num{" busts" if option.busts else ""}" {disabled}>\n'
            f'        <span class="face">{label}</span>\n'
            f"        {sub}\n      </button>\n      "
        )
    return Markup("".join(parts))


class RenderedLines:
    """A bounded, thread-safe map from a log line (and what else its HTML depends on) to its HTML."""

    def __init__(self, entries: int = LOG_LINE_ENTRIES):
        self.entries = entries
        self._lines: OrderedDict[tuple[str, str, LogLine], Markup] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str, LogLine]) -> Markup | None:
        """The HTML rendered for `key`, if still kept."""
        with self._lock:
            html = self._lines.get(key)
            if html is not None:
                self._lines.move_to_end(key)
            return html

    def put(self, key: tuple[str, str, LogLine], html: Markup) -> None:
        """Keep `html` for `key`, forgetting the line used least recently when full."""
        with self._lock:
            self._lines[key] = html
            if len(self._lines) > self.entries:
                self._lines.popitem(last=False)

    def __len__(self) -> int:
        return len(self._lines)


def log_lines_html(lines: list[LogLine], code: str, keep: bool = True) -> Markup:
    """The log's lines as HTML (`_log_line.html`); on the board (`keep`), each line rendered once, then reused.

    A line's HTML depends only on the line, the table's code (in its "Why?" link) and the URL prefix the app
    is served under, which make its key. The whole-log page does not keep its lines: it would push the
    boards' lines out.
    """
    root = request.script_root
    cache: RenderedLines = current_app.extensions["referee_log_lines"]
    macro = None
    parts = []
    for line in lines:
        key = (root, code, line)
        html = cache.get(key) if keep else None
        if html is None:
            if macro is None:
                macro = current_app.jinja_env.get_template("_log_line.html").module.log_line  # type: ignore[attr-defined]
            html = Markup(macro(line, code))
            if keep:
                cache.put(key, html)
        parts.append(html)
    return Markup("").join(parts)
