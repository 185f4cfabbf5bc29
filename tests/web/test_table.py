"""The table page: what a player sees, the card pad, and every way of entering what happened."""

from __future__ import annotations

from flask import Flask

from .conftest import Node, Phone, drive, parse
from .test_join import host_join_link, join

CARD_NAMES = ["0", "1", "2", "3", "4", "5", "6", "7"]
WILD_NAMES = ["Draw 1", "Draw 2", "Pass Me By", "Reverse", "Skip", "=21", "=10", "=0", "Re-deal", "Bomb"]


def total(page: Node) -> str:
    """The number in the element labelled "Running total"."""
    element = page.find(aria_label="Running total")
    assert element is not None
    return element.text()


def player_row(page: Node, name: str) -> Node:
    """The players-region row of one player."""
    for row in page.by_id("players").find_all("li", class_="player"):
        label = row.find("span", class_="pname")
        if label is not None and label.text().split()[0] == name:
            return row
    raise AssertionError(f"no row for {name}")


def sentence(item: Node) -> str:
    """A log line's sentence, without its "Undone" badge, "Why?" link and who entered it."""
    parts: list[str] = []
    for child in item.children:
        if isinstance(child, str):
            parts.append(child)
        elif not child.classes & {"why", "by", "badge"}:
            parts.append(child.text())
    return " ".join(" ".join(parts).split())


def log_lines(page: Node) -> list[str]:
    """The log's sentences, top first (without the rounds' headings)."""
    log = page.by_id("log").find("ol")
    items = [] if log is None else log.find_all("li")
    return [sentence(item) for item in items if "round-separator" not in item.classes]


def version(page: Node) -> int:
    """The version the board shows."""
    return int(page.by_id("board")["data-version"])


def test_table_page_shows_total_turn_direction_lives_hands_dealer(phone: Phone) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    response = phone.open(f"/t/{code}")
    assert response.status_code == 200
    page = phone.page
    for region in ("banner", "status", "pad", "players", "log"):
        page.by_id(region)
    assert total(page) == "0"
    # The limit in words, not "/ 21" (a fraction to a child, "slash" to a screen reader).
    assert page.find(class_="total-box").text() == "Total 0 up to 21"
    assert page.find(class_="turn").text() == "Ann's turn"
    assert page.find(class_="next").text() == "then Bob"
    assert "Clockwise" in page.find(class_="direction").text()
    # The usual game is not named on every round: only Sudden Death and Teams are.
    assert page.find(class_="round-info").text() == "Round 1 · Draw pile 47"
    for name in ("Ann", "Bob", "Cy"):
        row = player_row(page, name)
        lives = row.find(class_="lives")
        assert lives is not None and lives["aria-label"] == "5 of 5 lives left"
        assert len(lives.find_all(class_="alive")) == 5
        assert row.find(class_="hand").text() == "10 cards"
    assert "Dealer" in player_row(page, "Cy").text()
    assert "Dealer" not in player_row(page, "Ann").text()
    assert player_row(page, "Ann").get("aria-current") == "true"
    assert code in page.text()


def test_the_card_pad_has_every_accessible_name(phone: Phone) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    buttons = phone.page.by_id("pad").buttons()
    # A number card is named by what it shows: the card and the total it makes (at 0, its own value).
    for name in [*(f"{card} makes {card}" for card in CARD_NAMES), *WILD_NAMES, "Undo", "Redo"]:
        assert name in buttons, (name, sorted(buttons))
    assert not buttons["7 makes 7"].has("disabled")
    assert buttons["Undo"].has("disabled") and buttons["Redo"].has("disabled")
    # Nobody can go over 21 from 0, so there is no "Can't play".
    assert "Can't play" not in buttons
    assert code


def test_cards_that_do_not_fit_are_disabled_and_say_why(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 7", "Bob 7", "Cy 4")
    phone.open(f"/t/{code}")
    assert total(phone.page) == "18"
    cards = phone.page.by_id("pad").cards()
    for name in ("0", "1", "2", "3"):
        assert not cards[name].has("disabled"), name
        assert cards[name].name == f"{name} makes {18 + int(name)}"
    for name in ("4", "5", "6", "7"):
        button = cards[name]
        assert button.has("disabled"), name
        # What is wrong with it, in words a child reads at a glance; the sum is in the reason below.
        assert button.name == f"{name} over 21"
        # Its description (what a screen reader adds) is the reason, hidden from sight but not from it.
        reason = phone.page.by_id(button["aria-describedby"])
        assert reason.has("hidden") and reason.ancestor("button") is button
        assert f"That {name} makes {18 + int(name)}" in reason.text() and "Can't play" in reason.text()
    assert "Can't play" in phone.page.by_id("pad").buttons()


def test_cant_play_appears_from_15(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 7", "Bob 7")
    phone.open(f"/t/{code}")
    assert "Can't play" not in phone.page.buttons()
    drive(app, code, "Cy 1")
    phone.open(f"/t/{code}")
    assert "Can't play" in phone.page.buttons()
    response = phone.press("Can't play")
    assert response.status_code == 303
    phone.follow(response)
    assert total(phone.page) == "0"
    lives = player_row(phone.page, "Ann").find(class_="lives")
    assert lives is not None and lives["aria-label"] == "4 of 5 lives left"
    # A lost life has its own shape, not only another colour.
    alive = {mark.text() for mark in lives.find_all(class_="alive")}
    lost = {mark.text() for mark in lives.find_all(class_="lost")}
    assert len(lost) == 1 and not alive & lost
    assert log_lines(phone.page)[0].startswith("Ann can't play")


def test_a_card_without_htmx_redirects_to_the_page(phone: Phone) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    response = phone.press("7")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/t/{code}")
    phone.follow(response)
    assert total(phone.page) == "7"
    assert phone.page.find(class_="turn").text() == "Bob's turn"
    assert player_row(phone.page, "Ann").find(class_="hand").text() == "9 cards"
    assert log_lines(phone.page)[0] == "Ann played 7: total 7. Bob's turn."
    # The log says which phone entered each line.
    assert phone.page.by_id("log").find(class_="by").text() == "· Host"


def test_a_card_with_htmx_returns_the_board(phone: Phone) -> None:
    phone.start(["Ann", "Bob", "Cy"])
    response = phone.press("7", htmx=True)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "<html" not in html
    fragment = parse(html)
    elements = [child for child in fragment.children if not isinstance(child, str)]
    assert [(element.tag, element.get("id")) for element in elements] == [("section", "board")]
    assert total(fragment) == "7"
    assert version(fragment) == 1


def test_the_pad_enters_the_current_players_card_with_the_shown_version(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    phone.press("3", htmx=True)
    phone.press("Skip", htmx=True)
    view = app.extensions["referee"].view(code)
    assert view.version == 2
    assert view.state.current_player is not None and view.state.current_player.name == "Ann"
    assert log_lines(phone.page)[0] == "Bob played Skip. Cy misses a turn. Ann's turn."
    why = phone.page.by_id("log").find("a", class_="why")
    assert why is not None and why["href"] == f"/rules/skip?table={code}"
    assert phone.client.get(why["href"]).status_code == 200


def test_log_is_newest_first_in_plain_sentences(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    phone.open(f"/t/{code}")
    assert "Ann plays first; Cy dealt." in phone.page.by_id("log").text()
    drive(app, code, "Ann 7", "Bob 4", "Cy reverse")
    phone.open(f"/t/{code}")
    assert log_lines(phone.page) == [
        "Cy played Reverse. Play now goes counterclockwise. Bob's turn.",
        "Bob played 4: total 11. Cy's turn.",
        "Ann played 7: total 7. Bob's turn.",
    ]
    assert "Counterclockwise" in phone.page.find(class_="direction").text()
    assert phone.page.find(class_="next").text() == "then Ann"


def test_bomb_without_javascript_opens_the_sheet_then_confirms(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 5")
    phone.open(f"/t/{code}")
    response = phone.press("Bomb")
    assert response.status_code == 303
    assert "sheet=bomb" in response.headers["Location"]
    assert app.extensions["referee"].view(code).version == 1  # nothing entered yet
    phone.follow(response)
    sheet = phone.page.by_id("bomb-sheet")
    assert sheet.has("open")
    assert sheet.find("h2").text() == "Who put down a 0?"
    boxes = sheet.find_all("input", type="checkbox")
    assert [box["value"] for box in boxes] == ["Cy", "Ann"]  # every other active player, in turn order
    assert all(box["name"] == "zeros" for box in boxes)
    response = phone.press("Confirm", within=sheet, zeros=["Cy"])
    assert response.status_code == 303
    phone.follow(response)
    assert total(phone.page) == "0"
    assert player_row(phone.page, "Ann").find(class_="lives")["aria-label"] == "4 of 5 lives left"
    assert player_row(phone.page, "Cy").find(class_="lives")["aria-label"] == "5 of 5 lives left"
    assert player_row(phone.page, "Cy").find(class_="hand").text() == "9 cards"
    assert log_lines(phone.page)[0].startswith("Bob played Bomb: total 0. Cy discarded a 0. No 0 from Ann.")


def test_bomb_with_htmx_and_nobody_answering(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    phone.open(f"/t/{code}?sheet=bomb")
    sheet = phone.page.by_id("bomb-sheet")
    response = phone.press("Confirm", within=sheet, htmx=True)
    assert response.status_code == 200
    state = app.extensions["referee"].view(code).state
    assert [player.lives for player in state.players] == [5, 4, 4]


def test_hand_correction(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    row = player_row(phone.page, "Bob")
    summary = row.find("summary")
    assert summary is not None and summary["aria-label"] == "Fix Bob's hand size, or say Bob has left"
    form = row.find("form")
    assert form is not None
    response = phone.submit(form, phone.button("Save", within=row), htmx=True, cards="12")
    assert response.status_code == 200
    assert player_row(phone.page, "Bob").find(class_="hand").text() == "12 cards"
    assert log_lines(phone.page)[0] == "Hand fixed: Bob holds 12 cards. Ann's turn."
    assert app.extensions["referee"].view(code).version == 1
    # A hand that cannot be refused with a clear message.
    row = player_row(phone.page, "Bob")
    response = phone.submit(row.find("form"), phone.button("Save", within=row), htmx=True, cards="0")
    assert response.status_code == 422
    assert "at least one card" in phone.page.by_id("banner").text()
    assert app.extensions["referee"].view(code).version == 1
    response = phone.submit(row.find("form"), phone.button("Save", within=row), htmx=True, cards="lots")
    assert response.status_code == 400
    assert app.extensions["referee"].view(code).version == 1


def test_a_player_who_gets_up_and_leaves_is_taken_out_from_their_fix(phone: Phone, app: Flask) -> None:
    """A player who leaves mid-game (bedtime) is taken out, so the table can play on without them."""
    code = phone.start(["Ann", "Bob", "Cy", "Dee"])
    phone.press("3", htmx=True)
    row = player_row(phone.page, "Cy")
    assert "Undo brings Cy back" in row.find(class_="leave-form").text()
    response = phone.press("Cy has left the game", htmx=True, within=row)
    assert response.status_code == 200
    row = player_row(phone.page, "Cy")
    assert "out" in row.classes
    assert row.find(class_="pname").text().split() == ["Cy", "Left"]
    assert row.find(class_="hand").text() == "0 cards"
    assert row.find("details") is None, "nothing left to fix for a player who has gone"
    assert row.find(class_="lives")["aria-label"] == "5 of 5 lives left"
    assert log_lines(phone.page)[0] == "Cy has left the game: their 10 cards go on the discard pile. Bob's turn."
    assert phone.page.find(class_="turn").text() == "Bob's turn"
    assert phone.page.find(class_="next").text() == "then Dee"
    phone.press("Undo", htmx=True)
    row = player_row(phone.page, "Cy")
    assert "out" not in row.classes and row.find(class_="hand").text() == "10 cards"
    assert "Cy leaving the game" in phone.page.by_id("strip").text()
    assert app.extensions["referee"].view(code).version == 3


def test_undo_and_redo(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    phone.press("7", htmx=True)
    phone.press("2", htmx=True)
    assert total(phone.page) == "9"
    phone.press("Undo", htmx=True)
    assert total(phone.page) == "7"
    assert phone.page.find(class_="turn").text() == "Bob's turn"
    first = phone.page.by_id("log").find_all("li")[1]  # under the "Round 1" heading
    assert "undone" in first.classes and "Undone" in first.text()
    assert not phone.button("Redo").has("disabled")
    response = phone.press("Redo")
    assert response.status_code == 303
    phone.follow(response)
    assert total(phone.page) == "9"
    assert phone.button("Redo").has("disabled")
    assert app.extensions["referee"].view(code).version == 4


def test_refusals_show_a_message_and_change_nothing(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 7", "Bob 7", "Cy 5")
    phone.open(f"/t/{code}")
    pad = phone.page.by_id("pad-form")
    # A stale page could still send a card that no longer fits.
    response = phone.submit(pad, phone.card("3"), htmx=True)
    assert response.status_code == 422
    assert "makes 22" in phone.page.by_id("banner").text()
    assert total(phone.page) == "19"
    response = phone.submit(pad, phone.card("3"))
    assert response.status_code == 303
    phone.follow(response)
    assert "makes 22" in phone.page.by_id("banner").text()
    assert app.extensions["referee"].view(code).version == 3


def test_a_stale_version_gets_a_friendly_message_and_the_fresh_board(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    pad = phone.page.by_id("pad-form")
    drive(app, code, "Ann 4")  # another phone was quicker
    response = phone.submit(pad, phone.card("4"), htmx=True)
    assert response.status_code == 409
    banner = phone.page.by_id("banner").text()
    assert "Ann's 4 is already in." in banner
    assert total(phone.page) == "4"
    assert version(phone.page) == 1
    assert phone.page.find(class_="turn").text() == "Bob's turn"
    assert app.extensions["referee"].view(code).state.total == 4
    # Without htmx: redirected to the fresh page, the message flashed once.
    response = phone.submit(pad, phone.card("4"))
    assert response.status_code == 303
    phone.follow(response)
    assert "Ann's 4 is already in." in phone.page.by_id("banner").text()
    phone.open(f"/t/{code}")
    assert "is already in" not in phone.page.by_id("banner").text()
    assert app.extensions["referee"].view(code).version == 1
    # A card the table moved past without it is said to be not entered, naming whose turn it is now.
    response = phone.submit(pad, phone.card("7"), htmx=True)
    assert response.status_code == 409
    assert "The table moved on (Bob's turn now): Ann's 7 was not entered." in phone.page.by_id("banner").text()
    assert app.extensions["referee"].view(code).version == 1


def test_a_post_without_the_csrf_token_changes_nothing(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    pad = phone.page.by_id("pad-form")
    response = phone.submit(pad, phone.card("7"), htmx=True, csrf="")
    assert response.status_code == 400
    assert "This page was stale" in phone.page.by_id("banner").text()
    response = phone.client.post(f"/t/{code}/act", data={"kind": "play", "player": "Ann", "card": "7"})
    assert response.status_code == 303
    phone.follow(response)
    assert "This page was stale" in phone.page.by_id("banner").text()
    response = phone.client.post(
        f"/t/{code}/act",
        data={"kind": "play", "player": "Ann", "card": "7"},
        headers={"HX-Request": "true", "X-CSRF-Token": "forged"},
    )
    assert response.status_code == 400
    # Another site's form cannot use this browser's cookie either: its token is unknown there.
    stranger = phone.client.application.test_client()
    response = stranger.post(
        f"/t/{code}/act", data={"kind": "undo", "csrf": phone.csrf}, headers={"HX-Request": "true"}
    )
    assert response.status_code in (400, 403)
    assert app.extensions["referee"].view(code).version == 0
    # The token may come in the header htmx sends.
    response = phone.client.post(
        f"/t/{code}/act",
        data={"kind": "play", "player": "Ann", "card": "7"},
        headers={"HX-Request": "true", "X-CSRF-Token": phone.csrf},
    )
    assert response.status_code == 200
    assert app.extensions["referee"].view(code).version == 1


def test_malformed_form_posts_are_400_not_500(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    for data in (
        {"kind": "play", "player": "Ann", "card": "joker"},
        {"kind": "play", "player": "Ann"},
        {"kind": "dance"},
        {"kind": "hand", "player": "Ann", "cards": ""},
        {"kind": "tiebreak", "tb_Ann": "x"},
    ):
        response = phone.client.post(
            f"/t/{code}/act", data={**data, "csrf": phone.csrf}, headers={"HX-Request": "true"}
        )
        assert response.status_code == 400, data
    response = phone.client.post(
        f"/t/{code}/act", data={"kind": "play", "player": "Zed", "card": "7", "csrf": phone.csrf}
    )
    assert response.status_code == 303
    assert app.extensions["referee"].view(code).version == 0


def test_unknown_table_page_is_a_404_page(phone: Phone) -> None:
    response = phone.open("/t/NOSUCH")
    assert response.status_code == 404
    assert phone.page.find("h1").text() == "No such table"
    assert "There is no table “NOSUCH”. Check the code and try again." in phone.page.text()
    # A code that is only a control character is not echoed as Python's escape ('\x00').
    assert phone.open("/t/%00").status_code == 404
    assert "There is no table with that code." in phone.page.text() and "x00" not in phone.page.text()
    assert phone.client.post("/t/NOSUCH/act", data={}).status_code == 404


def test_round_end_banner(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann holds 1")
    phone.open(f"/t/{code}")
    phone.press("3", htmx=True)
    banner = phone.page.by_id("banner").text()
    # What comes next, once: the story of the round's end is the "Just now" line's, not repeated below it.
    assert "Round over! Round 2: Ann deals, Bob starts." in banner
    assert "Ann has no cards left: round over." not in banner
    assert "Ann has no cards left: round over." in phone.page.by_id("strip").text()
    assert "Dealer" in player_row(phone.page, "Ann").text()
    for name in ("Bob", "Cy"):
        assert player_row(phone.page, name).find(class_="lives")["aria-label"] == "4 of 5 lives left"
    assert player_row(phone.page, "Ann").find(class_="hand").text() == "10 cards"


def test_elimination_winner_and_rematch(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    for _ in range(4):
        drive(app, code, "Ann bomb Bob", "Bob 0", "Cy 0")
    drive(app, code, "Ann bomb Bob")
    phone.open(f"/t/{code}")
    assert "Cy is out of the game!" in phone.page.by_id("banner").text()
    cy = player_row(phone.page, "Cy")
    assert "out" in cy.classes and "Out" in cy.text()
    assert cy.find(class_="lives")["aria-label"] == "0 of 5 lives left"
    assert "Rematch with the same players" not in phone.page.buttons()
    # Undo and Redo the Bomb that put Cy out: the phone says again who is out, never an empty banner.
    phone.press("Undo", htmx=True)
    assert "out of the game" not in phone.page.by_id("banner").text()
    phone.press("Redo", htmx=True)
    round_banner = phone.page.by_id("banner").find(class_="round")
    assert round_banner is not None and round_banner.text() == "Cy is out of the game!"
    # Bob bombs Ann out: Bob wins.
    drive(app, code, "Bob holds 10")
    for _ in range(4):
        drive(app, code, "Bob bomb", "Ann 0")
    drive(app, code, "Bob bomb")
    phone.open(f"/t/{code}")
    banner = phone.page.by_id("banner")
    assert "Bob wins!" in banner.text()
    assert phone.page.find(class_="turn").text() == "Game over"
    assert phone.page.find("form", id="pad-form") is None
    response = phone.press("Rematch with the same players")
    assert response.status_code == 303
    new_code = response.headers["Location"].removeprefix("/t/")
    assert new_code != code
    phone.follow(response)
    assert total(phone.page) == "0"
    for name in ("Ann", "Bob", "Cy"):
        assert player_row(phone.page, name).find(class_="lives")["aria-label"] == "5 of 5 lives left"
    assert app.extensions["referee"].view(new_code).setup == app.extensions["referee"].view(code).setup
    # The finished table points at the rematch; this phone can still enter cards there.
    phone.open(f"/t/{code}")
    assert "A rematch has started" in phone.page.by_id("banner").text()
    phone.open(f"/t/{new_code}")
    assert "7" in phone.page.cards()


def test_rematch_before_the_end_is_refused(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob"])
    response = phone.client.post(f"/t/{code}/rematch", data={"csrf": phone.csrf}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert app.extensions["referee"].view(code).rematch_code is None


def test_sudden_death_tiebreak_form(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"], variant="sudden_death")
    for _ in range(4):
        drive(app, code, "Ann bomb Bob", "Bob 0", "Cy 0")
    drive(app, code, "Ann bomb Bob")
    phone.open(f"/t/{code}")
    banner = phone.page.by_id("banner")
    assert "Sudden Death tie!" in banner.text()
    assert "Lowest total wins. Equal totals share the win." in banner.text()  # the default reading, said up front
    form = banner.find("form")
    assert form is not None
    assert {field["name"] for field in form.find_all("input", type="number")} == {"tb_Ann", "tb_Bob"}
    response = phone.submit(form, phone.button("Settle the tie", within=banner), htmx=True, tb_Ann="9", tb_Bob="2")
    assert response.status_code == 200
    assert "Bob wins!" in phone.page.by_id("banner").text()


def test_a_tie_break_says_beforehand_what_settles_equal_totals_at_this_table(phone: Phone, app: Flask) -> None:
    """A table that chose "fewest cards" for equal totals is told so before the totals, not only by the result."""
    code = phone.start(["Ann", "Bob", "Cy"], variant="sudden_death", hr_tiebreak_tie="fewest_cards")
    for _ in range(4):
        drive(app, code, "Ann bomb Bob", "Bob 0", "Cy 0")
    drive(app, code, "Ann bomb Bob")
    phone.open(f"/t/{code}")
    assert "Equal totals: the fewest cards wins (still equal, they share the win)." in phone.page.by_id("banner").text()


def test_a_round_that_keeps_going_counterclockwise_says_so(phone: Phone, app: Flask) -> None:
    """With new_round_direction=keep, a round 2 that starts counterclockwise says so in words, not only with the
    small arrow: a family used to clockwise argues about who starts."""
    code = phone.start(["Ann", "Bob", "Cy", "Dee"], hr_new_round_direction="keep")
    drive(app, code, "Ann reverse", "Dee pass", "Cy pass", "Bob pass", "Ann holds 1", "Ann 5")  # Ann goes out
    phone.open(f"/t/{code}")
    said = "Play keeps going counterclockwise (house rule)."
    assert "Round over! Round 2: Ann deals, Dee starts. " + said in phone.page.by_id("banner").text()
    assert "Round 2: Ann deals. " + said in phone.page.by_id("log").text()


def test_names_with_markup_characters_show_as_typed_on_the_pad_and_the_players(phone: Phone) -> None:
    # The pad's buttons and the players' rows are written in Python (pages/markup.py): names must still be
    # shown as text, never as markup, and post back exactly as typed.
    names = ["<i>Jo</i>", 'Al & "Bo"', "O'Neil"]
    phone.start(names)
    players = phone.page.by_id("players")
    assert players.find("i") is None, "a name became markup"
    rows = players.find_all("li", class_="player")
    assert [row.find("span", class_="pname").text().removesuffix(" Dealer").strip() for row in rows] == names
    for row, name in zip(rows, names, strict=True):
        summary = row.find("summary")
        assert summary is not None and summary["aria-label"] == f"Fix {name}'s hand size, or say {name} has left"
        field = row.find("input", name="player")
        assert field is not None and field["value"] == name
    pad = phone.page.by_id("pad-form")
    assert pad.find("input", name="player")["value"] == names[0]
    assert phone.page.find("p", class_="pad-title").text().startswith(f"{names[0]} plays")
    # Fixing the second player's hand posts that name back: the row shows the new hand.
    row = rows[1]
    response = phone.submit(row.find("form"), phone.button("Save", within=row), htmx=True, cards="9")
    assert response.status_code == 200
    assert player_row(phone.page, "Al").find(class_="hand").text() == "9 cards"


def test_two_lives_lost_at_once_are_counted_once_on_the_losers_phone(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    code = phone.start(["Ann", "Bob", "Cy", "Dee"])
    phone.open(f"/t/{code}")
    join(other_phone, host_join_link(phone), "Dee")
    # Cy's last card is the 0 he answers Ann's Bomb with: Dee has no 0 (−1) and the round ends (−1).
    drive(app, code, "Cy holds 1", "Ann bomb Bob Cy")
    other_phone.open(f"/t/{code}")
    strip = other_phone.page.by_id("strip").text()
    # Each loser once, with a broken heart per life lost and the count in words for a screen reader.
    hearts = [(loss["aria-label"], len(loss.find_all("svg"))) for loss in other_phone.page.find_all(class_="loss")]
    assert hearts == [("Dee lost 2 lives", 2), ("Ann lost a life", 1), ("Bob lost a life", 1)]
    assert "You lost 2 lives! 3 lives left." in strip
    banner = other_phone.page.by_id("banner").text()
    assert "Round over! Round 2: Cy deals, Dee starts." in banner


def test_other_phones_are_told_of_an_undo_and_a_redo(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    phone.open(f"/t/{code}")
    join(other_phone, host_join_link(phone), "Bob")
    drive(app, code, "Ann holds 1")
    phone.open(f"/t/{code}")
    phone.press("3", htmx=True)  # Ann's last card: round over, Bob and Cy lose a life
    other_phone.open(f"/t/{code}")
    assert "You lost a life!" in other_phone.page.by_id("strip").text()
    assert "Round over!" in other_phone.page.by_id("banner").text()

    phone.press("Undo", htmx=True)
    other_phone.open(f"/t/{code}")
    strip = other_phone.page.by_id("strip").text()
    # Bob's phone says what was taken back, by which phone and whose turn it is again; not an older card as
    # "Just now", nor the undone line whose "round over" no longer holds.
    assert "Undone by Host: Ann's 3. Back to Ann's turn, total 0." in strip
    assert "round over" not in strip
    assert "Just now" not in strip and "You lost a life!" not in strip
    assert "Round over!" not in other_phone.page.by_id("banner").text()

    phone.press("Redo", htmx=True)
    other_phone.open(f"/t/{code}")
    assert "Redone by Host: Ann played 3: total 3." in other_phone.page.by_id("strip").text()
    # A new card is news again.
    drive(app, code, "Bob 4")
    other_phone.open(f"/t/{code}")
    assert "Just now: Bob played 4: total 4." in other_phone.page.by_id("strip").text()


def test_a_sudden_death_table_names_its_game_beside_the_round(phone: Phone) -> None:
    phone.start(["Ann", "Bob", "Cy"], variant="sudden_death")
    # Spelt as the home page and the table display spell it.
    assert phone.page.find(class_="round-info").text() == "Sudden Death · Round 1 · Draw pile 47"
