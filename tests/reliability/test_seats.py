"""A seat is one phone's, through the real server (`referee serve` in a subprocess): a dead host phone at a
host-only table is replaced, and phones taking the same seat over at the same moment leave exactly one."""

from __future__ import annotations

import html
import re
import threading
from typing import Any

from tools.harness import Browser, LiveServer

from .test_host_plays import csrf, start, text


def join_link(host: Browser, code: str) -> str:
    """The join path the host's table page shows."""
    found = re.search(rf"(/j/{code}/[A-Za-z0-9_-]+)", host.request("GET", f"/t/{code}").text())
    assert found is not None
    return found.group(1)


def phone_rows(host: Browser, code: str) -> list[str]:
    """The rows of the host's "Phones at this table", as read."""
    page = host.request("GET", f"/t/{code}").text()
    listed = re.search(r'<ul class="devices">(.*?)</ul>', page, re.S)
    assert listed is not None
    rows = re.findall(r"<li>(.*?)</li>", listed.group(1), re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", row)).split()) for row in rows]


def strip_of(phone: Browser, code: str) -> str:
    """The first lines of the phone's table page (whose phone it is), as sent."""
    page = phone.request("GET", f"/t/{code}").text()
    found = re.search(r'<div id="strip".*?</div>', page, re.S)
    assert found is not None
    return found.group(0)


def revision_of(phone: Browser, code: str) -> int:
    """The table's revision (it rises with every change of its phones, too), as the page says it."""
    found = re.search(r'data-revision="(\d+)"', phone.request("GET", f"/t/{code}").text())
    assert found is not None
    return int(found[1])


def ask(phone: Browser, link: str, who: str) -> list[tuple[str, str]]:
    """Open the join link, pick a held seat (`who`: "player:Gran", "host") and return the form of its Yes."""
    question = phone.request("POST", link, [("csrf", csrf(phone.request("GET", link).text())), ("who", who)])
    assert question.status == 200
    holder = re.search(r'name="take" value="(\d+)"', question.text())
    assert holder is not None, text(question.text())
    return [("csrf", csrf(question.text())), ("who", who), ("take", holder[1])]


def pick(phone: Browser, link: str, who: str, *, take: bool = False) -> int:
    """Open the join link and pick `who` ("player:Gran", "host"), saying yes to the question if `take`."""
    form = ask(phone, link, who) if take else [("csrf", csrf(phone.request("GET", link).text())), ("who", who)]
    return phone.request("POST", link, form).status


def at_once(link: str, senders: list[tuple[Browser, list[tuple[str, str]]]]) -> list[tuple[int, str]]:
    """Send every (phone, form) to `link` at the same moment; return each (status, page text), in order."""
    return at_once_to([(phone, link, form) for phone, form in senders], words=True)


def at_once_to(senders: list[tuple[Browser, str, list[tuple[str, str]]]], *, words: bool = False) -> list[Any]:
    """Send every (phone, path, form) at the same moment; return each status (with its page's text if `words`)."""
    answers: list[Any] = [None] * len(senders)
    barrier = threading.Barrier(len(senders))

    def send(index: int) -> None:
        phone, path, form = senders[index]
        barrier.wait()
        reply = phone.request("POST", path, form)
        answers[index] = (reply.status, text(reply.text())) if words else reply.status

    threads = [threading.Thread(target=send, args=(index,)) for index in range(len(senders))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_a_dead_host_phone_at_a_host_only_table_is_replaced_over_the_wire(live_server: LiveServer) -> None:
    gran, new = Browser(live_server.port), Browser(live_server.port, source="127.0.0.2")
    try:
        code = start(gran, ["Gran", "Max"], entry="host")
        table = gran.request("GET", f"/t/{code}").text()
        gran.request("POST", f"/t/{code}/me", [("csrf", csrf(table)), ("who", "player:Gran"), ("back", "table")])
        link = join_link(gran, code)
        # Gran's phone dies. On a new phone the join link shows her seat as held and asks before taking it.
        page = text(new.request("GET", link).text())
        assert "Gran — on another phone" in page and "Max" in page
        question = new.request("POST", link, [("csrf", csrf(new.request("GET", link).text())), ("who", "player:Gran")])
        assert question.status == 200
        assert "Gran is on another phone. Is this Gran's new phone?" in text(question.text())
        assert pick(new, link, "player:Gran", take=True) == 303
        table = new.request("GET", f"/t/{code}").text()
        assert "You're Gran, and this phone is the host now." in text(table)
        # The new host phone enters cards (only the host's phone may here) and manages the table.
        version = re.search(r'data-version="(\d+)"', table)
        assert version is not None
        form = [("csrf", csrf(table)), ("kind", "play"), ("player", "Gran"), ("card", "3"), ("version", version[1])]
        assert new.request("POST", f"/t/{code}/act", form, htmx=True).status == 200
        assert new.request("GET", f"/api/v1/tables/{code}").json()["total"] == 3
        assert new.request("POST", f"/t/{code}/join-link", [("csrf", csrf(table))]).status == 303
        # The old phone, if it comes back, is told in plain words and only watches.
        old = text(gran.request("GET", f"/t/{code}").text())
        assert "Gran is on another phone now, and that phone is the host: this phone only watches." in old
        assert "Phones at this table" not in old
    finally:
        gran.close()
        new.close()


LOST = (
    "Someone else's phone took Bob's seat a moment ago; this phone is not Bob's. If it really is, say so again below."
)


def test_phones_taking_one_seat_at_the_same_moment_leave_exactly_one(live_server: LiveServer) -> None:
    host, bob = Browser(live_server.port), Browser(live_server.port)
    phones: list[Browser] = []
    try:
        code = start(host, ["Ann", "Bob"])
        link = join_link(host, code)
        assert pick(bob, link, "player:Bob") == 303
        for _ in range(3):
            # Two new phones are asked, then say yes at once, and a third taps Yes twice (two posts, one cookie).
            first, second, double = (Browser(live_server.port) for _ in range(3))
            forms = [ask(phone, link, "player:Bob") for phone in (first, second, double)]
            twin = Browser(live_server.port)
            twin.cookies = dict(double.cookies)
            phones += [first, second, double, twin]
            rows_before = len(phone_rows(host, code))
            answers = at_once(link, [(first, forms[0]), (second, forms[1]), (double, forms[2]), (twin, forms[2])])
            statuses = [status for status, _ in answers]
            # The double tap is one phone: both its posts win, or both lose. Exactly one phone wins.
            assert statuses[2] == statuses[3], answers
            assert sorted(statuses[:3]) == [303, 409, 409], answers
            # A phone that lost is told at once, in words, and asked again; it was never shown as Bob.
            for status, page in answers:
                if status == 409:
                    assert LOST in page and "Bob is on another phone. Is this Bob's new phone?" in page
            # One new phone in the host's list (the winner; the old holder is now "Bob's old phone").
            rows = phone_rows(host, code)
            assert len(rows) == rows_before + 1, rows
            assert sum(row.startswith("Bob's phone") for row in rows) == 1, rows
            # Exactly the phone that won says "You're Bob" at the top (both cookies of the double tap, if it won).
            winners = [
                p for p, (status, _) in zip((first, second, double, twin), answers, strict=True) if status == 303
            ]
            saying_bob = [p for p in [bob, *phones] if '<span class="me">You&#39;re Bob</span>' in strip_of(p, code)]
            assert saying_bob == winners
    finally:
        for phone in (host, bob, *phones):
            phone.close()


def test_a_double_tap_on_yes_lands_on_one_seat_with_one_phone(live_server: LiveServer) -> None:
    host, bob, new, twin = (Browser(live_server.port) for _ in range(4))
    try:
        code = start(host, ["Ann", "Bob"])
        link = join_link(host, code)
        assert pick(bob, link, "player:Bob") == 303
        form = ask(new, link, "player:Bob")
        # The two posts of a double tap leave together, with the cookie the question came with.
        twin.cookies = dict(new.cookies)
        answers = at_once(link, [(new, form), (twin, form)])
        assert [status for status, _ in answers] == [303, 303]
        # Both answers give the phone the same key: whichever cookie it keeps, it is the one Bob's phone.
        for phone in (new, twin):
            table = text(phone.request("GET", f"/t/{code}").text())
            assert "You're Bob on this phone now. The old phone only watches." in table
            assert "You&#39;re Bob" in strip_of(phone, code)
        assert [row.split(" ·")[0] for row in phone_rows(host, code)] == [
            "Host (this phone)",
            "Bob's old phone",
            "Bob's phone",
        ]
        # A tap so slow that the first answer's cookie arrived before it: the form's token is the old page's.
        # The phone is Bob's already, so it goes to the table, and nothing changes.
        revision = revision_of(host, code)
        late = new.request("POST", link, form)
        assert late.status == 303 and late.headers["location"].endswith(f"/t/{code}")
        assert revision_of(host, code) == revision
        assert "You&#39;re Bob" in strip_of(new, code)
    finally:
        for phone in (host, bob, new, twin):
            phone.close()


def test_two_tabs_of_one_browser_joining_at_the_same_moment_keep_every_place(live_server: LiveServer) -> None:
    gran, ann, bob = (Browser(live_server.port) for _ in range(3))
    tab, other_tab = Browser(live_server.port), Browser(live_server.port)
    try:
        home = start(gran, ["Gran", "Max"])  # this browser hosts a table of its own
        first, second = start(ann, ["Ann", "Bob"]), start(bob, ["Bob", "Cy"])
        first_link, second_link = join_link(ann, first), join_link(bob, second)
        # Both join pages are open in two tabs (one cookie jar), and both answers are sent at the same moment.
        token = csrf(gran.request("GET", first_link).text())
        assert csrf(gran.request("GET", second_link).text()) == token
        tab.cookies, other_tab.cookies = dict(gran.cookies), dict(gran.cookies)
        answers = at_once_to(
            [
                (tab, first_link, [("csrf", token), ("who", "player:Bob")]),
                (other_tab, second_link, [("csrf", token), ("who", "player:Cy")]),
            ]
        )
        assert answers == [303, 303]
        # Whichever tab's cookie the browser keeps, it is still the host at home and Bob and Cy at the others.
        for kept in (tab, other_tab):
            assert "Phones at this table" in kept.request("GET", f"/t/{home}").text()
            assert "You&#39;re Bob" in strip_of(kept, first)
            assert "You&#39;re Cy" in strip_of(kept, second)
    finally:
        for phone in (gran, ann, bob, tab, other_tab):
            phone.close()
