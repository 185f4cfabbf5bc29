"""A hand correction the deck cannot allow is warned about under a rule that speaks of it:
the board's note of the rule applied used to name "A card played more often than the deck holds" after a Fix.
Through the real server (`referee serve`)."""

from __future__ import annotations

import html
import re

from tools.harness import Client, LiveServer


def words(client: Client, path: str) -> str:
    """The page's words, tags left out."""
    reply = client.request("GET", path)
    assert reply.status == 200, path
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", reply.text())).split())


def rule_applied(client: Client, code: str) -> tuple[str, str]:
    """The "Just now" line's "Why?" link: the rule's title (in the link's name) and where the link goes."""
    page = client.request("GET", f"/t/{code}").text()
    line = re.search(r'<div class="just-happened">.*?</div>', page, re.DOTALL)
    assert line is not None, "no Just now line"
    found = re.search(r'<a class="why" href="([^"]+)" aria-label="Why\? \(([^"]+)\)">Why\?</a>', line.group(0))
    assert found is not None, "no Why? in the Just now line"
    return html.unescape(found.group(2)), html.unescape(found.group(1))


def test_a_hand_too_big_for_the_deck_names_a_rule_about_hands(live_server: LiveServer) -> None:
    with Client(live_server.port) as client:
        made = client.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob", "Cy"]}).json()
        code, token = made["code"], made["token"]
        for action in ({"type": "play", "player": "Ann", "card": "7"}, {"type": "hand", "player": "Bob", "cards": 58}):
            assert client.json("POST", f"/api/v1/tables/{code}/actions", action, token=token).status == 200
        page = words(client, f"/t/{code}")
        assert "Only 47 cards were left to draw, so Bob can't really hold that many" in page
        title, link = rule_applied(client, code)
        assert "played" not in title  # the hand was corrected, no card played
        assert title == "More cards than the deck allows"
        # The ruling it links to says what the check rests on: hands only grow from the draw pile.
        ruling = words(client, link)
        assert "or a hand count too big" in ruling
        assert "A hand only grows by drawing, and the referee knows how many cards are left to draw" in ruling
        assert "Bob's hand is corrected to 57 cards" in ruling  # the example, told in plain words

        # A second 7 still gets the same ruling, and its title reads right for a card played too.
        assert client.json("POST", f"/api/v1/tables/{code}/actions", {"type": "undo"}, token=token).status == 200
        second_seven = {"type": "play", "player": "Bob", "card": "7"}
        assert client.json("POST", f"/api/v1/tables/{code}/actions", second_seven, token=token).status == 200
        assert "The deck has only one 7" in words(client, f"/t/{code}")
        assert rule_applied(client, code) == ("More cards than the deck allows", link)
