"""Names that cannot fool a table: no invisible or blank characters, one form for each letter (NFKC), and no two
names at one table that look alike (Unicode TR39's confusables)."""

from __future__ import annotations

import json

import pytest

from referee.engine import InvalidSetup, make_setup, new_game
from referee.engine.names import DEFAULT_IGNORABLE, is_default_ignorable
from referee.service.codec import setup_from_json, setup_to_json

# Characters a phone draws as nothing, so "Ann" and "Ann" + one of them were two seats that looked the same.
INVISIBLE = {
    "\u00ad": "soft hyphen",
    "\u034f": "combining grapheme joiner",
    "\u115f": "Hangul choseong filler",
    "\u1160": "Hangul jungseong filler",
    "\u17b4": "Khmer vowel inherent aq",
    "\u180b": "Mongolian free variation selector",
    "\u2064": "invisible plus",
    "\u3164": "Hangul filler",
    "\ufe00": "variation selector 1",
    "\ufe0f": "emoji-style selector after a letter",
    "\uffa0": "halfwidth Hangul filler",
    "\U000e0100": "variation selector 17",
    "\u2800": "Braille pattern blank",
    "\U0001d159": "musical null notehead",
}


def refusal(*names: str) -> InvalidSetup:
    with pytest.raises(InvalidSetup) as refused:
        make_setup(list(names))
    return refused.value


@pytest.mark.parametrize("hidden", INVISIBLE, ids=INVISIBLE.values())
def test_a_name_with_an_invisible_character_is_refused_and_one_of_them_alone_is_no_name(hidden: str) -> None:
    inside = refusal("Ann", "Ann" + hidden)
    assert inside.code == "bad_name" and inside.field == "players"
    assert inside.message == "Names can't contain hidden or control characters: type the name again."
    alone = refusal(hidden, "Bob")
    assert (alone.code, alone.message) == ("bad_name", "Every player needs a name you can see.")
    assert refusal(f" {hidden}{hidden} ", "Bob").message == "Every player needs a name you can see."


def test_the_default_ignorable_ranges_are_sorted_and_cover_what_unicode_lists() -> None:
    # A bisect over the ranges needs them sorted and apart; a few from each kind the property lists.
    assert all(end >= start for start, end in DEFAULT_IGNORABLE)
    assert all(left[1] < right[0] for left, right in zip(DEFAULT_IGNORABLE, DEFAULT_IGNORABLE[1:], strict=False))
    for point in (0xAD, 0x34F, 0x61C, 0x115F, 0x17B5, 0x180E, 0x200B, 0x202E, 0x2065, 0x3164, 0xFE0F, 0xFEFF):
        assert is_default_ignorable(chr(point)), hex(point)
    for point in (0xFFA0, 0xFFF8, 0x1BCA3, 0x1D173, 0xE0001, 0xE007F, 0xE01EF, 0xE0FFF):
        assert is_default_ignorable(chr(point)), hex(point)
    for point in (0x41, 0xAC, 0xAE, 0x34E, 0x3165, 0xFE10, 0xFFA1, 0x1D17B, 0xE1000, 0x1F600):
        assert not is_default_ignorable(chr(point)), hex(point)


def test_emoji_keep_their_joiners_and_style_selectors() -> None:
    """The joiner and the emoji-style selector are invisible, but inside an emoji they are the emoji."""
    for name in (
        "\U0001f469\u200d\U0001f373 Mum",  # a cook: woman, joiner, frying pan
        "\U0001f3f3\ufe0f\u200d\U0001f308 Flag",  # a rainbow flag: white flag, emoji style, joiner, rainbow
        "\u2764\ufe0f Gran",  # a red heart drawn as an emoji
        "\U0001f441\ufe0f\u200d\U0001f5e8\ufe0f",  # an eye in a speech bubble
        "1\ufe0f\u20e3 Kid",  # keycap 1
        "\u263a\ufe0e Sam",  # a smiling face drawn as text
    ):
        assert make_setup([name, "Bob"]).players[0] == name
    for hidden in ("Ann\ufe0f", "\ufe0fAnn", "1\ufe0f", "Ann\u200d\U0001f373"):
        assert refusal(hidden, "Bob").code == "bad_name"


def test_names_are_stored_in_one_form_whatever_width_or_style_they_were_typed_in() -> None:
    setup = make_setup(["\uff21\uff2e\uff2e", "\U0001d401\U0001d428\U0001d41b", "\ufb01ona"])
    assert setup.players == ("ANN", "Bob", "fiona")  # full-width, bold maths letters, the fi ligature
    assert setup.first_player == "ANN"
    state = new_game(setup)
    assert state.seat_of("\uff21\uff2e\uff2e") == 0 and setup.player_named("ａｎｎ") == "ANN"
    same = refusal("ANN", "\uff21\uff2e\uff2e")
    assert same.code == "duplicate_name"
    assert same.message == "Two players are called ANN: add an initial so everyone can tell them apart."


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ann", "\u0410nn"),  # Cyrillic capital A
        ("Ann", "\u0430nn"),  # Cyrillic small a, and so also "ann" as the case-folded name
        ("ANN", "\u0430nn"),
        ("Cy", "C\u0443"),  # Cyrillic u looks like y
        ("Ola", "\u039fla"),  # Greek capital omicron
        ("Al", "AI"),  # capital i looks like small L
        ("Bill", "Bi11"),
        ("Sam", "Sarn"),  # r and n side by side look like m
        ("Ann\U0001f389", "Ann\U0001f389\ufe0f"),  # the party popper is drawn as an emoji either way
    ],
)
def test_a_name_that_looks_like_one_already_at_the_table_is_refused(first: str, second: str) -> None:
    error = refusal(first, "Bob", second)
    assert (error.code, error.field) == ("look_alike_name", "players")
    assert error.message == (
        f"{first} and {second} look alike: add an initial to one of them so everyone can tell them apart."
    )


@pytest.mark.parametrize(
    "names",
    [
        ["Anna", "\u0410\u043d\u043d\u0430"],  # Anna beside Cyrillic Анна: the н is not an n
        ["Zo\u00eb", "Zoe"],
        ["Jos\u00e9", "Jose"],
        ["Lin", "Iin"],  # as typed, Iin is lin; it does not look like Lin
        ["Bo", "B0"],
        ["Eva", "Ava", "Ella", "Elle", "Emma", "Amy"],
    ],
)
def test_names_that_only_share_letters_are_fine(names: list[str]) -> None:
    assert make_setup(names).players == tuple(names)


def test_a_stored_table_keeps_the_names_it_was_made_with() -> None:
    """A table made before a rule for names changed still opens, its names as they were (its log names them)."""
    stored = json.dumps(
        {
            "players": ["Ann", "\u0410nn", "\uff22\uff2f\uff22"],
            "variant": "standard",
            "teams": [],
            "first_player": "\u0410nn",
            "house_rules": {},
        }
    )
    setup = setup_from_json(stored)
    assert setup.players == ("Ann", "\u0410nn", "\uff22\uff2f\uff22") and setup.first_player == "\u0410nn"
    assert setup_from_json(setup_to_json(setup)) == setup
    teams = setup_from_json(setup_to_json(make_setup(["Ann", "Bob", "Cy", "Dee"], "teams")))
    assert teams.teams == (("Ann", "Cy"), ("Bob", "Dee"))
