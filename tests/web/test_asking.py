"""Asking to play with plain forms, no JavaScript: a phone that typed the code asks to be a
free seat; the host's phone allows or refuses from the table page or the lobby."""

from __future__ import annotations

import time

from flask import Flask

from .conftest import Phone, drive
from .test_join import host_join_link, join, remove_button


def watch_by_code(phone: Phone, code: str) -> None:
    """Type the table code on the home page and tap Watch."""
    phone.open("/")
    form = phone.page.find("form", class_="watch-form")
    assert form is not None and form["method"] == "get"
    phone.follow(phone.client.get(f"{form['action']}?code={code.lower()}"))
    assert phone.url == f"/t/{code}"


def phone_at(app: Flask, address: str) -> Phone:
    """A phone of its own on the Wi-Fi: its own address, as every phone on a home network has."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return Phone(client)


def section_text(phone: Phone, element_id: str) -> str:
    """The text of a region of the open page ('' when it is not there)."""
    node = phone.page.find(id=element_id)
    return node.text() if node is not None else ""


def test_a_phone_that_typed_the_code_asks_and_the_host_allows(phone: Phone, other_phone: Phone) -> None:
    code = phone.start(["Ann", "Bob", "Dee"])
    watch_by_code(other_phone, code)
    assert "You are watching" in section_text(other_phone, "pad")
    assert other_phone.page.find("form", class_="pad") is None
    # Every free seat can be asked for; watching stays the default.
    asks = [name for name in other_phone.page.by_id("ask").buttons() if name.startswith("Ask to be")]
    assert asks == ["Ask to be Ann", "Ask to be Bob", "Ask to be Dee"]
    other_phone.follow(other_phone.press("Ask to be Dee"))
    assert "You asked to be Dee" in section_text(other_phone, "ask")
    assert other_phone.page.find("form", class_="pad") is None  # not a player until the host says so

    phone.open(f"/t/{code}")
    assert "A phone wants to be Dee — allow?" in section_text(phone, "requests")
    phone.follow(phone.press("Allow: this phone becomes Dee"))
    assert "Allowed: that phone is Dee's now." in section_text(phone, "banner")
    assert phone.page.find(id="requests") is None  # answered: off the list

    other_phone.open(f"/t/{code}")
    assert "You're Dee" in section_text(other_phone, "strip")
    assert other_phone.page.find("form", class_="pad") is not None
    assert other_phone.page.find(id="ask") is None
    # The host's list of phones shows it like a phone that picked Dee through the join link.
    phone.open(f"/t/{code}")
    assert "Dee's phone" in section_text(phone, "join")


def test_a_refused_phone_is_told_and_keeps_watching(phone: Phone, other_phone: Phone) -> None:
    code = phone.start(["Ann", "Bob"])
    watch_by_code(other_phone, code)
    other_phone.follow(other_phone.press("Ask to be Bob"))
    phone.open(f"/t/{code}")
    phone.follow(phone.press("Refuse the request to be Bob"))
    assert "keeps watching, and is told so" in section_text(phone, "banner")
    other_phone.open(f"/t/{code}")
    assert "The host said no: this phone is not Bob, it keeps watching." in section_text(other_phone, "ask")
    assert other_phone.page.find("form", class_="pad") is None
    assert "Ask to be Bob" in other_phone.page.by_id("ask").buttons()  # it may ask again


def test_a_refused_phone_waits_a_minute_before_asking_again(phone: Phone, other_phone: Phone, app: Flask) -> None:
    """A phone the host refused cannot ask again at once, and again, each time on the host's list (it once could)."""
    code = phone.start(["Ann", "Bob"])
    watch_by_code(other_phone, code)
    other_phone.follow(other_phone.press("Ask to be Bob"))
    phone.open(f"/t/{code}")
    phone.follow(phone.press("Refuse the request to be Bob"))
    other_phone.open(f"/t/{code}")
    assert "The host said no: this phone is not Bob, it keeps watching. You can ask again in a minute." in section_text(
        other_phone, "ask"
    )
    other_phone.follow(other_phone.press("Ask to be Bob"))
    assert "The host said no a moment ago. If you still want to play, ask again in a minute." in section_text(
        other_phone, "banner"
    )
    phone.open(f"/t/{code}")
    assert phone.page.find(id="requests") is None  # the host is not asked again

    move_clock(app, 1.1)
    other_phone.open(f"/t/{code}")
    assert "ask again in a minute" not in section_text(other_phone, "ask")
    other_phone.follow(other_phone.press("Ask to be Bob"))
    assert "You asked to be Bob" in section_text(other_phone, "ask")
    phone.open(f"/t/{code}")
    assert "A phone wants to be Bob — allow?" in section_text(phone, "requests")


def test_asking_twice_keeps_one_request_and_cancelling_withdraws_it(phone: Phone, other_phone: Phone) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    watch_by_code(other_phone, code)
    other_phone.follow(other_phone.press("Ask to be Bob"))
    other_phone.follow(other_phone.press("Cancel my request"))
    other_phone.follow(other_phone.press("Ask to be Cy"))
    phone.open(f"/t/{code}")
    assert section_text(phone, "requests").count("A phone wants to be") == 1
    assert "wants to be Cy" in section_text(phone, "requests")
    other_phone.follow(other_phone.press("Cancel my request"))
    phone.open(f"/t/{code}")
    assert phone.page.find(id="requests") is None
    assert "Playing at this table?" in section_text(other_phone, "ask")


def test_many_phones_ask_and_the_host_sees_them_in_the_lobby(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    askers = [phone_at(app, f"192.168.1.{20 + number}") for number in range(3)]
    for asker, seat in zip(askers, ["Ann", "Bob", "Bob"], strict=True):
        watch_by_code(asker, code)
        asker.follow(asker.press(f"Ask to be {seat}"))
    phone.open(f"/t/{code}/lobby")
    listed = [item.text() for item in phone.page.by_id("requests").find_all("li")]
    assert [text.split(" — ")[0] for text in listed] == [
        "A phone wants to be Ann",
        "A phone wants to be Bob",
        "A phone wants to be Bob",
    ]
    # Allowing the first Bob closes the other Bob request: that seat has its phone now.
    bob_buttons = [b for b in phone.page.by_id("requests").find_all("button") if b.name.endswith("becomes Bob")]
    response = phone.submit(bob_buttons[0].ancestor("form"), bob_buttons[0])
    assert response.headers["Location"].endswith(f"/t/{code}/lobby")
    phone.follow(response)
    assert [item.text().split(" — ")[0] for item in phone.page.by_id("requests").find_all("li")] == [
        "A phone wants to be Ann"
    ]
    assert "Bob has joined" in section_text(phone, "seats")
    askers[2].open(f"/t/{code}")
    assert "Another phone became Bob before the host answered" in section_text(askers[2], "ask")
    assert "Ask to be Bob" not in askers[2].page.by_id("ask").buttons()


def test_a_seat_taken_meanwhile_cannot_be_asked_for_or_allowed(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob"])
    link = host_join_link(phone)
    watch_by_code(other_phone, code)
    ask_form = other_phone.button("Ask to be Bob").ancestor("form")
    # Another phone takes Bob's seat through the join link while this page still offers it.
    join(Phone(app.test_client()), link, "Bob")
    other_phone.follow(other_phone.submit(ask_form))
    assert "Bob's seat is taken: another phone is Bob. Pick another seat." in section_text(other_phone, "banner")
    assert "Ask to be Bob" not in other_phone.page.by_id("ask").buttons()
    phone.open(f"/t/{code}")
    assert phone.page.find(id="requests") is None


def test_the_host_phone_and_removed_phones_cannot_ask(phone: Phone, other_phone: Phone) -> None:
    code = phone.start(["Ann", "Bob"])
    assert phone.page.find(id="ask") is None  # the host enters cards already
    join(other_phone, host_join_link(phone), "Just watching")
    assert "Ask to be Ann" in other_phone.page.by_id("ask").buttons()
    form = other_phone.button("Ask to be Ann").ancestor("form")
    phone.open(f"/t/{code}")
    phone.follow(phone.press(remove_button(phone, phone.client.application, code, "Watching")))
    other_phone.follow(other_phone.submit(form))
    assert "The host removed this phone from the table." in section_text(other_phone, "banner")
    phone.open(f"/t/{code}")
    assert phone.page.find(id="requests") is None


def test_in_host_only_mode_an_allowed_phone_is_the_player_but_does_not_enter_cards(
    phone: Phone, other_phone: Phone
) -> None:
    code = phone.start(["Ann", "Bob"], entry="host")
    watch_by_code(other_phone, code)
    assert "only the host's phone enters cards" in section_text(other_phone, "ask")
    other_phone.follow(other_phone.press("Ask to be Bob"))
    phone.open(f"/t/{code}")
    phone.follow(phone.press("Allow: this phone becomes Bob"))
    other_phone.open(f"/t/{code}")
    assert "You're Bob" in section_text(other_phone, "strip")
    assert other_phone.page.find("form", class_="pad") is None
    assert "Only the host's phone enters cards" in section_text(other_phone, "pad")


def test_only_a_host_phone_answers_requests(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob"])
    watch_by_code(other_phone, code)
    other_phone.follow(other_phone.press("Ask to be Bob"))
    player = Phone(app.test_client())
    join(player, host_join_link(phone), "Ann")
    request_id = app.extensions["referee"].join_requests(code)[0].id
    for stranger in (player, other_phone):
        response = stranger.client.post(f"/t/{code}/requests/{request_id}/allow", data={"csrf": stranger.csrf})
        assert response.status_code == 403
    assert [r.status for r in app.extensions["referee"].join_requests(code)] == ["pending"]


def twelve_ask_then_one_more(phone: Phone, app: Flask, *, minutes_between: float = 0) -> tuple[str, Phone]:
    """Twelve phones ask to be Ann; `minutes_between` later a thirteenth asks to be Bob. Return code and phone."""
    code = phone.start(["Ann", "Bob"])
    for number in range(12):
        asker = phone_at(app, f"192.168.1.{20 + number}")
        watch_by_code(asker, code)
        asker.follow(asker.press("Ask to be Ann"))
    if minutes_between:
        move_clock(app, minutes_between)
    late = phone_at(app, "192.168.1.40")
    watch_by_code(late, code)
    late.follow(late.press("Ask to be Bob"))
    return code, late


def test_a_table_keeps_at_most_twelve_requests_waiting(phone: Phone, app: Flask) -> None:
    code, late = twelve_ask_then_one_more(phone, app)
    assert "The host has many requests to answer: wait a minute." in section_text(late, "banner")
    assert "Playing at this table?" in section_text(late, "ask")
    assert len(app.extensions["referee"].join_requests(code)) == 12


def move_clock(app: Flask, minutes: float) -> None:
    """The server's clock moves `minutes` ahead of the real one (from now on)."""
    app.extensions["referee"].clock = lambda: time.time() + minutes * 60


def test_a_request_left_unanswered_for_half_an_hour_expires_and_may_be_asked_again(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    code = phone.start(["Ann", "Bob"])
    watch_by_code(other_phone, code)
    other_phone.follow(other_phone.press("Ask to be Bob"))
    move_clock(app, 29)
    phone.open(f"/t/{code}")
    assert "A phone wants to be Bob — allow?" in section_text(phone, "requests")
    allow = phone.button("Allow: this phone becomes Bob").ancestor("form")

    move_clock(app, 31)
    phone.open(f"/t/{code}")
    assert phone.page.find(id="requests") is None  # off the host's list
    # The host's page was open before it expired: the answer is refused in words, and nothing changes.
    phone.follow(phone.submit(allow))
    assert "That request to be Bob waited over 30 minutes and was closed: that phone can ask again." in section_text(
        phone, "banner"
    )
    other_phone.open(f"/t/{code}")
    assert other_phone.page.find("form", class_="pad") is None
    assert (
        "Your request to be Bob waited 30 minutes without an answer, so it was closed. Ask again if you still want"
        in section_text(other_phone, "ask")
    )
    # Asking again is a new request: the host sees it, and it waits its own half hour.
    other_phone.follow(other_phone.press("Ask to be Bob"))
    assert "You asked to be Bob" in section_text(other_phone, "ask")
    phone.open(f"/t/{code}")
    phone.follow(phone.press("Allow: this phone becomes Bob"))
    other_phone.open(f"/t/{code}")
    assert "You're Bob" in section_text(other_phone, "strip")


def test_expired_requests_no_longer_count_toward_the_twelve(phone: Phone, app: Flask) -> None:
    code, late = twelve_ask_then_one_more(phone, app, minutes_between=31)
    assert "You asked to be Bob" in section_text(late, "ask")
    phone.open(f"/t/{code}")
    assert [item.text().split(" — ")[0] for item in phone.page.by_id("requests").find_all("li")] == [
        "A phone wants to be Bob"
    ]


def test_a_watching_phone_is_not_offered_the_seat_of_a_player_who_left(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    """A watcher cannot ask to be Cy once Cy has left the game (it once could)."""
    code = phone.start(["Ann", "Bob", "Cy"])
    drive(app, code, "Cy leaves")
    watch_by_code(other_phone, code)
    asks = [name for name in other_phone.page.by_id("ask").buttons() if name.startswith("Ask to be")]
    assert asks == ["Ask to be Ann", "Ask to be Bob"]
    drive(app, code, "undo")  # Cy is back: so is his seat
    other_phone.open(f"/t/{code}")
    asks = [name for name in other_phone.page.by_id("ask").buttons() if name.startswith("Ask to be")]
    assert asks == ["Ask to be Ann", "Ask to be Bob", "Ask to be Cy"]
