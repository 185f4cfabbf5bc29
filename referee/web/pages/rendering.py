"""What keeps a board's render cheap: URLs built once, log lines rendered once, and the busiest
markup (action forms' fields, the pad's buttons, the players' rows) written in Python.

A tap answers with the board, and rendering it was most of a tap's server time (docs/performance.md): the
board built the same "act" URL for every form and re-rendered the 30 newest log lines, of which only one is
new after a tap, and its loops over cards and players were most of what was left. The output is the same,
byte for byte, as the templates' own. A tap's answer now leaves out the log the phone already shows and sends
its changes instead (`log_changes`).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import current_app, request, url_for
from markupsafe import Markup, escape

from ... import rulebook
from ...engine import Card, CardOption, Status
from ...service.tableview import LogEntry, LogLine, TableView
from ..security import CSRF_FIELD, csrf_token

# Rendered log lines kept: 100 tables' boards (30 lines each) and change; about 300 bytes a line.
LOG_LINE_ENTRIES = 4096
# URLs kept: a board has about fifteen, so a café's hundred tables' boards fit several times over.
URL_ENTRIES = 8192


def request_url_for(endpoint: str, **values: Any) -> str:
    """`url_for`, built once per URL prefix, endpoint and values, then remembered by the app.

    A board asks for the same few URLs (its "act" URL about ten times) at every tap and refresh, and building
    one is about 15 µs. A relative URL depends only on those, and the prefix the app is served under
    (`request.script_root`, set by a proxy) is part of the key. Static files are left out: their URLs carry the
    file's version (assets.py), which changes when the file does.
    """
    if endpoint == "static":
        return url_for(endpoint, **values)
    built: Callable[..., str] = current_app.extensions["referee_urls"]
    return built(request.script_root, endpoint, tuple(values.items()))


def _build_url(script_root: str, endpoint: str, values: tuple[tuple[str, Any], ...]) -> str:
    # script_root is only part of the cache key: url_for reads it from the request itself.
    return url_for(endpoint, **dict(values))


def url_cache(entries: int = URL_ENTRIES) -> Callable[..., str]:
    """A bounded, thread-safe cache of built URLs for `request_url_for` (one per app)."""
    return functools.lru_cache(maxsize=entries)(_build_url)


@dataclass(frozen=True)
class ActionForms:
    """What every action form on one board shares, worked out once per board: its attributes (the "act" URL,
    a plain post without JavaScript, an htmx swap with it), and the hidden CSRF token and version fields.

    A board has about ten action forms. Worked out per form (a Jinja macro at first, then a function looking up
    the request, the session and the URL each time), these fields were the costliest part of a tap's answer.
    """

    attrs: Markup
    csrf_field: str
    version_field: str
    player_fields: Mapping[str, str]
    """Each player's hidden field, escaped once: a board names each player in two to four forms."""

    @classmethod
    def for_view(cls, view: TableView) -> ActionForms:
        """The shared parts for this phone (its CSRF token) and this version of the table."""
        url = escape(request_url_for("table.act", code=view.code))
        return cls(
            attrs=Markup(f'method="post" action="{url}" hx-post="{url}"'),
            csrf_field=f'<input type="hidden" name="{CSRF_FIELD}" value="{escape(csrf_token())}">',
            version_field=f'<input type="hidden" name="version" value="{int(view.version)}">',
            player_fields={player.name: _player_field(player.name) for player in view.state.players},
        )

    def fields(self, kind: str, player: str | None = None) -> Markup:
        """The hidden fields one action form posts: the CSRF token, the action's kind, its player, and the version
        the phone saw (a stale version is refused, so two phones tapping at once never count a card twice)."""
        player_field = "" if player is None else self.player_fields.get(player) or _player_field(player)
        return Markup(f"{self.csrf_field}\n{_kind_field(kind)}\n{player_field}\n{self.version_field}")


def _player_field(player: str) -> str:
    return f'<input type="hidden" name="player" value="{escape(player)}">'


@functools.cache
def _kind_field(kind: str) -> str:
    # The kinds are the templates' own words (play, bust, undo…): a handful, each written once per process.
    return f'<input type="hidden" name="kind" value="{escape(kind)}">'


# Every card's value and label as they appear in the markup (escaped once: the pad shows all eighteen).
CARD_TEXT = {card: (str(escape(card.value)), str(escape(card.label))) for card in Card}


def number_buttons(numbers: list[CardOption], total: int) -> Markup:
    """The card pad's number buttons (`_board.html`, block pad), in Python: as a Jinja loop, a board's costliest part.

    No aria-label: a button's name is its text, "7 makes 14", so it starts with what a voice-control user reads
    off the button; a disabled card's reason is its description. In words, not "→ 14": an arrow meant nothing to a
    grandmother, and sat one row above "=10" and "=21" (play test 13b).
    The id ("card-7") is how htmx finds the same card again to put a keyboard's focus back after a swap.
    """
    parts = []
    for option in numbers:
        (value, label), makes = CARD_TEXT[option.card], total + (option.card.number or 0)
        if option.allowed:
            shown = "goes bust" if option.busts else f"makes {makes}"
            sub = f'<span class="sub">{shown}</span>\n        '
            disabled = ""
        else:
            reason = escape(option.reason)
            # "over 21", not "makes 22": a child learning to read gets what is wrong with the card at a glance; the
            # sum is in the description (and the title), "That 7 makes 22: ...".
            sub = f'<span class="sub" title="{reason}">over 21</span><span id="why-{value}" hidden>{reason}</span>'
            disabled = f'disabled aria-describedby="why-{value}"'
        parts.append(
            f'\n      \n      <button type="submit" name="card" value="{value}" id="card-{value}"\n'
            f'              data-label="{label}"\n'
            f'              class="card num{" busts" if option.busts else ""}" {disabled}>\n'
            f'        <span class="face">{label}</span>\n'
            f"        {sub}\n      </button>\n      "
        )
    return Markup("".join(parts))


BOMB_OPENS_SHEET = (
    '<button type="submit" name="card" value="bomb" id="card-bomb" class="card wild bomb"'
    ' data-opens="bomb-sheet">Bomb</button>'
)


def wild_buttons(wilds: list[CardOption], bomb_answerers: tuple[str, ...]) -> Markup:
    """The card pad's wild-card buttons (`_board.html`, block pad), in Python for the same reason as `number_buttons`.

    A Bomb that others must answer opens the "Who put down a 0?" sheet instead of posting at once.
    """
    parts = []
    for option in wilds:
        if option.card is Card.BOMB and bomb_answerers:
            button = BOMB_OPENS_SHEET
        else:
            value, label = CARD_TEXT[option.card]
            confirmed = 'data-confirmed="1"' if option.card is Card.BOMB else ""
            button = (
                f'<button type="submit" name="card" value="{value}" id="card-{value}" class="card wild {value}"\n'
                f"              {confirmed}>{label}</button>"
            )
        parts.append(f"\n      \n      {button}\n      \n      ")
    return Markup("".join(parts))


LIFE = '<span class="life alive">♥</span>'
# A lost life is an empty heart, greyed: a cross read as "remove" (the setup's ✕ button) or "wrong" to a child.
LOST = '<span class="life lost">♡</span>'
DEALER = '<span class="badge" title="Dealer">Dealer</span>'
OUT = '<span class="badge out-badge">Out</span>'
LEFT = '<span class="badge out-badge">Left</span>'
ARIA_CURRENT = 'aria-current="true"'


def _fix_form(forms: ActionForms, name: Markup, player: str, hand: int, seat: int, may_leave: bool) -> str:
    """The "Fix" of one player (the players block's markup, its whitespace included): their hand size, or that they
    got up and left the game (play test 10b: bedtime mid-game, and no way to play on without them).

    The summary's id is where a keyboard's focus goes back to once the fix is saved (static/js/focus.js).
    """
    return (
        '\n      <details class="fix-hand">\n'
        f'        <summary id="fix-{seat}" aria-label="Fix {name}\'s hand size, or say {name} has left">Fix</summary>\n'
        f"        <form {forms.attrs}>\n"
        f"          {forms.fields('hand', player)}\n"
        f'          <label>{name} really holds <input type="number" name="cards" min="1" max="77" value="{hand}" '
        f'inputmode="numeric" aria-label="Cards {name} holds"> cards</label>\n'
        '          <button type="submit" class="secondary">Save</button>\n'
        "        </form>\n"
        f"{_leave_form(forms, name, player) if may_leave else ''}"
        "      </details>\n      "
    )


def _leave_form(forms: ActionForms, name: Markup, player: str) -> str:
    """The Fix's "… has left the game" (rulebook entry player-leaves)."""
    return (
        f'        <form {forms.attrs} class="leave-form">\n'
        f"          {forms.fields('leave', player)}\n"
        f'          <button type="submit" class="secondary leave">{name} has left the game</button>\n'
        f'          <span class="hint">Out for good, cards on the discard pile. Undo brings {name} back.</span>\n'
        "        </form>\n"
    )


def player_items(view: TableView, forms: ActionForms | None) -> Markup:
    """The players' list items (templates/_board.html, block players): name, badges, lives, hand and its "Fix" form.

    In Python rather than a Jinja loop: four players' items were a quarter of a board's render.
    """
    state = view.state
    # No "Fix" once the game is over, nor on a phone that only watches (it has no action forms).
    fix_forms = forms if state.status is not Status.FINISHED else None
    # Nobody leaves during a tie-break: it is refused ("must first add up"), so it is not offered (play test 11a).
    playing = state.status is Status.PLAYING
    parts = []
    for seat, player in enumerate(state.players):
        name = escape(player.name)
        current = seat == state.current
        classes = (" out" if player.out else "") + (" current" if current else "")
        team = "" if player.team is None else f'<span class="badge team">{escape(state.teams[player.team].name)}</span>'
        lives = ""
        if not state.teams:
            alive = max(min(player.lives, 5), 0)
            shown = LIFE * alive + LOST * (5 - alive)
            label = f"{player.lives} of 5 lives left"
            lives = f'\n      <span class="lives" role="img" aria-label="{label}">{shown}</span>\n      '
        fix = ""
        if fix_forms is not None and not player.out:
            fix = _fix_form(fix_forms, name, player.name, player.hand, seat, playing)
        cards = "card" if player.hand == 1 else "cards"
        parts.append(
            f'\n    \n    <li class="player{classes}"\n'
            f"        {ARIA_CURRENT if current else ''}>\n"
            f'      <span class="pname">{name}\n'
            f"        {DEALER if seat == state.dealer else ''}\n"
            f"        {team}\n"
            f"        {(LEFT if player.left else OUT) if player.out else ''}\n"
            f"      </span>\n      {lives}\n"
            f'      <span class="hand" title="Cards in hand">{player.hand} {cards}</span>\n'
            f"      {fix}\n    </li>\n    "
        )
    return Markup("".join(parts))


class RenderedLines:
    """A bounded, thread-safe map from a log entry (and what else its HTML depends on) to its HTML."""

    def __init__(self, entries: int = LOG_LINE_ENTRIES):
        self.entries = entries
        self._lines: OrderedDict[tuple[str, str, LogEntry], Markup] = OrderedDict()
        self._lock = threading.Lock()

    def get_many(self, keys: list[tuple[str, str, LogEntry]]) -> list[Markup | None]:
        """The HTML rendered for each of `keys` (None where not kept), under one lock."""
        found: list[Markup | None] = []
        with self._lock:
            for key in keys:
                html = self._lines.get(key)
                if html is not None:
                    self._lines.move_to_end(key)
                found.append(html)
        return found

    def put(self, key: tuple[str, str, LogEntry], html: Markup) -> None:
        """Keep `html` for `key`, forgetting the line used least recently when full."""
        with self._lock:
            self._lines[key] = html
            if len(self._lines) > self.entries:
                self._lines.popitem(last=False)

    def __len__(self) -> int:
        return len(self._lines)


# A round's heading, above the round's newest line (pages/logview.py); not kept with the line below it: which
# line is a round's newest changes with every card, and a line's cached HTML must depend only on its key.
# A real heading (under "What happened", an h2) inside its list item: a screen reader's heading keys jump from
# round to round, where a plain item read as one more line of the log. Its id lets a tap's answer keep it.
ROUND_HEADING = '\n    <li class="round-separator" id="log-round-{0}"><h3>Round {0}</h3></li>'


def rule_title(entry_id: str) -> str:
    """Return the title of a rulebook entry, for "Why?" links."""
    found = rulebook.entry(entry_id)
    return found.title if found is not None else entry_id


UNDONE = '<span class="badge">Undone</span> '


def log_line_html(entry: LogEntry, code: str) -> str:
    """One line of the log, as a list item whose id is its entry's (`_item_id`): what was done, its "Why?" link
    to the ruling, the phone that entered it, and who undid or redid it.

    In Python, like the players' rows: a tap draws one new line, and as a Jinja macro it was a sixth of a tap.
    """
    undone = entry.undone
    why = ""
    if entry.rule:
        href = escape(request_url_for("rules.entry", entry_id=entry.rule, table=code))
        why = f' <a class="why" href="{href}" aria-label="Why? ({escape(rule_title(entry.rule))})">Why?</a>'
    by = f'<span class="by">· {escape(entry.entered_by)}</span>' if entry.entered_by else ""
    changed = ""
    if entry.status_by:
        changed = f'<span class="by">· {"undone" if undone else "redone"} by {escape(entry.status_by)}</span>'
    return (
        f'\n    <li id="log-{int(entry.seq)}" class="{"undone" if undone else ""}">\n'
        f"      {UNDONE if undone else ''}{escape(entry.text)}\n"
        f"      {why}\n      {by}\n      {changed}\n    </li>\n    "
    )


def _line_html(lines: list[LogLine], code: str, keep: bool) -> list[str]:
    """Each line's HTML (`log_line_html`), taken from the app's cache where kept and drawn once otherwise."""
    root = request.script_root
    cache: RenderedLines = current_app.extensions["referee_log_lines"]
    keys = [(root, code, line.entry) for line in lines]
    parts: list[Markup | None] = cache.get_many(keys) if keep else [None] * len(keys)
    for index, (key, html) in enumerate(zip(keys, parts, strict=True)):
        if html is None:
            parts[index] = html = Markup(log_line_html(key[2], code))
            if keep:
                cache.put(key, html)
    return [str(part) for part in parts]


def log_lines_html(lines: list[LogLine], code: str, keep: bool = True) -> Markup:
    """The log's lines as HTML (`log_line_html`); on the board (`keep`), each line rendered once, then reused.

    A line's HTML depends only on its entry, the table's code (in its "Why?" link) and the URL prefix the app
    is served under, which make its key; the rounds' headings go in between. The whole-log page does not keep
    its lines: it would push the boards' lines out.
    """
    shown = []
    for line, part in zip(lines, _line_html(lines, code, keep), strict=True):
        if line.heads_round is not None:
            shown.append(ROUND_HEADING.format(int(line.heads_round)))
        shown.append(part)
    # Every part is Markup already: a plain join (Markup's own join would escape each part again).
    return Markup("".join(shown))


def log_more_html(code: str, shown: int, count: int, oob: bool = False) -> Markup:
    """The link to the whole log under the board's `shown` recent lines, when the log has more (`count`).

    There even while the log is short (hidden), so that a tap's answer can replace it by id (`oob`: out of band,
    beside the log's changes). In Python like the lines above it: an include of its own cost a tap a new context.
    """
    swap = ' hx-swap-oob="true"' if oob else ""
    if count <= shown:
        return Markup(f'<p id="log-more"{swap} hidden></p>')
    url = escape(request_url_for("logview.full_log", code=code))
    return Markup(f'<p id="log-more"{swap}><a href="{url}" class="show-all">Show all {int(count)} entries</a></p>')


@dataclass(frozen=True)
class LogInsert:
    """Items to put into the log a phone shows: after the item with id `after`, or at the top when None."""

    after: str | None
    html: Markup


@dataclass(frozen=True)
class LogChanges:
    """What turns the log a phone shows into the newest one: the items to remove (by id), then those to insert."""

    removed: tuple[str, ...]
    inserted: tuple[LogInsert, ...]


# What the board's requests say (its hx-vals, "log") when the log a page shows has its items' ids: only such a page
# can take a tap's answer that brings the log's changes (a page opened before they had ids gets the whole board).
LOG_HAS_IDS = "ids"


# A log item's key in `log_changes`: an entry's seq, or a round's number for the heading above it. Only the ids of
# the items sent are written out: formatting sixty ids at every tap was a third of the comparison's cost.
LogItemKey = int | tuple[str, int]


def _item_id(key: LogItemKey) -> str:
    """The id of a log item's list item (`log_line_html` and ROUND_HEADING write the same)."""
    return f"log-{key}" if isinstance(key, int) else f"log-round-{key[1]}"


def _log_items(lines: list[LogLine]) -> list[tuple[LogItemKey, object]]:
    """The log's list items in order, each as its key and what its HTML depends on (a round, or an entry)."""
    items: list[tuple[LogItemKey, object]] = []
    for line in lines:
        if line.heads_round is not None:
            items.append((("round", int(line.heads_round)), int(line.heads_round)))
        items.append((line.entry.seq, line.entry))
    return items


def log_changes(shown: list[LogLine], lines: list[LogLine], code: str) -> LogChanges | None:
    """The log's changes from `shown` (what a phone shows) to `lines`, or None when the phone needs it whole.

    After a tap the log gains a line at the top (and a heading when a round began) and loses its oldest when
    the board's window is full: a tap's answer sends those instead of every line (issue 12: a tap's cost). The
    items both logs show must be the same, in the same order; an Undo marks a line, so its answer is whole.
    """
    old, new = _log_items(shown), _log_items(lines)
    if not old or not new:
        return None
    before = dict(old)
    after = dict(new)
    kept = [key for key, _ in old if key in after]
    if kept != [key for key, _ in new if key in before]:
        return None
    # Identity first: the log a tap brings keeps the very entries the table showed before it.
    if any(before[key] is not after[key] and before[key] != after[key] for key in kept):
        return None
    removed = tuple(_item_id(key) for key, _ in old if key not in after)
    added = [line for line in lines if line.entry.seq not in before]
    html = dict(zip((line.entry.seq for line in added), _line_html(added, code, True), strict=True))
    inserted: list[LogInsert] = []
    anchor: LogItemKey | None = None
    run: list[str] = []
    for key, value in new + [(None, None)]:
        if key is None or key in before:
            if run:
                inserted.append(LogInsert(None if anchor is None else _item_id(anchor), Markup("".join(run))))
            anchor, run = key, []
        else:
            run.append(ROUND_HEADING.format(value) if isinstance(key, tuple) else html[key])
    return LogChanges(removed, tuple(inserted))
