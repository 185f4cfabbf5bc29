"""The host's phone can be one of the players ("Which one is you?"), with plain forms and with htmx.

What goes wrong without it: a table "Gran, Max, Lily" started on Gran's phone waits in the lobby for Gran for ever,
Gran's phone never says "You're Gran" nor cues her turn, and Gran tapping her name on her own join link does nothing.
"""

from __future__ import annotations

from conftest import finish_game
from flask import Flask

from referee.engine import Card, Play
from referee.service import Operator

from .conftest import Phone
from .test_asking import section_text, watch_by_code
from .test_join import host_join_link, join, join_path

FAMILY = ["Gran", "Max", "Lily"]


def lobby(phone: Phone, code: str) -> None:
    """Open the table's lobby on this phone."""
    assert phone.open(f"/t/{code}/lobby").status_code == 200


def seat_ticks(phone: Phone) -> list[str]:
    """The lobby's "Who's here" lines, as read."""
    ticks = phone.page.find("ul", class_="seat-ticks")
    assert ticks is not None
    return [item.text() for item in ticks.find_all("li")]


def host_device(app: Flask, code: str) -> tuple[str | None, str]:
    """The host's phone's (player, label) as stored."""
    referee = app.extensions["referee"]
    host = next(d for d in referee.devices(code) if d.role == "host")
    return host.player, host.label


def test_gran_says_she_is_gran_in_the_lobby_and_her_phone_is_hers(phone: Phone, app: Flask) -> None:
    code = phone.start(FAMILY)
    lobby(phone, code)
    # The lobby asks, one button per player without a phone, and "only keeping score".
    assert "Which one is you?" in section_text(phone, "seats")
    choices = [name for name in phone.page.by_id("seats").buttons() if name.startswith("I'm")]
    assert choices == ["I'm Gran", "I'm Max", "I'm Lily", "I'm only keeping score"]
    assert "Gran waiting for a phone" in seat_ticks(phone)[0]

    response = phone.press("I'm Gran")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{code}/lobby")
    phone.follow(response)
    assert "This phone is Gran's now; it is still the host." in phone.page.text()
    assert seat_ticks(phone)[0] == "✓ Gran has joined"
    assert "Which one is you?" not in section_text(phone, "seats")  # answered: it stops asking
    assert "This phone is Gran's (and the host's)." in section_text(phone, "seats")

    # Gran's phone now says so, cues her turn, and keeps every host right (cards, phones, join link).
    phone.open(f"/t/{code}")
    assert "You're Gran" in section_text(phone, "strip")
    assert "Your turn!" in section_text(phone, "strip")
    assert "7" in phone.page.cards()
    devices = phone.page.find("ul", class_="devices")
    assert devices is not None and "Gran's phone (this phone)" in devices.text()
    assert host_device(app, code) == ("Gran", "Gran's phone")
    # The log names Gran's phone for the cards it enters, like any player's phone.
    phone.follow(phone.press("3"))
    assert phone.page.by_id("log").find(class_="by").text() == "· Gran's phone"
    assert "Your turn!" not in section_text(phone, "strip")


def test_gran_is_told_when_she_loses_a_life(phone: Phone, app: Flask) -> None:
    code = phone.start(FAMILY)
    lobby(phone, code)
    phone.press("I'm Gran")
    referee = app.extensions["referee"]
    referee.act(code, Play("Gran", Card.N3), actor=Operator())
    referee.act(code, Play("Max", Card.BOMB, ("Lily",)), actor=Operator())  # Gran holds no 0: she loses a life
    phone.open(f"/t/{code}")
    alert = phone.page.find(class_="you-lost")
    assert alert is not None and alert.text() == "You lost a life! 4 lives left."


def test_the_lobby_says_everyones_in_once_the_others_join(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(FAMILY)
    link = host_join_link(phone)
    lily = Phone(app.test_client())
    join(other_phone, link, "Max")
    join(lily, link, "Lily")
    lobby(phone, code)
    assert "Start without waiting" in phone.page.text()  # Gran has not said she is Gran yet
    # Max and Lily have phones: Gran's phone shows their seats as held (taking one asks first: test_seats.py).
    choices = [name for name in phone.page.by_id("seats").buttons() if name.startswith("I'm")]
    assert choices == [
        "I'm Gran",
        "I'm Max — on another phone",
        "I'm Lily — on another phone",
        "I'm only keeping score",
    ]
    phone.follow(phone.press("I'm Gran"))
    assert "Everyone's in — start" in phone.page.text()
    assert "Start without waiting" not in phone.page.text()


def test_a_seat_held_by_another_phone_asks_first_and_a_stale_page_too(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    code = phone.start(FAMILY)
    join(other_phone, host_join_link(phone), "Max")
    lobby(phone, code)
    assert "I'm Max" not in phone.page.by_id("seats").buttons()
    assert "I'm Max — on another phone" in phone.page.by_id("seats").buttons()
    revision = app.extensions["referee"].view(code).revision

    # A stale page (Max's phone joined after it was drawn) still posts Max: asked first, nothing changed.
    response = phone.press("I'm Gran", who="player:Max")
    phone.follow(response)
    assert "Max is on another phone. Is this Max's new phone?" in phone.page.text()
    assert host_device(app, code) == (None, "Host")
    assert app.extensions["referee"].view(code).revision == revision
    other_phone.open(f"/t/{code}")
    assert "You're Max" in section_text(other_phone, "strip")

    # Yes moves the seat (back to the lobby it was asked from), and Max's other phone only watches.
    assert phone.url == f"/t/{code}/me?take=Max&back=lobby"
    response = phone.press("Yes, I'm Max on this phone")
    assert response.headers["Location"].endswith(f"/t/{code}/lobby")
    phone.open(f"/t/{code}")
    assert "You're Max" in section_text(phone, "strip")
    assert host_device(app, code) == ("Max", "Max's phone")
    other_phone.open(f"/t/{code}")
    assert "Max is on another phone now: this phone only watches." in section_text(other_phone, "strip")


def test_the_host_changes_its_mind_from_the_table(phone: Phone, app: Flask) -> None:
    code = phone.start(FAMILY)
    phone.open(f"/t/{code}")
    panel = phone.page.by_id("join")
    assert "Which one is you?" in panel.text()
    phone.follow(phone.press("I'm only keeping score", within=panel))
    assert phone.url == f"/t/{code}"
    assert "This phone only keeps score now; it is still the host." in section_text(phone, "join")
    assert "You're the host" in section_text(phone, "strip")
    assert host_device(app, code) == (None, "Host (keeping score)")
    lobby(phone, code)
    assert "Which one is you?" not in section_text(phone, "seats")
    assert "This phone only keeps score (and is the host)." in section_text(phone, "seats")

    phone.open(f"/t/{code}")
    phone.follow(phone.press("I'm Lily", within=phone.page.by_id("join")))
    assert "You're Lily" in section_text(phone, "strip")
    phone.follow(phone.press("I'm Max", within=phone.page.by_id("join")))
    assert "You're Max" in section_text(phone, "strip")
    lobby(phone, code)
    assert [line.split()[1:] for line in seat_ticks(phone)] == [
        ["Gran", "waiting", "for", "a", "phone"],
        ["Max", "has", "joined"],
        ["Lily", "waiting", "for", "a", "phone"],
    ]


def test_the_host_opening_its_own_join_link_gets_a_clear_page(phone: Phone, app: Flask) -> None:
    code = phone.start(FAMILY)
    link = join_path(host_join_link(phone))
    response = phone.open(link)
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/t/{code}/me")
    phone.follow(response)
    assert phone.page.find("h1").text() == "This is your table"
    assert "This phone started table" in phone.page.text() and "it is the host" in phone.page.text()
    phone.follow(phone.press("I'm Gran"))
    assert phone.url == f"/t/{code}/me"
    assert "This phone is Gran's now; it is still the host." in phone.page.text()
    phone.open(f"/t/{code}")
    assert "You're Gran" in section_text(phone, "strip")


def test_the_host_tapping_its_name_on_its_own_join_form_is_taken(phone: Phone, app: Flask) -> None:
    # The join page as another phone sees it, posted with the host's cookie (a page opened before, a back button).
    code = phone.start(FAMILY)
    link = join_path(host_join_link(phone))
    csrf = phone.csrf
    response = phone.client.post(link, data={"csrf": csrf, "who": "player:Gran"})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{code}/me")
    phone.follow(response)
    assert "This phone is Gran's now; it is still the host." in phone.page.text()
    assert host_device(app, code) == ("Gran", "Gran's phone")
    # "Just watching" is not for the host: said in words, nothing changes.
    phone.follow(phone.client.post(link, data={"csrf": phone.csrf, "who": "watch"}))
    assert "it is the host: it can't only watch" in phone.page.text()
    assert host_device(app, code) == ("Gran", "Gran's phone")


def test_the_host_typing_its_own_code_gets_the_same_page(phone: Phone, other_phone: Phone) -> None:
    code = phone.start(FAMILY)
    phone.open("/")
    response = phone.client.get(f"/watch?code={code.lower()}")
    assert response.headers["Location"].endswith(f"/t/{code}/me")
    phone.follow(response)
    assert "I'm Gran" in phone.page.buttons()
    # Another phone typing the code still only watches.
    watch_by_code(other_phone, code)
    assert "You are watching" in section_text(other_phone, "pad")
    # And the host's page is not for it: it goes to the table.
    response = other_phone.open(f"/t/{code}/me")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/t/{code}")


def test_refusals_say_what_to_do_and_change_nothing(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(FAMILY)
    lobby(phone, code)
    revision = app.extensions["referee"].view(code).revision
    for who, said in (
        ("player:Nana", "Pick one of the players, or I'm only keeping score."),
        ("nobody", "Tap your name, or I'm only keeping score."),
    ):
        response = phone.press("I'm Gran", who=who)
        assert response.status_code == 303
        phone.follow(response)
        assert said in phone.page.text()
    # Without the CSRF token (a forged post from another site): refused the same way.
    phone.follow(phone.press("I'm Gran", csrf="forged"))
    assert "This page was stale" in phone.page.text()
    # A phone that is not the host cannot say it is the host's player.
    join(other_phone, host_join_link(phone), "Max")
    other_phone.follow(other_phone.client.post(f"/t/{code}/me", data={"csrf": other_phone.csrf, "who": "player:Gran"}))
    assert "Only the phone that started this table can say who it is here." in other_phone.page.text()
    assert host_device(app, code) == (None, "Host")
    assert "You're Max" in section_text(other_phone, "strip")
    assert app.extensions["referee"].view(code).revision == revision + 1  # Max's join, nothing else


def test_with_htmx_the_answer_navigates(phone: Phone, app: Flask) -> None:
    code = phone.start(FAMILY)
    lobby(phone, code)
    response = phone.press("I'm Lily", htmx=True)
    assert response.status_code == 204
    assert response.headers["HX-Redirect"] == f"/t/{code}/lobby"
    assert host_device(app, code) == ("Lily", "Lily's phone")


def test_a_request_for_the_hosts_seat_is_closed_and_not_allowed(phone: Phone, other_phone: Phone) -> None:
    code = phone.start(FAMILY)
    watch_by_code(other_phone, code)
    other_phone.follow(other_phone.press("Ask to be Gran"))
    lobby(phone, code)
    assert "A phone wants to be Gran — allow?" in section_text(phone, "seats")
    phone.follow(phone.press("I'm Gran"))
    assert "A phone wants to be Gran" not in section_text(phone, "seats")
    other_phone.open(f"/t/{code}")
    assert "Ask to be Gran" not in other_phone.page.by_id("ask").buttons()
    # Asking anyway (a stale page) is refused: Gran's seat has its phone.
    other_phone.follow(other_phone.press("Ask to be Max", player="Gran"))
    assert "Gran's seat is taken" in other_phone.page.text()


def test_the_host_is_still_gran_at_the_rematch(phone: Phone, app: Flask) -> None:
    code = phone.start(FAMILY)
    lobby(phone, code)
    phone.press("I'm Gran")
    finish_game(app, code)
    phone.open(f"/t/{code}")
    response = phone.press("Rematch with the same players")
    assert response.status_code == 303
    phone.follow(response)
    rematch = app.extensions["referee"].view(code).rematch_code
    assert phone.url == f"/t/{rematch}"
    assert "You're Gran" in section_text(phone, "strip")
    lobby(phone, rematch)
    assert "Which one is you?" not in section_text(phone, "seats")
    assert seat_ticks(phone)[0] == "✓ Gran has joined"
