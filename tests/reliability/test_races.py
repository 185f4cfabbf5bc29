"""Races: many phones tap the same card on the same table at the same instant; exactly one tap counts.

Every tap carries the version it was made on. Against the real server (waitress threads, SQLite), a
dozen clients fire the identical action with the same `expected_version` at a barrier: one gets 200, all
the others get 409 with the fresh state, and the table moves on by exactly one version. Repeated for
many rounds, with card plays, corrections and undos. The same holds for the htmx form taps of phones.
"""

from __future__ import annotations

import json
import random
import re
import threading
import urllib.parse
from typing import Any

from referee.engine import History, SetHand, Status, make_setup
from referee.service import codec
from tools.harness import Browser, Client, LiveServer, random_action

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
TAPPERS = 12
ROUNDS = 15


def fire_at_once(
    clients: list[Client], path: str, body: dict[str, Any], token: str
) -> list[tuple[int, dict[str, Any]]]:
    """Send the same request from every client at the same moment; return (status, body) of each."""
    barrier = threading.Barrier(len(clients))
    results: list[tuple[int, dict[str, Any]]] = [(0, {})] * len(clients)

    def tap(index: int) -> None:
        barrier.wait()
        reply = clients[index].json("POST", path, body, token)
        results[index] = (reply.status, reply.json())

    threads = [threading.Thread(target=tap, args=(index,)) for index in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


def test_same_tap_from_many_clients_counts_once(live_server: LiveServer) -> None:
    with Client(live_server.port) as creator:
        created = creator.json("POST", "/api/v1/tables", {"players": PLAYERS}).json()
    code, token = created["code"], created["token"]
    history = History(make_setup(PLAYERS, "standard"))
    state = history.state()
    rng = random.Random(4)
    clients = [Client(live_server.port) for _ in range(TAPPERS)]
    try:
        for version in range(ROUNDS):
            undo = version % 5 == 4
            if undo:
                body: dict[str, Any] = {"type": "undo", "expected_version": version}
            else:
                action = random_action(rng, state) if version % 3 else SetHand(PLAYERS[version % 4], 7)
                body = {**json.loads(codec.action_to_json(action)), "expected_version": version}
            results = fire_at_once(clients, f"/api/v1/tables/{code}/actions", body, token)
            statuses = sorted(status for status, _ in results)
            assert statuses == [200] + [409] * (TAPPERS - 1), (version, body, statuses)
            winner = next(answer for status, answer in results if status == 200)
            assert winner["version"] == version + 1
            for status, answer in results:
                if status == 409:
                    # Each sent the winner's very action: it is in once, and each loser is told so.
                    assert answer["error"]["code"] == "already_entered"
                    # The loser sees the table as it is now: the winner's tap already in it.
                    assert answer["state"]["version"] == version + 1
            if undo:
                history = history.undo()
                state = history.state()
            else:
                history, state = history.record(action, state)
            # The table moved on by exactly that one tap: the same state a single tap would give.
            assert winner == codec.state_json(
                code, version + 1, state, can_undo=history.can_undo, can_redo=history.can_redo
            )
            with Client(live_server.port) as reader:
                assert reader.json("GET", f"/api/v1/tables/{code}").json() == winner
            assert state.status is not Status.FINISHED
    finally:
        for client in clients:
            client.close()


def _page_fields(html: str) -> tuple[str, str, str]:
    token = re.search(r'"X-CSRF-Token": "([^"]+)"', html)
    version = re.search(r'data-version="(\d+)"', html)
    player = re.search(r'name="player" value="([^"]+)"', html)
    assert token and version and player
    return token.group(1), version.group(1), player.group(1)


def tap_together(code: str, phones: list[Browser], forms: list[tuple[str, str, str]]) -> list[int]:
    """Every phone taps "1" at the same moment (htmx form posts, each with its own page's version)."""
    barrier = threading.Barrier(len(phones))
    statuses = [0] * len(phones)

    def tap(index: int) -> None:
        csrf_token, version, player = forms[index]
        fields = [("csrf", csrf_token), ("kind", "play"), ("player", player), ("version", version), ("card", "1")]
        barrier.wait()
        reply = phones[index].request("POST", f"/t/{code}/act", fields, htmx=True, X_CSRF_Token=csrf_token)
        statuses[index] = reply.status

    threads = [threading.Thread(target=tap, args=(index,)) for index in range(len(phones))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return statuses


def test_two_phones_tapping_the_same_card_count_it_once(live_server: LiveServer) -> None:
    host = Browser(live_server.port)
    home = host.request("GET", "/").text()
    csrf = re.search(r'name="csrf" value="([^"]+)"', home)
    assert csrf is not None
    form = [("csrf", csrf.group(1)), ("name", "Ann"), ("name", "Bob"), ("name", "Cy"), ("op", "start")]
    started = host.request("POST", "/", form)
    assert started.status == 303
    page = urllib.parse.urlsplit(started.headers["location"]).path
    page = page.removesuffix("/lobby")  # the host lands in the lobby first
    code = page.rsplit("/", 1)[-1]
    join = re.search(r"(/j/[A-Z0-9]+/[A-Za-z0-9_-]+)", host.request("GET", page).text())
    assert join is not None
    phones = [host]
    for index, name in enumerate(["Bob", "Cy", None]):
        phone = Browser(live_server.port, source=f"127.0.0.{index + 2}")
        join_page = phone.request("GET", join.group(1)).text()
        token = re.search(r'name="csrf" value="([^"]+)"', join_page)
        assert token is not None
        choices = re.findall(r'name="who" value="([^"]+)"', join_page)
        who = next(choice for choice in choices if (name is None and choice == "score") or choice.endswith(f":{name}"))
        joined = phone.request("POST", join.group(1), [("csrf", token.group(1)), ("who", who)])
        assert joined.status == 303, joined.status
        phones.append(phone)
    try:
        for round_number in range(6):
            forms = []
            for phone in phones:
                csrf_token, version, player = _page_fields(phone.request("GET", page).text())
                assert version == str(round_number)
                forms.append((csrf_token, version, player))
            statuses = tap_together(code, phones, forms)
            assert sorted(statuses) == [200] + [409] * (len(phones) - 1), statuses
            with Client(live_server.port) as reader:
                assert reader.json("GET", f"/api/v1/tables/{code}").json()["version"] == round_number + 1
    finally:
        for phone in phones:
            phone.close()


def finished_table(port: int) -> tuple[str, str]:
    """A two-player table played to its end through the API: (code, token)."""
    with Client(port) as creator:
        created = creator.json("POST", "/api/v1/tables", {"players": ["Ann", "Bob"]}).json()
        code, token = created["code"], created["token"]
        path = f"/api/v1/tables/{code}/actions"
        for _ in range(5):  # each Bomb Bob cannot answer costs him a life; his 0 in between keeps the turns going
            assert creator.json("POST", path, {"type": "play", "player": "Ann", "card": "bomb"}, token).status == 200
            creator.json("POST", path, {"type": "play", "player": "Bob", "card": "0"}, token)
        assert creator.json("GET", f"/api/v1/tables/{code}", None, token).json()["status"] == "finished"
    return code, token


def test_rematches_asked_at_the_same_moment_make_one_table_and_one_201(live_server: LiveServer) -> None:
    """Rematch calls at once make one table and one 201: four once all answered 201 with the same code, so the
    callers whose changes were dropped were told they had made the rematch (and each left a stray table behind)."""
    asks = [{"first_player": "Bob", "house_rules": {"over_21": "bust"}}, {"first_player": "Ann"}] * 3
    clients = [Client(live_server.port) for _ in asks]
    try:
        for _ in range(ROUNDS // 3):
            code, token = finished_table(live_server.port)
            barrier = threading.Barrier(len(asks))
            answers: list[tuple[int, dict[str, Any]]] = [(0, {})] * len(asks)

            def ask(index: int, path: str, token: str, barrier: threading.Barrier, answers: list[Any]) -> None:
                barrier.wait()
                reply = clients[index].json("POST", path, asks[index], token)
                answers[index] = (reply.status, reply.json())

            path = f"/api/v1/tables/{code}/rematch"
            threads = [
                threading.Thread(target=ask, args=(index, path, token, barrier, answers)) for index in range(len(asks))
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(30)
            assert sorted(status for status, _ in answers) == [200] * (len(asks) - 1) + [201], answers
            assert len({body["code"] for _, body in answers}) == 1
            made = next(index for index, (status, _) in enumerate(answers) if status == 201)
            # The new table is the one the 201 asked for: its first player and its house rules.
            state = answers[made][1]["state"]
            assert state["current"] == asks[made]["first_player"]
            assert state["house_rules"]["over_21"] == ("bust" if "house_rules" in asks[made] else "refuse")
    finally:
        for client in clients:
            client.close()
