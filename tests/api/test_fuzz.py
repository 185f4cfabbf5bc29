"""Whatever JSON arrives, the API answers with a status below 500 and a JSON body."""

from __future__ import annotations

import json
from itertools import count
from typing import Any

from conftest import Api
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

NAMES = st.sampled_from(["Ann", "Bob", "Cy", "ann", "", " ", "Zed", "\u0000", "x" * 30])
CARDS = st.sampled_from(["0", "7", "8", "bomb", "eq21", "redeal", "skip", "", "Bomb"])
SCALARS = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=12)
ANY_JSON = st.recursive(
    SCALARS | NAMES | CARDS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
ACTIONS = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "bust", "hand", "undo", "redo", "tiebreak", "pass", 3])},
    optional={
        "player": NAMES | ANY_JSON,
        "card": CARDS | ANY_JSON,
        "zeros": st.lists(NAMES, max_size=3) | ANY_JSON,
        "cards": st.integers(-5, 100) | ANY_JSON,
        "values": st.dictionaries(NAMES, st.integers(-3, 80), max_size=3) | ANY_JSON,
        "expected_version": st.integers(-1, 5) | ANY_JSON,
    },
)
TABLES = st.fixed_dictionaries(
    {},
    optional={
        "players": st.lists(NAMES | ANY_JSON, max_size=7) | ANY_JSON,
        "variant": st.sampled_from(["standard", "sudden_death", "teams", "x"]) | ANY_JSON,
        "teams": st.lists(st.lists(NAMES, max_size=3), max_size=3) | ANY_JSON,
        "first_player": NAMES | ANY_JSON,
        "house_rules": st.dictionaries(st.sampled_from(["over_21", "tiebreak_tie", "x"]), ANY_JSON) | ANY_JSON,
        "entry": st.sampled_from(["joined", "host"]) | ANY_JSON,
    },
)
ADDRESSES = (f"10.0.{n // 250 % 250}.{n % 250}" for n in count())
SETTINGS = settings(
    max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def answered_in_json(response: Any) -> None:
    assert response.status_code < 500, response.get_data(as_text=True)
    body = response.get_json()
    assert isinstance(body, dict)
    if response.status_code >= 400:
        assert set(body["error"]) == {"code", "message"}


@SETTINGS
@given(body=ACTIONS | ANY_JSON)
def test_random_actions_never_fail_the_server(api: Api, body: Any) -> None:
    if not api.code:
        api.create(["Ann", "Bob", "Cy"])
    before = api.state()
    response = api.client.post(
        f"/api/v1/tables/{api.code}/actions",
        data=json.dumps(body),  # not json=: that sends no body at all for None, and null is JSON too
        content_type="application/json",
        headers={"Authorization": f"Bearer {api.token}"},
    )
    answered_in_json(response)
    if response.status_code >= 400:
        assert api.state() == before
    else:
        assert response.get_json()["version"] == before["version"] + 1


@SETTINGS
@given(body=TABLES | ANY_JSON)
def test_random_tables_never_fail_the_server(client: FlaskClient, body: Any) -> None:
    # The per-address limit on new tables would answer 429 after 60; spread the examples over addresses.
    response = client.post(
        "/api/v1/tables",
        data=json.dumps(body),
        content_type="application/json",
        environ_base={"REMOTE_ADDR": next(ADDRESSES)},
    )
    answered_in_json(response)
    assert response.status_code in (201, 400, 429)


@SETTINGS
@given(raw=st.binary(max_size=200))
def test_random_bytes_never_fail_the_server(api: Api, raw: bytes) -> None:
    if not api.code:
        api.create(["Ann", "Bob"])
    for path in ("/api/v1/tables", f"/api/v1/tables/{api.code}/actions"):
        response = api.client.post(
            path, data=raw, content_type="application/json", headers={"Authorization": f"Bearer {api.token}"}
        )
        answered_in_json(response)
