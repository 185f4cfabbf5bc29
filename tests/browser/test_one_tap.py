"""One tap, one card — double taps, stale taps and taps that never reach the table."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from .conftest import Phones, Server
from .table import card, expect_version, pump_until, tap, total, turn, version

# Long enough for anything a double tap could set off to have come back (a tap, its answer, a refresh).
QUIET_MS = 1500


def middle(button: Locator) -> tuple[float, float]:
    """Where a finger taps the button: its middle, on the screen."""
    box = button.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def double_tap(page: Page, name: str, gap_ms: int) -> None:
    """Two real taps on the same spot of the screen, `gap_ms` apart (as a finger does it)."""
    x, y = middle(card(page, name))
    page.mouse.click(x, y)
    page.wait_for_timeout(gap_ms)
    page.mouse.click(x, y)


@pytest.mark.browser
@pytest.mark.parametrize("latency_ms", [0, 200])
@pytest.mark.parametrize("gap_ms", [40, 120, 420])
def test_a_double_tap_enters_one_card(server: Server, phones: Phones, gap_ms: int, latency_ms: int) -> None:
    """At 120 ms the first answer is usually back and the pad shows the next player: still one card. 420 ms is
    a slow double tap (it once entered the card twice, once for the next player)."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    code = table["code"]
    ann = phones.seated(server, table, "Ann")
    posts: list[str] = []
    if latency_ms:
        ann.route("**/t/*/act", lambda route: _slow(ann, route, latency_ms))
    ann.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    for repetition in range(3):
        before = server.state(code)
        double_tap(ann, "2", gap_ms)
        expect(ann.locator("#board")).to_have_attribute("data-version", str(before["version"] + 1))
        ann.wait_for_timeout(QUIET_MS)
        after = server.state(code)
        assert after["version"] == before["version"] + 1, (repetition, after)
        assert after["total"] == before["total"] + 2
        expect(total(ann)).to_have_text(str(after["total"]))
    assert len(ann.locator("#log ol.log > li:not(.round-separator)").all()) == 3
    print(f"gap {gap_ms} ms, latency {latency_ms} ms: {len(posts)} posts for 3 double taps")


def _slow(page: Page, route: Route, latency_ms: int) -> None:
    page.wait_for_timeout(latency_ms)
    route.continue_()


@pytest.mark.browser
def test_a_tap_on_a_version_the_table_left_enters_nothing_and_says_so_quietly(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    scorer = phones.seated(server, table, "Keeping score (not playing)")
    # The API enters Ann's 2 while the scorer's tap for it is held in the browser.
    held: list[Route] = []
    scorer.route("**/t/*/act", lambda route: held.append(route))
    card(scorer, "2").click()
    pump_until(scorer, lambda: bool(held), "the scorer's tap held in the browser")
    server.act(code, token, type="play", player="Ann", card="2")
    held[0].continue_()
    expect(scorer.get_by_role("status").filter(has_text="Ann's 2 is already in.")).to_be_visible()
    expect(scorer.get_by_role("alert")).to_have_count(0)
    expect(turn(scorer)).to_have_text("Bob's turn")
    assert server.state(code)["version"] == 1


@pytest.mark.browser
def test_without_javascript_a_repeated_form_enters_one_card(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code = table["code"]
    ann = phones.new(java_script_enabled=False)
    ann.goto(server.local(table["join_url"]))
    ann.get_by_role("button", name="Ann", exact=True).click()
    ann.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    # The same form posted twice (a double tap without JavaScript sends both): the second is refused.
    form = {field.get_attribute("name"): field.get_attribute("value") for field in ann.locator("#pad-form input").all()}
    for _ in range(2):
        answer = ann.request.post(f"{server.url}/t/{code}/act", form={**form, "card": "2"}, max_redirects=0)
        assert answer.status == 303
    ann.reload()
    expect(ann.get_by_role("status").filter(has_text="Ann's 2 is already in.")).to_be_visible()
    assert server.state(code)["version"] == 1


@pytest.mark.browser
def test_a_tap_made_offline_is_reported_not_lost(server: Server, phones: Phones) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    code = table["code"]
    ann = phones.seated(server, table, "Ann")
    ann.context.set_offline(True)
    card(ann, "5").click()
    expect(ann.get_by_role("alert")).to_contain_text("Not entered: this phone is offline, so Ann's 5 did not reach")
    ann.context.set_offline(False)
    assert server.state(code)["version"] == 0
    # Back online, the alert no longer says the phone is offline, and says what to do.
    expect(ann.locator("#connection")).to_be_hidden(timeout=10_000)
    expect(ann.locator("#banner .not-entered")).to_have_text(
        "Back online. Ann's 5 was not entered: tap it again if it still counts."
    )
    # The tap can be made again and counts once.
    card(ann, "5").click()
    expect(total(ann)).to_have_text("5")
    assert server.state(code)["version"] == 1


@pytest.mark.browser
@pytest.mark.parametrize(
    "entered, then",
    [
        ("Bob", "as_is"),  # Bob's own card, entered by the host: his pad now enters for Cy
        ("Ann", "as_is"),  # Ann's card, which makes it Bob's turn: the tap would go in as Bob's own card
        ("Bob", "new_link"),  # a new join link redraws the board within the second: the pause goes on
    ],
)
def test_a_card_another_phone_just_entered_is_not_entered_again_for_the_next_player(
    server: Server, phones: Phones, entered: str, then: str
) -> None:
    """The host enters Bob's 1, and Bob taps his 1 on his own phone half a second later: by then his pad offers
    Cy's turn, and the 1 would go in again as Cy's. A pad another phone's card has just changed takes no tap for
    a second, faded meanwhile; then it takes taps as usual."""
    table = server.create_table(["Ann", "Bob", "Cy", "Dee"])
    code, token = table["code"], table["token"]
    bob = phones.seated(server, table, "Bob")
    if entered == "Bob":
        server.act(code, token, type="play", player="Ann", card="3")
        expect_version(bob, 1)
    before = server.state(code)

    server.act(code, token, type="play", player=entered, card="1")  # another phone enters the card
    pump_until(bob, lambda: version(bob) == before["version"] + 1, f"Bob's phone showing {entered}'s 1")
    seen = time.monotonic()
    if then == "new_link":
        revision = int(bob.locator("#board").get_attribute("data-revision") or 0)
        status, _ = server.request("POST", f"/api/v1/tables/{code}/join-link", token=token)
        assert status == 200
        pump_until(bob, lambda: int(bob.locator("#board").get_attribute("data-revision") or 0) > revision, "redrawn")
    one = card(bob, "1").bounding_box()  # where the 1 is now (a "Your turn!" may have moved the pad)
    assert one is not None
    bob.wait_for_timeout(max(0, 450 - (time.monotonic() - seen) * 1000))
    assert time.monotonic() - seen < 0.9, "too slow to tap within the pause"
    bob.mouse.click(one["x"] + one["width"] / 2, one["y"] + one["height"] / 2)  # a finger, as at a real table
    bob.wait_for_timeout(QUIET_MS)
    state = server.state(code)
    assert (state["version"], state["total"]) == (before["version"] + 1, before["total"] + 1), state

    # The pause is over: the next card is entered from Bob's phone as usual.
    card(bob, "2").click()
    expect(total(bob)).to_have_text(str(before["total"] + 3))
    assert server.state(code)["version"] == before["version"] + 2


@pytest.mark.browser
def test_the_not_entered_note_stays_while_the_phone_catches_up_with_cards_played_meanwhile(
    server: Server, phones: Phones
) -> None:
    """Back online, the catch-up refresh brings the others' cards and must not wipe "Back online. … was not entered"
    at once (it once did): the note stays until this phone's next tap is answered."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    cy = phones.seated(server, table, "Cy")
    cy.context.set_offline(True)
    card(cy, "5").click()  # Cy enters Ann's 5 while offline
    expect(cy.get_by_role("alert")).to_contain_text("Not entered: this phone is offline, so Ann's 5 did not reach")
    server.act(code, token, type="play", player="Ann", card="2")  # meanwhile another phone enters Ann's real card
    server.act(code, token, type="play", player="Bob", card="3")
    cy.context.set_offline(False)
    expect(total(cy)).to_have_text("5")  # caught up: 2 + 3
    # It is Cy's turn now: "tap it again" would enter the 5 as Cy's, so the note says so.
    expect(cy.locator("#banner .not-entered")).to_have_text(
        "Back online. The table moved on (Cy's turn now): Ann's 5 was not entered. Check, then tap again if it "
        "still counts."
    )
    cy.wait_for_timeout(QUIET_MS)  # later live refreshes keep it too
    expect(cy.locator("#banner .not-entered")).to_be_visible()
    # This phone's next tap is answered: the note has done its job.
    card(cy, "4").click()
    expect(total(cy)).to_have_text("9")
    expect(cy.locator("#banner .not-entered")).to_have_count(0)


@pytest.mark.browser
def test_a_slow_tap_says_what_it_is_sending_and_a_second_tap_meanwhile_is_told_to_wait(
    server: Server, phones: Phones
) -> None:
    """With the answer held 2.5 s the pad says what it is sending, and a second tap is told to wait, not lost unsaid;
    the note of a tap that then never gets its answer names that card, not the second, which was never sent."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    code = table["code"]
    ann = phones.seated(server, table, "Ann")
    held: list[Route] = []
    ann.route("**/t/*/act", lambda route: held.append(route))
    card(ann, "5").click()
    pump_until(ann, lambda: bool(held), "Ann's 5 held on its way")
    sending = ann.locator("#banner .sending")
    expect(sending).to_have_text("Sending Ann's 5…")
    expect(sending).to_have_attribute("role", "status")
    card(ann, "3").click()
    expect(sending).to_have_text("Sending Ann's 5… Wait for it before tapping again.")
    boards: list[str] = []
    ann.on("request", lambda request: boards.append(request.url) if "/board" in request.url else None)
    held[0].abort()  # the answer never comes
    expect(ann.get_by_role("alert")).to_contain_text("No answer from the table: Ann's 5 may not be in.")
    expect(sending).to_have_count(0)
    assert len(held) == 1, "the second tap was sent"
    assert server.state(code)["version"] == 0
    # The total the note asks to check is fetched from the table at once, not left as this phone last saw it.
    pump_until(ann, lambda: bool(boards), "the board fetched after the lost answer", seconds=2)


@pytest.mark.browser
def test_a_bomb_turned_away_is_named_as_the_bomb(server: Server, phones: Phones) -> None:
    """The Bomb is confirmed on its sheet: a note about it named the sheet's button ("Ann's Confirm")."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = phones.seated(server, table, "Ann")
    ann.route("**/t/*/act", lambda route: route.fulfill(status=503, body="busy", content_type="text/plain"))
    card(ann, "Bomb").click()
    ann.get_by_role("dialog").get_by_role("button", name="Confirm").click()
    expect(ann.get_by_role("alert")).to_have_text(
        "Ann's Bomb was not entered: the table is too busy just now. Wait a moment, then tap again."
    )


@pytest.mark.browser
def test_undo_right_after_your_own_mis_tap_takes_it_back_and_a_double_tap_on_undo_undoes_once(
    server: Server, phones: Phones
) -> None:
    """An Undo tapped within 0.6 s of the answer to one's own card takes it back: the pause that keeps a slow double
    tap from entering a card twice once held Undo too, so it did nothing, in silence."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    code = table["code"]
    ann = phones.seated(server, table, "Ann")
    undo = ann.get_by_role("button", name="Undo", exact=True)
    card(ann, "6").click()
    expect_version(ann, 1)
    # "Oops", well inside the pause that follows one's own card; a real tap where the button is (Playwright's own
    # click would wait until the button takes taps again).
    ann.wait_for_timeout(150)
    x, y = middle(undo)
    ann.mouse.click(x, y)
    expect_version(ann, 2, timeout=1000)
    assert server.state(code)["total"] == 0
    # Undo tapped twice in a row (a double tap): it takes back one card, not the one before it too.
    card(ann, "3").click()
    expect_version(ann, 3)
    ann.wait_for_timeout(QUIET_MS)
    x, y = middle(undo)
    ann.mouse.click(x, y)
    ann.wait_for_timeout(250)
    ann.mouse.click(x, y)
    ann.wait_for_timeout(QUIET_MS)
    state = server.state(code)
    assert (state["version"], state["total"], state["can_redo"]) == (4, 0, True)


def log_items(page: Page) -> list[list[str]]:
    """The log region's items (id and text) and its "Show all" link, as the phone shows them."""
    items = page.locator("#log li").evaluate_all("items => items.map(item => [item.id, item.innerText.trim()])")
    return [*items, [page.locator("#log-more").evaluate("more => more.hidden ? '' : more.innerText.trim()")]]


@pytest.mark.browser
def test_taps_bring_the_log_up_to_date_without_sending_it_whole(server: Server, phones: Phones) -> None:
    # A tap's answer keeps the log the phone shows and brings only its changes (static/js/morph.js makes them).
    # Past the board's 30 lines the oldest goes and "Show all" appears; a round ends on the way.
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    for _ in range(27):
        server.act(code, token, type="play", player=server.state(code)["current"], card="0")
    ann = phones.seated(server, table, "Ann")
    # A mark on the log element itself: it stays only if the taps' answers keep the very element.
    ann.locator("#log").evaluate("log => { log.kept = true }")
    for step in range(5):
        tap(ann, card(ann, "1"))
        expect_version(ann, 28 + step)
        assert ann.locator("#log").evaluate("log => log.kept === true"), f"tap {step + 1} sent the log whole"
    shown = log_items(ann)
    assert shown[-1] == ["Show all 32 entries"]
    ann.reload()
    assert log_items(ann) == shown


# The pad as the tap leaves: the tap out (htmx's request class), and how opaque its cards are drawn.
TAP_AND_LOOK = """(value) => {
  const button = document.querySelector(`#pad button.card[value="${value}"]`);
  button.click();
  const numbers = document.querySelector("#pad .numbers");
  return {out: button.form.classList.contains("htmx-request"), opacity: getComputedStyle(numbers).opacity};
}"""


@pytest.mark.browser
def test_the_pad_fades_only_once_an_answer_is_slow_to_come(server: Server, phones: Phones) -> None:
    """A tap going out leaves the pad as it is: an answer back within a tenth of a second goes straight to the new
    board. Held longer, the pad fades, and takes its usual look again with the answer."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = phones.seated(server, table, "Ann")
    held: list[Route] = []
    ann.route("**/t/*/act", lambda route: held.append(route))
    numbers = ann.locator("#pad .numbers")
    expect(numbers).to_have_css("opacity", "1")
    assert ann.evaluate(TAP_AND_LOOK, "5") == {"out": True, "opacity": "1"}
    pump_until(ann, lambda: bool(held), "Ann's 5 held on its way")
    expect(numbers).to_have_css("opacity", "0.6")
    held[0].continue_()
    expect(total(ann)).to_have_text("5")
    expect(numbers).to_have_css("opacity", "1")
    expect(ann.locator("form[data-slow]")).to_have_count(0)
