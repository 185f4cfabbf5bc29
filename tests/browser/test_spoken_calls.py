"""Spoken calls: with "Speak the calls" on, a phone or the table display says each change out loud through the
browser's own speech synthesis (the total and whose turn, lives lost, who is out, the winner), one call at a time;
nothing while it is off; the choice is remembered; a browser without a voice says in the switch's hint that it
stays silent.

The browser's speech is replaced by a recorder (an init script): what the page asked to be said is what it would say.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from .conftest import Phones, Server
from .table import choose, expect_version, join, pump_until, tap, wait_live
from .test_screens import AXE_OPTIONS

TEST_VOICE = {"name": "Test voice", "lang": "en-GB", "localService": True, "default": True, "voiceURI": "test"}

# window.speechSynthesis and SpeechSynthesisUtterance replaced by a recorder of speak() and cancel(). A call stays
# "being spoken" until the test ends it (window.__speechDone()); window.__voicesChanged(list) plays the browser
# loading its voices.
RECORDER = """
(function () {
  var voices = %(voices)s;
  var log = window.__speech = [];
  var heard = [];
  var synth = {
    speaking: false, pending: false, paused: false,
    getVoices: function () { return voices.slice(); },
    speak: function (utterance) {
      log.push({call: "speak", text: utterance.text, lang: utterance.lang, volume: utterance.volume,
                voice: utterance.voice ? utterance.voice.name : null});
      synth.speaking = true;
    },
    cancel: function () { log.push({call: "cancel"}); synth.speaking = false; },
    pause: function () {}, resume: function () {},
    addEventListener: function (type, listener) { if (type === "voiceschanged") heard.push(listener); },
    removeEventListener: function () {}
  };
  Object.defineProperty(window, "speechSynthesis", {configurable: true, get: function () { return synth; }});
  window.SpeechSynthesisUtterance = function (text) {
    this.text = text; this.lang = ""; this.voice = null; this.volume = 1; this.rate = 1; this.pitch = 1;
  };
  window.__speechDone = function () { synth.speaking = false; };
  window.__voicesChanged = function (list) {
    voices = list;
    heard.forEach(function (listener) { listener(new Event("voiceschanged")); });
  };
})();
"""
# A browser with no speech synthesis at all.
NO_SPEECH = """
Object.defineProperty(window, "speechSynthesis", {configurable: true, get: function () { return undefined; }});
Object.defineProperty(window, "SpeechSynthesisUtterance", {configurable: true, value: undefined});
"""


def recording(page: Page, voices: list[dict[str, Any]] | None = None) -> Page:
    """Replace the page's speech synthesis by the recorder from its next load on."""
    page.context.add_init_script(RECORDER % {"voices": json.dumps([TEST_VOICE] if voices is None else voices)})
    return page


def seated_recording(server: Server, phones: Phones, table: dict[str, Any], who: str, **options: Any) -> Page:
    """A phone joined to `table` as `who`, its speech recorded, its live stream open."""
    page = recording(phones.new(), **options)
    join(page, server.local(table["join_url"]), who)
    wait_live(page)
    return page


def said(page: Page) -> list[str]:
    """What the page has asked to be said out loud, in order (not the silent call that wakes Safari's speech)."""
    log = page.evaluate("window.__speech")
    return [entry["text"] for entry in log if entry["call"] == "speak" and entry["volume"] > 0]


def expect_said(page: Page, words: str) -> None:
    """Wait until the newest call is `words`."""
    pump_until(page, lambda: said(page)[-1:] == [words], f"the call {words!r} (said: {said(page)})")


def switch(page: Page, name: str = "Speak the calls") -> Any:
    """The calls' switch, by its name in the page's language."""
    return page.get_by_role("button", name=name, exact=True)


def turn_on(page: Page, name: str = "Speak the calls") -> None:
    """Turn the calls on at a new table: the switch says where the table stands at once."""
    switch(page, name).click()
    expect(switch(page, name)).to_have_attribute("aria-pressed", "true")
    expect_said(page, "0, Ann's turn.")
    page.evaluate("window.__speechDone()")


@pytest.mark.browser
def test_calls_say_the_total_and_whose_turn_after_a_card_and_who_loses_lives_after_a_bomb(
    server: Server, phones: Phones
) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = seated_recording(server, phones, table, "Ann")
    expect(switch(ann)).to_have_attribute("aria-pressed", "false")  # off unless this phone turns it on
    expect(ann.locator("#speech-hint")).to_have_text("Says the total, whose turn, lives lost, who is out, the winner.")
    turn_on(ann)
    tap(ann, "7")  # this phone's own card
    expect_said(ann, "7, Bob's turn.")
    ann.evaluate("window.__speechDone()")
    server.act(table["code"], table["token"], type="play", player="Bob", card="bomb", zeros=[])  # another phone's
    expect_said(ann, "Cy and Ann lose a life. 0, Cy's turn.")
    # In the page's language: the browser speaks it with its own voice for that language.
    assert ann.evaluate("window.__speech").pop()["lang"] == "en"
    expect(ann.locator("#board[data-settling]")).to_have_count(0)  # the pad faded for a second after Bob's card
    violations = Axe().run(ann, options=AXE_OPTIONS).response["violations"]
    assert [f"{v['id']}: {[node['target'] for node in v['nodes']]}" for v in violations] == []


@pytest.mark.browser
def test_calls_say_who_is_out_and_the_winner_at_game_over(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    watcher = seated_recording(server, phones, table, "Just watching")
    turn_on(watcher)
    # Ann bombs and plays out her hand: round 2. Then each of her Bombs costs Bob and Cy a life, until they are out.
    steps: list[dict[str, Any]] = [
        {"type": "play", "player": "Ann", "card": "bomb", "zeros": []},
        {"type": "play", "player": "Bob", "card": "0"},
        {"type": "play", "player": "Cy", "card": "0"},
        {"type": "hand", "player": "Ann", "cards": 1},
        {"type": "play", "player": "Ann", "card": "7"},
    ]
    for step in steps:
        server.act(code, token, **step)
        expect_version(watcher, server.state(code)["version"])
    expect_said(watcher, "Bob and Cy lose a life. Round 2. 0, Bob's turn.")
    while (state := server.state(code))["status"] == "playing":
        current = state["current"]
        server.act(code, token, type="play", player=current, card="bomb" if current == "Ann" else "0", zeros=[])
        expect_version(watcher, server.state(code)["version"])
    expect_said(watcher, "Bob and Cy lose a life. Bob and Cy are out. Ann wins!")


@pytest.mark.browser
def test_nothing_is_said_while_the_switch_is_off(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = seated_recording(server, phones, table, "Ann")
    expect(switch(ann)).to_have_attribute("aria-pressed", "false")
    tap(ann, "7")
    server.act(table["code"], table["token"], type="play", player="Bob", card="bomb", zeros=[])
    expect_version(ann, 2)
    ann.wait_for_timeout(300)  # a call would be made at once after the board's update
    assert ann.evaluate("window.__speech") == []


@pytest.mark.browser
def test_the_choice_is_remembered_after_a_reload(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = seated_recording(server, phones, table, "Ann")
    turn_on(ann)
    ann.reload()
    wait_live(ann)
    expect(switch(ann)).to_have_attribute("aria-pressed", "true")
    # The browser lets the page speak only once it has been tapped: the hint says so until then.
    hint = ann.locator("#speech-hint")
    expect(hint).to_have_text("Tap the screen once to let it speak.")
    ann.locator("#status").click()
    expect(hint).to_contain_text("Says the total")
    server.act(table["code"], table["token"], type="play", player="Ann", card="5")
    expect_said(ann, "5, Bob's turn.")
    # Turned off, it stays off after a reload too.
    switch(ann).click()
    expect(switch(ann)).to_have_attribute("aria-pressed", "false")
    ann.reload()
    wait_live(ann)
    expect(switch(ann)).to_have_attribute("aria-pressed", "false")
    before = len(said(ann))
    server.act(table["code"], table["token"], type="play", player="Bob", card="6")
    expect_version(ann, 2)
    ann.wait_for_timeout(300)
    assert len(said(ann)) == before


@pytest.mark.browser
def test_a_newer_call_cancels_one_still_being_spoken(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    ann = seated_recording(server, phones, table, "Ann")
    turn_on(ann)
    server.act(code, token, type="play", player="Ann", card="7")
    expect_said(ann, "7, Bob's turn.")
    # Still being spoken when Bob's card comes: it is cut off, and the newer call said instead.
    server.act(code, token, type="play", player="Bob", card="2")
    expect_said(ann, "9, Cy's turn.")
    log = ann.evaluate("window.__speech")
    calls = [entry["call"] + (" " + entry["text"] if entry["call"] == "speak" else "") for entry in log]
    assert calls[-3:] == ["speak 7, Bob's turn.", "cancel", "speak 9, Cy's turn."]
    # A call that has ended is not cancelled.
    ann.evaluate("window.__speechDone()")
    server.act(code, token, type="play", player="Cy", card="1")
    expect_said(ann, "10, Ann's turn.")
    assert ann.evaluate("window.__speech")[-2]["call"] == "speak"


@pytest.mark.browser
def test_without_a_voice_the_switch_says_the_calls_stay_silent(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = seated_recording(server, phones, table, "Ann", voices=[])
    ann.evaluate("window.__voicesChanged([])")  # the browser has loaded its voices: none
    expect(ann.locator("#speech-hint")).to_have_text("This browser has no voice: the calls stay silent.")
    switch(ann).click()
    expect(switch(ann)).to_have_attribute("aria-pressed", "true")
    tap(ann, "7")
    ann.wait_for_timeout(300)
    assert ann.evaluate("window.__speech") == []
    # A browser with no speech synthesis at all says so too.
    bob = phones.new()
    bob.context.add_init_script(NO_SPEECH)
    join(bob, server.local(table["join_url"]), "Bob")
    expect(bob.locator("#speech-hint")).to_have_text("This browser has no voice: the calls stay silent.")
    expect(switch(bob)).to_be_visible()


@pytest.mark.browser
def test_the_table_display_offers_the_calls_first_and_says_them(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    display = recording(phones.new())
    display.set_viewport_size({"width": 1024, "height": 600})
    display.goto(f"{server.url}/t/{code}/display")
    wait_live(display)
    # Offered first, on the first screen: the table display is the screen the whole table hears.
    expect(switch(display)).to_be_in_viewport(ratio=1)
    assert display.evaluate("document.querySelector('[data-speech-toggle]') === document.querySelector('main button')")
    turn_on(display)
    server.act(code, token, type="play", player="Ann", card="7")
    expect_said(display, "7, Bob's turn.")
    display.evaluate("window.__speechDone()")
    server.act(code, token, type="play", player="Bob", card="bomb", zeros=[])
    expect_said(display, "Cy and Ann lose a life. 0, Cy's turn.")
    # Its every-5-seconds redraw of the same table says nothing again.
    count = len(said(display))
    display.evaluate("htmx.trigger('#display', 'refresh')")
    display.wait_for_timeout(500)
    assert len(said(display)) == count
    for scheme in ("light", "dark"):
        display.emulate_media(color_scheme=scheme)
        violations = Axe().run(display, options=AXE_OPTIONS).response["violations"]
        assert [violation["id"] for violation in violations] == [], scheme


@pytest.mark.browser
def test_a_phone_switched_to_french_hears_the_calls_in_french(server: Server, phones: Phones) -> None:
    """The calls are in the page's language, and say so: a French voice reads them (an English one would read
    "7, à Bob de jouer" as English words)."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    french_voice = {"name": "Voix française", "lang": "fr-FR", "localService": True, "default": False, "voiceURI": "fr"}
    ann = seated_recording(server, phones, table, "Ann", voices=[TEST_VOICE, french_voice])
    ann.get_by_role("link", name="Français").click()
    expect(ann.locator("html")).to_have_attribute("lang", "fr")
    wait_live(ann)
    french_switch = ann.get_by_role("button", name="Annoncer à voix haute", exact=True)
    french_switch.click()
    expect_said(ann, "0, à Ann de jouer.")
    ann.evaluate("window.__speechDone()")
    tap(ann, "7")
    expect_said(ann, "7, à Bob de jouer.")
    spoken = [entry for entry in ann.evaluate("window.__speech") if entry["call"] == "speak" and entry["volume"] > 0]
    assert {(entry["lang"], entry["voice"]) for entry in spoken} == {("fr", "Voix française")}


GERMAN_VOICE = {"name": "Deutsche Stimme", "lang": "de-DE", "localService": True, "default": False, "voiceURI": "de"}


def german_recording(server: Server, phones: Phones, table: dict[str, Any], voices: list[dict[str, Any]]) -> Page:
    """A German phone joined to `table` as Ann, its speech recorded with `voices`, its live stream open."""
    page = recording(phones.new(locale="de-DE"), voices)
    choose(page, server.local(table["join_url"]), "Ann")
    wait_live(page)
    return page


@pytest.mark.browser
def test_a_german_phone_calls_in_german_with_a_german_voice(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    # The browser's default voice is English: a German call must not be read by it.
    ann = german_recording(server, phones, table, [TEST_VOICE, GERMAN_VOICE])
    german_switch = ann.get_by_role("button", name="Ansagen vorlesen", exact=True)
    german_switch.click()
    expect(german_switch).to_have_attribute("aria-pressed", "true")
    expect_said(ann, "0, Ann ist dran.")
    ann.evaluate("window.__speechDone()")
    server.act(table["code"], table["token"], type="play", player="Ann", card="7")
    server.act(table["code"], table["token"], type="play", player="Bob", card="bomb", zeros=[])
    expect_said(ann, "Cy und Ann verlieren ein Leben. 0, Cy ist dran.")
    spoken = ann.evaluate("window.__speech").pop()
    assert (spoken["lang"], spoken["voice"]) == ("de", "Deutsche Stimme")


@pytest.mark.browser
def test_a_phone_without_a_voice_for_its_language_stays_silent_and_says_so(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = german_recording(server, phones, table, [TEST_VOICE])  # an English voice only
    german_switch = ann.get_by_role("button", name="Ansagen vorlesen", exact=True)
    expect(ann.locator("#speech-hint")).to_have_text(
        "Keine Stimme auf diesem Gerät spricht diese Sprache: Die Ansagen bleiben stumm."
    )
    german_switch.click()
    server.act(table["code"], table["token"], type="play", player="Ann", card="7")
    expect_version(ann, 1)
    ann.wait_for_timeout(300)  # a call would be made at once after the board's update
    assert said(ann) == []
