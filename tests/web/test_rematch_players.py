"""Who plays the rematch (a player who left must not come back in it by default, and new players can be added): a
player who left is not dealt in again unless the host ticks them; the host adds new players; the phone
of a player who is not in the rematch follows it as a watcher; every board says who is not playing and who joins."""

from __future__ import annotations

from conftest import Api, finish_game
from flask import Flask

from referee.service import returning_seats
from referee.store import PhoneSeat

from .conftest import Phone, drive
from .test_join import host_join_link, join
from .test_rematch_form import new_code, note


def left_and_finished(phone: Phone, app: Flask, names: list[str], leaver: str) -> str:
    """A table where `leaver` left in round 1, then played to its end."""
    code = phone.start(names)
    drive(app, code, f"{leaver} leaves")
    finish_game(app, code)
    phone.open(f"/t/{code}")
    return code


def cy_left_from_a_phone(phone: Phone, other_phone: Phone, app: Flask) -> str:
    """A table of Ann, Bob and Cy, Cy on `other_phone`, where Cy left in round 1."""
    code = phone.start(["Ann", "Bob", "Cy"])
    join(other_phone, host_join_link(phone), "Cy")
    drive(app, code, "Cy leaves")
    return code


def test_the_rematch_after_a_player_left_is_without_them_and_their_phone_watches(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    code = phone.start(["Ann", "Bob", "Cy", "Dee"])
    join(other_phone, host_join_link(phone), "Cy")
    drive(app, code, "Cy leaves")
    finish_game(app, code)
    phone.open(f"/t/{code}")
    assert "Rematch with the same players" not in phone.page.buttons()
    started = new_code(phone.press("Rematch without Cy"))
    new = app.extensions["referee"].view(started)
    assert new.setup.players == ("Ann", "Bob", "Dee")
    assert new.state.draw_pile == 77 - 3 * 10  # the 77-card deck dealt to three, not four
    other_phone.open(f"/t/{started}")
    assert other_phone.page.by_id("strip").text().startswith("You're watching")
    assert note(other_phone) == "New game. Cy is not playing."  # not the host's doing: the plain Rematch
    assert "Fix" not in other_phone.page.text()  # a watcher enters nothing


def test_the_host_ticks_who_plays_and_adds_new_players(phone: Phone, app: Flask) -> None:
    left_and_finished(phone, app, ["Ann", "Bob", "Cy"], "Cy")
    boxes = {box["value"]: box.has("checked") for box in phone.page.find_all("input", name="plays")}
    assert boxes == {"Ann": True, "Bob": True, "Cy": False}  # who left starts unticked
    assert "Cy (left the game)" in phone.page.find("fieldset", class_="rematch-players").text()  # type: ignore[union-attr]
    response = phone.press("Rematch with these changes", plays=["Ann", "Cy"], add=" Eve , Fin,")
    new = app.extensions["referee"].view(new_code(response))
    assert new.setup.players == ("Ann", "Cy", "Eve", "Fin")  # the ticked in their seats, then the new ones
    phone.follow(response)
    assert note(phone) == "New game. Bob is not playing; Eve and Fin join the game."
    players = [item.find(class_="pname").text().split()[0] for item in phone.page.by_id("players").find_all("li")]
    assert players == ["Ann", "Cy", "Eve", "Fin"]


def test_a_new_player_can_be_picked_to_start(phone: Phone, app: Flask) -> None:
    """The new players are in "Who starts?" too: Eve, dealt in, can be picked (once only this game's were listed)."""
    code = phone.start(["Ann", "Bob", "Cy"])
    finish_game(app, code)
    phone.open(f"/t/{code}")
    starts = phone.page.find("div", class_="rematch-starts")
    assert starts is not None and "The first new player" in starts.text()
    # Nobody typed in: the choice is kept when the form comes back refused, and nothing starts.
    refused = phone.press("Rematch with these changes", plays=["Ann"], first="new", htmx=True)
    assert refused.status_code == 400
    assert phone.page.find("input", name="first", value="new").has("checked")  # type: ignore[union-attr]
    response = phone.press("Rematch with these changes", plays=["Ann", "Bob", "Cy"], add="Eve, Fin", first="new")
    new = app.extensions["referee"].view(new_code(response))
    assert new.setup.players == ("Ann", "Bob", "Cy", "Eve", "Fin")
    assert new.state.current_player is not None and new.state.current_player.name == "Eve"


def test_a_starter_who_is_not_playing_hands_the_start_to_the_next_player_round_the_table(
    phone: Phone, app: Flask
) -> None:
    code = phone.start(["Ann", "Bob", "Cy", "Dee"], first="1")  # Bob starts
    finish_game(app, code)
    phone.open(f"/t/{code}")
    response = phone.press("Rematch with these changes", plays=["Ann", "Cy", "Dee"])
    new = app.extensions["referee"].view(new_code(response))
    assert new.state.current_player.name == "Cy"
    phone.follow(response)
    assert note(phone) == "New game. Bob is not playing. Changed by the host: Cy starts."


def test_too_few_players_for_the_rematch_is_refused_with_the_form_kept(phone: Phone, app: Flask) -> None:
    code = left_and_finished(phone, app, ["Ann", "Bob", "Cy"], "Cy")
    response = phone.press("Rematch with these changes", htmx=True, plays=["Ann"], add="")
    assert response.status_code == 400
    assert (
        phone.page.by_id("rematch-error").text()
        == "Only Ann would play: 5 Alive needs 2 to 6 players. Tick or add more."
    )
    boxes = {box["value"]: box.has("checked") for box in phone.page.find_all("input", name="plays")}
    assert boxes == {"Ann": True, "Bob": False, "Cy": False}  # as the host left them
    assert app.extensions["referee"].view(code).rematch_code is None
    response = phone.press("Rematch with these changes", plays=["Ann", "Bob"], add="Ann")
    assert phone.page.by_id("rematch-error").text().startswith("Two players are called Ann")
    # Said in the form's words, never "you named 0" to a host who only unticked boxes.
    phone.press("Rematch with these changes", htmx=True, plays=[], add="")
    assert phone.page.by_id("rematch-error").text() == (
        "Nobody is ticked or added: 5 Alive needs 2 to 6 players. Tick or add more."
    )
    phone.press("Rematch with these changes", htmx=True, plays=["Ann", "Bob", "Cy"], add="Dee, Eve, Fin, Gus")
    assert phone.page.by_id("rematch-error").text() == (
        "That makes 7 players, and 5 Alive is for 2 to 6: untick or add fewer."
    )
    assert app.extensions["referee"].view(code).rematch_code is None


def test_a_new_player_who_looks_like_one_at_the_table_or_is_blank_is_refused_in_words(phone: Phone, app: Flask) -> None:
    code = left_and_finished(phone, app, ["Ann", "Bob", "Cy"], "Cy")
    phone.press("Rematch with these changes", htmx=True, plays=["Ann", "Bob"], add="\u0410nn")  # a Cyrillic A
    assert phone.page.by_id("rematch-error").text() == (
        "Ann and \u0410nn look alike: add an initial to one of them so everyone can tell them apart."
    )
    phone.press("Rematch with these changes", htmx=True, plays=["Ann", "Bob"], add="\u3164")  # a Hangul filler
    assert phone.page.by_id("rematch-error").text() == "Every player needs a name you can see."
    assert app.extensions["referee"].view(code).rematch_code is None
    # Full-width letters are stored as the plain ones.
    started = new_code(phone.press("Rematch with these changes", plays=["Ann", "Bob"], add="\uff25\uff56\uff45"))
    assert app.extensions["referee"].view(started).setup.players == ("Ann", "Bob", "Eve")


def test_the_api_names_who_plays_and_a_returning_player_keeps_their_phone(
    api: Api, other_phone: Phone, app: Flask
) -> None:
    body = api.create(["Ann", "Bob", "Cy"])
    join(other_phone, body["join_url"], "Ann")
    bobs_phone = Phone(app.test_client())
    join(bobs_phone, body["join_url"], "Bob")
    finish_game(app, api.code)
    response = api.client.post(
        f"/api/v1/tables/{api.code}/rematch",
        json={"players": ["ann", "Cy", "Eve"]},
        headers={"Authorization": f"Bearer {api.token}"},
    )
    assert response.status_code == 201, response.get_json()
    started = response.get_json()
    assert [player["name"] for player in started["state"]["players"]] == ["Ann", "Cy", "Eve"]
    assert started["state"]["rematch_note"] == "New game. Bob is not playing; Eve joins the game."
    other_phone.open(f"/t/{started['code']}")
    assert other_phone.page.by_id("strip").text().startswith("You're Ann")  # "ann" is Ann: the seat stays hers
    bobs_phone.open(f"/t/{started['code']}")
    assert bobs_phone.page.by_id("strip").text().startswith("You're watching")


def test_a_team_game_too_small_without_who_left_is_refused_in_words_any_phone_can_act_on(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    """Bob's plain Rematch after a team game Cy left must not be told "you named 3": Bob named nobody."""
    code = phone.start(["Ann", "Bob", "Cy", "Dee"], variant="teams")
    join(other_phone, host_join_link(phone), "Bob")
    drive(app, code, "Cy leaves")
    finish_game(app, code)
    other_phone.open(f"/t/{code}")
    response = other_phone.press("Rematch without Cy", htmx=True)
    assert response.status_code == 400
    refusal = other_phone.page.find(class_="error")
    assert refusal is not None and refusal.text() == (
        "Without Cy only 3 players are left, too few for this game: the host can add players or choose another "
        "game under “Change who plays”."
    )
    assert app.extensions["referee"].view(code).rematch_code is None


def test_a_player_back_after_sitting_a_game_out_is_one_name_in_the_series(phone: Phone, app: Flask) -> None:
    """A name typed as "cy" two games later is Cy in the tally, not a second player (it once was)."""
    code = left_and_finished(phone, app, ["Ann", "Bob", "Cy"], "Cy")
    second = new_code(phone.press("Rematch without Cy"))
    finish_game(app, second)
    phone.open(f"/t/{second}")
    third = new_code(phone.press("Rematch with these changes", add="cy"))
    assert app.extensions["referee"].view(third).setup.players == ("Ann", "Bob", "Cy")
    finish_game(app, third)
    phone.open(f"/t/{third}")
    tally = phone.page.find(class_="series").text()  # type: ignore[union-attr]
    assert tally.count("Cy") == 1 and "cy" not in tally, tally
    assert code != second != third


def test_a_player_back_after_sitting_a_game_out_gets_their_phone_back(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    """Cy's phone watched the game Cy sat out, and is Cy's again when Cy comes back (it once stayed a watcher)."""
    code = cy_left_from_a_phone(phone, other_phone, app)
    finish_game(app, code)
    phone.open(f"/t/{code}")
    second = new_code(phone.press("Rematch without Cy"))
    other_phone.open(f"/t/{second}")
    assert other_phone.page.by_id("strip").text().startswith("You're watching")
    finish_game(app, second)
    phone.open(f"/t/{second}")
    third = new_code(phone.press("Rematch with these changes", add="cy"))
    other_phone.open(f"/t/{third}")
    assert other_phone.page.by_id("strip").text().startswith("You're Cy")
    assert other_phone.page.find("form", id="pad-form") is not None
    phone.open(f"/t/{third}")
    assert "Cy's phone" in phone.page.find("ul", class_="devices").text()  # type: ignore[union-attr]


def seats(*rows: tuple[int, int, str, str | None]) -> list[PhoneSeat]:
    """Phones' seats as (game, device id, phone, player)."""
    return [
        PhoneSeat(table_id=game, id=device, token_hash=key, player=player, role="player")
        for game, device, key, player in rows
    ]


def test_only_a_phone_that_sat_out_with_its_player_gets_the_seat_back() -> None:
    games = [(1, ("Ann", "Bob", "Cy")), (2, ("Ann", "Bob")), (3, ("Ann", "Bob", "Cy"))]
    rematch = 4
    # Cy's phone sat games 2 and 3 out; Cy played game 3 without it (it had chosen to watch), so it stays a watcher.
    chose_to_watch = seats((1, 10, "cy", "Cy"), (2, 20, "cy", None), (3, 30, "cy", None), (rematch, 40, "cy", None))
    assert returning_seats(games, chose_to_watch, rematch, ("Ann", "Bob", "Cy")) == {}
    # Sat out only game 3, which Cy did not play either: Cy's again.
    games = [(1, ("Ann", "Bob", "Cy")), (2, ("Ann", "Bob", "Cy")), (3, ("Ann", "Bob"))]
    sat_out = seats((1, 10, "cy", "Cy"), (2, 20, "cy", "Cy"), (3, 30, "cy", None), (rematch, 40, "cy", None))
    assert returning_seats(games, sat_out, rematch, ("Ann", "Bob", "Cy")) == {40: "Cy"}
    # ... unless Cy is not in the rematch, or another phone is Cy's there already.
    assert returning_seats(games, sat_out, rematch, ("Ann", "Bob", "Dee")) == {}
    borrowed = [*sat_out, *seats((3, 31, "new", None), (rematch, 41, "new", "Cy"))]
    assert returning_seats(games, borrowed, rematch, ("Ann", "Bob", "Cy")) == {}
    # Two phones that were Cy's: the one Cy had last gets the seat.
    both = [
        *sat_out,
        *seats((1, 11, "old", "Cy"), (2, 21, "old", None), (3, 32, "old", None), (rematch, 42, "old", None)),
    ]
    assert returning_seats(games, both, rematch, ("Ann", "Bob", "Cy")) == {40: "Cy"}


def test_the_phone_of_a_player_who_left_is_not_promised_an_undo_once_the_rematch_started(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    code = cy_left_from_a_phone(phone, other_phone, app)
    other_phone.open(f"/t/{code}")
    assert "Undo brings you back." in other_phone.page.by_id("strip").text()
    finish_game(app, code)
    phone.open(f"/t/{code}")
    phone.press("Rematch without Cy")
    other_phone.open(f"/t/{code}")
    strip = other_phone.page.by_id("strip").text()
    assert "You left this game before it ended." in strip and "Undo" not in strip


def test_a_new_player_sits_after_the_last_seat_and_starts_if_the_starter_is_not_playing(
    phone: Phone, app: Flask
) -> None:
    """The hint says Eve sits after Cy, so with Cy (who started) out, Eve starts, not Ann."""
    code = phone.start(["Ann", "Bob", "Cy"], first="2")  # Cy starts
    finish_game(app, code)
    phone.open(f"/t/{code}")
    started = new_code(phone.press("Rematch with these changes", plays=["Ann", "Bob"], add="Eve"))
    assert app.extensions["referee"].view(started).state.current_player.name == "Eve"
