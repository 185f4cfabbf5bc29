"""A team game's ending speaks of teams (not of Sudden Death), and its standings
place teams: both players of the winning team share 1st."""

from __future__ import annotations

import re

from flask import Flask

from .conftest import Phone, drive
from .test_join import host_join_link, join

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]  # the home page puts Ann and Cy in Team A, Bob and Dee in Team B


def both_teams_on_their_last_life(phone: Phone, app: Flask) -> str:
    """Four Bombs that Ann answers with a 0: each costs Cy (Team A) and Dee (Team B) a life."""
    code = phone.start(PLAYERS, variant="teams")
    for _ in range(4):
        drive(app, code, "Ann 0", "Bob bomb Ann", "Cy 0", "Dee 0")
    assert [team.lives for team in app.extensions["referee"].view(code).state.teams] == [1, 1]
    return code


def test_a_bomb_that_takes_both_teams_last_lives_says_so_and_asks_for_the_tie_break(phone: Phone, app: Flask) -> None:
    code = both_teams_on_their_last_life(phone, app)
    drive(app, code, "Ann 0", "Bob bomb")  # nobody answers: both teams lose their last life at once
    phone.open(f"/t/{code}")
    banner = phone.page.by_id("banner")
    assert "Both teams are out at once: tie-break!" in banner.text()
    assert "The team with the lower total wins." in banner.text()
    why = banner.find("a", href=f"/rules/teams-both-out?table={code}")
    assert why is not None and why.text() == "Why?"
    # The strip at the top and the log say the same, in words about teams.
    assert "both teams are out at once, so a tie-break decides" in phone.page.by_id("strip").text()
    assert "Tie-break: every player adds up" in phone.page.by_id("log").text()
    main = phone.page.find("main")
    assert main is not None and "Sudden Death" not in main.text()
    # The totals are added per team: each team's players under its name, each label with one pair of brackets
    # ("Ann (6 cards)", not "Ann (Team A) (6 cards)").
    teams = {
        str(legend.text()): [label.text() for label in fieldset.find_all("label")]
        for fieldset in banner.find_all("fieldset")
        for legend in fieldset.find_all("legend")
    }
    assert list(teams) == ["Team A", "Team B"]
    assert [label.split(" (")[0] for label in teams["Team A"]] == ["Ann", "Cy"]
    assert [label.split(" (")[0] for label in teams["Team B"]] == ["Bob", "Dee"]
    assert all(re.fullmatch(r"\w+ \(\d+ cards?\)", label) for labels in teams.values() for label in labels), teams
    form = banner.find("form")
    assert form is not None
    # Team A: 1 + 2 = 3, Team B: 3 + 4 = 7; the lower total wins.
    response = phone.submit(
        form, phone.button("Settle the tie", within=banner), htmx=True, tb_Ann="1", tb_Bob="3", tb_Cy="2", tb_Dee="4"
    )
    assert response.status_code == 200
    assert "Team A (Ann and Cy) wins!" in phone.page.by_id("banner").text()


def team_b_wins(phone: Phone, app: Flask) -> str:
    """Bob's unanswered Bombs cost Team A two lives each (Ann and Cy) and Team B one (Dee), until Team A is out."""
    code = phone.start(PLAYERS, variant="teams")
    referee = app.extensions["referee"]
    while referee.view(code).state.status.value == "playing":
        current = referee.view(code).state.current_player.name
        drive(app, code, f"{current} bomb" if current == "Bob" else f"{current} 0")
    return code


def standings_rows(phone: Phone) -> list[list[str]]:
    table = phone.page.by_id("standings").find("table")
    assert table is not None
    return [[cell.text() for cell in row.find_all() if cell.tag in ("td", "th")] for row in table.find_all("tr")]


def test_team_standings_place_teams_and_teammates_share_their_place(phone: Phone, app: Flask) -> None:
    code = team_b_wins(phone, app)
    view = app.extensions["referee"].view(code)
    assert view.state.winners == ("Team B",)
    phone.open(f"/t/{code}")
    rows = standings_rows(phone)
    assert rows[0] == ["Place", "Player", "Team", "Team's lives left", "Rounds won"]
    assert rows[1:] == [
        ["1", "Bob", "Team B", "2", "0"],
        ["1", "Dee", "Team B", "2", "0"],
        ["2", "Ann", "Team A", "0", "0"],
        ["2", "Cy", "Team A", "0", "0"],
    ]


def test_the_table_display_names_the_winning_teams_players(phone: Phone, app: Flask) -> None:
    code = team_b_wins(phone, app)
    phone.open(f"/t/{code}/display")
    done = phone.page.find("p", class_="display-done")
    assert done is not None and done.text() == "Team B (Bob and Dee) wins!"


def test_the_lives_chart_of_a_team_game_has_one_line_per_team(phone: Phone, app: Flask) -> None:
    code = team_b_wins(phone, app)
    phone.open(f"/t/{code}")
    standings = phone.page.by_id("standings")
    chart = standings.find("svg", class_="lives-chart")
    assert chart is not None and len(chart.find_all("polyline")) == 2
    key = standings.find("ul", class_="chart-key")
    assert key is not None
    assert [item.text() for item in key.find_all("li")] == ["Team A (Ann and Cy)", "Team B (Bob and Dee)"]
    # Team A starts at 5 and ends at 0; Team B ends at 2 (y grows downwards: 10 is 5 lives, 154 is 0).
    team_a, team_b = (line["points"].split() for line in chart.find_all("polyline"))
    assert team_a[0].endswith(",10.0") and team_a[-1].endswith(",154.0") and team_b[-1].endswith(",96.4")


def test_a_player_whose_team_loses_lives_is_told_it_is_the_teams(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(PLAYERS, variant="teams")
    phone.open(f"/t/{code}")
    join(other_phone, host_join_link(phone), "Dee")
    drive(app, code, "Ann bomb")  # nobody discards a 0: Bob and Dee's Team B pays for both
    other_phone.open(f"/t/{code}")
    lost = other_phone.page.find("p", class_="you-lost")
    assert lost is not None
    # The lives are the team's (1994 rules, Team play): Dee's phone says so, with the team's lives left.
    assert lost.text() == "Your team lost 2 lives! 3 lives left."


def test_a_team_on_its_last_life_loses_that_life_not_two(phone: Phone, other_phone: Phone, app: Flask) -> None:
    """A Bomb that two of a team's players cannot answer, with the team on 1 life, costs the one life: never "Team B
    loses 2 lives (0 lives left)" and "Your team lost 2 lives!", a sum a child will question."""
    code = phone.start(PLAYERS, variant="teams")
    join(other_phone, host_join_link(phone), "Dee")
    drive(app, code, "Ann bomb Cy", "Bob 1", "Cy 1", "Dee 1", "Ann bomb Cy", "Bob 1", "Cy 1", "Dee 1")
    assert [team.lives for team in app.extensions["referee"].view(code).state.teams] == [5, 1]
    drive(app, code, "Ann bomb Cy")  # Cy, Ann's teammate, answers; Bob and Dee cannot
    other_phone.open(f"/t/{code}")
    assert "Team B loses a life (0 lives left)." in other_phone.page.by_id("strip").text()
    [loss] = other_phone.page.find_all(class_="loss")
    assert loss["aria-label"] == "Team B lost a life" and len(loss.find_all("svg")) == 1
    lost = other_phone.page.find("p", class_="you-lost")
    assert lost is not None and lost.text() == "Your team lost a life! Your team is out of lives."
