"""The board's Python-written markup (pages/markup.py) is the HTML of its reference macros
(templates/_board_parts.html), for every kind of input a board meets.

The writers exist for speed; the macros are what a person reads and edits. A change to one without the other
would make the phones' HTML drift from the template that documents it, so each writer is rendered beside its
macro, over every card and refusal, hostile names, teams, players out or gone, and log lines undone or redone.
Runs of whitespace count as one space, so a space between two inline tags still counts.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask, get_template_attribute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import rulebook
from referee.engine import WILD_CARDS, Card, CardOption, GameState, Player, Status, Team, legal_actions
from referee.engine.history import History
from referee.engine.setup import make_setup, new_game
from referee.service.tableview import LogEntry, TableView
from referee.web.pages import markup
from referee.web.pages.markup import (
    ActionForms,
    log_line_html,
    log_more_html,
    number_buttons,
    player_items,
    round_heading,
    wild_buttons,
)
from referee.web.security import csrf_token

REFERENCE = "_board_parts.html"
# Each writer of pages/markup.py and the macro of _board_parts.html it must match (ActionForms's two parts apart).
WRITERS = {
    "number_buttons": "number_buttons",
    "wild_buttons": "wild_buttons",
    "player_items": "player_items",
    "log_line_html": "log_line_html",
    "round_heading": "round_heading",
    "log_more_html": "log_more_html",
}
ACTION_FORM_MACROS = ("action_form_attrs", "action_fields")

# Names a stranger might type: markup, quotes and ampersands, emoji, right-to-left text and its override
# character, template syntax, and whitespace that is not a plain space.
HOSTILE = [
    "<i>Jo</i>",
    'Al & "Bo"',
    "O'Neil",
    "</li><script>alert(1)</script>",
    "Zoë 😀👨‍👩‍👧",
    "مريم",
    "אבי כהן",
    "\u202eevil\u202c",
    "{{ 7 * 7 }}{% raw %}",
    "&amp; &lt;",
    "tab\there  and\nline",
]
CODES = ["K7QX", "2345ZZ", 'A"B&C<']
KINDS = ["play", "bust", "hand", "leave", "tiebreak", "undo", "redo"]
RULES = [None, "no-such-entry", *(entry.id for entry in rulebook.entries()[:8])]

names = st.one_of(st.sampled_from(HOSTILE), st.text(min_size=1, max_size=24))


def normalised(html: object) -> list[str]:
    """The HTML with each run of whitespace made one space and none before a tag's `>`, cut before each tag (so
    that a failure's diff points at the first tag that differs)."""
    text = re.sub(r"\s+", " ", str(html)).replace(" >", ">").strip()
    return [part for part in re.split(r"(?=<)", text) if part]


def reference(name: str) -> Callable[..., Any]:
    """The macro `name` of the reference template."""
    found: Callable[..., Any] = get_template_attribute(REFERENCE, name)
    return found


@pytest.fixture
def in_request(app: Flask) -> Iterator[None]:
    """A request to the app, as a phone's tap is: URLs, the session's CSRF token and the templates at hand."""
    with app.test_request_context("/"):
        yield


def base_state(**house_rules: str) -> GameState:
    """A dealt game of three."""
    return new_game(make_setup(["Ann", "Bob", "Cy"], house_rules=house_rules or None))


def view_of(state: GameState, code: str = "K7QX", version: int = 7) -> TableView:
    """A table at `version` showing `state`."""
    return TableView(
        id=1,
        code=code,
        version=version,
        revision=version,
        setup=state.setup,
        state=state,
        history=History(state.setup),
        log=(),
        entry="",
        rematch_code=None,
        join_secret="secret",
    )


def real_pads() -> list[tuple[str, GameState]]:
    """The engine's own pads: every total a turn can meet, under both readings of going over 21, and the pads of
    a tie-break and of a finished game (every card refused, each with its reason)."""
    pads = []
    for over_21 in ("refuse", "bust"):
        for total in range(22):
            pads.append((f"{over_21}-{total}", replace(base_state(over_21=over_21), total=total)))
    pads.append(("bomb-round-only", base_state(bomb_last_card="round_only")))
    finished = base_state()
    pads.append(("finished", replace(finished, status=Status.FINISHED, current=None, winners=("Ann",))))
    pads.append(("tiebreak", replace(finished, status=Status.TIEBREAK, current=None, tied=(0, 1))))
    return pads


REFUSALS = sorted(
    {option.reason for _, state in real_pads() for option in legal_actions(state).cards if option.reason is not None}
)


@pytest.mark.parametrize(("label", "state"), real_pads(), ids=[label for label, _ in real_pads()])
def test_the_pad_is_its_reference_for_every_card_the_engine_allows_or_refuses(
    in_request: None, label: str, state: GameState
) -> None:
    legal = legal_actions(state)
    numbers = [option for option in legal.cards if option.card.is_number]
    wilds = {option.card: option for option in legal.cards if not option.card.is_number}
    shown_wilds = [wilds[card] for card in WILD_CARDS]
    assert normalised(number_buttons(numbers, state.total)) == normalised(
        reference("number_buttons")(numbers, state.total)
    )
    for answerers in (legal.bomb_answerers, ()):
        assert normalised(wild_buttons(shown_wilds, answerers)) == normalised(
            reference("wild_buttons")(shown_wilds, answerers)
        )


def test_the_engine_gives_the_pad_each_kind_of_refusal() -> None:
    # What the table above covers: a card that does not fit, the game over, the tie-break first.
    assert any(reason.startswith("That 7 makes") for reason in REFUSALS), REFUSALS
    assert "The game is over." in REFUSALS and "Settle the tie-break first." in REFUSALS


@st.composite
def card_options(draw: st.DrawFn, cards: tuple[Card, ...]) -> list[CardOption]:
    """Some of `cards`, in any order, each allowed or refused (for a real reason or a hostile one), busting or not."""
    chosen = draw(st.lists(st.sampled_from(cards), unique=True))
    options = []
    for card in chosen:
        allowed = draw(st.booleans())
        reason = None if allowed else draw(st.one_of(st.sampled_from(REFUSALS), names))
        options.append(CardOption(card, allowed, reason, busts=draw(st.booleans())))
    return options


NUMBER_CARDS = tuple(card for card in Card if card.is_number)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    numbers=card_options(NUMBER_CARDS),
    wilds=card_options(WILD_CARDS),
    total=st.integers(0, 21),
    answerers=st.lists(names, max_size=4).map(tuple),
)
def test_the_pad_is_its_reference_for_any_cards(
    in_request: None, numbers: list[CardOption], wilds: list[CardOption], total: int, answerers: tuple[str, ...]
) -> None:
    assert normalised(number_buttons(numbers, total)) == normalised(reference("number_buttons")(numbers, total))
    assert normalised(wild_buttons(wilds, answerers)) == normalised(reference("wild_buttons")(wilds, answerers))


@st.composite
def states(draw: st.DrawFn) -> GameState:
    """A table's players as a board may show them: any names, lives, hands, players out or gone, teams or none,
    anyone's turn or nobody's, in any state of the game."""
    count = draw(st.integers(2, 6))
    teams: tuple[Team, ...] = ()
    if draw(st.booleans()):
        teams = tuple(
            Team(name=draw(names), seats=(index,), lives=draw(st.integers(0, 5)))
            for index in range(draw(st.integers(2, 3)))
        )
    players = tuple(
        Player(
            name=draw(names),
            lives=draw(st.integers(-1, 6)),
            hand=draw(st.integers(0, 77)),
            out=draw(st.booleans()),
            left=draw(st.booleans()),
            team=draw(st.integers(0, len(teams) - 1)) if teams else None,
        )
        for _ in range(count)
    )
    seats = st.one_of(st.none(), st.integers(0, count - 1))
    return replace(
        base_state(),
        players=players,
        teams=teams,
        current=draw(seats),
        dealer=draw(seats),
        status=draw(st.sampled_from(Status)),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=states(), code=st.sampled_from(CODES), version=st.integers(0, 10**6), watching=st.booleans())
def test_the_players_rows_are_their_reference(
    in_request: None, state: GameState, code: str, version: int, watching: bool
) -> None:
    forms = None if watching else ActionForms.for_view(view_of(state, code, version))
    assert normalised(player_items(state, forms)) == normalised(reference("player_items")(state, forms))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    state=states(),
    code=st.sampled_from(CODES),
    version=st.integers(0, 10**6),
    kind=st.sampled_from(KINDS),
    player=st.one_of(st.none(), names),
    versioned=st.booleans(),
)
def test_the_action_forms_are_their_reference(
    in_request: None, state: GameState, code: str, version: int, kind: str, player: str | None, versioned: bool
) -> None:
    forms = ActionForms.for_view(view_of(state, code, version), versioned=versioned)
    shown = version if versioned else None  # a board sent to htmx has the version in its hx-vals only
    assert normalised(forms.attrs) == normalised(reference("action_form_attrs")(code))
    expected = reference("action_fields")(kind, player, csrf_token(), shown)
    assert normalised(forms.fields(kind, player)) == normalised(expected)
    # A player of this table (whose field is written once per board) as well as any other name.
    for seated in state.players[:2]:
        expected = reference("action_fields")(kind, seated.name, csrf_token(), shown)
        assert normalised(forms.fields(kind, seated.name)) == normalised(expected)


log_entries = st.builds(
    LogEntry,
    seq=st.integers(1, 10_000),
    text=st.one_of(st.sampled_from(HOSTILE), st.text(max_size=80)),
    rule=st.sampled_from(RULES),
    note_rule=st.none(),
    undone=st.booleans(),
    entered_by=st.one_of(st.none(), st.just(""), names),
    status_by=st.one_of(st.none(), st.just(""), names),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=log_entries, code=st.sampled_from(CODES), round_number=st.integers(1, 500))
def test_a_log_line_and_a_round_heading_are_their_reference(
    in_request: None, entry: LogEntry, code: str, round_number: int
) -> None:
    players = ("Ann", "Bob", "Cy")
    line = log_line_html(entry, code, players)
    assert normalised(line) == normalised(reference("log_line_html")(entry, code, players))
    assert normalised(round_heading(round_number)) == normalised(reference("round_heading")(round_number))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(code=st.sampled_from(CODES), shown=st.integers(0, 40), count=st.integers(0, 10_000))
def test_the_show_all_link_is_its_reference(in_request: None, code: str, shown: int, count: int) -> None:
    written = log_more_html(code, shown, count)
    assert normalised(written) == normalised(reference("log_more_html")(code, shown, count))


def test_every_markup_writer_names_its_reference_macro_and_the_macro_exists(in_request: None) -> None:
    # A writer added to pages/markup.py without a reference macro (or a macro renamed) fails here.
    writers = {
        name
        for name, function in inspect.getmembers(markup, inspect.isfunction)
        if function.__module__ == markup.__name__ and not name.startswith("_")
    }
    assert writers == set(WRITERS)
    for writer, macro in WRITERS.items():
        assert f"Reference macro: `{macro}`" in (getattr(markup, writer).__doc__ or ""), writer
        assert callable(reference(macro))
    for macro in ACTION_FORM_MACROS:
        assert f"`{macro}`" in (ActionForms.__doc__ or "")
        assert callable(reference(macro))
