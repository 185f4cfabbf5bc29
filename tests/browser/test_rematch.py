"""The rematch, in Chromium on the real server: only the host's phone changes the rematch;
a live refresh keeps the host's open form; a refused change stays with its form (open, choices kept, the reason
beside the button, focus on the button, the page not moved away; it passes axe); every phone is told what the host
changed."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect

from .conftest import Phones, Server
from .table import expect_new_table, join, start_from_home, turn, wait_live
from .test_screens import AXE_OPTIONS, too_close

TEAMS = "Teams: two teams share five lives each (4–6 players)"
OVER_21 = "What happens when someone plays a number card that takes the total above 21?"


def finish_from(phone: Page, server: Server, code: str) -> None:
    """Play the table to a winner with this phone's own form posts (each turn: one card left, then a 0)."""
    token = phone.locator("input[name=csrf]").first.get_attribute("value") or ""
    while (state := server.state(code))["status"] != "finished":
        for fields in ({"kind": "hand", "cards": "1"}, {"kind": "play", "card": "0"}):
            form = {"csrf": token, "player": state["current"], **fields}
            answer = phone.request.post(f"{server.url}/t/{code}/act", form=form, max_redirects=0)
            assert answer.status == 303, answer.text()[:300]


def in_view(phone: Page, element: Locator) -> bool:
    """True if the whole element is inside the phone's screen."""
    box = element.bounding_box()
    height = phone.viewport_size["height"] if phone.viewport_size else 0
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


@pytest.mark.browser
def test_the_host_changes_the_rematch_a_refusal_stays_by_the_form_and_every_phone_is_told(
    server: Server, phones: Phones
) -> None:
    host, bob = phones.new(), phones.new()
    code = start_from_home(host, server.url, ["Ann", "Bob", "Cy", "Dee"])
    link = server.local(host.locator("a.join-link").first.get_attribute("href") or "")
    join(bob, link, "Bob")
    for phone in (host, bob):
        wait_live(phone)
    finish_from(host, server, code)
    for phone in (host, bob):
        expect(phone.get_by_role("region", name="Standings")).to_be_visible()

    # Bob's phone may start the same game again, but has no form to change it.
    expect(bob.get_by_role("button", name="Rematch with the same players")).to_be_visible()
    expect(bob.locator("details.rematch-changes")).to_have_count(0)

    # The host picks Cy to start, the team game with Bob in Team A (three against one), and busts over 21.
    changes = host.locator("details.rematch-changes")
    changes.locator("> summary").click()
    form = changes.locator("form")
    form.get_by_role("radio", name="Cy").check()
    form.get_by_role("radio", name=TEAMS).check()
    form.get_by_role("combobox", name="Team of Bob").select_option("A")
    form.locator("details.house-rules > summary").click()
    form.get_by_label(OVER_21).select_option("bust")
    # A phone joining meanwhile refreshes every board live: the host's form stays open, its choices kept.
    revision = host.locator("#board").get_attribute("data-revision") or ""
    join(phones.new(), link, "Just watching")
    expect(host.locator("#board")).not_to_have_attribute("data-revision", revision)
    expect(changes).to_have_attribute("open", "")
    expect(form.get_by_role("radio", name="Cy")).to_be_checked()
    expect(form.get_by_label(OVER_21)).to_have_value("bust")
    button = form.get_by_role("button", name="Rematch with these changes")
    button.scroll_into_view_if_needed()
    button.click()

    # Refused: the reason is beside the button, on screen and announced; focus stays on the button.
    error = host.locator("#rematch-error")
    expect(error).to_contain_text("The two teams must be the same size")
    expect(error).to_have_attribute("role", "alert")
    button = host.get_by_role("button", name="Rematch with these changes")
    expect(button).to_be_focused()
    assert in_view(host, error) and in_view(host, button), (error.bounding_box(), button.bounding_box())
    assert host.url.endswith(f"/t/{code}")
    # Everything the host chose is still there, the form and its house rules open.
    form = host.locator("details.rematch-changes[open] form")
    expect(form.get_by_role("radio", name="Cy")).to_be_checked()
    expect(form.get_by_role("radio", name=TEAMS)).to_be_checked()
    expect(form.get_by_role("combobox", name="Team of Bob")).to_have_value("A")
    expect(form.get_by_label(OVER_21)).to_have_value("bust")
    expect(bob.get_by_role("link", name="Go to the new table")).to_have_count(0)
    violations = Axe().run(host, options=AXE_OPTIONS).response["violations"]
    assert not violations, [f"{v['id']}: {[node['target'] for node in v['nodes']][:4]}" for v in violations]

    # Fixed (Bob back in Team B), the rematch starts; every phone is told what the host changed.
    form.get_by_role("combobox", name="Team of Bob").select_option("B")
    form.get_by_role("button", name="Rematch with these changes").click()
    expect_new_table(host, code)
    said = (
        "New game. Changed by the host: Cy starts; a team game: Ann and Cy (Team A) against Bob and Dee (Team B); "
        "going over 21 costs a life at once (the card goes back to the hand)."
    )
    expect(host.locator("#rematch-note")).to_have_text(said)
    # Bob's phone follows by itself (nobody has to tap "Go to the new table"), within 3 s.
    expect(bob).to_have_url(host.url, timeout=3000)
    expect(bob.locator("#rematch-note")).to_have_text(said)
    expect(turn(bob)).to_have_text("Cy's turn")


CHECKS_JS = """() => [...document.querySelectorAll('.rematch-players label.check')].map(el => {
  const r = el.getBoundingClientRect();
  return {name: el.innerText.trim(), x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height}; })"""


@pytest.mark.browser
def test_the_rematch_leaves_out_who_left_and_the_host_adds_a_player(server: Server, phones: Phones) -> None:
    """The rematch leaves out the player who has gone to bed, and the host can add a player (once neither held)."""
    host, bob = phones.new(), phones.new()
    host.set_viewport_size({"width": 360, "height": 740})
    code = start_from_home(host, server.url, ["Ann", "Bob", "Cy", "Dee"])
    link = server.local(host.locator("a.join-link").first.get_attribute("href") or "")
    join(bob, link, "Bob")
    wait_live(host)
    host.locator("#players details.fix-hand").nth(2).locator("> summary").click()
    host.get_by_role("button", name="Cy has left the game").click()
    expect(host.locator("#players")).to_contain_text("Left")
    finish_from(host, server, code)
    expect(bob.get_by_role("button", name="Rematch without Cy")).to_be_visible()

    changes = host.locator("details.rematch-changes")
    changes.locator("> summary").click()
    form = changes.locator("form")
    expect(form.get_by_role("checkbox", name="Cy")).not_to_be_checked()
    checks = host.evaluate(CHECKS_JS)
    assert [" ".join(check["name"].split()) for check in checks] == ["Ann", "Bob", "Cy (left the game)", "Dee"]
    assert all(check["h"] >= 44 for check in checks), checks
    assert not too_close(checks, 4), too_close(checks, 4)
    violations = Axe().run(host, options=AXE_OPTIONS).response["violations"]
    assert not violations, [f"{v['id']}: {[node['target'] for node in v['nodes']][:4]}" for v in violations]

    # The phone keyboard's Go key in "New players", with too few players: the refusal comes back on screen, the
    # focus on the button just under it (left in the box, the sentence would be far below, out of sight).
    form.get_by_role("checkbox", name="Bob").uncheck()
    form.get_by_role("checkbox", name="Dee").uncheck()
    form.get_by_label("New players").press("Enter")
    error = host.locator("#rematch-error")
    expect(error).to_have_text("Only Ann would play: 5 Alive needs 2 to 6 players. Tick or add more.")
    expect(host.get_by_role("button", name="Rematch with these changes")).to_be_focused()
    assert in_view(host, error), error.bounding_box()
    expect(host.get_by_label("New players")).to_have_attribute("aria-invalid", "true")

    form = host.locator("details.rematch-changes[open] form")
    form.get_by_role("checkbox", name="Dee").check()
    form.get_by_label("New players").fill("Eve")
    form.get_by_role("button", name="Rematch with these changes").click()
    expect_new_table(host, code)
    expect(host.locator("#rematch-note")).to_have_text("New game. Bob and Cy are not playing; Eve joins the game.")
    expect(host.locator("#players .pname")).to_have_count(3)
    expect(bob).to_have_url(host.url, timeout=3000)  # by itself
    expect(bob.locator("#strip")).to_contain_text("You're watching")
