"""The rematch form without JavaScript: the finished game's settings are its defaults; only the host's phone
changes who starts, the game and house rules (a forged post from another phone is refused in a sentence, nothing
made); the new table says what the host changed until its first card, the old one says it briefly; a change that
does not fit comes back open, choices kept, the reason beside the button, and starts nothing."""

from __future__ import annotations

import pytest
from conftest import Api, finish_game
from flask import Flask

from referee.engine import HOUSE_RULE_SPECS, Variant
from referee.service.access import ONLY_THE_HOST_CHANGES as HOST_ONLY
from referee.web.pages.rematchform import TOO_LATE

from .conftest import Node, Phone
from .test_home import DEALER_HINT
from .test_join import host_join_link, join


def chosen(phone: Phone, name: str) -> str:
    """The value a field of the rematch form has (a radio's checked value, a select's chosen option)."""
    form = phone.page.find("form", class_="rematch-form")
    assert form is not None
    for node in form.iter():
        if node.get("name") != name:
            continue
        if node.tag == "input" and node.get("type") == "radio" and node.has("checked"):
            return node["value"]
        if node.tag == "select":
            return next(option["value"] for option in node.find_all("option") if option.has("selected"))
    raise AssertionError(f"no chosen value for {name}")


def new_code(response: object) -> str:
    """The code of the table a rematch post sent the phone to (303 Location or htmx's HX-Redirect)."""
    headers = getattr(response, "headers")  # noqa: B009 (a TestResponse; typed loosely to keep the helper short)
    return str(headers.get("Location") or headers["HX-Redirect"]).removeprefix("/t/")


def note(phone: Phone) -> str:
    """What the board says about the rematch's changes ("" when it says nothing)."""
    found = phone.page.find(id="rematch-note")
    return "" if found is None else found.text()


def changes_form(phone: Phone) -> Node | None:
    return phone.page.find("form", class_="rematch-form")


def test_the_host_changes_the_rematch_and_every_board_says_what_changed(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy", "Dee"], first="1", hr_over_21="refuse")
    finish_game(app, code)
    phone.open(f"/t/{code}")
    defaults = (chosen(phone, "first"), chosen(phone, "variant"), chosen(phone, "hr_over_21"))
    assert defaults == ("1", "standard", "refuse")
    response = phone.press("Rematch with these changes", first="2", hr_over_21="bust")
    assert response.status_code == 303
    new = app.extensions["referee"].view(new_code(response))
    setup = new.setup
    assert (setup.first_player, setup.variant, setup.house_rules.over_21) == ("Cy", Variant.STANDARD, "bust")
    phone.follow(response)
    assert note(phone) == (
        "New game. Changed by the host: Cy starts; going over 21 costs a life at once (the card goes back to the hand)."
    )
    assert phone.page.by_id("rematch-note").get("role") == "status"
    # The finished table's line says it briefly, on every phone that still shows it.
    phone.open(f"/t/{code}")
    assert "A rematch has started, changed by the host: Cy starts, a house rule. Go to the new table" in (
        phone.page.by_id("banner").text()
    )
    # Once the first card is in, the game speaks for itself.
    phone.open(f"/t/{new.code}")
    phone.press("7")
    phone.open(f"/t/{new.code}")
    assert note(phone) == ""


def test_a_team_rematch_names_the_teams(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy", "Dee"])
    finish_game(app, code)
    phone.open(f"/t/{code}")
    response = phone.press("Rematch with these changes", first="3", variant="teams", hr_tiebreak_tie="fewest_cards")
    new = app.extensions["referee"].view(new_code(response))
    assert (new.setup.first_player, new.setup.variant) == ("Dee", Variant.TEAMS)
    assert new.setup.teams == (("Ann", "Cy"), ("Bob", "Dee"))
    assert new.setup.house_rules.tiebreak_tie == "fewest_cards"
    phone.follow(response)
    assert note(phone) == (
        "New game. Changed by the host: Dee starts; a team game: Ann and Cy (Team A) against Bob and Dee (Team B); "
        "equal tie-break totals: the fewest cards wins."
    )


def test_house_rules_are_said_in_plain_words_never_by_their_switch_names(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy", "Dee"])
    finish_game(app, code)
    phone.open(f"/t/{code}")
    others = {f"hr_{spec.name}": spec.readings[1].value for spec in HOUSE_RULE_SPECS}
    # A team game, so that the team questions count too; only the level tie-break then cannot come up (a Bomb
    # that takes both teams' last lives no longer ends in a tie-break), and is not said.
    phone.follow(phone.press("Rematch with these changes", variant="teams", **others))
    said = note(phone)
    assert said.startswith("New game. Changed by the host: a team game: Ann and Cy (Team A) against Bob and Dee")
    assert "_" not in said  # no switch ("over_21") and no value ("round_only")
    assert "a Bomb hits only the other team" in said and "a new round keeps the last round's direction" in said
    assert said.count(";") == len(HOUSE_RULE_SPECS) - 1  # the game and each rule that can come up: one change each
    assert "level" not in said and "tie" not in said
    phone.open(f"/t/{code}")
    banner = phone.page.by_id("banner").text()
    assert f"changed by the host: a team game, {len(HOUSE_RULE_SPECS) - 1} house rules." in banner


@pytest.mark.parametrize("how", ["same players", "unchanged form"])
def test_nothing_is_said_when_nothing_changed(phone: Phone, app: Flask, how: str) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])  # Ann starts as the first seat: the usual starter
    finish_game(app, code)
    phone.open(f"/t/{code}")
    button = "Rematch with the same players" if how == "same players" else "Rematch with these changes"
    response = phone.press(button)
    phone.follow(response)
    assert note(phone) == ""
    assert "Ann's turn" in phone.page.by_id("status").text()
    phone.open(f"/t/{code}")
    assert "A rematch has started with the same settings. Go to the new table" in phone.page.by_id("banner").text()


def test_only_the_host_phone_sees_the_change_form(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    join(other_phone, host_join_link(phone), "Bob")
    finish_game(app, code)
    phone.open(f"/t/{code}")
    other_phone.open(f"/t/{code}")
    assert changes_form(phone) is not None
    assert changes_form(other_phone) is None
    assert "Change who starts, the game or the house rules" not in other_phone.page.text()
    # Bob's phone keeps the plain rematch: the same game again for everyone.
    response = other_phone.press("Rematch with the same players")
    new = app.extensions["referee"].view(new_code(response))
    assert new.setup == app.extensions["referee"].view(code).setup


@pytest.mark.parametrize("htmx", [True, False])
def test_a_forged_change_from_another_phone_is_refused_and_starts_nothing(
    phone: Phone, other_phone: Phone, app: Flask, htmx: bool
) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    join(other_phone, host_join_link(phone), "Bob")
    finish_game(app, code)
    other_phone.open(f"/t/{code}")
    before = app.extensions["referee"].view(code)
    # Bob's phone sends what the host's form would: Cy starts, going over 21 is a bust.
    form = other_phone.page.find("form", hx_post=f"/t/{code}/rematch")
    assert form is not None
    response = other_phone.submit(form, htmx=htmx, first="2", variant="standard", hr_over_21="bust")
    if htmx:
        assert response.status_code == 403
    else:
        other_phone.follow(response)
    assert HOST_ONLY in other_phone.page.by_id("banner").text()
    assert other_phone.page.find("p", class_="error").get("role") == "alert"  # type: ignore[union-attr]
    after = app.extensions["referee"].view(code)
    assert (after.rematch_code, after.revision) == (None, before.revision)


def test_a_change_that_does_not_fit_comes_back_open_with_the_reason_beside_the_button(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy", "Dee"])
    finish_game(app, code)
    phone.open(f"/t/{code}")
    # Teams with Bob in Team A: Ann, Bob and Cy against Dee.
    response = phone.press(
        "Rematch with these changes", first="2", variant="teams", team=["A", "A", "A", "B"], hr_over_21="bust"
    )
    assert response.status_code == 400
    assert app.extensions["referee"].view(code).rematch_code is None
    details = phone.page.find("details", class_="rematch-changes")
    assert details is not None and details.has("open")
    # The host's choices are kept, the house rules it changed shown.
    assert (chosen(phone, "first"), chosen(phone, "variant"), chosen(phone, "hr_over_21")) == ("2", "teams", "bust")
    teams = [select.find("option", selected=True) for select in phone.page.find_all("select", name="team")]
    assert [option["value"] for option in teams if option is not None] == ["A", "A", "A", "B"]
    house_rules = phone.page.find("details", class_="house-rules")
    assert house_rules is not None and house_rules.has("open")
    # The reason is beside the button, announced, and the button points at it.
    error = phone.page.by_id("rematch-error")
    assert error.text().startswith("The two teams must be the same size")
    assert error.get("role") == "alert"
    button = phone.button("Rematch with these changes")
    assert button.get("aria-describedby") == "rematch-error"
    assert button.has("autofocus")  # a browser without JavaScript opens the page there, not at its top
    siblings = [child for child in error.parent.children if isinstance(child, Node)]  # type: ignore[union-attr]
    assert siblings.index(button) == siblings.index(error) + 1
    assert phone.page.find("p", class_="error") is None  # said once, beside the form, not again at the top
    # Fixed, it starts the team game.
    response = phone.press("Rematch with these changes", team=["A", "B", "A", "B"])
    assert response.status_code == 303
    new = app.extensions["referee"].view(new_code(response))
    assert (new.setup.first_player, new.setup.teams) == ("Cy", (("Ann", "Cy"), ("Bob", "Dee")))


def test_a_refused_change_answers_htmx_with_the_board_and_the_form_open(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    finish_game(app, code)
    phone.open(f"/t/{code}")
    response = phone.press("Rematch with these changes", htmx=True, variant="teams", first="1")
    assert response.status_code == 400
    assert phone.page.find(id="board") is not None
    assert phone.page.by_id("rematch-error").text() == (
        "Only Ann, Bob and Cy would play: the team game needs 4 to 6 players. Tick or add more."
    )
    assert (chosen(phone, "first"), chosen(phone, "variant")) == ("1", "teams")
    button = phone.button("Rematch with these changes")
    assert button.get("id") == "rematch-go" and not button.has("autofocus")  # htmx gives focus back by its id
    assert app.extensions["referee"].view(code).rematch_code is None
    # The plain button still makes the same game again.
    response = phone.press("Rematch with the same players")
    new = app.extensions["referee"].view(new_code(response))
    assert new.setup == app.extensions["referee"].view(code).setup


def test_a_table_made_through_the_api_changes_its_rematch_through_the_api_only(
    api: Api, other_phone: Phone, app: Flask
) -> None:
    body = api.create(["Ann", "Bob", "Cy"])
    join(other_phone, body["join_url"], "Ann")
    finish_game(app, api.code)
    other_phone.open(f"/t/{api.code}")
    assert changes_form(other_phone) is None  # no phone set this table up: the token's holder did
    response = api.client.post(
        f"/api/v1/tables/{api.code}/rematch", json={"first_player": "Bob"}, headers={"Authorization": "Bearer nope"}
    )
    assert (response.status_code, response.get_json()["error"]["code"]) == (403, "bad_token")
    assert app.extensions["referee"].view(api.code).rematch_code is None


def test_changes_that_arrive_after_another_phone_started_the_rematch_are_said_to_be_unused(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    join(other_phone, host_join_link(phone), "Bob")
    finish_game(app, code)
    phone.open(f"/t/{code}")  # the host's form is open on a page from before Bob's tap
    other_phone.open(f"/t/{code}")
    started = new_code(other_phone.press("Rematch with the same players"))
    response = phone.press("Rematch with these changes", first="2")
    assert new_code(response) == started
    phone.follow(response)
    quiet = phone.page.find("p", class_="quiet")
    assert quiet is not None and quiet.text() == TOO_LATE and quiet.get("role") == "status"
    assert app.extensions["referee"].view(started).setup == app.extensions["referee"].view(code).setup
    # The host's own second tap on the same changes lands on its rematch without that note.
    phone.open(f"/t/{started}")
    finish_game(app, started)
    phone.open(f"/t/{started}")
    first = phone.press("Rematch with these changes", first="2")
    phone.open(f"/t/{started}")
    again = phone.client.post(f"/t/{started}/rematch", data={"csrf": phone.csrf, "first": "2", "variant": "standard"})
    assert new_code(again) == new_code(first)
    phone.follow(again)
    assert phone.page.find("p", class_="quiet") is None
    assert note(phone) == "New game. Changed by the host: Cy starts."


def test_the_rematchs_who_starts_says_who_deals(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    finish_game(app, code)
    phone.open(f"/t/{code}")
    form = changes_form(phone)
    assert form is not None
    who_starts = form.find_all("fieldset")[1]  # after "Who plays?"
    legend = who_starts.find("legend")
    assert who_starts is not None and legend is not None and legend.text() == "Who starts?"
    assert who_starts.by_id("rematch-starts-hint").text() == DEALER_HINT
    starts = who_starts.find_all("input", name="first")
    # One radio per player, and one for the first new player.
    assert len(starts) == 4 and {radio.get("aria-describedby") for radio in starts} == {"rematch-starts-hint"}
    # And the rematch deals from there: Cy starts, so Bob, just before him, dealt.
    phone.follow(phone.press("Rematch with these changes", first="2"))
    assert "Cy plays first; Bob dealt." in phone.page.by_id("log").text()


def test_the_old_tables_board_has_no_undo_once_the_rematch_started(phone: Phone, app: Flask) -> None:
    """A phone left on the old table cannot undo its last card and change a finished game (it once could)."""
    code = phone.start(["Ann", "Bob", "Cy"])
    finish_game(app, code)
    phone.open(f"/t/{code}")
    assert phone.page.find("button", id="undo") is not None  # the last card can still be taken back
    phone.follow(phone.press("Rematch with the same players"))
    phone.open(f"/t/{code}")
    assert phone.page.find("button", id="undo") is None and phone.page.find("button", id="redo") is None
    assert "A rematch has started with the same settings. Go to the new table" in phone.page.by_id("banner").text()
