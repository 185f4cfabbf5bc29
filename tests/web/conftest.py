"""Helpers for page tests: a tiny HTML tree, and a `Phone` that reads pages and submits their real forms."""

from __future__ import annotations

import json
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from referee.engine import Bust, Card, Leave, Play, SetHand, TieBreak
from referee.service import Operator, Referee
from referee.service.codec import Redo, Undo
from referee.web.pages.loglines import LOG_CHANGES

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    """One element of a parsed page."""

    def __init__(self, tag: str, attrs: dict[str, str], parent: Node | None):
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Node | str] = []

    def __getitem__(self, name: str) -> str:
        return self.attrs[name]

    def get(self, name: str, default: str | None = None) -> str | None:
        """Return an attribute's value."""
        return self.attrs.get(name, default)

    def has(self, name: str) -> bool:
        """True if the element carries the attribute (boolean attributes like `disabled`)."""
        return name in self.attrs

    @property
    def classes(self) -> set[str]:
        """The element's class names."""
        return set((self.attrs.get("class") or "").split())

    def iter(self) -> Iterator[Node]:
        """This element and every element inside it, in document order."""
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def text(self, shown: bool = False) -> str:
        """The text inside, whitespace collapsed (`shown`: only what goes into an accessible name)."""
        parts: list[str] = []

        def walk(node: Node) -> None:
            for child in node.children:
                if isinstance(child, str):
                    parts.append(child)
                elif child.tag not in ("script", "style", "template") and not (shown and child.hidden_from_names()):
                    walk(child)

        walk(self)
        return " ".join("".join(parts).split())

    def hidden_from_names(self) -> bool:
        """True if a browser leaves this element out of an accessible name (`hidden`, aria-hidden="true")."""
        return self.has("hidden") or self.attrs.get("aria-hidden") == "true"

    @property
    def name(self) -> str:
        """The accessible name: aria-label, else the visible text (without soft hyphens, as browsers name it)."""
        return self.attrs.get("aria-label") or self.text(shown=True).replace("\u00ad", "")

    def find_all(self, tag: str | None = None, class_: str | None = None, **attrs: str | bool) -> list[Node]:
        """Every element inside matching the tag, a class name and attribute values (True: present)."""
        found = []
        for node in self.iter():
            if tag is not None and node.tag != tag:
                continue
            if class_ is not None and class_ not in node.classes:
                continue
            wanted = {key.rstrip("_").replace("_", "-"): value for key, value in attrs.items()}
            if all(
                (name in node.attrs) if value is True else node.attrs.get(name) == value
                for name, value in wanted.items()
            ):
                found.append(node)
        return found

    def find(self, tag: str | None = None, class_: str | None = None, **attrs: str | bool) -> Node | None:
        """The first matching element, or None."""
        matches = self.find_all(tag, class_, **attrs)
        return matches[0] if matches else None

    def by_id(self, element_id: str) -> Node:
        """The element with this id (it must exist)."""
        node = self.find(id=element_id)
        assert node is not None, f"no element #{element_id}"
        return node

    def ancestor(self, tag: str) -> Node | None:
        """The nearest enclosing element with this tag."""
        node = self.parent
        while node is not None and node.tag != tag:
            node = node.parent
        return node

    def buttons(self) -> dict[str, Node]:
        """Buttons by accessible name."""
        return {button.name: button for button in self.find_all("button")}

    def cards(self) -> dict[str, Node]:
        """The card pad's buttons by the card they enter ("7"), whatever else their name says ("7 makes 14")."""
        return {button.attrs.get("data-label") or button.name: button for button in self.find_all("button", "card")}

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.current = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {name: value if value is not None else "" for name, value in attrs}, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            assert self.current.parent is not None
            self.current = self.current.parent

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(html: str) -> Node:
    """Parse a page or fragment into a tree of Nodes."""
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def form_fields(form: Node, button: Node | None = None) -> list[tuple[str, str]]:
    """The fields a browser sends when `form` is submitted with `button` (checked boxes, chosen options)."""
    fields: list[tuple[str, str]] = []
    for node in form.iter():
        name = node.get("name")
        if not name or node.has("disabled"):
            continue
        if node.tag == "input":
            kind = node.get("type", "text")
            if kind in ("submit", "button", "image"):
                continue
            if kind in ("checkbox", "radio") and not node.has("checked"):
                continue
            fields.append((name, node.get("value", "on" if kind in ("checkbox", "radio") else "") or ""))
        elif node.tag == "select":
            options = node.find_all("option")
            chosen = [option for option in options if option.has("selected")] or options[:1]
            fields.extend((name, option.get("value", option.text()) or "") for option in chosen)
        elif node.tag == "textarea":
            fields.append((name, node.text()))
    if button is not None and button.get("name"):
        fields.append((button["name"], button.get("value", "") or ""))
    return fields


class Phone:
    """A browser with cookies that opens pages and submits their forms like a person tapping buttons."""

    def __init__(self, client: FlaskClient):
        self.client = client
        self.page = Node("#document", {}, None)
        self.url = "/"

    def open(self, url: str, **kwargs: Any) -> TestResponse:
        """GET a page and keep its parsed HTML in `self.page`."""
        response = self.client.get(url, **kwargs)
        self.url = url
        if response.mimetype == "text/html":
            self.page = parse(response.get_data(as_text=True))
        return response

    def follow(self, response: TestResponse) -> TestResponse:
        """Open where a redirect points."""
        assert response.status_code in (302, 303), response.status_code
        return self.open(urlsplit(response.headers["Location"]).path + _query(response.headers["Location"]))

    @property
    def csrf(self) -> str:
        """This browser's CSRF token, as the open page carries it."""
        field = self.page.find("input", name="csrf")
        if field is not None:
            return field["value"]
        # Pages without forms still give htmx the token in a header (<body hx-headers=...>).
        body = self.page.find("body")
        assert body is not None and body.has("hx-headers"), "the page has no CSRF token"
        token = json.loads(body["hx-headers"])["X-CSRF-Token"]
        assert isinstance(token, str)
        return token

    def board_values(self) -> dict[str, str]:
        """The hx-vals of the board on the open page (empty without a board)."""
        board = self.page.find(id="board")
        if board is None or not board.has("hx-vals"):
            return {}
        values = json.loads(board["hx-vals"])
        assert isinstance(values, dict)
        return {str(name): str(value) for name, value in values.items()}

    def refresh(self) -> TestResponse:
        """Fetch the board as the open page's live refresh does (its URL plus the board's hx-vals)."""
        refresh = self.page.find(id="refresh")
        assert refresh is not None, "the page has no live refresh"
        url = refresh["hx-get"]
        extra = urlencode(self.board_values())
        return self.client.get(f"{url}&{extra}" if extra else url, headers={"HX-Request": "true"})

    def button(self, name: str, within: Node | None = None) -> Node:
        """The button with this accessible name on the open page (a card also by its card alone: "7")."""
        buttons = {**(within or self.page).cards(), **(within or self.page).buttons()}
        assert name in buttons, f"no button {name!r}; there are {sorted(buttons)}"
        return buttons[name]

    def card(self, label: str) -> Node:
        """The card pad's button for this card ("7", "Bomb") on the open page."""
        cards = self.page.cards()
        assert label in cards, f"no card {label!r}; there are {sorted(cards)}"
        return cards[label]

    def submit(self, form: Node, button: Node | None = None, *, htmx: bool = False, **overrides: Any) -> TestResponse:
        """Submit a form as the browser would, with `overrides` replacing fields (lists: several values)."""
        fields = [(name, value) for name, value in form_fields(form, button) if name not in overrides]
        for name, value in overrides.items():
            if value is None:
                continue
            for item in value if isinstance(value, list) else [value]:
                fields.append((name, str(item)))
        data: dict[str, list[str]] = {}
        for name, value in fields:
            data.setdefault(name, []).append(value)
        headers = {"HX-Request": "true"} if htmx else {}
        if htmx:
            # htmx adds the board's hx-vals (which join panel the page shows) to requests from inside it, and the
            # page's script says that it makes a log's changes in place (static/js/morph.js): `log=None` is a page
            # whose script predates that.
            for name, value in {**self.board_values(), "log": LOG_CHANGES}.items():
                if name not in overrides:
                    data.setdefault(name, [value])
        response = self.client.post(form.get("action") or self.url, data=data, headers=headers)
        if response.mimetype == "text/html":
            # What the browser shows now: the new page, or (htmx) the fragment swapped in.
            self.page = swapped(self.page, parse(response.get_data(as_text=True))) if htmx else parse(response.text)
        return response

    def press(self, label: str, /, *, htmx: bool = False, within: Node | None = None, **overrides: Any) -> TestResponse:
        """Tap an enabled button by its accessible name and submit its form (`overrides`: typed fields)."""
        button = self.button(label, within)
        assert not button.has("disabled"), f"{label!r} is disabled"
        form = button.ancestor("form")
        assert form is not None, f"{label!r} is not in a form"
        return self.submit(form, button, htmx=htmx, **overrides)

    def start(self, names: list[str], **fields: Any) -> str:
        """Start a table from the home page; return its code. This browser becomes the host."""
        self.open("/")
        form = self.page.by_id("setup")
        overrides: dict[str, Any] = {"name": names, "team": ["A" if i % 2 == 0 else "B" for i in range(len(names))]}
        overrides.update(fields)
        # The start button by what it sends, whatever language the phone reads it in.
        start = form.find("button", name="op", value="start")
        assert start is not None
        response = self.submit(form, start, **overrides)
        assert response.status_code == 303, response.get_data(as_text=True)[:2000]
        path = urlsplit(response.headers["Location"]).path
        # The host lands in the lobby first (pages/lobby.py); the table is one tap further.
        assert path.startswith("/t/") and path.endswith("/lobby"), path
        table = path.removesuffix("/lobby")
        self.open(table)
        return table.removeprefix("/t/")


def _replace(old: Node, new: Node | list[Node | str]) -> None:
    """Put `new` (an element, or a list of children) where `old` is in its parent."""
    assert old.parent is not None
    siblings = old.parent.children
    at = next(index for index, child in enumerate(siblings) if child is old)
    added = new if isinstance(new, list) else [new]
    for child in added:
        if isinstance(child, Node):
            child.parent = old.parent
    siblings[at : at + 1] = added


def _oob_swap(page: Node, node: Node) -> None:
    """One of htmx's out-of-band swaps (hx-swap-oob: true, delete, afterbegin:#id, afterend:#id) onto `page`."""
    value = node.attrs.pop("hx-swap-oob")
    style, _, selector = value.partition(":") if ":" in value else ("outerHTML", "", "#" + node["id"])
    style = "delete" if value == "delete" else style
    target = page.find(id=selector.removeprefix("#"))
    if target is None:
        return
    if style == "outerHTML":
        _replace(target, node)
    elif style == "delete":
        _replace(target, [])
    elif style == "afterend":
        _replace(target, [target, *node.children])
    else:
        assert style == "afterbegin", value
        for child in node.children:
            if isinstance(child, Node):
                child.parent = target
        target.children[0:0] = node.children


def _change_log(log: Node, changes: Node) -> None:
    """A tap's log changes made on the log the page shows, as static/js/morph.js makes them: the items named in
    data-remove go, each list's items go after the item its data-after names (at the top without one), and the
    "Show all" paragraph is replaced."""
    for item_id in changes.get("data-remove", "").split():
        gone = log.find(id=item_id)
        if gone is not None:
            _replace(gone, [])
    listing = log.find(id="log-list")
    assert listing is not None, "the page's log has no list"
    for part in [child for child in changes.children if isinstance(child, Node)]:
        items = [child for child in part.children if isinstance(child, Node)]
        if part.tag == "ol" and part.has("data-after"):
            after = log.find(id=part["data-after"])
            assert after is not None, f"the page's log has no {part['data-after']}"
            _replace(after, [after, *items])
        elif part.tag == "ol":
            for item in items:
                item.parent = listing
            listing.children[0:0] = items
        else:
            shown = log.find(id=part["id"])
            assert shown is not None, f"the page's log has no {part['id']}"
            _replace(shown, part)


def swapped(page: Node, fragment: Node) -> Node:
    """The page after htmx swaps a board fragment into it: the out-of-band swaps, then the board itself, whose log,
    when the answer brings only its changes, is the page's with them made; a fragment without a board replaces the
    whole page."""
    board, shown = fragment.find(id="board"), page.find(id="board")
    if board is None or shown is None:
        return fragment
    for node in [child for child in fragment.children if isinstance(child, Node) and child.has("hx-swap-oob")]:
        _oob_swap(page, node)
    changes, log = board.find(id="log"), shown.find(id="log")
    if changes is not None and changes.has("data-changes") and log is not None:
        _change_log(log, changes)
        _replace(changes, log)
    _replace(shown, board)
    return page


def _query(location: str) -> str:
    query = urlsplit(location).query
    return f"?{query}" if query else ""


def drive(app: Flask, code: str, *steps: str) -> None:
    """Enter actions straight through the service, as other phones would: "Ann 7", "Ann bomb Bob", "Bob bust",
    "Cy holds 3", "Cy leaves", "undo", "redo", "tiebreak Ann=3 Bob=4"."""
    referee = app.extensions["referee"]
    assert isinstance(referee, Referee)
    for step in steps:
        words = step.split()
        command: Any
        if words == ["undo"]:
            command = Undo()
        elif words == ["redo"]:
            command = Redo()
        elif words[0] == "tiebreak":
            command = TieBreak(tuple((name, int(value)) for name, value in (w.split("=") for w in words[1:])))
        elif words[1] == "bust":
            command = Bust(words[0])
        elif words[1] == "holds":
            command = SetHand(words[0], int(words[2]))
        elif words[1] == "leaves":
            command = Leave(words[0])
        else:
            command = Play(words[0], Card(words[1]), tuple(words[2:]))
        referee.act(code, command, actor=Operator())


@pytest.fixture
def phone(client: FlaskClient) -> Phone:
    """The host's phone."""
    return Phone(client)


@pytest.fixture
def other_phone(app: Flask) -> Phone:
    """A second phone at the same table (its own cookies)."""
    return Phone(app.test_client())
