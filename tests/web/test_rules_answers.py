"""Rules answers open with the verdict, show an Example, speak plainly, and chips ask the classic disputes."""

from __future__ import annotations

from conftest import Api

from referee import rulebook

from .conftest import Node, Phone, parse


def results_for(phone: Phone, query: str, table: str | None = None) -> list[str]:
    url = f"/rules/search?q={query}" + (f"&table={table}" if table else "")
    response = phone.client.get(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    return [
        article.text() for article in parse(response.get_data(as_text=True)).find_all("article", class_="rule-result")
    ]


def test_an_answer_opens_with_the_verdict_then_reason_source_and_this_tables_reading(api: Api, phone: Phone) -> None:
    api.create(["Ann", "Bob", "Cy", "Dee"], house_rules={"zero_answer_last_card": "draws_one"})
    first = results_for(phone, "my last 0 went on the bomb", api.code)[0]
    # This table chose the other reading: its ruling is the bold line, the usual one comes next, labelled.
    at_table = first.index("At this table: a player who empties their hand answering a Bomb draws one card")
    usual = first.index("Usually: By default you have gone out; the round ends once.")
    reason = first.index("a player whose last card was the 0")
    source = first.index("Source: 1994 rules")
    example = first.index("Example")
    assert at_table < usual < reason < source < example
    assert first.count("At this table:") == 1
    assert "zero_answer_last_card" not in first and "draws_one" not in first
    # The example is the one this table would see: Cy draws one and the round goes on.
    assert "Result: Ann has 5 lives, Bob 5, Cy 5 and Dee 4; Cy has 1 card; it is round 1." in first


def test_the_chips_ask_the_classic_disputes(phone: Phone) -> None:
    phone.open("/rules")
    chips = phone.page.find_all("a", class_="chip")
    assert [chip.text() for chip in chips] == [label for label, _, _ in rulebook.QUICK_QUESTIONS]
    for chip, (_, _, expected) in zip(chips, rulebook.QUICK_QUESTIONS, strict=True):
        assert chip["hx-get"].startswith("/rules/search?q=")
        phone.open(chip["href"])  # without JavaScript the chip opens the answers page
        first = phone.page.find_all("article", class_="rule-result")[0]
        assert first.find("h3").text() == rulebook.entry(expected).title  # type: ignore[union-attr]


def test_the_table_page_search_box_has_the_chips_too(phone: Phone) -> None:
    code = phone.start(["Ann", "Bob"])
    phone.open(f"/t/{code}")
    chips = phone.page.find_all("a", class_="chip")
    # Every chip but the team game's: this table plays Standard, and a chip about another game only misleads.
    assert [chip.text() for chip in chips] == [
        label for label, _, _ in rulebook.QUICK_QUESTIONS if label != "Teams Bomb"
    ]
    assert all(f"table={code}" in chip["href"] for chip in chips)
    code = phone.start(["Ann", "Bob", "Cy", "Dee"], variant="teams")
    assert "Teams Bomb" in [chip.text() for chip in phone.page.find_all("a", class_="chip")]


def test_a_ruling_page_shows_its_examples_for_this_table(api: Api, phone: Phone) -> None:
    api.create(["Ann", "Bob", "Cy", "Dee"], variant="teams", house_rules={"teams_both_out": "bomber_team"})
    phone.open(f"/rules/teams-both-out?table={api.code}")
    examples = [item.text() for item in phone.page.find_all("li", class_="rule-example")]
    assert examples == [
        "Ann, Bob, Cy, Dee and Eve play in two teams (Ann, Cy and Eve against Bob and Dee). Ann's team has lost 4 "
        "lives; then Bob's team has lost 4 lives; then play comes round to Eve; then Eve plays the Bomb; nobody "
        "has a 0. Result: Team A wins; Ann, Cy and Eve's team has 1 life and Bob and Dee's 0."
    ]
    assert "Other reading" in phone.page.text() and "teams_both_out" not in phone.page.text()


def test_a_table_with_the_usual_reading_gets_the_verdict_first_and_its_choice_after(api: Api, phone: Phone) -> None:
    api.create(["Ann", "Bob", "Cy", "Dee"])
    first = results_for(phone, "my last 0 went on the bomb", api.code)[0]
    verdict = first.index("By default you have gone out; the round ends once.")
    reason = first.index("a player whose last card was the 0")
    source = first.index("Source: 1994 rules")
    at_table = first.index("At this table:")
    assert verdict < reason < source < at_table and "Usually:" not in first


def test_the_teams_bomb_chip_answers_with_this_tables_reading(api: Api, phone: Phone) -> None:
    # Teams where a Bomb only hits the other team: the bold line must not say "Yes".
    api.create(["Ann", "Bob", "Cy", "Dee"], variant="teams", house_rules={"bomb_teammates": "opponents_only"})
    phone.open(f"/rules?q=teammate+bombs+me+do+we+lose+a+life&table={api.code}")
    first = phone.page.find_all("article", class_="rule-result")[0]
    assert first.find("p", class_="verdict").text() == "At this table: a Bomb only hits the other team."  # type: ignore[union-attr]
    assert first.find("p", class_="usual-ruling").text().startswith("Usually: By default teammates must answer too")  # type: ignore[union-attr]
    # The ruling's own page says the same.
    phone.open(first.find("h3").find("a")["href"])  # type: ignore[union-attr, index]
    page = phone.page.find("article", class_="rule-entry")
    assert page.find("p", class_="verdict").text() == "At this table: a Bomb only hits the other team."  # type: ignore[union-attr]


def test_a_tables_own_game_answers_first_unless_the_question_names_another(api: Api, phone: Phone) -> None:
    """Asked at a Standard table, "who wins if we both run out of hearts" must not open on Sudden Death's ruling (a
    game this table is not playing), as it once did."""
    question = "who+wins+if+we+both+run+out+of+hearts"
    api.create(["Ann", "Bob", "Cy"])
    first = results_for(phone, question, api.code)[0]
    assert first.startswith("Several players knocked out at once")
    # A question that names the other game still gets that game's ruling first.
    assert results_for(phone, "sudden+death+both+out+at+once", api.code)[0].startswith(
        "Sudden Death: two players run out of lives at once"
    )
    # At a Sudden Death table the same question is about Sudden Death.
    api.create(["Ann", "Bob", "Cy"], variant="sudden_death")
    assert results_for(phone, question, api.code)[0].startswith("Sudden Death: two players run out of lives at once")


def test_an_answer_opens_with_the_outcome_whichever_way_the_question_is_put(api: Api, phone: Phone) -> None:
    """Asked "can you play a 0 on 21", the first answer's bold line states the outcome, never "No — a 0 always fits.",
    which answered the entry's own question, not the player's."""
    api.create(["Ann", "Bob", "Cy"])
    for question in ("can+you+play+a+0+on+21", "can+you+bust+if+you+have+a+0"):
        first = results_for(phone, question, api.code)[0]
        assert first.startswith("A player holding a 0 cannot bust A 0 always fits, so you cannot bust."), first


def test_a_table_that_lays_too_high_numbers_as_busts_is_never_told_they_are_refused(api: Api, phone: Phone) -> None:
    """At an over_21=bust table neither the number cards' rule may say a too-high card is refused (with an example
    of the referee refusing it) nor the bust's rule that a player holding a wild card cannot bust: both once did."""
    api.create(["Ann", "Bob", "Cy"], house_rules={"over_21": "bust"})
    for question, title in (("number cards 0 to 7", "Number cards 0 to 7"), ("bust rules", "Bust: when nothing fits")):
        answer = next(
            text for text in results_for(phone, question.replace(" ", "+"), api.code) if text.startswith(title)
        )
        assert "At this table:" in answer and ("counts as a bust" in answer or "is a bust too" in answer), answer
        assert "refuses it" not in answer and "Usually:" in answer, answer


def test_a_bomb_as_your_one_card_finds_the_bomb_as_last_card_ruling(phone: Phone) -> None:
    """Asked "can i put a bomb when i got 1 card", the search finds the last-card ruling, not "One 0 per Bomb" with
    the ruling outside the first five, as it once did: a child says "1 card" or "only card", not "last card"."""
    # None of these is among the ruling's own questions (referee/rulebook/entries.json).
    for question in ("i+got+1+card+its+a+bomb", "can+i+play+a+bomb+if+i+have+just+1+card"):
        assert results_for(phone, question)[0].startswith("A Bomb played as the last card of a hand"), question


def back_to_table(phone: Phone, code: str) -> Node:
    """The open page's "Back to table" link."""
    return next(link for link in phone.page.find_all("a") if link.text() == f"Back to table {code}")


def test_a_ruling_opened_from_the_table_leads_back_to_the_same_question_and_answers(api: Api, phone: Phone) -> None:
    """Back from a ruling, the table page keeps the question and its answers in place (they were once gone, the page
    at its top), and the whole rules page (where Ask leads) has a way back to the table."""
    api.create(["Ann", "Bob", "Cy"])
    response = phone.client.get(f"/rules/search?q=bomb+last+card&table={api.code}", headers={"HX-Request": "true"})
    link = parse(response.get_data(as_text=True)).find("article", class_="rule-result").find("a")  # type: ignore[union-attr]
    assert link["href"] == f"/rules/bomb-last-card?table={api.code}&q=bomb+last+card"  # type: ignore[index]
    phone.open(link["href"])  # type: ignore[index]
    back = back_to_table(phone, api.code)
    assert back["href"] == f"/t/{api.code}?q=bomb+last+card#rules-search"
    phone.open(back["href"].split("#")[0])
    box = phone.page.find("input", id="rules-q")
    assert box is not None and box["value"] == "bomb last card"
    answers = phone.page.by_id("rules-results").find_all("article", class_="rule-result")
    assert answers and answers[0].find("h3").text() == "A Bomb played as the last card of a hand"  # type: ignore[union-attr]
    # The whole rules page, with the same question, leads back too.
    phone.open(f"/rules?q=bomb+last+card&table={api.code}")
    back = back_to_table(phone, api.code)
    assert back["href"] == f"/t/{api.code}?q=bomb+last+card#rules-search"


def test_a_team_tables_bomb_as_last_card_note_says_nothing_only_true_of_single_players(api: Api, phone: Phone) -> None:
    """At a Teams table the note must not say "everyone still holding cards loses a life for the round": in the team
    game the round end costs only the other team one life."""
    api.create(["Ann", "Bob", "Cy", "Dee"], variant="teams")
    first = results_for(phone, "my+last+card+is+the+bomb", api.code)[0]
    assert first.startswith("A Bomb played as the last card of a hand")
    assert "At this table: a Bomb as last card costs both lives: it is answered first (a life for each missing 0)" in (
        first
    )
    assert "everyone still holding cards" not in first.split("Source:")[1]  # the table's note, after the usual text


def test_a_source_that_reads_the_other_way_is_named_as_such(phone: Phone) -> None:
    """The ruling "Busting on purpose" says "not while a card fits" and cites the modern text, which reads the other
    way (docs/rules.md, over_21): it must say so."""
    first = results_for(phone, "can+i+bust+on+purpose")[0]
    assert first.startswith("Busting on purpose")
    assert 'Source: 1994 rules ("if you can only take the total above 21"); for the other reading, modern text' in first


def bust_answers(phone: Phone, table: str | None) -> list[str]:
    """The answers to "what happens on a bust" that show the bust's own example."""
    return [answer for answer in results_for(phone, "what happens on a bust", table) if "Ann can't play" in answer]


def test_an_example_from_another_game_than_the_tables_says_which_game_it_is(api: Api, phone: Phone) -> None:
    """At a Teams table, "what happens on a bust" shows "Ann has 4 lives" in a three-player game: it must say that is
    not how this table counts lives."""
    api.create(["Ann", "Bob", "Cy", "Dee"], variant="teams")
    [bust] = bust_answers(phone, api.code)
    assert "Example from a Standard game: Ann, Bob and Cy play. Ann plays a 7" in bust
    phone.open(f"/rules/bust?table={api.code}")
    assert "Example from a Standard game" in [heading.text() for heading in phone.page.find_all("h2")]
    # At a Standard table, or asked without a table, the same example needs no such words.
    api.create(["Ann", "Bob", "Cy"])
    for table in (api.code, None):
        [bust] = bust_answers(phone, table)
        assert "Example: Ann, Bob and Cy play. Ann plays a 7" in bust
    # A Teams ruling asked about at a Standard table: its example is said to be a team game's.
    teams_bomb = results_for(phone, "teams bomb", api.code)[0]
    assert "Example from a Teams game: Ann, Bob, Cy and Dee play in two teams" in teams_bomb


def test_at_a_teams_or_sudden_death_table_that_games_own_ruling_comes_first(api: Api, phone: Phone) -> None:
    """At a Teams table "bust" must not give five rulings of the individual game ("you lose a life") and none of the
    team game's; at a Sudden Death table "who wins" must not open on "the last one alive wins". Both once did."""
    api.create(["Ann", "Bob", "Cy", "Dee"], variant="teams")
    for question, own, usual in (
        ("bust", "Your own team loses a life.", "Bust: when nothing fits"),
        ("last card", "The other team loses one life.", "Going out"),
    ):
        answers = results_for(phone, question, api.code)
        assert own in answers[0], (question, answers[0])
        assert usual in answers[1], (question, answers[1])  # the usual ruling stays, second
    api.create(["Ann", "Bob", "Cy"], variant="sudden_death")
    assert "First player out ends it; most lives wins." in results_for(phone, "who wins", api.code)[0]
    # A Standard table, or no table: the usual order.
    api.create(["Ann", "Bob", "Cy"])
    for table in (api.code, None):
        assert "Your own team loses a life." not in results_for(phone, "bust", table)[0]


def test_at_a_teams_table_two_player_questions_are_told_the_teams_ruling_first(api: Api, phone: Phone) -> None:
    """At a Teams table, "its 2 teams, if i play skip do i go again" must not open on "Skip with two players: You
    play again at once", which never applies in the team game, with its own ruling fifth (as it once did)."""
    api.create(["Ann", "Bob", "Cy", "Dee"], variant="teams")
    for question in ("its 2 teams, if i play skip do i go again", "reverse with just 2 of us", "two player rules"):
        first = results_for(phone, question, api.code)[0]
        assert "Not in teams, unless players leave and two remain." in first, (question, first)
    # At a Standard table the two-player ruling itself answers.
    api.create(["Ann", "Bob", "Cy"])
    assert "Skip with two players" in results_for(phone, "skip with 2 players", api.code)[0]
