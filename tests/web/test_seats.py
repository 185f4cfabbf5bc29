"""A seat is one phone's: a phone that died is replaced by a new one, the host's phone included.

What goes wrong without it: Bob's battery runs out and his new phone becomes a second Bob (both cued "Your turn!",
the host's list shows two "Bob's phone [Remove]" rows alike); the host's phone dies at a table where only it
enters cards, and nobody can go on. So a held seat is shown as held, taking it over asks once, the old phone
only watches and is told why, and the host's seat carries the host with it.
"""

from __future__ import annotations

from conftest import Api, finish_game
from flask import Flask
from werkzeug.test import TestResponse

from referee.service import Operator

from .conftest import Phone, parse
from .test_asking import section_text, watch_by_code
from .test_join import forged_tap, host_join_link, join, join_path

FAMILY = ["Ann", "Bob", "Cy"]


def devices(app: Flask, code: str) -> list[tuple[str, str | None, str]]:
    """The phones at the table as stored: (label, player, role), removed ones left out."""
    return [(d.label, d.player, d.role) for d in app.extensions["referee"].devices(code) if not d.revoked]


def bob_joined(host: Phone, bob: Phone) -> tuple[str, str]:
    """The host's phone starts the family table and Bob's phone joins by its link; return (code, join path)."""
    code = host.start(FAMILY)
    link = join_path(host_join_link(host))
    join(bob, link, "Bob")
    return code, link


def who_buttons(phone: Phone) -> list[str]:
    """The choices of "Who are you?" on the open page, as read."""
    return list(phone.page.find("form").buttons())


def test_a_held_seat_is_shown_held_and_taking_it_asks_once(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code, link = bob_joined(phone, other_phone)
    new_phone = Phone(app.test_client())
    new_phone.open(link)
    assert who_buttons(new_phone)[:3] == ["Ann", "Bob — on another phone", "Cy"]
    revision = app.extensions["referee"].view(code).revision

    # Tapping Bob asks; nothing has changed yet, and Back goes back to the choices.
    response = new_phone.press("Bob — on another phone")
    assert response.status_code == 200
    assert new_phone.page.find("h1").text() == "Bob is on another phone. Is this Bob's new phone?"
    assert "The other phone then only watches, and it is told so." in new_phone.page.text()
    back = new_phone.page.find("a", href=link)
    assert back is not None and back.text() == "Back"
    assert app.extensions["referee"].view(code).revision == revision
    assert devices(app, code) == [("Host", None, "host"), ("Bob's phone", "Bob", "player")]

    # Yes: the new phone is Bob's, and says so.
    response = new_phone.press("Yes, I'm Bob on this phone")
    assert response.status_code == 303
    new_phone.follow(response)
    assert "You're Bob on this phone now. The old phone only watches." in section_text(new_phone, "banner")
    assert "You're Bob" in section_text(new_phone, "strip")
    assert "7" in new_phone.page.cards()
    assert devices(app, code) == [
        ("Host", None, "host"),
        ("Bob's old phone", None, "watcher"),
        ("Bob's phone", "Bob", "player"),
    ]

    # The old phone is told at its next refresh (the live stream asks for it), and only watches.
    answer = other_phone.refresh()
    assert answer.status_code == 200
    told = parse(answer.get_data(as_text=True)).by_id("strip").text()
    assert "Bob is on another phone now: this phone only watches." in told
    assert "You're Bob" not in told
    other_phone.open(f"/t/{code}")
    assert "Bob is on another phone now: this phone only watches." in section_text(other_phone, "strip")
    assert other_phone.page.find("form", id="pad-form") is None
    assert forged_tap(other_phone, code) == 403
    assert app.extensions["referee"].view(code).version == 0

    # The host's list: one Bob's phone, and every row reads unlike the others.
    phone.open(f"/t/{code}")
    rows = [item.text() for item in phone.page.find("ul", class_="devices").find_all("li")]
    assert sum(row.startswith("Bob's phone") for row in rows) == 1
    assert any(row.startswith("Bob's old phone") for row in rows)
    removes = [name for name in phone.page.find("ul", class_="devices").buttons() if name.startswith("Remove")]
    assert len(removes) == len(set(removes)) == 2


def test_the_old_phone_can_take_its_seat_back_and_stale_pages_ask_too(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    code, link = bob_joined(phone, other_phone)
    intruder = Phone(app.test_client())
    intruder.open(link)
    intruder.follow(_take(intruder, "Bob"))
    # Bob's real phone picks Bob again from the link in its history: asked, then its seat is back.
    other_phone.open(link)
    assert "Bob — on another phone" in who_buttons(other_phone)
    other_phone.press("Bob — on another phone")
    other_phone.follow(other_phone.press("Yes, I'm Bob on this phone"))
    assert "You're Bob" in section_text(other_phone, "strip")
    intruder.open(f"/t/{code}")
    assert "Bob is on another phone now: this phone only watches." in section_text(intruder, "strip")
    assert [row for row in devices(app, code) if row[1] == "Bob"] == [("Bob's phone", "Bob", "player")]


def _take(phone: Phone, name: str) -> TestResponse:
    """Pick `name`'s held seat on the open "Who are you?" page and say yes."""
    phone.press(f"{name} — on another phone")
    return phone.press(f"Yes, I'm {name} on this phone")


def test_a_new_phone_takes_over_the_seat_of_a_host_that_plays_and_becomes_the_host(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    # The house rule "only this phone enters cards": with the host's phone dead, nobody could go on.
    code = phone.start(FAMILY, entry="host")
    assert app.extensions["referee"].view(code).entry == "host"
    phone.open(f"/t/{code}/lobby")
    phone.follow(phone.press("I'm Ann"))
    link = join_path(host_join_link_of(phone, code))
    join(other_phone, link, "Bob")
    new_phone = Phone(app.test_client())
    new_phone.open(link)
    assert who_buttons(new_phone)[:3] == ["Ann — on another phone", "Bob — on another phone", "Cy"]
    assert "I'm keeping score (the host's phone is gone)" not in who_buttons(new_phone)  # the host plays Ann
    new_phone.press("Ann — on another phone")
    assert new_phone.page.find("h1").text() == "Ann is on another phone. Is this Ann's new phone?"
    assert "this phone becomes the host too" in new_phone.page.text()
    new_phone.follow(new_phone.press("Yes, I'm Ann on this phone"))
    assert "You're Ann, and this phone is the host now." in section_text(new_phone, "banner")
    assert devices(app, code) == [
        ("Ann's old phone (was the host)", None, "watcher"),
        ("Bob's phone", "Bob", "player"),
        ("Ann's phone", "Ann", "host"),
    ]

    # The new host phone enters cards and manages the table: phones, join link, who may enter cards.
    assert new_phone.press("7", htmx=True).status_code == 200
    new_phone.open(f"/t/{code}")
    panel = new_phone.page.find("ul", class_="devices")
    assert panel is not None and "Ann's phone (this phone)" in panel.text()
    old = next(d for d in app.extensions["referee"].devices(code) if d.label.startswith("Ann's old phone"))
    remove = next(name for name in panel.buttons() if name.startswith("Remove Ann's old phone"))
    new_phone.follow(new_phone.press(remove, within=panel))
    assert next(d for d in app.extensions["referee"].devices(code) if d.id == old.id).revoked

    # The old host phone was told (before it was removed), and has no host rights left.
    phone.open(f"/t/{code}")
    assert phone.page.find("ul", class_="devices") is None
    assert phone.open(f"/t/{code}/lobby").status_code == 302
    assert app.extensions["referee"].view(code).state.total == 7


def test_at_a_host_only_table_a_players_phone_shows_the_link_a_new_host_phone_needs(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    """With "only this phone enters cards", players' phones show the join link too: were it only on the host's
    phone, once that died nobody could bring Ann back on a borrowed phone, and nobody could enter cards."""
    code = phone.start(FAMILY, entry="host")
    phone.open(f"/t/{code}/lobby")
    phone.follow(phone.press("I'm Ann"))
    join(other_phone, join_path(host_join_link_of(phone, code)), "Bob")
    # Ann's phone dies. Bob's phone follows the game, and shows the join link and its QR code.
    other_phone.open(f"/t/{code}")
    assert other_phone.page.find("form", id="pad-form") is None
    assert other_phone.client.get(f"/t/{code}/qr.svg").status_code == 200
    borrowed = Phone(app.test_client())
    borrowed.open(join_path(host_join_link(other_phone)))
    borrowed.follow(_take(borrowed, "Ann"))
    assert "You're Ann, and this phone is the host now." in section_text(borrowed, "banner")
    assert borrowed.press("7", htmx=True).status_code == 200
    assert app.extensions["referee"].view(code).state.total == 7


def host_join_link_of(phone: Phone, code: str) -> str:
    """The join link on the host's table page."""
    phone.open(f"/t/{code}")
    return host_join_link(phone)


def test_the_old_host_phone_is_told_in_plain_words(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(FAMILY, entry="host")
    phone.open(f"/t/{code}/lobby")
    phone.follow(phone.press("I'm Ann"))
    link = join_path(host_join_link_of(phone, code))
    other_phone.open(link)
    other_phone.follow(_take(other_phone, "Ann"))
    phone.open(f"/t/{code}")
    strip = section_text(phone, "strip")
    assert "Ann is on another phone now, and that phone is the host: this phone only watches." in strip
    assert phone.page.find("form", id="pad-form") is None
    assert forged_tap(phone, code) == 403
    # Its own "Which one is you?" page is no longer its: it goes to the table.
    assert phone.open(f"/t/{code}/me").status_code == 302


def test_a_new_phone_takes_over_a_host_that_keeps_score(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(FAMILY, entry="host")
    phone.open(f"/t/{code}/lobby")
    phone.follow(phone.press("I'm only keeping score"))
    link = join_path(host_join_link_of(phone, code))
    other_phone.open(link)
    other_phone.press("I'm keeping score (the host's phone is gone)")
    assert other_phone.page.find("h1").text() == "The host is on another phone. Is this the host's new phone?"
    assert devices(app, code) == [("Host (keeping score)", None, "host")]  # asked, nothing changed yet
    other_phone.follow(other_phone.press("Yes, this phone is the host now"))
    assert "This phone is the host now: it keeps score." in section_text(other_phone, "banner")
    assert "You're the host" in section_text(other_phone, "strip")
    assert "7" in other_phone.page.cards()
    assert devices(app, code) == [("The host's old phone", None, "watcher"), ("Host (keeping score)", None, "host")]
    phone.open(f"/t/{code}")
    assert "The host is on another phone now: this phone only watches." in section_text(phone, "strip")
    # The new host makes a new join link: the old link no longer lets phones in.
    other_phone.follow(other_phone.press("New join link"))
    assert Phone(app.test_client()).open(link).status_code == 403


def test_taking_over_a_host_is_refused_in_words_when_it_cannot_be(api: Api, app: Flask) -> None:
    # A table made through the API has no host's phone: the choice is not offered, and a forged post is refused.
    api_table = api.create(FAMILY)["code"]
    phone = Phone(app.test_client())
    link = f"/j/{api_table}/{app.extensions['referee'].view(api_table).join_secret}"
    phone.open(link)
    assert "I'm keeping score (the host's phone is gone)" not in who_buttons(phone)
    response = phone.press("Just watching", who="host")
    assert response.status_code == 422
    assert "This table has no host's phone to take over" in phone.page.text()
    assert devices(app, api_table) == []


def test_a_host_that_plays_is_taken_over_through_its_seat(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(FAMILY)
    phone.open(f"/t/{code}/lobby")
    phone.follow(phone.press("I'm Ann"))
    other_phone.open(join_path(host_join_link_of(phone, code)))
    response = other_phone.press("Just watching", who="host", take="yes")
    assert response.status_code == 422
    assert "The host's phone is Ann's: to take it over, pick Ann." in other_phone.page.text()
    assert devices(app, code) == [("Ann's phone", "Ann", "host")]


def test_the_hosts_phone_takes_a_held_seat_after_a_yes(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(FAMILY)
    join(other_phone, host_join_link(phone), "Bob")
    phone.open(f"/t/{code}/lobby")
    seats = phone.page.by_id("seats")
    assert "remove that phone first" not in seats.text()  # the lobby has no list of phones to remove it from
    response = phone.press("I'm Bob — on another phone")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{code}/me?take=Bob&back=lobby")
    phone.follow(response)
    assert "Bob is on another phone. Is this Bob's new phone?" in phone.page.text()
    back = phone.page.find("a", href=f"/t/{code}/lobby")
    assert back is not None and back.text() == "Back"
    assert devices(app, code)[1] == ("Bob's phone", "Bob", "player")
    phone.follow(phone.press("Yes, I'm Bob on this phone"))
    assert phone.url == f"/t/{code}/lobby"
    assert "This phone is Bob's now; it is still the host." in phone.page.text()
    assert devices(app, code) == [("Bob's phone", "Bob", "host"), ("Bob's old phone", None, "watcher")]
    other_phone.open(f"/t/{code}")
    assert "Bob is on another phone now, and that phone is the host" not in section_text(other_phone, "strip")
    assert "Bob is on another phone now: this phone only watches." in section_text(other_phone, "strip")


def test_two_rows_alike_are_told_apart(phone: Phone, app: Flask) -> None:
    code = phone.start(FAMILY)
    link = host_join_link(phone)
    referee = app.extensions["referee"]
    referee.clock = lambda: 1_763_900_000.0  # both join in the same minute
    for _ in range(2):
        join(Phone(app.test_client()), link, "Just watching")
    phone.open(f"/t/{code}")
    listed = phone.page.find("ul", class_="devices")
    removes = [name for name in listed.buttons() if name.startswith("Remove")]
    assert len(removes) == 2 and removes[1] == removes[0] + " (2)"
    assert all(name.startswith("Remove Watching, joined ") for name in removes)
    rows = [item.text() for item in listed.find_all("li")]
    assert rows[1] != rows[2]


def test_the_host_tapping_a_held_seat_on_its_own_join_link_is_asked_too(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    code, link = bob_joined(phone, other_phone)
    response = phone.client.post(link, data={"csrf": phone.csrf, "who": "player:Bob"})
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{code}/me?take=Bob&back=me")
    phone.follow(response)
    assert "Bob is on another phone. Is this Bob's new phone?" in phone.page.text()
    assert devices(app, code)[1] == ("Bob's phone", "Bob", "player")
    # Once Bob's seat is free again (his phone removed), the same address asks nothing.
    bob = next(d for d in app.extensions["referee"].devices(code) if d.player == "Bob")
    app.extensions["referee"].revoke(code, bob.id, actor=Operator())
    phone.open(f"/t/{code}/me?take=Bob&back=me")
    assert "Is this Bob's new phone?" not in phone.page.text()
    assert "I'm Bob" in phone.page.buttons()


def test_a_yes_that_names_no_phone_asks_and_a_seat_freed_meanwhile_is_simply_taken(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    code, link = bob_joined(phone, other_phone)
    new_phone = Phone(app.test_client())
    new_phone.open(link)
    # A yes from an old page (or a made-up one) that does not name the phone it takes from: asked, nothing taken.
    response = new_phone.press("Bob — on another phone", take="yes")
    assert response.status_code == 200
    assert new_phone.page.find("h1").text() == "Bob is on another phone. Is this Bob's new phone?"
    assert devices(app, code)[1] == ("Bob's phone", "Bob", "player")
    # Bob's phone switches to watching while the question is open: the yes then takes a free seat, no one's.
    join(other_phone, link, "Just watching")
    response = new_phone.press("Yes, I'm Bob on this phone")
    assert response.status_code == 303
    new_phone.follow(response)
    assert "You're Bob" in section_text(new_phone, "strip")
    assert "The old phone only watches" not in section_text(new_phone, "banner")
    assert devices(app, code) == [
        ("Host", None, "host"),
        ("Watching", None, "watcher"),
        ("Bob's phone", "Bob", "player"),
    ]


def test_the_hosts_yes_after_another_phone_took_the_seat_is_refused_and_asked_again(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    code, link = bob_joined(phone, other_phone)
    phone.open(f"/t/{code}/me?take=Bob&back=me")
    assert "Bob is on another phone. Is this Bob's new phone?" in phone.page.text()
    # Meanwhile Bob's new phone takes his seat through the link.
    new_bob = Phone(app.test_client())
    new_bob.open(link)
    new_bob.follow(_take(new_bob, "Bob"))
    # The host's phone says yes to the question it was asked: refused in words, nothing taken, asked again.
    phone.follow(phone.press("Yes, I'm Bob on this phone"))
    assert phone.url == f"/t/{code}/me?take=Bob&back=me"
    said = phone.page.text()
    assert "Someone else's phone took Bob's seat a moment ago; this phone is not Bob's." in said
    assert "Bob is on another phone. Is this Bob's new phone?" in said
    assert [row for row in devices(app, code) if row[1] == "Bob"] == [("Bob's phone", "Bob", "player")]
    assert devices(app, code)[0] == ("Host", None, "host")
    # Asked again, a yes now takes it from the phone that holds it.
    phone.follow(phone.press("Yes, I'm Bob on this phone"))
    assert "This phone is Bob's now; it is still the host." in phone.page.text()
    assert devices(app, code)[0] == ("Bob's phone", "Bob", "host")


OLD_HOST = "Ann is on another phone now, and that phone is the host: this phone only watches."


def test_a_displaced_host_phone_is_told_everywhere_and_the_new_one_is_the_host_in_full(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    code = phone.start(FAMILY)
    phone.open(f"/t/{code}/lobby")
    phone.follow(phone.press("I'm Ann"))
    link = join_path(host_join_link_of(phone, code))
    join(other_phone, link, "Bob")
    phone.open(f"/t/{code}")  # the host's pages, as they were before its phone died
    old_table = phone.page
    phone.open(f"/t/{code}/lobby")
    old_lobby = phone.page
    phone.open(f"/t/{code}/me")
    old_me = phone.page
    new_ann = Phone(app.test_client())
    new_ann.open(link)
    new_ann.follow(_take(new_ann, "Ann"))
    referee = app.extensions["referee"]
    secret, revision = referee.view(code).join_secret, referee.view(code).revision

    # The old host phone's lobby, refreshed live, goes to the table (not the table page inside its list)...
    seats = old_lobby.by_id("seats")
    answer = phone.client.get(seats["hx-get"], headers={"HX-Request": "true"})
    assert (answer.status_code, answer.headers["HX-Redirect"]) == (204, f"/t/{code}")
    # ... where it is told why it only watches, and has no QR code, link or list of phones.
    phone.open(f"/t/{code}")
    assert OLD_HOST in section_text(phone, "strip")
    assert phone.page.find(id="join").has("hidden") and phone.page.find("a", class_="join-link") is None
    assert section_text(phone, "qr-link") == ""
    assert phone.client.get(f"/t/{code}/qr.svg").status_code == 403
    # Forms the old phone still shows from before are refused in the same words, and change nothing.
    phone.page = old_table
    devices_panel = old_table.find("ul", class_="devices")
    for pressed in ("New join link", "Save", next(n for n in devices_panel.buttons() if n.startswith("Remove"))):
        response = phone.press(pressed)
        assert response.status_code == 403 and OLD_HOST in phone.page.text(), pressed
        phone.page = old_table
    assert phone.press("7", htmx=True).status_code == 403 and OLD_HOST in section_text(phone, "banner")
    phone.page = old_me
    back = phone.follow(phone.press("I'm only keeping score"))
    phone.follow(back)  # its "Which one is you?" is no longer its own: on to the table
    assert phone.url == f"/t/{code}"
    assert OLD_HOST in section_text(phone, "banner")
    assert "Only the phone that started this table" not in phone.page.text()
    assert (referee.view(code).join_secret, referee.view(code).revision) == (secret, revision)

    # The new phone is the host in full: the lobby with its QR code and link, "Which one is you?", requests.
    new_ann.open(f"/t/{code}/lobby")
    assert new_ann.page.find("img", class_="big-qr") is not None
    assert new_ann.page.find("a", class_="join-link")["href"].endswith(link)
    assert "This phone is Ann's (and the host's)." in new_ann.page.text()
    asker = Phone(app.test_client())
    watch_by_code(asker, code)
    asker.follow(asker.press("Ask to be Cy"))
    new_ann.open(f"/t/{code}")
    new_ann.follow(new_ann.press("Allow: this phone becomes Cy"))
    assert "Allowed: that phone is Cy's now." in section_text(new_ann, "banner")
    # At game over the rematch's settings are the new host's to change, not the old phone's.
    finish_game(app, code)
    phone.open(f"/t/{code}")
    assert phone.page.find("form", class_="rematch-form") is None
    new_ann.open(f"/t/{code}")
    assert new_ann.page.find("form", class_="rematch-form") is not None
    response = new_ann.press("Rematch with these changes", first="2")
    rematch = referee.view(response.headers["Location"].removeprefix("/t/"))
    assert rematch.setup.first_player == "Cy"
    # At the rematch the new phone is still the host, and the old one still only watches and is told why.
    new_ann.follow(response)
    assert "New game. Changed by the host: Cy starts." in section_text(new_ann, "rematch-note")
    assert new_ann.page.find("ul", class_="devices") is not None
    phone.open(f"/t/{rematch.code}")
    assert OLD_HOST in section_text(phone, "strip") and phone.page.find("ul", class_="devices") is None
