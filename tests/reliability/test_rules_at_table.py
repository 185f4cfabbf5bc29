"""The rules panel opened from a table says "At this table" only of a house rule the table's game can meet:
through the real server (`referee serve`), at a Sudden Death, a standard and a team table."""

from __future__ import annotations

import html
import re
from typing import Any

from tools.harness import Client, LiveServer

# Readings other than the usual ones, so that a wrongly coloured answer would even change the bold line.
UNUSUAL = {"teams_both_out": "bomber_team", "bomb_teammates": "opponents_only", "tiebreak_tie": "fewest_cards"}


def new_table(client: Client, variant: str, **house_rules: str) -> str:
    players = ["Ann", "Bob", "Cy", "Dee"]
    reply = client.json("POST", "/api/v1/tables", {"players": players, "variant": variant, "house_rules": house_rules})
    assert reply.status == 201, reply.text()
    code: Any = reply.json()["code"]
    return str(code)


def words(client: Client, path: str) -> str:
    """The page's words, tags left out."""
    reply = client.request("GET", path)
    assert reply.status == 200, path
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", reply.text())).split())


def said_at(client: Client, entry: str, code: str) -> bool:
    """Whether the entry's page says what this table chose ("At this table: …", "Usual — this table")."""
    page = words(client, f"/rules/{entry}?table={code}")
    marked = "At this table:" in page
    assert marked == ("— this table" in page), page  # the note and the marked reading go together
    return marked


def test_team_switches_are_not_said_at_a_sudden_death_or_standard_table(live_server: LiveServer) -> None:
    with Client(live_server.port) as client:
        sudden = new_table(client, "sudden_death", **UNUSUAL)
        page = words(client, f"/rules/teams-both-out?table={sudden}")
        assert "At this table" not in page and "this table:" not in page
        # The usual ruling, as anyone is told it, and a plain word why this table has none of its own.
        assert "By default a tie, settled by the cards in hand." in page
        assert f"Not at table {sudden}: It only comes up in the team game." in page
        assert not said_at(client, "teams-bomb", sudden)
        # Sudden Death has a tie-break: its switch is said, with this table's reading.
        assert said_at(client, "tiebreak", sudden)
        assert "fewest cards" in words(client, f"/rules/tiebreak?table={sudden}")

        standard = new_table(client, "standard")
        for entry in ("teams-both-out", "teams-bomb", "tiebreak"):
            assert not said_at(client, entry, standard), entry
        # A switch every game meets is still said.
        assert said_at(client, "bomb-last-card", standard)

        # The whole panel: no note under the team entries, and its list of house rules says they don't apply.
        panel = client.request("GET", f"/rules?table={sudden}").text()
        article = re.search(r'<article class="rule-entry" id="teams-both-out">(.*?)</article>', panel, re.S)
        assert article is not None and "table-choice" not in article.group(1)
        listed = words(client, f"/rules?table={sudden}")
        assert "Teams: one Bomb takes both teams' last lives. Who wins? Not at this table: It only comes up" in listed
        assert "This table: The bomber's team wins" not in listed
        # The search box's answers too.
        answers = client.request("GET", f"/rules/search?q=one+bomb+empties+both+teams&table={sudden}").text()
        answer = re.search(
            r'<article class="rule-result">\s*<h3><a href="/rules/teams-both-out[^"]*">(.*?)</article>', answers, re.S
        )
        assert answer is not None, answers
        assert "At this table" not in answer.group(1) and "table-choice" not in answer.group(1)
        assert "By default a tie, settled by the cards in hand." in answer.group(1)


def test_a_team_table_is_told_its_team_switches(live_server: LiveServer) -> None:
    with Client(live_server.port) as client:
        together = new_table(client, "teams")
        for entry in ("teams-both-out", "teams-bomb", "tiebreak"):  # "together" settles both-out by a tie-break
            assert said_at(client, entry, together), entry
        bomber = new_table(client, "teams", teams_both_out="bomber_team")
        assert said_at(client, "teams-both-out", bomber)
        page = words(client, f"/rules/teams-both-out?table={bomber}")
        assert "Other reading — this table: The bomber's team wins" in page
        assert not said_at(client, "tiebreak", bomber)  # no tie-break ever happens at this table
