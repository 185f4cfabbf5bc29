"""A tap the server turns away without a board (the front's plain 429 or 503, a proxy's 502) is said on the phone,
the board stays, and the tap can be made again; a refusal the app draws as a board with such a status (a rematch
past the new-table limit) is shown like any other refusal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Route, expect

from .conftest import Phones, Server, serving
from .table import card, total
from .test_game_over import finish_a_game


@pytest.mark.browser
@pytest.mark.parametrize(
    ("status", "said"),
    [
        (429, "Ann's 5 was not entered: this phone sent too much at once. Wait a moment, then tap again."),
        (503, "Ann's 5 was not entered: the table is too busy just now. Wait a moment, then tap again."),
        (502, "No answer from the table: Ann's 5 may not be in. Check the total, then tap again if needed."),
    ],
)
def test_a_tap_turned_away_in_plain_text_is_said_and_can_be_made_again(
    server: Server, phones: Phones, status: int, said: str
) -> None:
    table = server.create_table(["Ann", "Bob", "Cy"])
    ann = phones.seated(server, table, "Ann")

    def turn_away(route: Route) -> None:
        route.fulfill(status=status, content_type="text/plain", body="Too many requests at once: wait a moment.")

    ann.route("**/act", turn_away)
    card(ann, "5").click()
    # Said where the player looks, in the app's words (not the front's), and the board is still the board.
    expect(ann.get_by_role("alert")).to_have_text(said)
    expect(total(ann)).to_have_text("0")
    expect(card(ann, "5")).to_be_enabled()
    assert server.state(table["code"])["version"] == 0
    ann.unroute("**/act")
    card(ann, "5").click()
    expect(total(ann)).to_have_text("5")
    expect(ann.locator("#banner .not-entered")).to_have_count(0)
    assert server.state(table["code"])["version"] == 1


@pytest.fixture
def one_table_a_minute(tmp_path: Path) -> Iterator[Server]:
    """The real server allowing one new table a minute from an address."""
    with serving(tmp_path, {"REFEREE_TABLES_PER_MINUTE": "1"}) as running:
        yield running


@pytest.mark.browser
def test_a_rematch_past_the_new_table_limit_says_so_on_the_board(one_table_a_minute: Server, phones: Phones) -> None:
    server = one_table_a_minute
    table = server.create_table(["Ann", "Bob", "Cy"])  # this address's one table this minute
    ann = phones.seated(server, table, "Ann")
    finish_a_game(server, table["code"], table["token"])
    expect(ann.get_by_role("region", name="Standings")).to_be_visible()
    ann.get_by_role("button", name="Rematch with the same players").click()
    expect(ann.locator("#banner")).to_contain_text("Too many new tables from this phone: wait a minute.")
    # Still the finished table, its standings and its rematch button: nothing was started.
    expect(ann.get_by_role("region", name="Standings")).to_be_visible()
    expect(ann.get_by_role("button", name="Rematch with the same players")).to_be_visible()
    assert ann.url.endswith(f"/t/{table['code']}")


@pytest.mark.browser
def test_a_tap_turned_away_while_the_database_is_out_of_reach_says_so_and_then_that_the_table_moved_on(
    server: Server, phones: Phones
) -> None:
    """With PostgreSQL stopped a tap is told the database is out of reach, not "the table is too busy"; and once
    others' cards have gone in, the note no longer says to tap again, which would enter the card as the next
    player's."""
    table = server.create_table(["Ann", "Bob", "Cy"])
    code, token = table["code"], table["token"]
    ann = phones.seated(server, table, "Ann")

    def database_gone(route: Route) -> None:
        route.fulfill(
            status=503,
            content_type="text/html; charset=utf-8",
            # The shape of templates/error.html, as health.py answers a write the database could not take.
            body='<main><section class="card-panel error-page" role="alert"><h1>Could not save</h1><p>The referee '
            "could not save that: it cannot use its database just now.</p></section></main>",
        )

    ann.route("**/act", database_gone)
    card(ann, "5").click()
    note = ann.locator("#banner .not-entered")
    expect(note).to_have_text(
        "Ann's 5 was not entered: the referee cannot use its database just now. Wait a moment, then tap again."
    )
    ann.unroute("**/act")
    server.act(code, token, type="play", player="Ann", card="2")  # another phone's card gets in meanwhile
    expect(total(ann)).to_have_text("2")
    expect(note).to_have_text(
        "The table moved on (Bob's turn now): Ann's 5 was not entered. Check, then tap again if it still counts."
    )
