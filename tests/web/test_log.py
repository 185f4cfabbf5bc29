"""Issue 11, point 8: the log shows who pressed Undo and Redo, separates rounds, and keeps the board short."""

from __future__ import annotations

from flask import Flask

from referee import create_app
from referee.engine import Card, Play, SetHand, Status

from .conftest import Phone, drive


def log_items(phone: Phone) -> list[str]:
    return [item.text() for item in phone.page.by_id("log").find_all("li")]


def test_undo_and_redo_name_the_phone_that_pressed_them(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 7")  # entered elsewhere (no phone)
    phone.open(f"/t/{code}")
    phone.press("Undo")
    phone.open(f"/t/{code}")
    assert "undone by Host" in log_items(phone)[0]
    phone.press("Redo")
    phone.open(f"/t/{code}")
    newest = log_items(phone)[0]
    assert "redone by Host" in newest and "Undone" not in newest


def test_a_new_round_gets_a_separator(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann holds 1", "Ann 7")  # Ann plays her last card: round over, round 2 is dealt
    phone.open(f"/t/{code}")
    separators = phone.page.by_id("log").find_all("li", class_="round-separator")
    assert [item.text() for item in separators] == ["Round 2"]
    items = log_items(phone)
    assert items.index("Round 2") == 1  # just below the card that ended round 1 (newest first)


def test_the_board_shows_recent_entries_and_links_to_the_whole_log(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    players = ["Ann", "Bob", "Cy"]
    drive(
        app,
        code,
        *(f"{players[turn % 3]} 0" for turn in range(25)),
        *(f"{players[turn % 3]} 0" for turn in range(25, 40)),
    )
    phone.open(f"/t/{code}")
    entries = [item for item in phone.page.by_id("log").find_all("li") if "round-separator" not in item.classes]
    assert len(entries) == 30
    link = phone.page.by_id("log").find("a", class_="show-all")
    assert link is not None and link.text() == "Show all 40 entries"
    phone.open(link.attrs["href"])
    assert len(phone.page.by_id("log").find_all("li")) >= 40
    assert phone.page.find("h1").text() == f"The whole log of table {code}"


def test_a_series_of_rematches_is_tallied(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob"])
    referee = app.extensions["referee"]
    for game in range(3):
        winner = "Ann" if game < 2 else "Bob"
        while referee.view(code).state.status.value == "playing":
            current = referee.view(code).state.current_player.name
            drive(app, code, f"{current} bomb" if current == winner else f"{current} 0")
        if game < 2:
            code = referee.rematch(code)
    phone.open(f"/t/{code}")
    series = phone.page.find("p", class_="series")
    assert series is not None and series.text() == "Series after 3 games: Ann 2 – Bob 1"


def play_rounds(app: Flask, code: str, rounds: int, zeros_per_round: int) -> None:
    """Each round: some 0s go round the table, then the player to play holds one card and plays it out."""
    referee = app.extensions["referee"]
    for _ in range(rounds):
        for _ in range(zeros_per_round):
            drive(app, code, f"{referee.view(code).state.current_player.name} 0")
        current = referee.view(code).state.current_player.name
        drive(app, code, f"{current} holds 1", f"{current} 0")


def separators(phone: Phone) -> list[str]:
    return [item.text() for item in phone.page.by_id("log").find_all("li", class_="round-separator")]


def test_every_round_gets_its_separator_on_the_board_and_in_the_whole_log(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    # Six rounds of 14 entries: the whole log is 84 entries long; the board shows the newest 30 (entries
    # 55 to 84), where the deals of rounds 5, 6 and 7 are.
    play_rounds(app, code, rounds=6, zeros_per_round=12)
    assert app.extensions["referee"].view(code).state.round == 7
    phone.open(f"/t/{code}")
    assert separators(phone) == ["Round 7", "Round 6", "Round 5"]
    phone.open(f"/t/{code}/log")
    assert separators(phone) == [f"Round {number}" for number in range(7, 1, -1)]


def test_an_undone_deal_loses_its_separator(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    play_rounds(app, code, rounds=1, zeros_per_round=0)
    phone.open(f"/t/{code}")
    assert separators(phone) == ["Round 2"]
    drive(app, code, "undo")
    phone.open(f"/t/{code}")
    assert separators(phone) == []
    drive(app, code, "redo")
    phone.open(f"/t/{code}")
    assert separators(phone) == ["Round 2"]


def _win_as(app: Flask, code: str, winners: set[str]) -> None:
    """Play the table to its end: a player in `winners` goes out whenever it is their turn, the others play a 0."""
    referee = app.extensions["referee"]
    with app.app_context():
        while (state := referee.view(code).state).status is not Status.FINISHED:
            player = state.current_player.name
            if player in winners:
                referee.act(code, SetHand(player, 1))
            referee.act(code, Play(player, Card.N0))


def test_a_team_series_credits_each_player_of_the_winning_team(phone: Phone, app: Flask) -> None:
    # Teams may change between rematches: "Team A 1 – Team B 1" would hide that one pair won twice.
    code = phone.start(["Ann", "Bob", "Cy", "Dee"], variant="teams")  # Team A: Ann and Cy
    referee = app.extensions["referee"]
    _win_as(app, code, {"Ann", "Cy"})
    code = referee.rematch(code, teams=[["Bob", "Dee"], ["Ann", "Cy"]])  # now Team A is Bob and Dee
    assert referee.view(code).state.teams[0].name == "Team A"
    _win_as(app, code, {"Ann", "Cy"})
    phone.open(f"/t/{code}")
    series = phone.page.find("p", class_="series")
    assert series is not None and series.text() == "Series after 2 games: Ann 2 – Cy 2"


def test_separators_follow_taps_undo_redo_and_a_replaced_deal(phone: Phone, app: Flask) -> None:
    # Each step is a tap on the host's phone; what it checks is the board in the tap's own answer.
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann holds 1")
    phone.open(f"/t/{code}")
    phone.press("7", htmx=True)  # Ann's last card: round 2 is dealt
    assert separators(phone) == ["Round 2"]
    phone.press("Undo", htmx=True)
    assert separators(phone) == []
    phone.press("Redo", htmx=True)
    assert separators(phone) == ["Round 2"]
    phone.press("Undo", htmx=True)
    drive(app, code, "Ann holds 2")  # replaces the undone deal (the redo tail is dropped)
    phone.open(f"/t/{code}")
    phone.press("7", htmx=True)  # Ann still holds a card: no new round
    assert separators(phone) == []
    assert "Round" not in " ".join(log_items(phone))


def test_separators_are_right_when_another_process_entered_the_cards(phone: Phone, database_url: str) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    # A second server process on the same database: the cards go in there, this phone's process only reads.
    other = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE_URL": database_url})
    try:
        drive(other, code, "Ann 0", "Bob 0")
        phone.open(f"/t/{code}")  # this process now holds the table at that version
        drive(other, code, "Cy holds 1", "Cy 0")  # Cy's last card: round 2
        phone.open(f"/t/{code}")
        assert separators(phone) == ["Round 2"]
        assert log_items(phone).index("Round 2") == 1
        drive(other, code, "undo")
        phone.open(f"/t/{code}")
        assert separators(phone) == []
        drive(other, code, "redo")
        phone.press("Undo", htmx=True)  # a stale tap: refused, the answer shows the table as it is now
        assert separators(phone) == ["Round 2"]
        phone.press("Undo", htmx=True)  # a tap here, on a table the other process changed
        assert separators(phone) == []
        drive(other, code, "redo")
        phone.open(f"/t/{code}")
        assert separators(phone) == ["Round 2"]
    finally:
        other.extensions["referee"].store.close()
