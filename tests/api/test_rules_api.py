"""GET /api/v1/rules: the rules search over the JSON API, with the verdict and example the rules panel shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jsonschema
from flask.testing import FlaskClient

from referee import rulebook
from tools.harness import Client, LiveServer

RULES = "/api/v1/rules"


def _results(client: FlaskClient, query: str) -> list[dict[str, Any]]:
    response = client.get(RULES, query_string={"q": query})
    assert response.status_code == 200
    body = response.get_json()
    assert isinstance(body, dict)
    results = body["results"]
    assert isinstance(results, list)
    return results


def test_a_ruling_comes_with_its_verdict_and_an_example(client: FlaskClient) -> None:
    first = _results(client, "bomb do i have to discard all my zeros")[0]
    assert first["id"] == "one-zero-per-bomb"
    assert first["verdict"] == "One 0 per Bomb: keep any others."
    assert first["example"] is not None and "Bob discards a 0" in first["example"]
    assert first["answer"].startswith("Each player discards just one 0")


def test_the_example_is_the_default_tables(client: FlaskClient) -> None:
    # Without a table the API shows what a table on the default readings would see, as the panel does.
    first = _results(client, "my last 0 went on the bomb")[0]
    assert first["id"] == "zero-answer-last-card"
    assert first["verdict"] == "By default you have gone out; the round ends once."
    # The default reading: Cy has gone out, so the round ends (a "draws one" table would stay in round 1).
    assert first["example"] is not None and "it is round 2; Cy deals." in first["example"]


def test_an_entry_that_explains_a_rule_opens_with_it_in_a_few_words_too(client: FlaskClient) -> None:
    """An entry that explains a rule opens with it in a few words: "how many lives do u get" must not open on "Lives
    (ALIVE cards)" with the five only below."""
    first = _results(client, "what is in the deck")[0]
    assert first["id"] == "deck"
    assert first["verdict"] == "77 cards: numbers 0 to 7 and 30 wild cards."
    assert set(first) == {"id", "title", "verdict", "answer", "example", "source", "house_rule"}


def test_results_match_the_published_schema(client: FlaskClient) -> None:
    document = client.get("/api/v1/openapi.json").get_json()
    schema = document["paths"][RULES]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    validator = jsonschema.Draft202012Validator({**schema, "components": document["components"]})
    for query in ("bomb last card", "what is in the deck", "bust", "", "zzzz"):
        validator.validate(client.get(RULES, query_string={"q": query}).get_json())
    items = document["components"]["schemas"]["RuleResults"]["properties"]["results"]["items"]
    # Contract v1: the fields that were there stay required; the new ones are added beside them.
    assert {"id", "title", "answer", "source", "house_rule"} <= set(items["required"])
    assert {"verdict", "example"} <= set(items["properties"])


def test_the_real_server_answers_with_verdict_and_example(database_url: str, tmp_path: Path) -> None:
    with LiveServer(database_url, logs=tmp_path / "logs") as server, Client(server.port) as http:
        reply = http.request("GET", "/api/v1/rules?q=when+i+bust+do+i+keep+my+cards")
        assert reply.status == 200
        first = reply.json()["results"][0]
    assert first["id"] == "bust-keeps-card"
    assert first["verdict"] == "You keep every card."
    assert first["example"] == (
        "Ann, Bob and Cy play. Ann plays =21; then Bob can't play (a 7 would go over 21). "
        "Result: Bob has 10 cards; Bob has 4 lives."
    )


def test_the_real_server_asks_and_answers_in_the_requests_language(database_url: str, tmp_path: Path) -> None:
    """The same search in French and German: the question read in the language, the answer in its words, the
    ids the same (English callers, above, get what they always got)."""
    asked = {
        "fr": ("quand je dépasse 21 est-ce que je garde mes cartes", "Ann, Bob et Cy jouent.", "règles de 1994"),
        "de": ("wenn ich über 21 komme, behalte ich meine Karten", "Ann, Bob und Cy spielen.", "Regeln von 1994"),
    }
    with LiveServer(database_url, logs=tmp_path / "logs") as server, Client(server.port) as http:
        for language, (question, players, source) in asked.items():
            path = f"{RULES}?{urlencode({'q': question})}"
            reply = http.request("GET", path, headers={"Accept-Language": f"{language},en;q=0.5"})
            assert reply.status == 200
            first = reply.json()["results"][0]
            assert first["id"] == "bust-keeps-card", (language, first)
            assert first["title"] == rulebook.entry("bust-keeps-card", language).title  # type: ignore[union-attr]
            assert first["example"].startswith(players), first["example"]
            assert source in first["source"], first["source"]
            assert "Result" not in first["example"] and "1994 rules" not in first["source"]


# A rules lawyer's paragraph (about 540 characters): the story first, the question in its last sentence.
PARAGRAPH = (
    "We are four at the kitchen table on a Sunday: my mother, my two cousins and me. My cousin dealt, the total had "
    "climbed to 17 and the draw pile was getting thin, and everybody had strong opinions about the old box and the new "
    "one, which print the cards under different names. My mother held only a 6 and a 7, so whatever she put down "
    "would take the total past 21, and she turned over one of her Alive cards. Now the table is split down the middle. "
    "When a player busts, do they keep the card they could not play, or does it go on the pile?"
)


def test_the_real_server_reads_a_paragraph_to_its_question(database_url: str, tmp_path: Path) -> None:
    """The API cuts a long question as the search does, keeping its question: cut at 200 characters from the front, this
    paragraph lost its last sentence and the answers were about the draw pile."""
    assert 450 < len(PARAGRAPH) <= rulebook.MAX_QUERY_LENGTH
    firsts = []
    with LiveServer(database_url, logs=tmp_path / "logs") as server, Client(server.port) as http:
        # Longer than the search reads too: cut from the front, so the question still counts.
        for question in (PARAGRAPH, "So. " * 400 + PARAGRAPH):
            reply = http.request("GET", "/api/v1/rules?" + urlencode({"q": question}))
            assert reply.status == 200
            firsts.append([result["id"] for result in reply.json()["results"]][:1])
    assert firsts == [["bust-keeps-card"], ["bust-keeps-card"]]
