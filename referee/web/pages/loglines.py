"""The log's lines on a phone: each line's HTML drawn once and kept (`RenderedLines`), a board's or a page's lines
joined with their rounds' headings (`log_lines_html`), and a tap's changes to the log a phone already shows
(`log_changes`). The lines' markup is written by pages/markup.py."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from flask import current_app, request
from markupsafe import Markup

from ...service.tableview import LogEntry, LogLine
from ..i18n import language
from .markup import log_line_html, round_heading

# Rendered log lines kept: 100 tables' boards (30 lines each) and change; about 300 bytes a line.
LOG_LINE_ENTRIES = 4096


class RenderedLines:
    """A bounded, thread-safe map from a log entry (and what else its HTML depends on) to its HTML."""

    def __init__(self, entries: int = LOG_LINE_ENTRIES):
        self.entries = entries
        self._lines: OrderedDict[tuple[str, str, str, LogEntry], Markup] = OrderedDict()
        self._lock = threading.Lock()

    def get_many(self, keys: list[tuple[str, str, str, LogEntry]]) -> list[Markup | None]:
        """The HTML rendered for each of `keys` (None where not kept), under one lock."""
        found: list[Markup | None] = []
        with self._lock:
            for key in keys:
                html = self._lines.get(key)
                if html is not None:
                    self._lines.move_to_end(key)
                found.append(html)
        return found

    def put(self, key: tuple[str, str, str, LogEntry], html: Markup) -> None:
        """Keep `html` for `key`, forgetting the line used least recently when full."""
        with self._lock:
            self._lines[key] = html
            if len(self._lines) > self.entries:
                self._lines.popitem(last=False)

    def __len__(self) -> int:
        return len(self._lines)


def _line_html(lines: list[LogLine], code: str, players: Sequence[str], keep: bool) -> list[str]:
    """Each line's HTML (`log_line_html`), taken from the app's cache where kept and drawn once otherwise."""
    root = request.script_root
    cache: RenderedLines = current_app.extensions["referee_log_lines"]
    said_in = language()
    keys = [(root, said_in, code, line.entry) for line in lines]
    parts: list[Markup | None] = cache.get_many(keys) if keep else [None] * len(keys)
    for index, (key, html) in enumerate(zip(keys, parts, strict=True)):
        if html is None:
            parts[index] = html = Markup(log_line_html(key[3], code, players))
            if keep:
                cache.put(key, html)
    return [str(part) for part in parts]


def log_lines_html(lines: list[LogLine], code: str, players: Sequence[str], keep: bool = True) -> Markup:
    """The log's lines as HTML (`log_line_html`); on the board (`keep`), each line rendered once, then reused.

    A line's HTML depends only on its entry, the language it is worded in, the table's code (in its "Why?" link)
    and the URL prefix the app is served under, which make its key. A round's heading goes above the round's
    newest line, drawn apart: which line is a round's newest changes with every card, and a line's kept HTML must
    depend only on its key. The whole-log page does not keep its lines: it would push the boards' lines out.
    """
    shown = []
    for line, part in zip(lines, _line_html(lines, code, players, keep), strict=True):
        if line.heads_round is not None:
            shown.append(round_heading(line.heads_round))
        shown.append(part)
    # Every part is Markup already: a plain join (Markup's own join would escape each part again).
    return Markup("".join(shown))


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


# What a tap says ("log") when the page's script makes a log's changes in place (static/js/morph.js adds it): only
# such a page can take a tap's answer that brings the log's changes. The script says it, not the page's markup: a
# page whose script predates it would show only the changes, so it gets the whole board, as does a tap without
# JavaScript (it is answered with a redirect).
LOG_CHANGES = "changes"


# A log item's key in `log_changes`: an entry's seq, or a round's number for the heading above it. Only the ids of
# the items sent are written out: formatting sixty ids at every tap was a third of the comparison's cost.
LogItemKey = int | tuple[str, int]


def _item_id(key: LogItemKey) -> str:
    """The id of a log item's list item (`log_line_html` and `round_heading` write the same)."""
    return f"log-{key}" if isinstance(key, int) else f"log-round-{key[1]}"


def _log_items(lines: list[LogLine]) -> list[tuple[LogItemKey, object]]:
    """The log's list items in order, each as its key and what its HTML depends on (a round, or an entry)."""
    items: list[tuple[LogItemKey, object]] = []
    for line in lines:
        if line.heads_round is not None:
            items.append((("round", int(line.heads_round)), int(line.heads_round)))
        items.append((line.entry.seq, line.entry))
    return items


def log_changes(shown: list[LogLine], lines: list[LogLine], code: str, players: Sequence[str]) -> LogChanges | None:
    """The log's changes from `shown` (what a phone shows) to `lines`, or None when the phone needs it whole.

    After a tap the log gains a line at the top (and a heading when a round began) and loses its oldest when
    the board's window is full: a tap's answer sends those instead of every line, a third fewer bytes. The items
    both logs show must be the same, in the same order; an Undo marks a line, so its answer is whole.
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
    html = dict(zip((line.entry.seq for line in added), _line_html(added, code, players, True), strict=True))
    inserted: list[LogInsert] = []
    anchor: LogItemKey | None = None
    run: list[str] = []
    for key, _ in new + [(None, None)]:
        if key is None or key in before:
            if run:
                inserted.append(LogInsert(None if anchor is None else _item_id(anchor), Markup("".join(run))))
            anchor, run = key, []
        else:
            run.append(round_heading(key[1]) if isinstance(key, tuple) else html[key])
    return LogChanges(removed, tuple(inserted))
