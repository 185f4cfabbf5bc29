"""Fuzz: schemathesis against the OpenAPI document, and hostile strings through every way a name gets in.

- schemathesis generates requests from /api/v1/openapi.json (valid and invalid ones) and checks every
  answer: never a 5xx, and status, content type, headers and body all as the document says.
- hypothesis throws markup, quotes, SQL, right-to-left and zero-width characters, emoji, combining-mark
  towers and 10 KB names at table creation (API and home form), actions, joining and the rules search:
  never a 5xx, nothing rendered as markup, and nothing stored that should have been refused.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from markupsafe import escape
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from referee.engine import name_key
from referee.engine.setup import MAX_MARKS_PER_CHARACTER, MAX_NAME_LENGTH
from referee.web.extensions import shutdown

from .helpers import csrf_from, join_link, make_app, snapshot

# --- schemathesis ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fuzz_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One app for the module, with the per-address limits out of the way (test_limits.py covers them)."""
    app = make_app(tmp_path_factory.mktemp("fuzz"), TABLES_PER_MINUTE=10**9, JOINS_PER_MINUTE=10**9)
    yield app
    shutdown(app)


# A schema-invalid request may be refused as too large (413, with our JSON error) before it is even read:
# a refusal like the others. The rest is schemathesis's documented default list.
REJECTIONS = SchemathesisConfig.from_str(
    "[checks.negative_data_rejection]\n"
    'expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]\n'
)


def test_api_answers_match_the_openapi_document(fuzz_app: Flask) -> None:
    made = fuzz_app.test_client().post("/api/v1/tables", json={"players": ["Ann", "Bob", "Cy"]}).get_json()
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", fuzz_app, config=REJECTIONS)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 16
    checked = 0

    def check(case: Any) -> None:
        nonlocal checked
        negative_path = case.meta is not None and case.meta.is_negative_at(ParameterLocation.PATH)
        negative_auth = case.meta is not None and case.meta.is_negative_at(ParameterLocation.HEADER)
        if "code" in (case.path_parameters or {}) and case.path_parameters["code"].isalnum() and not negative_path:
            # Mostly aim at the real table, so that actions get past the 404 (other codes still test it).
            case.path_parameters["code"] = made["code"]
        # The table's token, given as explicit credentials: schemathesis then also checks that the same
        # request without them, or with made-up ones, is refused. The WSGI transport does not gunzip
        # (compression has tests of its own).
        # A case made to lack valid credentials keeps its own (it must be refused).
        headers = {"Accept-Encoding": "identity"}
        if not negative_auth:
            headers["Authorization"] = f"Bearer {made['token']}"
        # Every check but one: names can be schema-valid yet refused by the rules (duplicates, not
        # seated), which a JSON schema cannot say. Server errors, status codes, content types, headers,
        # response bodies, authentication and accepting schema-invalid data are all checked.
        case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])
        checked += 1

    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            run = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)(
                given(case=operation.as_strategy(generation_mode=mode))(check)
            )
            run()
    assert checked >= 200


# --- hostile strings ------------------------------------------------------------------------------

PIECES = [
    "<b>x</b>",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "' OR '1'='1",
    "Robert'); DROP TABLE tables;--",
    '"; DELETE FROM events; --',
    "\u202eevil",  # right-to-left override
    "a\u200bb",  # zero-width space
    "\u200d",  # zero-width joiner
    "\ufeff",  # byte-order mark
    "\u0000",
    "\u0085",
    "\u034f",  # combining grapheme joiner: default-ignorable, drawn as nothing
    "\u3164",  # Hangul filler: a blank letter
    "\u2800",  # Braille pattern blank
    "\ufe0f",  # emoji-style selector, here after nothing or a letter
    "\uff21\uff2e\uff2e",  # full-width ANN
    "\u0410nn",  # Ann with a Cyrillic A
    "👨\u200d👩\u200d👧",
    "🎉",
    "Zoë",
    "Ωμέγα",
    "שלום",
    "{{ 7*7 }}",
    "{% raw %}",
    "&amp;",
    "&lt;b&gt;",
    "%s%n",
    "${jndi:ldap://x}",
    "\\",
    "\r\n",
    "x" * 10_240,
    "e" + "\u0301" * 5_000,  # a "one-character" tower of combining accents, 10 KB of UTF-8
]
# Hostile but acceptable: short enough, nothing hidden. These must be stored as typed and shown as text.
SHOWABLE = [
    "<b>x</b>",
    "<script>x</script>",
    '"><img src=x onerror=1>',
    "<i onclick=alert(1)>",
    "' OR '1'='1",
    "x'); DROP TABLE tables;--",
    '"; DELETE FROM events',
    "🎉",
    "Zoë",
    "e\u0301\u0301",
    "Ωμέγα",
    "שלום",
    "مرحبا",
    "{{ 7*7 }}",
    "{% raw %}",
    "&amp;",
    "&lt;b&gt;",
    "%s%n",
    "\\",
    "null",
]
NAMES = st.one_of(
    st.sampled_from(SHOWABLE),
    st.sampled_from(PIECES),
    st.lists(st.sampled_from(PIECES + SHOWABLE) | st.text(max_size=6), min_size=1, max_size=3).map("".join),
)


def distinct(names: list[str]) -> list[str]:
    """The names made distinct (a digit each), so that duplicates are not the only reason to refuse."""
    return [f"{name}{index}" for index, name in enumerate(names)]


def tidy(name: str) -> str:
    """A name as the referee stores it: each letter written one way (NFKC: accents typed either way, full-width
    letters as plain ones), then spaces tidied."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


# Drawn as nothing: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt) and blank-looking letters.
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f"
    "\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


def allowed_name(name: str) -> bool:
    """What the rules allow to be stored as a player's name (after spaces are tidied)."""
    hidden = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
    visible = sum(1 for ch in name if unicodedata.category(ch) not in ("Mn", "Me"))
    # The invisible characters allowed: the joiner inside an emoji, between an emoji and the next one, and the
    # emoji-style selector after a symbol or a keycap's digit.
    unjoined = "".join(
        ch
        for i, ch in enumerate(name)
        if not (
            ch == "\u200d"
            and 0 < i < len(name) - 1
            and (unicodedata.category(name[i - 1]) in ("So", "Sk") or name[i - 1] == "\ufe0f")
            and unicodedata.category(name[i + 1]) == "So"
        )
        and not (
            ch == "\ufe0f"
            and i > 0
            and (
                unicodedata.category(name[i - 1]).startswith("S")
                or (name[i - 1] in "0123456789#*" and name[i + 1 : i + 2] == "\u20e3")  # a keycap
            )
        )
    )
    return (
        bool(name)
        and name == " ".join(name.split())
        and name == unicodedata.normalize("NFKC", name)
        and not any(unicodedata.category(ch) in hidden for ch in unjoined)
        and not INVISIBLE.search(unjoined)
        and visible <= MAX_NAME_LENGTH
        and not re.search(r"[\u0300-\u036f]{4}", name)  # no tower of combining accents
        and len(name) <= (1 + MAX_MARKS_PER_CHARACTER) * MAX_NAME_LENGTH
    )


MARKUP = [piece for piece in PIECES + SHOWABLE if "<" in piece]


def assert_escaped(page: str, text: str) -> None:
    """`text` appears on the page only as text: escaped, never as markup."""
    assert str(escape(text)) in page, f"{text[:40]!r} is not shown escaped"
    if "<" in text:
        assert text not in page, f"{text[:40]!r} rendered as markup"
    for piece in MARKUP:
        if piece in text:
            assert piece not in page, f"{piece!r} rendered as markup"


def table_count(app: Flask) -> int:
    return len(snapshot(app)["tables"])


@given(names=st.lists(NAMES, min_size=2, max_size=4))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_api_names_are_stored_clean_or_refused_and_shown_as_text(fuzz_app: Flask, names: list[str]) -> None:
    names = distinct(names)
    client = fuzz_app.test_client()
    before = table_count(fuzz_app)
    response = client.post("/api/v1/tables", json={"players": names})
    assert response.status_code in (201, 400, 413), response.status_code
    event(f"API create answered {response.status_code}")
    if response.status_code != 201:
        assert response.get_json()["error"]["code"]
        assert table_count(fuzz_app) == before  # refused: nothing stored
        return
    body = response.get_json()
    stored = [player["name"] for player in body["state"]["players"]]
    assert stored == [tidy(name) for name in names]
    assert all(allowed_name(name) for name in stored), stored
    page = client.get(f"/t/{body['code']}").get_data(as_text=True)
    for name in stored:
        assert_escaped(page, name)
    # Actions naming hostile players are refused without a trace.
    for name in names:
        answer = client.post(
            f"/api/v1/tables/{body['code']}/actions",
            json={"type": "play", "player": name + "\u200b", "card": "1"},
            headers={"Authorization": f"Bearer {body['token']}"},
        )
        assert answer.status_code in (400, 422)
    assert client.get(f"/api/v1/tables/{body['code']}").get_json()["version"] == 0


@given(names=st.lists(NAMES, min_size=2, max_size=3), extra=NAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_home_form_and_joining_with_hostile_strings(fuzz_app: Flask, names: list[str], extra: str) -> None:
    names = distinct(names)
    host = fuzz_app.test_client()
    before = snapshot(fuzz_app)
    csrf = csrf_from(host.get("/").get_data(as_text=True))
    response = host.post("/", data={"csrf": csrf, "name": names, "op": "start", "variant": "standard"})
    assert response.status_code in (303, 400, 413), response.status_code
    event(f"home form answered {response.status_code}")
    if response.status_code != 303:
        page = response.get_data(as_text=True)
        for piece in MARKUP:  # the form comes back with what was typed, as text
            assert piece not in page
        after = snapshot(fuzz_app)
        assert after["tables"] == before["tables"] and after["devices"] == before["devices"]
        return
    code = str(response.headers["Location"]).removesuffix("/lobby").rsplit("/", 1)[-1]
    page = host.get(f"/t/{code}").get_data(as_text=True)
    for name in (tidy(name) for name in names):
        assert allowed_name(name)
        assert_escaped(page, name)
    # A phone joining with a made-up choice is refused and not remembered.
    phone = fuzz_app.test_client()
    link = join_link(host, code)
    token = csrf_from(phone.get(link).get_data(as_text=True))
    devices = len(snapshot(fuzz_app)["devices"])
    answer = phone.post(link, data={"csrf": token, "who": f"player:{extra}"})
    event(f"join answered {answer.status_code}")
    if answer.status_code == 303:
        picked = name_key(" ".join(extra.split()))
        assert picked in {name_key(tidy(n)) for n in names}
    else:
        assert answer.status_code in (400, 403, 404), answer.status_code
        assert len(snapshot(fuzz_app)["devices"]) == devices
        assert not any(piece in answer.get_data(as_text=True) for piece in MARKUP)


@given(query=NAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_rules_search_shows_hostile_questions_as_text(fuzz_app: Flask, query: str) -> None:
    client: FlaskClient = fuzz_app.test_client()
    for path in ("/rules", "/rules/search"):
        response = client.get(path, query_string={"q": query})
        assert response.status_code == 200
        page = response.get_data(as_text=True)
        assert not any(piece in page for piece in MARKUP)
    answer = client.get("/api/v1/rules", query_string={"q": query})
    assert answer.status_code == 200 and isinstance(answer.get_json()["results"], list)


def test_a_tower_of_combining_accents_is_not_a_name(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    response = app.test_client().post("/api/v1/tables", json={"players": ["e" + "\u0301" * 5_000, "Bob"]})
    assert response.status_code == 400
    assert table_count(app) == 0
