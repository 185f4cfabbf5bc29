"""Joining by the QR link, watching by code, devices, revoking, and who may enter cards."""

from __future__ import annotations

import re
import time
from io import BytesIO
from typing import Any
from urllib.parse import urlsplit

import pytest
import qrcode
import qrcode.image.svg
from conftest import Api
from flask import Flask
from flask.testing import FlaskClient

from referee.engine import Card, Play
from referee.service import Operator

from .conftest import Phone, parse


def join_path(url: str) -> str:
    """The path of a join link (the test client needs no host)."""
    return urlsplit(url).path


def join(phone: Phone, link: str, who: str) -> str:
    """Open a join link and pick `who` (a player, or "Just watching"); return the table page path."""
    response = phone.open(join_path(link))
    assert response.status_code == 200
    response = phone.press(who)
    assert response.status_code == 303
    location = response.headers["Location"]
    phone.open(location)
    return location


def host_join_link(host: Phone) -> str:
    """The join link shown on the host's table page."""
    link = host.page.find("a", class_="join-link")
    assert link is not None
    return link["href"]


def joined_at(app: Flask, code: str, label: str) -> str:
    """When the (first) phone with this label joined, as the host's list says it ("20:14", the server's clock)."""
    device = next(d for d in app.extensions["referee"].devices(code) if d.label == label)
    return time.strftime("%H:%M", time.localtime(device.created_at))


def remove_button(phone: Phone, app: Flask, code: str, label: str) -> str:
    """The name of the Remove button of the phone with this label in the host's list."""
    return f"Remove {label}, joined {joined_at(app, code, label)}"


def bring_back_button(phone: Phone, app: Flask, code: str, label: str) -> str:
    """The name of the Bring back button of the removed phone with this label in the host's list."""
    return "Bring back " + remove_button(phone, app, code, label).removeprefix("Remove ")


def cy_removed(phone: Phone, other_phone: Phone, app: Flask) -> str:
    """A table of Ann, Bob and Cy where the host removed Cy's phone (`other_phone`); return its code."""
    code = phone.start(["Ann", "Bob", "Cy"])
    join(other_phone, host_join_link(phone), "Cy")
    phone.open(f"/t/{code}")
    phone.follow(phone.press(remove_button(phone, app, code, "Cy's phone")))
    return code


def total(phone: Phone) -> str:
    element = phone.page.find(aria_label="Running total")
    assert element is not None
    return element.text()


def test_join_link_asks_who_are_you(api: Api, other_phone: Phone) -> None:
    body = api.create(["Ann", "Bob", "Cy"])
    response = other_phone.open(join_path(body["join_url"]))
    assert response.status_code == 200
    assert other_phone.page.find("h1").text() == "Who are you?"
    # What picking a name does for the player (it said "so the log shows who entered each card").
    assert "this phone then tells you when it's your turn" in other_phone.page.text()
    # The link carries a write secret of at least 64 random bits.
    assert len(join_path(body["join_url"]).rsplit("/", 1)[1]) >= 16
    choices = list(other_phone.page.find("form").buttons())
    assert choices[:3] == ["Ann", "Bob", "Cy"]
    assert "Just watching" in choices


def test_a_joined_player_enters_cards_and_the_log_says_who(api: Api, other_phone: Phone, app: Flask) -> None:
    body = api.create(["Ann", "Bob", "Cy"])
    path = join(other_phone, body["join_url"], "Bob")
    assert path == f"/t/{api.code}"
    assert "7" in other_phone.page.by_id("pad").cards()
    response = other_phone.press("7", htmx=True)
    assert response.status_code == 200
    assert api.state()["total"] == 7
    # The newest line (the round's heading stands above it).
    line = next(item for item in other_phone.page.by_id("log").find_all("li") if "round-separator" not in item.classes)
    by = line.find(class_="by")
    assert by is not None and by.text() == "· Bob's phone"
    with app.app_context():
        events = app.extensions["referee"].store.read().execute("SELECT device_id, device_player FROM events")
        device_id, device_player = events.fetchone()
    assert device_id is not None and device_player == "Bob's phone"


def test_a_join_link_works_with_a_lower_case_code(api: Api, other_phone: Phone) -> None:
    body = api.create(["Ann", "Bob"])
    path = join_path(body["join_url"]).replace(api.code, api.code.lower())
    assert other_phone.open(path).status_code == 200


def forged_tap(phone: Phone, code: str) -> int:
    """Post Ann's 7 from this phone as if it had a card pad (htmx); return the status."""
    response = phone.client.post(
        f"/t/{code}/act",
        data={"kind": "play", "player": "Ann", "card": "7", "csrf": phone.csrf},
        headers={"HX-Request": "true"},
    )
    return response.status_code


def refused_to_enter(phone: Phone, api: Api) -> None:
    """This phone cannot enter cards: no pad, and a forged post is refused with the state unchanged."""
    phone.open(f"/t/{api.code}")
    assert phone.page.find("form", id="pad-form") is None
    buttons = phone.page.by_id("pad").buttons()
    assert "7" not in phone.page.by_id("pad").cards() and "Undo" not in buttons
    note = phone.page.by_id("pad").text()
    # A joined player under host-only entry is told why, not asked to scan a QR code it already scanned.
    assert "You are watching" in note or "Only the host's phone enters cards at this table" in note
    before = api.state()
    response = phone.client.post(
        f"/t/{api.code}/act",
        data={"kind": "play", "player": before["current"], "card": "1", "csrf": phone.csrf},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 403
    refusal = parse(response.get_data(as_text=True)).by_id("banner").text()
    # A seated player whose pad is out of date must not be told "This phone is only watching": the refusal
    # gives the board's own reason (host-only entry, a removed phone); a watcher is told it watches.
    assert ("only watching" in refusal) if "You are watching" in note else (note in refusal), (note, refusal)
    response = phone.client.post(
        f"/t/{api.code}/act", data={"kind": "undo", "csrf": phone.csrf, "version": str(before["version"])}
    )
    assert response.status_code == 303
    assert api.state() == before


def test_typing_the_code_only_watches(api: Api, other_phone: Phone) -> None:
    api.create(["Ann", "Bob"])
    api.play("Ann", "5")
    response = other_phone.open(f"/watch?code={api.code}")
    other_phone.follow(response)
    assert total(other_phone) == "5"
    # No join panel either: a watcher cannot pass the write link on.
    assert other_phone.page.find("a", class_="join-link") is None
    refused_to_enter(other_phone, api)


def test_just_watching_cannot_enter_cards(api: Api, other_phone: Phone) -> None:
    body = api.create(["Ann", "Bob"])
    join(other_phone, body["join_url"], "Just watching")
    refused_to_enter(other_phone, api)


def test_a_wrong_secret_gets_a_clear_page(api: Api, other_phone: Phone) -> None:
    body = api.create(["Ann", "Bob"])
    path = join_path(body["join_url"])
    wrong = path.rsplit("/", 1)[0] + "/not-the-secret"
    response = other_phone.open(wrong)
    assert response.status_code == 403
    assert "This link doesn't work" in other_phone.page.text()
    response = other_phone.client.post(wrong, data={"who": "Bob", "csrf": other_phone.csrf})
    assert response.status_code == 403
    response = other_phone.open("/j/NOSUCH/whatever")
    assert response.status_code == 404
    assert "No such table" in other_phone.page.text()
    refused_to_enter(other_phone, api)


def test_joining_as_someone_not_at_the_table_is_refused(api: Api, other_phone: Phone) -> None:
    body = api.create(["Ann", "Bob"])
    other_phone.open(join_path(body["join_url"]))
    response = other_phone.press("Ann", who="Zed")
    assert response.status_code == 400
    assert "Pick one of the players" in other_phone.page.text()


def test_a_join_without_the_csrf_token_is_refused(api: Api, other_phone: Phone) -> None:
    body = api.create(["Ann", "Bob"])
    response = other_phone.client.post(join_path(body["join_url"]), data={"who": "Bob"})
    assert response.status_code == 400
    refused_to_enter(other_phone, api)


def test_host_sees_devices_and_revokes_one(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    link = host_join_link(phone)
    assert f"/j/{code}/" in link
    join(other_phone, link, "Cy")
    assert "7" in other_phone.page.cards()

    phone.open(f"/t/{code}")
    devices = phone.page.find("ul", class_="devices")
    assert devices is not None
    labels = [item.text().split(" Remove")[0] for item in devices.find_all("li")]
    assert labels == [
        f"Host (this phone) · joined {joined_at(app, code, 'Host')}",
        "Cy's phone · joined " + joined_at(app, code, "Cy's phone"),
    ]
    assert not any(name.startswith("Remove Host") for name in devices.buttons())
    response = phone.press(remove_button(phone, app, code, "Cy's phone"), within=devices)
    assert response.status_code == 303
    phone.follow(response)
    assert "Removed Cy's phone: it can no longer enter cards." in phone.page.by_id("join").text()
    assert "removed" in phone.page.find("ul", class_="devices").text()

    referee = app.extensions["referee"]
    other_phone.open(f"/t/{code}")
    assert other_phone.page.find("form", id="pad-form") is None
    # Told why, not invited to scan a QR code that no longer lets it in.
    pad = other_phone.page.by_id("pad").text()
    assert "The host removed this phone from the table: it can follow the game, but not enter cards." in pad
    assert "If that was a mistake, the host can bring it back." in pad
    assert "scan" not in pad
    assert forged_tap(other_phone, code) == 403
    assert referee.view(code).version == 0
    # The revoked phone cannot come back: removing it replaced the link (so clearing cookies does not help) ...
    other_phone.open(join_path(link))
    assert "doesn't work" in other_phone.page.text()
    # ... and with the new link (seen over a shoulder) the same phone is still removed.
    new_link = host_join_link(phone)
    assert new_link != link
    other_phone.open(join_path(new_link))
    response = other_phone.press("Cy")
    assert response.status_code == 403
    assert "removed this phone" in other_phone.page.text()


def test_a_mistaken_remove_is_one_tap_to_undo(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = cy_removed(phone, other_phone, app)
    assert "A mistake? Tap Bring back beside it." in phone.page.by_id("join").text()
    assert forged_tap(other_phone, code) == 403
    link_after_removal = host_join_link(phone)

    response = phone.press(bring_back_button(phone, app, code, "Cy's phone"))
    assert response.status_code == 303
    phone.follow(response)
    assert "Cy's phone is back at the table." in phone.page.by_id("join").text()
    devices = phone.page.find("ul", class_="devices")
    assert devices is not None
    assert "removed" not in devices.text()
    assert any(name.startswith("Remove Cy's phone") for name in devices.buttons())
    # Cy's phone has its card pad back, still as Cy, and the link the removal made keeps working.
    other_phone.open(f"/t/{code}")
    assert other_phone.page.find("form", id="pad-form") is not None
    assert "You're Cy" in other_phone.page.by_id("strip").text()
    assert forged_tap(other_phone, code) == 200
    assert host_join_link(phone) == link_after_removal


def test_a_removed_phone_stays_out_once_another_phone_took_its_seat(
    phone: Phone, other_phone: Phone, app: Flask
) -> None:
    code = cy_removed(phone, other_phone, app)
    # Cy borrows a phone and joins with the new link.
    borrowed = Phone(app.test_client())
    join(borrowed, host_join_link(phone), "Cy")
    phone.open(f"/t/{code}")
    version = app.extensions["referee"].view(code).version

    # The removed phone is the first "Cy's phone" (the borrowed one's row says "(2)" if it joined the same minute).
    phone.follow(phone.press(bring_back_button(phone, app, code, "Cy's phone")))
    assert "Another phone is Cy's now, so Cy's phone stays removed." in phone.page.by_id("join").text()
    assert forged_tap(other_phone, code) == 403
    assert forged_tap(borrowed, code) == 200
    assert app.extensions["referee"].view(code).version == version + 1


def test_host_replaces_a_leaked_join_link(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    old_link = host_join_link(phone)
    old_qr = phone.page.find("img", class_="qr")["src"]
    join(other_phone, old_link, "Bob")

    response = phone.press("New join link")
    assert response.status_code == 303
    phone.follow(response)
    assert "The old QR code and link no longer let phones join" in phone.page.text()
    new_link = host_join_link(phone)
    assert new_link != old_link
    # A new picture URL too, so the host's phone cannot show the old code from its cache.
    assert phone.page.find("img", class_="qr")["src"] != old_qr

    stranger = Phone(app.test_client())
    assert stranger.open(join_path(old_link)).status_code == 403
    assert "This join link is wrong or was replaced" in stranger.page.text()
    response = stranger.client.post(join_path(old_link), data={"who": "player:Cy", "csrf": stranger.csrf})
    assert response.status_code == 403
    assert [device.label for device in app.extensions["referee"].devices(code)] == ["Host", "Bob's phone"]
    # Bob's phone, which joined before, still enters cards; the new link works for Cy.
    other_phone.open(f"/t/{code}")
    assert other_phone.press("7", htmx=True).status_code == 200
    late = Phone(app.test_client())
    join(late, new_link, "Cy")
    assert "7" in late.page.by_id("pad").cards()


def test_the_join_panel_follows_live_when_it_changes(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy"])
    join(other_phone, host_join_link(phone), "Bob")
    referee = app.extensions["referee"]
    # A change the panel does not show (a card) refreshes the board only.
    other_phone.open(f"/t/{code}")
    referee.act(code, Play("Ann", Card.N7), actor=Operator())
    answer = parse(other_phone.refresh().get_data(as_text=True))
    assert answer.by_id("board") is not None and answer.find(id="join") is None

    # A new join link: Bob's phone gets the new panel with the board (htmx swaps it by id).
    other_phone.open(f"/t/{code}")
    referee.new_join_link(code, actor=Operator())
    answer = parse(other_phone.refresh().get_data(as_text=True))
    panel = answer.find(id="join")
    assert panel is not None and panel["hx-swap-oob"] == "true"
    assert join_path(panel.find("a", class_="join-link")["href"]) == join_path_of(referee, code, app)

    # The host's list of phones follows too: a phone that joins, then is removed.
    phone.open(f"/t/{code}")
    late = Phone(app.test_client())
    join(late, join_path_of(referee, code, app), "Cy")
    answer = parse(phone.refresh().get_data(as_text=True))
    assert "Cy's phone" in answer.find(id="join").find("ul", class_="devices").text()
    # A phone that was removed loses the QR code and the link at its next refresh.
    cy_phone = next(d for d in referee.devices(code) if d.player == "Cy")
    late.open(f"/t/{code}")
    phone.open(f"/t/{code}")
    other_phone.open(f"/t/{code}")
    old_link = join_path_of(referee, code, app)
    old_qr = phone.page.find(id="join").find("img")["src"]
    referee.revoke(code, cy_phone.id, actor=Operator())
    answer = parse(late.refresh().get_data(as_text=True))
    gone = answer.find(id="join")
    assert gone is not None and gone.get("hidden") is not None and gone.find("img") is None
    # Removing a phone replaced the join link: the host's QR code and Bob's change live, and Bob is still in.
    new_link = join_path_of(referee, code, app)
    assert new_link != old_link
    for still_in in (phone, other_phone):
        panel = parse(still_in.refresh().get_data(as_text=True)).find(id="join")
        assert panel is not None and panel["hx-swap-oob"] == "true"
        assert join_path(panel.find("a", class_="join-link")["href"]) == new_link
        assert panel.find("img")["src"] != old_qr


def test_a_taps_answer_brings_the_join_panel_when_it_is_out_of_date(phone: Phone, app: Flask) -> None:
    # The page's next refresh would be a 204 at the tap's revision: the answer itself must bring it.
    code = phone.start(["Ann", "Bob", "Cy"])
    phone.open(f"/t/{code}")
    bob = Phone(app.test_client())
    join(bob, host_join_link(phone), "Bob")
    response = phone.press("7", htmx=True)
    assert response.status_code == 200
    panel = phone.page.find(id="join")
    assert panel is not None and "Bob's phone" in panel.find("ul", class_="devices").text()
    # Once the page shows it, later taps do not send it again.
    response = phone.press("5", htmx=True)
    assert parse(response.text).find(id="join") is None
    assert phone.refresh().status_code == 204


def test_joining_again_with_the_same_choice_changes_nothing(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob"])
    link = host_join_link(phone)
    join(other_phone, link, "Bob")
    revision = app.extensions["referee"].view(code).revision
    join(other_phone, link, "Bob — this phone")
    assert app.extensions["referee"].view(code).revision == revision
    join(other_phone, link, "Just watching")
    assert app.extensions["referee"].view(code).revision == revision + 1


def join_path_of(referee: Any, code: str, app: Flask) -> str:
    """The join link's path as it is now."""
    return f"/j/{code}/{referee.view(code).join_secret}"


def test_only_the_host_may_revoke_or_change_settings(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob"])
    join(other_phone, host_join_link(phone), "Bob")
    host_device = app.extensions["referee"].devices(code)[0]
    response = other_phone.client.post(f"/t/{code}/devices/{host_device.id}/revoke", data={"csrf": other_phone.csrf})
    assert response.status_code == 403
    response = other_phone.client.post(f"/t/{code}/entry", data={"entry": "host", "csrf": other_phone.csrf})
    assert response.status_code == 403
    assert app.extensions["referee"].view(code).entry == "joined"
    secret = app.extensions["referee"].view(code).join_secret
    response = other_phone.client.post(f"/t/{code}/join-link", data={"csrf": other_phone.csrf})
    assert response.status_code == 403
    assert app.extensions["referee"].view(code).join_secret == secret
    # Even the host needs the CSRF token.
    response = phone.client.post(f"/t/{code}/entry", data={"entry": "host"})
    assert response.status_code == 403
    assert app.extensions["referee"].view(code).entry == "joined"


def test_only_the_host_setting_blocks_joined_players(phone: Phone, other_phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob"])
    join(other_phone, host_join_link(phone), "Bob")
    phone.open(f"/t/{code}")
    entry_form = phone.page.find("form", class_="entry-form")
    assert entry_form is not None
    response = phone.submit(entry_form, phone.button("Save", within=entry_form), entry="host")
    assert response.status_code == 303
    assert app.extensions["referee"].view(code).entry == "host"
    # The host's panel says what the choice now means, as its other controls do.
    phone.follow(response)
    assert (
        "Saved: only this phone enters cards now; the other phones follow the game." in phone.page.by_id("join").text()
    )

    other_phone.open(f"/t/{code}")
    assert other_phone.page.find("form", id="pad-form") is None
    assert forged_tap(other_phone, code) == 403
    # The host still can.
    phone.open(f"/t/{code}")
    assert phone.press("7", htmx=True).status_code == 200
    assert app.extensions["referee"].view(code).state.total == 7


def test_entry_host_at_creation_through_the_api(api: Api, other_phone: Phone) -> None:
    body = api.create(["Ann", "Bob"], entry="host")
    join(other_phone, body["join_url"], "Ann")
    refused_to_enter(other_phone, api)


def drawn_squares(svg: str) -> set[tuple[int, int]]:
    """The dark squares of our QR drawing: each "Mx yhN" stroke is N squares of row y from x."""
    return {(int(x) + step, int(y)) for x, y, n in re.findall(r"M(\d+) (\d+)h(\d+)", svg) for step in range(int(n))}


def library_squares(link: str) -> set[tuple[int, int]]:
    """The dark squares qrcode's own SVG path factory draws for `link` (one "Mx,yH..." square each)."""
    buffer = BytesIO()
    qrcode.make(link, image_factory=qrcode.image.svg.SvgPathImage, border=2).save(buffer)
    return {(int(x), int(y)) for x, y in re.findall(r"M(\d+),(\d+)H", buffer.getvalue().decode())}


def test_qr_svg_for_the_host_and_not_for_a_watcher(phone: Phone, other_phone: Phone) -> None:
    code = phone.start(["Ann", "Bob"])
    image = phone.page.find("img", class_="qr")
    assert image is not None and image["src"].startswith(f"/t/{code}/qr.svg?v=")
    assert image.get("alt")
    response = phone.client.get(image["src"])
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    svg = response.get_data(as_text=True)
    # The same squares as qrcode's own SVG of the join link, drawn in runs (a quarter of the bytes gzipped).
    assert drawn_squares(svg) == library_squares(host_join_link(phone))
    other_phone.open(f"/watch?code={code}")
    assert other_phone.client.get(f"/t/{code}/qr.svg").status_code == 403
    assert other_phone.client.get("/t/NOSUCH/qr.svg").status_code == 404


def test_a_joined_player_sees_the_qr_too(api: Api, other_phone: Phone) -> None:
    body = api.create(["Ann", "Bob"])
    join(other_phone, body["join_url"], "Bob")
    assert other_phone.client.get(f"/t/{api.code}/qr.svg").status_code == 200
    assert other_phone.page.find("ul", class_="devices") is None  # only the host manages devices


@pytest.fixture
def lan(monkeypatch: pytest.MonkeyPatch) -> str:
    """Pretend this machine's LAN address is 192.168.1.23, whatever network the tests run on."""
    address = "192.168.1.23"
    monkeypatch.setattr("referee.web.links.lan_address", lambda: address)
    return address


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000", "localhost"])
def test_api_join_url_uses_the_lan_address_on_localhost(api: Api, lan: str, host: str) -> None:
    response = api.client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}, base_url=f"http://{host}")
    link = response.get_json()["join_url"]
    port = urlsplit(f"http://{host}").port
    assert urlsplit(link).netloc == (lan if port is None else f"{lan}:{port}")


def test_page_join_link_and_qr_use_the_lan_address_on_localhost(phone: Phone, lan: str) -> None:
    code = phone.start(["Ann", "Bob"])
    phone.open(f"/t/{code}", base_url="http://localhost:8000")
    link = host_join_link(phone)
    assert urlsplit(link).netloc == f"{lan}:8000"
    assert link.endswith(f"/j/{code}/{phone.client.application.extensions['referee'].view(code).join_secret}")


def test_join_link_keeps_a_real_host_name(api: Api, lan: str) -> None:
    api.client.application.config["ALLOWED_HOSTS"] = ("referee.lan",)  # a name it answers to (docs/security.md)
    response = api.client.post("/api/v1/tables", json={"players": ["Ann", "Bob"]}, base_url="http://referee.lan:8000")
    assert urlsplit(response.get_json()["join_url"]).netloc == "referee.lan:8000"


def test_join_link_honours_forwarded_host(api: Api, lan: str) -> None:
    api.client.application.config["ALLOWED_HOSTS"] = ("cards.example.org",)
    response = api.client.post(
        "/api/v1/tables",
        json={"players": ["Ann", "Bob"]},
        base_url="http://localhost:8000",
        headers={"X-Forwarded-Host": "cards.example.org", "X-Forwarded-Proto": "https"},
    )
    link = response.get_json()["join_url"]
    assert link.startswith("https://cards.example.org/j/")


def test_joined_phones_follow_to_the_rematch(api: Api, other_phone: Phone) -> None:
    body = api.create(["Ann", "Bob"])
    join(other_phone, body["join_url"], "Bob")
    for _ in range(4):
        api.play("Ann", "bomb")
        api.play("Bob", "1")
    api.play("Ann", "bomb")
    other_phone.open(f"/t/{api.code}")
    response = other_phone.press("Rematch with the same players", htmx=True)
    assert response.status_code == 204
    target = response.headers["HX-Redirect"]
    other_phone.open(target)
    assert "7" in other_phone.page.cards()
    # A second tap (or another phone) lands on the same rematch.
    response = other_phone.client.post(
        f"/t/{api.code}/rematch", data={"csrf": other_phone.csrf}, headers={"HX-Request": "true"}
    )
    assert response.headers["HX-Redirect"] == target


def test_a_phone_joined_at_one_table_only_watches_another(api: Api, other_phone: Phone, client: FlaskClient) -> None:
    first = api.create(["Ann", "Bob"])
    second = client.post("/api/v1/tables", json={"players": ["Cy", "Dee"]}).get_json()
    join(other_phone, first["join_url"], "Bob")
    other_phone.open(f"/t/{second['code']}")
    assert other_phone.page.find("form", id="pad-form") is None
    response = other_phone.client.post(
        f"/t/{second['code']}/act",
        data={"kind": "play", "player": "Cy", "card": "7", "csrf": other_phone.csrf},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 403
    assert client.get(f"/api/v1/tables/{second['code']}").get_json()["version"] == 0


def test_a_host_cannot_revoke_a_phone_of_another_table(phone: Phone, other_phone: Phone, app: Flask) -> None:
    mine = phone.start(["Ann", "Bob"])
    host = Phone(app.test_client())
    theirs = host.start(["Cy", "Dee"])
    join(other_phone, host_join_link(host), "Dee")
    device = app.extensions["referee"].devices(theirs)[1]
    phone.open(f"/t/{mine}")
    response = phone.client.post(f"/t/{mine}/devices/{device.id}/revoke", data={"csrf": phone.csrf})
    assert response.status_code == 404
    assert not app.extensions["referee"].devices(theirs)[1].revoked


def test_a_phone_that_starts_a_second_table_stays_host_of_the_first(phone: Phone) -> None:
    first = phone.start(["Ann", "Bob"])
    second = phone.start(["Cy", "Dee"])
    assert first != second
    for code in (first, second):
        phone.open(f"/t/{code}")
        assert phone.page.find("form", id="pad-form") is not None, code
        assert phone.page.find("ul", class_="devices") is not None, code


def test_an_empty_pick_on_the_join_form_is_refused(api: Api, other_phone: Phone) -> None:
    body = api.create(["Ann", "Bob"])
    for who in ("", "player:", "player:   "):
        other_phone.open(join_path(body["join_url"]))
        response = other_phone.press("Ann", who=who)
        assert response.status_code == 400
        assert "Pick who you are" in other_phone.page.text()
    refused_to_enter(other_phone, api)


def test_a_phone_that_joined_and_opens_the_link_again_is_told_whose_it_is(api: Api, other_phone: Phone) -> None:
    """Reopening the join link must not ask "Who are you?" again with Mia's name looking free, as if the phone had
    never joined."""
    body = api.create(["Ann", "Mia", "Cy"])
    join(other_phone, body["join_url"], "Mia")
    other_phone.open(join_path(body["join_url"]))
    note = other_phone.page.find("p", class_="already-here")
    assert note is not None
    assert note.text() == "This phone is already Mia's at this table. Back to the table"
    assert note.find("a")["href"] == f"/t/{body['code']}"  # type: ignore[index]
    mine = [button.text() for button in other_phone.page.find_all("button") if "Mia" in button.text()]
    assert mine == ["Mia — this phone"]
    # Another phone sees Mia's seat as held, and is told nothing about "this phone".
    other_phone.client.delete_cookie("referee")
    other_phone.open(join_path(body["join_url"]))
    assert other_phone.page.find("p", class_="already-here") is None
