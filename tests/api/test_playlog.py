"""A finished game out of the app: the CSV (standings, then one row per action) and the BG Stats link, decoded."""

from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

from conftest import Api, finish_game
from flask import Flask


def _finished(app: Flask, api: Api) -> dict[str, str]:
    api.create(["Ann", "Bob", "Cy"], first_player="Bob")
    api.play("Bob", "7")
    api.act(type="undo")  # an undone action stays in the log, marked so
    finish_game(app, api.code)
    return {"Authorization": f"Bearer {api.token}"}


def test_the_csv_has_the_standings_then_every_action_with_its_round(app: Flask, api: Api) -> None:
    headers = _finished(app, api)
    response = api.client.get(f"/api/v1/tables/{api.code}/export.csv", headers=headers)
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert f"5-alive-{api.code}.csv" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    blank = rows.index([])
    standings, actions = rows[:blank], rows[blank + 1 :]
    assert standings[0] == ["Place", "Player", "Lives left", "Rounds won", "Team", "Left the game"]
    state = api.state()
    winner = next(player for player in state["players"] if player["lives"] > 0)
    assert standings[1][:3] == ["1", winner["name"], str(winner["lives"])]
    assert sorted(row[1] for row in standings[1:]) == ["Ann", "Bob", "Cy"]
    assert actions[0] == ["Action", "Round", "What happened", "Entered by", "Time (UTC)", "Undone"]
    export = api.client.get(f"/api/v1/tables/{api.code}/export", headers=headers).get_json()
    assert len(actions) - 1 == len(export["actions"])
    assert [int(row[0]) for row in actions[1:]] == list(range(1, len(actions)))
    rounds = [int(row[1]) for row in actions[1:]]
    assert rounds == sorted(rounds) and rounds[0] == 1 and rounds[-1] > 1
    assert [row[5] for row in actions[1:]].count("yes") == export["undone"]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", row[4]) for row in actions[1:])
    assert "Bob" in actions[1][2]  # the line the log shows


def test_the_bgstats_link_carries_the_play_in_its_documented_format(app: Flask, api: Api) -> None:
    headers = _finished(app, api)
    response = api.client.get(f"/api/v1/tables/{api.code}/bgstats", headers=headers)
    assert response.status_code == 200
    link = response.get_json()["url"]
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    play = json.loads(parse_qs(parts.query)["data"][0])
    assert play == response.get_json()["play"]
    assert play["game"]["name"] == "5 Alive" and play["game"]["highestWins"] is True
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"]) and play["durationMin"] >= 1
    lives = {player["name"]: player["lives"] for player in api.state()["players"]}
    players = {player["name"]: player for player in play["players"]}
    assert set(players) == {"Ann", "Bob", "Cy"}
    assert all(players[name]["score"] == lives[name] for name in players)
    winners = [name for name, player in players.items() if player["winner"]]
    assert winners == [name for name in lives if lives[name] > 0] and players[winners[0]]["rank"] == 1
    assert [name for name, player in players.items() if player["startPlayer"]] == ["Bob"]


def test_a_game_not_over_has_no_bgstats_link_and_a_stranger_gets_neither(api: Api) -> None:
    api.create(["Ann", "Bob"])
    headers = {"Authorization": f"Bearer {api.token}"}
    refused = api.client.get(f"/api/v1/tables/{api.code}/bgstats", headers=headers)
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "not_finished"
    assert api.client.get(f"/api/v1/tables/{api.code}/export.csv").status_code == 401
    assert api.client.get(f"/api/v1/tables/{api.code}/bgstats").status_code == 401
    stranger = {"Authorization": "Bearer not-the-token"}
    assert api.client.get(f"/api/v1/tables/{api.code}/export.csv", headers=stranger).status_code == 403
