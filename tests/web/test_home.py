"""The home page: the start-a-table form, editing its rows, starting a table, and errors by the field."""

from __future__ import annotations

from flask import Flask

from .conftest import Phone


def table_count(app: Flask) -> int:
    """How many tables the database holds."""
    store = app.extensions["referee"].store
    return int(store.read().execute("SELECT COUNT(*) FROM tables").fetchone()[0])


def names(phone: Phone) -> list[str]:
    """The player names in the form, in seat order."""
    return [field.get("value", "") or "" for field in phone.page.by_id("setup").find_all("input", name="name")]


def test_home_renders_the_form(phone: Phone) -> None:
    response = phone.open("/")
    assert response.status_code == 200
    form = phone.page.by_id("setup")
    assert form["method"] == "post"
    assert form.find("input", name="csrf") is not None
    assert len(form.find_all("input", name="name")) == 3
    # A name field stops where the referee would refuse the name (24 characters), not later.
    assert {field["maxlength"] for field in form.find_all("input", name="name")} == {"24"}
    labels = {label.text() for label in form.find_all("label")}
    assert {"Player 1 name", "Player 2 name", "Player 3 name"} <= labels
    assert "Start the table" in phone.page.buttons()
    assert "+ Add a player" in phone.page.buttons()
    variants = [radio["value"] for radio in form.find_all("input", name="variant")]
    assert variants == ["standard", "sudden_death", "teams"]
    # "Out" is said of lives only in full: "the first player is out" read as "the first to play their last card".
    assert any(
        label.text().startswith("Sudden Death: ends as soon as a player loses their last life")
        for label in form.find_all("label")
    )
    # House rules are collapsed, with the usual reading chosen and explained.
    details = form.find("details", class_="house-rules")
    assert details is not None and not details.has("open")
    over_21 = form.by_id("hr-over_21")
    chosen = next(option for option in over_21.find_all("option") if option.has("selected"))
    assert chosen["value"] == "refuse" and "(usual)" in chosen.text()
    # Watching by code is offered too.
    assert phone.page.find("input", name="code") is not None


def test_add_remove_and_move_rows(phone: Phone, app: Flask) -> None:
    phone.open("/")
    response = phone.press("+ Add a player", name=["Ann", "Bob", "Cy"])
    assert response.status_code == 200
    assert names(phone) == ["Ann", "Bob", "Cy", ""]
    phone.press("Remove player 2")
    assert names(phone) == ["Ann", "Cy", ""]
    phone.press("Move player 2 up")
    assert names(phone) == ["Cy", "Ann", ""]
    phone.press("Move player 1 down")
    assert names(phone) == ["Ann", "Cy", ""]
    assert phone.button("Move player 1 up").has("disabled")
    assert phone.button("Move player 3 down").has("disabled")
    assert table_count(app) == 0


def test_edits_work_as_htmx_too(phone: Phone) -> None:
    phone.open("/")
    response = phone.press("+ Add a player", htmx=True, name=["Ann", "Bob", "Cy"])
    assert response.status_code == 200
    assert names(phone) == ["Ann", "Bob", "Cy", ""]


def test_the_starting_player_follows_its_row(phone: Phone) -> None:
    phone.open("/")
    phone.press("Move player 3 up", name=["Ann", "Bob", "Cy"], first="2")
    assert names(phone) == ["Ann", "Cy", "Bob"]
    checked = phone.page.find("input", name="first", checked=True)
    assert checked is not None and checked["value"] == "1"


def test_no_more_than_six_rows(phone: Phone) -> None:
    phone.open("/")
    phone.press("+ Add a player", name=["A", "B", "C", "D", "E"])
    assert len(names(phone)) == 6
    assert "+ Add a player" not in phone.page.buttons()


def test_starting_a_table_redirects_and_makes_this_browser_the_host(phone: Phone, app: Flask) -> None:
    phone.open("/")
    response = phone.press("Start the table", name=["Ann", "Bob", "Cy"], first="1")
    assert response.status_code == 303
    location = response.headers["Location"]
    assert location.startswith("/t/") and location.endswith("/lobby")
    code = location.removeprefix("/t/").removesuffix("/lobby")
    assert table_count(app) == 1
    phone.open(location)
    # The lobby: the QR code, the code, the link, every seat waiting, and the way to the table.
    assert phone.page.find("img", class_="big-qr") is not None
    assert code in phone.page.find("strong", class_="code").text()
    assert f"/j/{code}/" in phone.page.find("a", class_="join-link").text()
    assert [li.text().split()[1] for li in phone.page.find("ul", class_="seat-ticks").find_all("li")] == [
        "Ann",
        "Bob",
        "Cy",
    ]
    assert "Start without waiting" in phone.page.text()
    phone.open(f"/t/{code}")
    assert phone.page.find("span", class_="turn-name").text() == "Bob"
    # The host may enter cards and sees the phones at the table, itself included.
    assert "7" in phone.page.cards()
    devices = phone.page.find("ul", class_="devices")
    assert devices is not None and "(this phone)" in devices.text()
    assert app.extensions["referee"].view(code).setup.players == ("Ann", "Bob", "Cy")


def test_starting_with_htmx_navigates_with_hx_redirect(phone: Phone) -> None:
    phone.open("/")
    response = phone.press("Start the table", htmx=True, name=["Ann", "Bob"])
    # htmx would silently follow a 303 and swap the whole page into the form.
    assert response.status_code == 204
    assert response.headers["HX-Redirect"].startswith("/t/")


def test_blank_rows_are_ignored(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "", "Bob"])
    assert app.extensions["referee"].view(code).setup.players == ("Ann", "Bob")


def test_house_rules_variant_and_entry_are_kept(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob"], variant="sudden_death", hr_over_21="bust", entry="host")
    view = app.extensions["referee"].view(code)
    assert view.setup.variant.value == "sudden_death"
    assert view.setup.house_rules.over_21 == "bust"
    assert view.entry == "host"


def test_teams_from_the_form(phone: Phone, app: Flask) -> None:
    code = phone.start(["Ann", "Bob", "Cy", "Dee"], variant="teams", team=["A", "B", "A", "B"])
    assert app.extensions["referee"].view(code).setup.teams == (("Ann", "Cy"), ("Bob", "Dee"))


def field_error(phone: Phone, fieldset_legend: str) -> str:
    """The error shown inside the fieldset with this legend."""
    for fieldset in phone.page.find_all("fieldset"):
        legend = fieldset.find("legend")
        if legend is not None and legend.text().startswith(fieldset_legend):
            error = fieldset.find(class_="field-error")
            assert error is not None, f"no error in {fieldset_legend}"
            return error.text()
    raise AssertionError(f"no fieldset {fieldset_legend}")


def test_duplicate_names_are_shown_next_to_the_players(phone: Phone, app: Flask) -> None:
    phone.open("/")
    response = phone.press("Start the table", name=["Ann", "Bob", "ann"])
    assert response.status_code == 400
    assert "Two players are called" in field_error(phone, "Players")
    # What was typed is kept, and the players' fieldset points at its error.
    assert names(phone) == ["Ann", "Bob", "ann"]
    error = phone.page.by_id("players-error")
    assert error.get("role") == "alert"
    assert table_count(app) == 0


def test_a_name_that_looks_like_another_is_shown_next_to_the_players(phone: Phone, app: Flask) -> None:
    phone.open("/")
    response = phone.press("Start the table", name=["Ann", "Bob", "B\u043eb"])  # a Cyrillic o
    assert response.status_code == 400
    assert field_error(phone, "Players") == (
        "Bob and B\u043eb look alike: add an initial to one of them so everyone can tell them apart."
    )
    assert names(phone) == ["Ann", "Bob", "B\u043eb"]
    assert table_count(app) == 0


def test_one_player_is_not_enough(phone: Phone, app: Flask) -> None:
    phone.open("/")
    response = phone.press("Start the table", name=["Ann", "", ""])
    assert response.status_code == 400
    assert "2 to 6 players" in field_error(phone, "Players")
    assert table_count(app) == 0


def test_teams_not_alternating_suggests_an_order(phone: Phone, app: Flask) -> None:
    phone.open("/")
    response = phone.press(
        "Start the table", name=["Ann", "Bob", "Cy", "Dee"], team=["A", "A", "B", "B"], variant="teams"
    )
    assert response.status_code == 400
    message = field_error(phone, "Game")
    assert "Team mates should not sit side by side" in message
    assert "Ann, Cy, Bob, Dee" in message
    assert table_count(app) == 0


def test_a_start_without_the_csrf_token_is_refused(phone: Phone, app: Flask) -> None:
    phone.open("/")
    response = phone.press("Start the table", name=["Ann", "Bob"], csrf="forged")
    assert response.status_code == 400
    assert phone.page.find(class_="field-error") is not None
    assert table_count(app) == 0
    response = phone.client.post("/", data={"name": ["Ann", "Bob"], "op": "start"})
    assert response.status_code == 400
    assert table_count(app) == 0


def test_watch_by_code(phone: Phone, other_phone: Phone) -> None:
    code = phone.start(["Ann", "Bob"])
    response = other_phone.open(f"/watch?code={code.lower()}")
    assert response.status_code in (302, 303)
    assert response.headers["Location"].endswith(f"/t/{code}")
    assert other_phone.open("/watch?code=NOPE99").status_code == 404


def test_an_unknown_address_or_method_gets_a_page_in_our_words(phone: Phone) -> None:
    response = phone.open("/no/such/page")
    assert response.status_code == 404
    assert phone.page.find("h1").text() == "Page not found"  # type: ignore[union-attr]
    assert "There is nothing at this address. Check it, or start again from the home page." in phone.page.text()
    assert "requested URL" not in phone.page.text()  # the framework's words for developers
    response = phone.client.delete("/")
    assert response.status_code == 405
    assert "That can&#39;t be done at this address." in response.get_data(as_text=True)


# Round 1's dealer is never picked: the referee takes the seat before the starter (docs/rules.md, "Who goes first").
DEALER_HINT = "The player just before the one who starts (on their right) deals the cards."


def test_the_starts_choice_says_who_deals_and_the_table_deals_from_there(phone: Phone) -> None:
    # The form says who deals, so "Mia plays first; Dad dealt." on the table is no surprise after it asks who starts.
    phone.open("/")
    form = phone.page.by_id("setup")
    hint = form.by_id("starts-hint")
    assert hint.text() == DEALER_HINT
    # In the players' box with the rows' "starts" choices, and read out with each of them.
    assert hint.ancestor("fieldset") is form.find("fieldset", class_="players-field")
    starts = form.find_all("input", name="first")
    assert len(starts) == 3 and {radio.get("aria-describedby") for radio in starts} == {"starts-hint"}
    # The table does what the hint says, the first seat's dealer being the last seat (on the starter's right).
    for first, said in (("1", "Bob plays first; Ann dealt."), ("0", "Ann plays first; Cy dealt.")):
        phone.start(["Ann", "Bob", "Cy"], first=first)
        assert said in phone.page.by_id("log").text()
