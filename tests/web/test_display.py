"""The table display (the big screen in the middle of the table): in a team game it shows the teams, as the
phones do, not four players' rows of lives that a team game never takes."""

from __future__ import annotations

from flask import Flask

from .conftest import Node, Phone, drive


def rows(page: Node) -> list[tuple[str, str]]:
    """The display's lives rows: each row's words (name, and a team's players) and its lives' spoken label."""
    found = []
    for item in page.find_all("ul", class_="display-lives")[0].find_all("li"):
        lives = item.find(class_="lives")
        assert lives is not None
        found.append((item.text(shown=True).replace("♥", "").replace("♡", "").strip(), lives["aria-label"]))
    return found


def test_a_team_games_display_shows_the_teams_and_their_lives(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy", "Dee"], variant="teams")  # Ann and Cy are Team A
    drive(app, code, "Ann 7", "Bob 7", "Cy 1", "Dee bust")  # Dee can't play at 15: Team B loses a life
    phone.open(f"/t/{code}/display")
    page = phone.page
    last = page.find("p", class_="display-last")
    assert last is not None and "Team B loses a life (4 lives left)" in last.text()
    assert rows(page) == [
        ("Team A (Ann, Cy)", "5 of 5 lives left"),
        ("Team B (Bob, Dee)", "4 of 5 lives left"),
    ]
    # The team whose player is to play is the one marked, and within it that player.
    turn = page.find("p", class_="display-turn")
    assert turn is not None and turn.text() == "Ann's turn"
    [current] = [item for item in page.find_all("li") if "current" in item.classes]
    assert current.text().startswith("Team A")
    marked = current.find(class_="member-current")
    assert marked is not None and marked.text() == "Ann"


def test_the_displays_live_region_shows_the_teams_too(phone: Phone, app: Flask) -> None:
    # The live region is what the big screen fetches after every change: the same rows as the full page.
    code = phone.start(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], variant="teams")
    # Dee can't play at 15 (Team B loses a life), then Cy can't play at 15 (Team A loses one).
    drive(app, code, "Ann 7", "Bob 7", "Cy 1", "Dee bust", "Eve 7", "Fay 7", "Ann 1", "Bob 0", "Cy bust")
    phone.open(f"/t/{code}/display/live")
    assert rows(phone.page) == [
        ("Team A (Ann, Cy, Eve)", "4 of 5 lives left"),
        ("Team B (Bob, Dee, Fay)", "4 of 5 lives left"),
    ]


def test_a_game_without_teams_shows_each_players_lives(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 7", "Bob 7", "Cy 1", "Ann bust")
    phone.open(f"/t/{code}/display")
    assert rows(phone.page) == [("Ann", "4 of 5 lives left"), ("Bob", "5 of 5 lives left"), ("Cy", "5 of 5 lives left")]
    assert phone.page.find("ul", class_="display-teams") is None


def test_the_display_says_when_the_newest_change_was_an_undo(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 7", "Bob 4")
    phone.open(f"/t/{code}/display")
    last = phone.page.find("p", class_="display-last")
    assert last is not None and last.text() == "Just now: Bob played 4: total 11. Cy's turn."
    drive(app, code, "undo")
    phone.open(f"/t/{code}/display")
    last = phone.page.find("p", class_="display-last")
    # What was taken back and whose turn it is again (the undone line's "Cy's turn" is no longer true).
    assert last is not None and last.text() == "Undone: Bob's 4. Back to Bob's turn, total 7."


def test_the_display_shows_the_draw_pile(phone: Phone, app: Flask) -> None:
    """The display in the middle of the table shows the draw pile, as the phones do (it once did not)."""
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann draw2")  # Bob and Cy each draw two: 77 - 30 dealt = 47, then 43
    phone.open(f"/t/{code}/display")
    pile = phone.page.find("p", class_="display-pile")
    assert pile is not None and pile.text() == "Draw pile 43"
