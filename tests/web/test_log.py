"""The log shows who pressed Undo and Redo, heads each round's lines, and keeps the board short."""

from __future__ import annotations

import json
import random
import statistics
import time

import pytest
from flask import Flask

from referee import create_app
from referee.engine import Card, Play, SetHand, Status
from referee.service import Operator, codec, transfer
from referee.web.extensions import shutdown
from tools.bench.scale import NAMES, long_game

from .conftest import Phone, drive, parse
from .test_team_ending import standings_rows


def log_items(phone: Phone) -> list[str]:
    """The log's lines, newest first, without the rounds' headings."""
    return [item.text() for item in phone.page.by_id("log").find_all("li") if "round-separator" not in item.classes]


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


def rounds(phone: Phone) -> list[tuple[str, list[str]]]:
    """The log as it reads, top down: each round's heading and the lines under it (before the next heading)."""
    grouped: list[tuple[str, list[str]]] = []
    for item in phone.page.by_id("log").find_all("li"):
        if "round-separator" in item.classes:
            grouped.append((item.text(), []))
        else:
            assert grouped, f"a line above every heading: {item.text()}"
            grouped[-1][1].append(item.text())
    return grouped


def test_each_rounds_heading_stands_above_that_rounds_cards(phone: Phone, app: Flask) -> None:
    # The card that ended round 1 also says "Round 2: … deals"; it was played in round 1, so it sits under
    # round 1's heading, and round 2's heading stands above round 2's own cards.
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 3", "Bob holds 1", "Bob 2")  # Bob plays his last card: round over, round 2 is dealt
    phone.open(f"/t/{code}")
    # Round 2 has no card yet: no heading over nothing; the newest line is the deal, still round 1's.
    [(heading, lines)] = rounds(phone)
    assert heading == "Round 1" and len(lines) == 3
    assert lines[0].startswith("Bob played 2") and "Round 2: Bob deals." in lines[0]
    drive(app, code, "Cy 4", "Ann 5")
    phone.open(f"/t/{code}")
    [(newer, round_2), (older, round_1)] = rounds(phone)
    assert (newer, older) == ("Round 2", "Round 1")
    assert [line.split(":")[0] for line in round_2] == ["Ann played 5", "Cy played 4"]
    assert round_1[0].startswith("Bob played 2") and "Round 2: Bob deals." in round_1[0]
    assert round_1[1].startswith("Hand fixed: Bob holds 1") and round_1[2].startswith("Ann played 3")


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
            code, _ = referee.rematch(code, actor=Operator())
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


def test_every_round_heads_its_own_cards_on_the_board_and_in_the_whole_log(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    # Six rounds of 14 entries: the whole log is 84 entries long; the board shows the newest 30 (entries
    # 55 to 84): the last 2 of round 4, all of rounds 5 and 6. Round 7 is dealt but has no card yet.
    play_rounds(app, code, rounds=6, zeros_per_round=12)
    assert app.extensions["referee"].view(code).state.round == 7
    phone.open(f"/t/{code}")
    shown = rounds(phone)
    assert [(heading, len(lines)) for heading, lines in shown] == [("Round 6", 14), ("Round 5", 14), ("Round 4", 2)]
    for heading, lines in shown:
        # Newest first: each round's newest line is the card that ended it (and dealt the next round).
        number = int(heading.split()[1])
        assert f"Round {number + 1}:" in lines[0]
        assert not any("Round " in line for line in lines[1:])
    phone.open(f"/t/{code}/log")
    whole = rounds(phone)
    assert [(heading, len(lines)) for heading, lines in whole] == [(f"Round {n}", 14) for n in range(6, 0, -1)]
    assert all(f"Round {n + 1}:" in lines[0] for n, (_, lines) in zip(range(6, 0, -1), whole, strict=True))
    assert whole[-1][1][-1].startswith("Ann played 0")  # the game's first card, under round 1's heading


def test_an_undone_deal_stays_in_the_round_it_was_played_in(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    play_rounds(app, code, rounds=1, zeros_per_round=0)  # "Ann holds 1", then her last card deals round 2
    drive(app, code, "Bob 7")
    phone.open(f"/t/{code}")
    assert [heading for heading, _ in rounds(phone)] == ["Round 2", "Round 1"]
    drive(app, code, "undo", "undo")  # Bob's 7, then the deal
    phone.open(f"/t/{code}")
    [(heading, lines)] = rounds(phone)  # round 2 never happened: both undone lines are round 1's
    assert heading == "Round 1"
    assert [line.startswith("Undone") for line in lines] == [True, True, False]
    assert lines[0].startswith("Undone Bob played 7")
    drive(app, code, "redo")  # the deal is back, Bob's 7 is still undone: it sits in round 2 now
    phone.open(f"/t/{code}")
    [(newer, round_2), (older, round_1)] = rounds(phone)
    assert (newer, older) == ("Round 2", "Round 1")
    assert round_2 == [round_2[0]] and round_2[0].startswith("Undone Bob played 7")
    assert "Round 2: Ann deals." in round_1[0] and "Undone" not in round_1[0]


def _win_as(app: Flask, code: str, winners: set[str]) -> None:
    """Play the table to its end: a player in `winners` goes out whenever it is their turn, the others play a 0."""
    referee = app.extensions["referee"]
    with app.app_context():
        while (state := referee.view(code).state).status is not Status.FINISHED:
            player = state.current_player.name
            if player in winners:
                referee.act(code, SetHand(player, 1), actor=Operator())
            referee.act(code, Play(player, Card.N0), actor=Operator())


def _tally_after_a_rematch(
    phone: Phone, app: Flask, seated: list[str], winners: set[str], **setup: object
) -> tuple[str, str]:
    """The rematch's code and the phone's series tally once `winners` have won a game of `seated` and its
    rematch (changed by `setup`)."""
    variant = "teams" if len(seated) == 4 else "standard"
    code = phone.start(seated, variant=variant)
    referee = app.extensions["referee"]
    _win_as(app, code, winners)
    code, _ = referee.rematch(code, actor=Operator(), **setup)
    _win_as(app, code, winners)
    phone.open(f"/t/{code}")
    series = phone.page.find("p", class_="series")
    assert series is not None
    return code, series.text()


def test_a_team_series_credits_each_player_of_the_winning_team(phone: Phone, app: Flask) -> None:
    # Teams may change between rematches: "Team A 1 – Team B 1" would hide that one pair won twice.
    # Team A is Ann and Cy in the first game, Bob and Dee in the second.
    _, tally = _tally_after_a_rematch(
        phone, app, ["Ann", "Bob", "Cy", "Dee"], {"Ann", "Cy"}, teams=[["Bob", "Dee"], ["Ann", "Cy"]]
    )
    # Bob and Dee played both games too: named with 0, not left out (a tally without them looks like they left).
    assert tally == "Series after 2 games: Ann 2 – Cy 2 – Bob 0 – Dee 0"


def test_the_series_tally_says_who_missed_games(phone: Phone, app: Flask) -> None:
    # Eve joins for the rematch: her 0 wins come from one game, not two; Bob's from two.
    code, tally = _tally_after_a_rematch(phone, app, ["Ann", "Bob"], {"Ann"}, players=["Ann", "Bob", "Eve"])
    assert tally == "Series after 2 games: Ann 2 – Bob 0 – Eve 0 (played 1 of 2)"
    phone.open(f"/t/{code}/display")
    shown = phone.page.find("p", class_="display-series")
    assert shown is not None and shown.text() == tally


def test_the_standings_name_everyone_who_won_the_most_rounds(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob"])
    referee = app.extensions["referee"]
    # Ann goes out in round 1, Bob in round 2 (a round won each); then Ann's Bombs take Bob's last lives.
    for player in ("Ann", "Bob"):
        while referee.view(code).state.current_player.name != player:
            drive(app, code, f"{referee.view(code).state.current_player.name} 0")
        drive(app, code, f"{player} holds 1", f"{player} 0")
    while referee.view(code).state.status is not Status.FINISHED:
        current = referee.view(code).state.current_player.name
        drive(app, code, "Ann bomb" if current == "Ann" else "Bob 0")
    phone.open(f"/t/{code}")
    assert [row[1] + " " + row[-1] for row in standings_rows(phone)[1:]] == ["Ann 1", "Bob 1"]
    line = phone.page.find("p", class_="most-rounds")
    assert line is not None and line.text() == "Won the most rounds: Ann and Bob (1 round each)"


def headings(phone: Phone) -> list[str]:
    return [heading for heading, _ in rounds(phone)]


def test_headings_follow_taps_undo_redo_and_a_replaced_deal(phone: Phone, app: Flask) -> None:
    # Each step is a tap on the host's phone; what it checks is the board in the tap's own answer (its log
    # lines come from the line cache, the headings around them must still be right).
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann holds 1")
    phone.open(f"/t/{code}")
    phone.press("7", htmx=True)  # Ann's last card: round 2 is dealt
    assert headings(phone) == ["Round 1"]
    phone.press("3", htmx=True)  # Bob's card, round 2's first
    assert [(heading, len(lines)) for heading, lines in rounds(phone)] == [("Round 2", 1), ("Round 1", 2)]
    phone.press("Undo", htmx=True)
    assert [(heading, len(lines)) for heading, lines in rounds(phone)] == [("Round 2", 1), ("Round 1", 2)]
    phone.press("Undo", htmx=True)
    assert [(heading, len(lines)) for heading, lines in rounds(phone)] == [("Round 1", 3)]
    phone.press("Redo", htmx=True)
    assert [(heading, len(lines)) for heading, lines in rounds(phone)] == [("Round 2", 1), ("Round 1", 2)]
    phone.press("Undo", htmx=True)
    drive(app, code, "Ann holds 2")  # replaces the undone deal (the redo tail is dropped)
    phone.open(f"/t/{code}")
    phone.press("7", htmx=True)  # Ann still holds a card: no new round
    assert [(heading, len(lines)) for heading, lines in rounds(phone)] == [("Round 1", 3)]
    assert not any("Undone" in line or "Round 2" in line for line in rounds(phone)[0][1])


def test_headings_are_right_when_another_process_entered_the_cards(phone: Phone, database_url: str) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    # A second server process on the same database: the cards go in there, this phone's process only reads.
    other = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE_URL": database_url})
    try:
        drive(other, code, "Ann 0", "Bob 0")
        phone.open(f"/t/{code}")  # this process now holds the table at that version
        drive(other, code, "Cy holds 1", "Cy 0", "Ann 5")  # Cy's last card: round 2; Ann plays in it
        phone.open(f"/t/{code}")
        assert [(heading, len(lines)) for heading, lines in rounds(phone)] == [("Round 2", 1), ("Round 1", 4)]
        drive(other, code, "undo", "undo")
        phone.open(f"/t/{code}")
        assert [(heading, len(lines)) for heading, lines in rounds(phone)] == [("Round 1", 5)]
        drive(other, code, "redo")
        phone.press("Undo", htmx=True)  # a stale tap: refused, the answer shows the table as it is now
        assert [(heading, len(lines)) for heading, lines in rounds(phone)] == [("Round 2", 1), ("Round 1", 4)]
        phone.press("Undo", htmx=True)  # a tap here, on a table the other process changed
        assert [(heading, len(lines)) for heading, lines in rounds(phone)] == [("Round 1", 5)]
        drive(other, code, "redo")
        phone.open(f"/t/{code}")
        assert [(heading, len(lines)) for heading, lines in rounds(phone)] == [("Round 2", 1), ("Round 1", 4)]
    finally:
        shutdown(other)


def test_each_round_heading_is_a_heading_under_what_happened(phone: Phone, app: Flask) -> None:
    # A screen reader's heading keys go from round to round; "What happened" (h2) stands above them.
    code = phone.start(["Ann", "Bob", "Cy"])
    play_rounds(app, code, rounds=2, zeros_per_round=1)
    for page in (f"/t/{code}", f"/t/{code}/log"):
        phone.open(page)
        log = phone.page.by_id("log")
        assert [heading.text() for heading in log.find_all("h2")] == ["What happened"]
        # Round 3 is dealt but has no card yet: no heading.
        assert [heading.text() for heading in log.find_all("h3")] == ["Round 2", "Round 1"]


def shown_log(phone: Phone) -> list[tuple[str | None, str]]:
    """Every item of the log region as the phone shows it (id and text), and its "Show all" paragraph."""
    region = phone.page.by_id("log")
    items = [(item.get("id"), item.text()) for item in region.find_all("li")]
    more = region.find(id="log-more")
    return [*items, ("log-more", "" if more is None or more.has("hidden") else more.text())]


@pytest.mark.parametrize("seed", range(4))
def test_a_taps_answer_brings_only_the_logs_changes_and_the_phone_shows_the_same_log_as_a_fresh_page(
    phone: Phone, seed: int
) -> None:
    # A tap's answer keeps the log the phone shows and sends what changed. Cards, busts, undos, redos
    # and corrections in random order, past the board's 30 lines and across rounds: after each tap the phone
    # must show what a newly opened page shows.
    rng = random.Random(seed)
    code = phone.start(["Ann", "Bob", "Cy"])
    fresh = Phone(phone.client)
    partial = 0
    for _ in range(45):
        if phone.page.find(id="pad-form") is None:
            break  # the game is over
        enabled = [name for name, button in phone.page.buttons().items() if not button.has("disabled")]
        cards = [label for label, button in phone.page.cards().items() if not button.has("disabled")]
        choice = rng.choices(["card", "Undo", "Redo", "Can't play", "fix"], weights=[12, 2, 1, 1, 1])[0]
        if choice == "card" or (choice not in enabled and choice != "fix"):
            response = phone.press(rng.choice(cards), htmx=True, bomb_confirmed="1")
        elif choice == "fix":
            player = rng.choice([item for item in phone.page.find_all("form") if item.find(name="cards")])
            response = phone.submit(player, player.find("button"), htmx=True, cards=str(rng.randint(1, 5)))
        else:
            response = phone.press(choice, htmx=True)
        assert response.status_code in (200, 422), response.text[:500]  # 422: a refused correction
        log = parse(response.text).by_id("log")
        if log.has("data-changes"):
            partial += 1
            assert log.find(class_="log") is None and len(log.find_all("li")) <= 3
        fresh.open(f"/t/{code}")
        assert shown_log(phone) == shown_log(fresh)
    assert partial >= 20


def test_a_page_whose_script_does_not_make_the_logs_changes_gets_its_log_whole(phone: Phone, app: Flask) -> None:
    # After an upgrade, a phone still shows the page it opened before, with its script: one that cannot make a log's
    # changes in place does not say so (static/js/morph.js says it); its board's hx-vals said "ids". A tap brings
    # the whole log back.
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Ann 1", "Bob 2")
    phone.open(f"/t/{code}")
    response = phone.press("3", htmx=True, log="ids")
    assert not parse(response.text).by_id("log").has("data-changes")
    assert shown_log(phone)[1][1].startswith("Cy played 3")  # under round 1's heading
    fresh = Phone(phone.client)
    fresh.open(f"/t/{code}")
    assert shown_log(phone) == shown_log(fresh)


def long_rounds(app: Flask, code: str, rounds: int, fixes_per_round: int) -> None:
    """Each round: hand corrections (logged entries), then the player to play holds one card and plays it out."""
    referee = app.extensions["referee"]
    for _ in range(rounds):
        drive(app, code, *(f"Ann holds {5 + number % 2}" for number in range(fixes_per_round)))
        current = referee.view(code).state.current_player.name
        drive(app, code, f"{current} holds 1", f"{current} 0")


def test_the_whole_log_comes_a_page_at_a_time_newest_first_each_page_saying_its_round(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    # Four rounds of 62 entries: 248 entries, round 1 is entries 1 to 62. A page is the newest 200 (entries 248
    # to 49), so round 1 is split: its newest 14 end page 1, its oldest 48 are page 2.
    long_rounds(app, code, rounds=4, fixes_per_round=60)
    phone.open(f"/t/{code}")
    link = phone.page.by_id("log").find("a", class_="show-all")
    assert link is not None and link.text() == "Show all 248 entries"
    phone.open(link.attrs["href"])
    assert phone.page.find("p", class_="log-page").text() == "Entries 248 to 49 of 248, newest first: page 1 of 2."
    first = rounds(phone)
    assert [(heading, len(lines)) for heading, lines in first] == [
        ("Round 4", 62),
        ("Round 3", 62),
        ("Round 2", 62),
        ("Round 1", 14),
    ]
    assert "Round 5:" in first[0][1][0]  # the newest line dealt round 5, and was played in round 4
    assert phone.page.find("a", rel="prev") is None
    older = phone.page.find("a", rel="next")
    assert older is not None and older.text() == "Older entries"
    assert older.attrs["href"] == f"/t/{code}/log?page=2"
    phone.open(older.attrs["href"])
    assert phone.page.find("p", class_="log-page").text() == "Entries 48 to 1 of 248, newest first: page 2 of 2."
    second = rounds(phone)
    assert [(heading, len(lines)) for heading, lines in second] == [("Round 1", 48)]
    assert second[0][1][-1].startswith("Hand fixed: Ann holds 5")  # the game's first entry
    assert phone.page.find("a", rel="next") is None
    newer = phone.page.find("a", rel="prev")
    assert newer is not None and newer.text() == "Newer entries" and newer.attrs["href"] == f"/t/{code}/log"
    phone.open(f"/t/{code}/log?page=1")  # page 1 by its number too
    assert len(log_items(phone)) == 200


@pytest.mark.parametrize("asked", ["0", "-1", "3", "99", "abc", "1.5", "", " 2", "9" * 40, "\u0663", "\u00b2"])
def test_a_page_the_log_does_not_have_is_said_in_words(phone: Phone, app: Flask, asked: str) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    long_rounds(app, code, rounds=1, fixes_per_round=220)  # 222 entries: two pages
    response = phone.open(f"/t/{code}/log", query_string={"page": asked})
    assert response.status_code == 404
    alert = phone.page.find(role="alert")
    assert alert is not None
    assert alert.text() == "There is no such page of this log: its pages are numbered 1 to 2."
    back = phone.page.find("a", class_="button")
    assert back is not None and back.attrs["href"] == f"/t/{code}/log"
    assert phone.page.find(id="log") is None
    assert phone.open(f"/t/{code}/log?page=2").status_code == 200


def test_a_short_log_is_one_page_without_page_links(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob"])
    assert phone.open(f"/t/{code}/log").status_code == 200  # empty: still its page
    drive(app, code, "Ann 3", "Bob 4")
    phone.open(f"/t/{code}/log")
    assert phone.page.find(class_="log-pages") is None and phone.page.find("p", class_="log-page") is None
    assert phone.open(f"/t/{code}/log?page=2").status_code == 404
    assert phone.page.find(role="alert").text() == "There is no such page of this log: it has one page."  # type: ignore[union-attr]


def test_a_page_of_a_ten_thousand_entry_log_stays_small_and_quick(app: Flask) -> None:
    """The whole log on one page was 2 MB for a table at the 10,000-entry cap, open to anyone with the code, and
    32 readers from one address slowed another phone's page to ~2.9 s."""
    client = app.test_client()
    made = client.post("/api/v1/tables", json={"players": list(NAMES[:4])}).get_json()
    document = client.get(f"/api/v1/tables/{made['code']}/export", headers={"Authorization": f"Bearer {made['token']}"})
    body = document.get_json()
    body["actions"] = [json.loads(codec.action_to_json(action)) for action in long_game(10_000)]
    with app.app_context():
        code = transfer.import_document(app.extensions["referee"], body).view.code
    sizes, times = [], []
    for page in (1, 2, 50):
        client.get(f"/t/{code}/log?page={page}")  # the table's view is read once, for the board and the log alike
        for _ in range(3):
            started = time.perf_counter()
            response = client.get(f"/t/{code}/log?page={page}")
            times.append(time.perf_counter() - started)
        assert response.status_code == 200
        entries = [li for li in parse(response.get_data(as_text=True)).by_id("log").find_all("li")]
        assert len([li for li in entries if "round-separator" not in li.classes]) == 200
        sizes.append(len(response.data))
    assert max(sizes) < 100 * 1024, sizes
    assert statistics.median(times) < 0.1, times  # the whole log took 130 ms warm; a page takes a few
    assert client.get(f"/t/{code}/log?page=51").status_code == 404
