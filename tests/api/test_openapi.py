"""GET /api/v1/openapi.json: an OpenAPI 3 document whose schemas match what the API really answers."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from conftest import Api, finish_game
from flask import Flask
from flask.testing import FlaskClient

from .test_create import V1_STATE_FIELDS
from .test_devices import auth

TABLES = "/api/v1/tables"
TABLE = "/api/v1/tables/{code}"
ACTIONS = "/api/v1/tables/{code}/actions"


@pytest.fixture
def document(client: FlaskClient) -> dict[str, Any]:
    """The served OpenAPI document."""
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert isinstance(body, dict)
    return body


def schema_for(document: dict[str, Any], path: str, method: str, status: int) -> dict[str, Any]:
    """Return a validator-ready schema for one documented response, resolving refs against the document."""
    response = document["paths"][path][method]["responses"][str(status)]
    schema = response["content"]["application/json"]["schema"]
    return {**schema, "components": document["components"]}


def request_schema(document: dict[str, Any], path: str) -> dict[str, Any]:
    """Return the documented request body schema of a POST route."""
    schema = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return {**schema, "components": document["components"]}


def validate(instance: Any, schema: dict[str, Any]) -> None:
    """Validate with JSON Schema 2020-12, the dialect OpenAPI 3.1 uses."""
    jsonschema.Draft202012Validator(schema).validate(instance)


def test_is_an_openapi_3_document_with_the_table_routes(document: dict[str, Any]) -> None:
    assert str(document["openapi"]).startswith("3.")
    assert document["info"]["title"] and document["info"]["version"]
    assert {TABLES, TABLE, ACTIONS} <= set(document["paths"])
    assert {"201", "400"} <= set(document["paths"][TABLES]["post"]["responses"])
    assert {"200", "404"} <= set(document["paths"][TABLE]["get"]["responses"])
    assert {"200", "400", "401", "403", "404", "409", "422"} <= set(document["paths"][ACTIONS]["post"]["responses"])
    assert document["paths"][ACTIONS]["post"]["security"]
    for schema in document["components"]["schemas"].values():
        jsonschema.Draft202012Validator.check_schema({**schema, "components": document["components"]})


def test_state_schema_requires_every_state_field(document: dict[str, Any]) -> None:
    required = set(document["components"]["schemas"]["State"]["required"])
    assert required >= V1_STATE_FIELDS


def unlike_the_schema(instance: Any, schema: dict[str, Any], components: dict[str, Any], where: str) -> list[str]:
    """The fields of `instance` (and of the objects in it) that its schema does not list, and those it lists but
    `instance` lacks. A JSON Schema lets through a field it does not name, so validating alone would not see one."""
    if "$ref" in schema:
        schema = components["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    unlike = []
    if isinstance(instance, dict) and "properties" in schema:
        listed = set(schema["properties"])
        unlike += [f"{where}.{name} is not in the schema" for name in sorted(set(instance) - listed)]
        unlike += [f"{where}.{name} is in the schema but not sent" for name in sorted(listed - set(instance))]
        for name in sorted(set(instance) & listed):
            unlike += unlike_the_schema(instance[name], schema["properties"][name], components, f"{where}.{name}")
    elif isinstance(instance, list) and "items" in schema:
        for item in instance:
            unlike += unlike_the_schema(item, schema["items"], components, f"{where}[]")
    return unlike


def test_the_state_schema_lists_exactly_the_fields_real_states_have(
    document: dict[str, Any], api: Api, app: Flask
) -> None:
    """The State the API sends (service/codec.py) and the one it documents (web/api/schema.py) name the same fields,
    down to a player's, a team's and a warning's: a field added to one and not the other fails here."""
    created = api.create(["Ann", "Bob", "Cy", "Dee"], variant="teams")
    states = [created["state"], api.play("Ann", "7"), api.play("Bob", "7")]  # the second 7 brings a warning
    finish_game(app, api.code)
    headers = auth(api)
    rematch = api.client.post(f"/api/v1/tables/{api.code}/rematch", json={"first_player": "Cy"}, headers=headers)
    states += [api.state(), rematch.get_json()["state"]]  # the finished game names its rematch; the rematch, its note
    assert states[2]["warnings"] and states[3]["rematch"] and states[4]["rematch_note"]
    schema = {"$ref": "#/components/schemas/State"}
    for state in states:
        assert unlike_the_schema(state, schema, document["components"], "State") == []
    assert set(document["components"]["schemas"]["State"]["required"]) <= set(states[0])


def test_real_responses_match_the_schemas(document: dict[str, Any], api: Api, client: FlaskClient) -> None:
    new_table = {"players": ["Ann", "Bob", "Cy", "Dee"], "variant": "teams", "house_rules": {"over_21": "bust"}}
    validate(new_table, request_schema(document, TABLES))
    created = api.create(**new_table)
    validate(created, schema_for(document, TABLES, "post", 201))

    validate(api.state(), schema_for(document, TABLE, "get", 200))

    for action in (
        {"type": "play", "player": "Ann", "card": "bomb", "zeros": ["Bob"], "expected_version": 0},
        {"type": "play", "player": "Bob", "card": "7"},
        {"type": "hand", "player": "Dee", "cards": 4},
        {"type": "undo"},
        {"type": "redo"},
    ):
        validate(action, request_schema(document, ACTIONS))
        validate(api.act(**action), schema_for(document, ACTIONS, "post", 200))


@pytest.mark.parametrize(
    ("path", "method", "status", "send"),
    [
        (TABLES, "post", 400, {"json": {"players": ["Ann"]}}),
        (TABLE, "get", 404, {}),
        (ACTIONS, "post", 400, {"json": {"type": "dance"}, "auth": True}),
        (ACTIONS, "post", 401, {"json": {"type": "undo"}}),
        (ACTIONS, "post", 403, {"json": {"type": "undo"}, "auth": "wrong"}),
        (ACTIONS, "post", 409, {"json": {"type": "undo", "expected_version": 5}, "auth": True}),
        (ACTIONS, "post", 422, {"json": {"type": "undo"}, "auth": True}),
    ],
)
def test_error_responses_match_the_error_schema(
    document: dict[str, Any], api: Api, client: FlaskClient, path: str, method: str, status: int, send: dict[str, Any]
) -> None:
    api.create()
    code = "NOSUCH" if status == 404 else api.code
    headers = {}
    if send.get("auth"):
        headers["Authorization"] = f"Bearer {api.token if send['auth'] is True else send['auth']}"
    response = client.open(path.format(code=code), method=method.upper(), json=send.get("json"), headers=headers)
    assert response.status_code == status
    validate(response.get_json(), schema_for(document, path, method, status))


def test_a_409_carries_a_state_valid_against_the_schema(document: dict[str, Any], api: Api) -> None:
    api.create()
    body = api.act(expect=409, type="undo", expected_version=3)
    validate(body["state"], {"$ref": "#/components/schemas/State", "components": document["components"]})


def test_an_export_with_a_laid_bust_card_is_valid_against_the_schema(
    document: dict[str, Any], api: Api, client: FlaskClient
) -> None:
    """A bust may name the card laid (the modern text): the schema has a `card` for it, so the server's own export
    passes its own ExportedGame schema (without one it failed)."""
    api.create(["Ann", "Bob", "Cy"], house_rules={"over_21": "bust"})
    for action in ({"type": "play", "player": "Ann", "card": "eq21"}, {"type": "bust", "player": "Bob", "card": "3"}):
        validate(action, request_schema(document, ACTIONS))
        api.act(**action)
    exported = client.get(f"/api/v1/tables/{api.code}/export", headers={"Authorization": f"Bearer {api.token}"})
    assert exported.status_code == 200
    validate(exported.get_json(), {"$ref": "#/components/schemas/ExportedGame", "components": document["components"]})


def test_a_player_leaving_is_an_action_and_an_export_valid_against_the_schema(
    document: dict[str, Any], api: Api, client: FlaskClient
) -> None:
    """A player who gets up mid-game: the request, the State that says so and the export all match the schema."""
    api.create(["Ann", "Bob", "Cy"])
    action = {"type": "leave", "player": "Bob"}
    validate(action, request_schema(document, ACTIONS))
    state = api.act(**action)
    validate(state, {"$ref": "#/components/schemas/State", "components": document["components"]})
    exported = client.get(f"/api/v1/tables/{api.code}/export", headers={"Authorization": f"Bearer {api.token}"})
    validate(exported.get_json(), {"$ref": "#/components/schemas/ExportedGame", "components": document["components"]})
    assert exported.get_json()["actions"] == [action]


def test_the_schema_accepts_the_names_the_server_accepts_and_no_longer(
    document: dict[str, Any], api: Api, client: FlaskClient
) -> None:
    """The schema allows the 24-character names the server takes, not 200 as it once did."""
    table = jsonschema.Draft202012Validator(request_schema(document, TABLES))
    assert table.is_valid({"players": ["A" * 24, "Bob"]})
    assert not table.is_valid({"players": ["A" * 25, "Bob"]})
    api.create(["A" * 24, "Bob"])
    assert client.post("/api/v1/tables", json={"players": ["A" * 25, "Bob"]}).status_code == 400


def test_request_schemas_reject_what_the_api_rejects(document: dict[str, Any]) -> None:
    action = jsonschema.Draft202012Validator(request_schema(document, ACTIONS))
    assert not action.is_valid({"type": "dance"})
    assert not action.is_valid({"type": "play", "player": "Ann", "card": "joker"})
    assert action.is_valid({"type": "tiebreak", "values": {"Ann": 3}})
    table = jsonschema.Draft202012Validator(request_schema(document, TABLES))
    assert not table.is_valid({"players": ["Ann"], "house_rules": {"nope": "x"}})
    assert table.is_valid({"players": ["Ann", "Bob"], "variant": "sudden_death", "first_player": "Bob"})


def test_every_operation_documents_the_host_refusal(document: dict[str, Any], client: FlaskClient) -> None:
    # Any request with a Host this server does not answer to is refused before its operation runs, so every
    # operation says it may answer 400 bad_host (a fuzzer sending a random Host found one that did not).
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert "bad_host" in operation["responses"]["400"]["description"], (method, path)
    refused = client.get("/api/v1/tables/ABC234/join-requests", headers={"Host": "evil.example"})
    assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "bad_host"


def test_every_operation_that_reads_a_body_documents_the_415(document: dict[str, Any], api: Api) -> None:
    # A body not sent as JSON is refused before its operation runs (a cross-site form; docs/security.md).
    bodies = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if "requestBody" in operation:
                bodies += 1
                assert "unsupported_media_type" in operation["responses"]["415"]["description"], (method, path)
    assert bodies == 5  # create, act, entry, rematch, import
    api.create()
    refused = api.client.post(
        ACTIONS.format(code=api.code), data='{"type": "undo"}', headers={"Authorization": f"Bearer {api.token}"}
    )
    assert refused.status_code == 415
    validate(refused.get_json(), schema_for(document, ACTIONS, "post", 415))
