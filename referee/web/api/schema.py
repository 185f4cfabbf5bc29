"""The OpenAPI 3 document for JSON API v1, built from the same names the code uses."""

from __future__ import annotations

from typing import Any

from ...engine import HOUSE_RULE_SPECS, LIVES, MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS, TARGET, Status, Variant
from ...rulebook import MAX_QUERY_LENGTH, MAX_RESULTS
from ...service import ENTRY_MODES
from ...service.codec import CARD_NAMES, DIRECTIONS
from ...service.transfer import FORMAT

# The longest name a table takes: the schema says what the server accepts.
_NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH}
_PLAYERS = {"type": "array", "minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS, "items": _NAME}
_VARIANT = {"type": "string", "enum": [variant.value for variant in Variant]}
_ENTRY = {"type": "string", "enum": list(ENTRY_MODES)}
_LIVES = {"type": "integer", "minimum": 0, "maximum": LIVES}


def _json(description: str, schema: str) -> dict[str, Any]:
    """A JSON response whose body is one of the document's schemas."""
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}},
    }


def _error(description: str) -> dict[str, Any]:
    return _json(description, "Error")


# What every operation with a table's token may answer besides its own outcomes.
_TOKEN_ERRORS = {"401": _error("No token."), "403": _error("Wrong token."), "404": _error("No such table.")}

_HOUSE_RULES: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        spec.name: {
            "type": "string",
            "enum": list(spec.values),
            "default": spec.default,
            "description": spec.question,
        }
        for spec in HOUSE_RULE_SPECS
    },
}
# What service/codec.py's state_json sends, field by field (tests/api/test_openapi.py checks the two name the same
# fields, nested ones included, on real states).
_STATE = {
    "type": "object",
    "required": [
        "code",
        "version",
        "status",
        "variant",
        "house_rules",
        "round",
        "total",
        "direction",
        "current",
        "dealer",
        "players",
        "teams",
        "draw_pile",
        "winners",
    ],
    "properties": {
        "code": {"type": "string"},
        "version": {"type": "integer", "minimum": 0},
        "status": {"type": "string", "enum": [status.value for status in Status]},
        "variant": _VARIANT,
        "house_rules": {
            "type": "object",
            "required": [spec.name for spec in HOUSE_RULE_SPECS],
            "properties": {spec.name: {"type": "string", "enum": list(spec.values)} for spec in HOUSE_RULE_SPECS},
        },
        "round": {"type": "integer", "minimum": 1},
        "total": {"type": "integer", "minimum": 0, "maximum": TARGET},
        "direction": {"type": "string", "enum": list(DIRECTIONS.values())},
        "current": {"type": ["string", "null"]},
        "dealer": {"type": ["string", "null"]},
        "players": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "lives", "hand", "out", "left", "team"],
                "properties": {
                    "name": {"type": "string"},
                    "lives": _LIVES,
                    "hand": {"type": "integer", "minimum": 0},
                    "out": {"type": "boolean"},
                    "left": {"type": "boolean", "description": "Out because they left the game, lives kept."},
                    "team": {"type": ["string", "null"]},
                },
            },
        },
        "teams": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "players", "lives"],
                "properties": {
                    "name": {"type": "string"},
                    "players": {"type": "array", "items": {"type": "string"}},
                    "lives": _LIVES,
                },
            },
        },
        "draw_pile": {"type": "integer", "minimum": 0},
        "winners": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Who won (several share a win): players' names, or in the team game the teams' names.",
        },
        "tied": {"type": "array", "items": {"type": "string"}, "description": "Players in a tie-break."},
        "can_undo": {"type": "boolean"},
        "can_redo": {"type": "boolean"},
        "rematch_note": {
            "type": ["string", "null"],
            "description": "A rematch whose settings the host changed, until its first card: what changed, in "
            'the words the phones show ("New game. Changed by the host: Cy starts; ..."). Null otherwise. '
            "Added after v1 first shipped: optional, and clients that ignore unknown fields are unaffected.",
        },
        "rematch": {
            "type": ["string", "null"],
            "description": "The code of the rematch that follows this finished game, once one has started (null "
            "until then): a scoreboard follows the series with it. Added after v1 first shipped: optional.",
        },
        "warnings": {
            "type": "array",
            "description": "Entries a real deck cannot produce since the last shuffle, raised by the last action. "
            "A warning never refuses anything; undoing the action clears it.",
            "items": {
                "type": "object",
                "required": ["code", "message", "rule", "card"],
                "properties": {
                    "code": {"type": "string", "enum": ["card_count", "hand_count"]},
                    "message": {"type": "string"},
                    "rule": {"type": "string", "description": "The rulebook entry it rests on."},
                    "card": {"type": ["string", "null"], "enum": [*CARD_NAMES, None]},
                },
            },
        },
    },
}
_VERSION = {"type": "integer", "minimum": 0, "description": "Refuse with 409 unless the table is at this version."}
_ACTIONS: dict[str, dict[str, Any]] = {
    "play": {
        "required": ["type", "player", "card"],
        "properties": {
            "type": {"const": "play"},
            "player": _NAME,
            "card": {"type": "string", "enum": list(CARD_NAMES)},
            "zeros": {"type": "array", "items": _NAME, "description": "With a Bomb: who discarded a 0."},
            "expected_version": _VERSION,
        },
    },
    "bust": {
        "required": ["type", "player"],
        "properties": {
            "type": {"const": "bust"},
            "player": _NAME,
            "card": {
                "type": "string",
                "enum": list(CARD_NAMES),
                "description": "The number that went over 21, if the player laid it (the modern text's bust): it "
                "goes back to their hand. A card that fits is refused (422 card_fits).",
            },
            "expected_version": _VERSION,
        },
    },
    "hand": {
        "required": ["type", "player", "cards"],
        "properties": {
            "type": {"const": "hand"},
            "player": _NAME,
            "cards": {"type": "integer", "minimum": 0},
            "expected_version": _VERSION,
        },
    },
    "leave": {
        "required": ["type", "player"],
        "properties": {
            "type": {"const": "leave"},
            "player": {
                **_NAME,
                "description": "Who gets up and leaves the game for good: out, lives kept, cards on the discard pile.",
            },
            "expected_version": _VERSION,
        },
    },
    "undo": {"required": ["type"], "properties": {"type": {"const": "undo"}, "expected_version": _VERSION}},
    "redo": {"required": ["type"], "properties": {"type": {"const": "redo"}, "expected_version": _VERSION}},
    "tiebreak": {
        "required": ["type", "values"],
        "properties": {
            "type": {"const": "tiebreak"},
            "values": {"type": "object", "additionalProperties": {"type": "integer"}},
            "expected_version": _VERSION,
        },
    },
}
_ACTION_SCHEMAS = {
    f"{name.capitalize()}Action": {"type": "object", "additionalProperties": False, **schema}
    for name, schema in _ACTIONS.items()
}
_EXPORTED_ACTIONS = {
    f"Exported{name.capitalize()}": {
        "type": "object",
        "additionalProperties": False,
        "required": schema["required"],
        "properties": {key: value for key, value in schema["properties"].items() if key != "expected_version"},
    }
    for name, schema in _ACTIONS.items()
    if name not in ("undo", "redo")
}
_EXPORTED_GAME = {
    "type": "object",
    "additionalProperties": False,
    "required": ["format", "setup", "actions"],
    "description": "A table's whole game: its setup and every action in order, the newest `undone` of them "
    "undone. `code`, `exported_at` and `state` are for people; an import rebuilds the state from the actions.",
    "properties": {
        "format": {"const": FORMAT},
        "exported_at": {"type": "string"},
        "code": {"type": "string"},
        "setup": {
            "type": "object",
            "additionalProperties": False,
            "required": ["players"],
            "properties": {
                "players": _PLAYERS,
                "variant": _VARIANT,
                "teams": {"type": "array", "items": {"type": "array", "items": _NAME}},
                "first_player": {"type": ["string", "null"]},
                "house_rules": _HOUSE_RULES,
            },
        },
        "entry": _ENTRY,
        "actions": {
            "type": "array",
            "description": "Every action in order; an import takes a document of up to 1 MB.",
            "items": {"oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in _EXPORTED_ACTIONS]},
        },
        "undone": {"type": "integer", "minimum": 0},
        "state": {"type": "object"},
    },
}
DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "5 Alive Referee API",
        "version": "1",
        "description": "Create a table, read its state, and send the cards played. "
        "Every accepted action raises the table's version by one.",
    },
    "paths": {
        "/api/v1/tables": {
            "post": {
                "operationId": "createTable",
                "summary": "Start a table",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewTable"}}},
                },
                "responses": {
                    "201": _json("The table, with the token that authorises actions.", "Created"),
                    "400": _error("Malformed: bad names, counts, variant, teams or house rule."),
                    "413": _error("Body too large."),
                    "429": _error("Too many tables from this address."),
                },
            }
        },
        "/api/v1/tables/{code}": {
            "get": {
                "operationId": "getTable",
                "summary": "A table's state",
                "parameters": [{"$ref": "#/components/parameters/Code"}],
                "responses": {
                    "200": _json("The state.", "State"),
                    "404": _error("No such table."),
                },
            }
        },
        "/api/v1/tables/{code}/actions": {
            "post": {
                "operationId": "postAction",
                "summary": "Apply one action",
                "parameters": [{"$ref": "#/components/parameters/Code"}],
                "security": [{"bearer": []}],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Action"}}},
                },
                "responses": {
                    "200": _json("The state after the action.", "State"),
                    "400": _error("Malformed action."),
                    **_TOKEN_ERRORS,
                    "409": _error(
                        "expected_version is stale (`stale_version`), or this very action was the table's newest "
                        "change from that version (`already_entered`: a resend, counted once); the body also holds "
                        "the fresh state."
                    ),
                    "413": _error("Body too large."),
                    "422": _error("Refused by the rules, or the table's log is full (log_full)."),
                    "429": _error("Too many actions with this table's token in a minute; Retry-After says when."),
                },
            }
        },
        "/api/v1/tables/{code}/join-link": {
            "post": {
                "operationId": "newJoinLink",
                "summary": "Replace the join link",
                "description": "For a link that reached people who should not join: the old link and its QR "
                "code stop letting phones join; phones that already joined stay.",
                "parameters": [{"$ref": "#/components/parameters/Code"}],
                "security": [{"bearer": []}],
                "responses": {
                    "200": _json("The new join link.", "JoinLink"),
                    **_TOKEN_ERRORS,
                },
            }
        },
        "/api/v1/tables/{code}/devices": {
            "get": {
                "operationId": "listDevices",
                "summary": "The phones at the table",
                "description": "Every phone that joined (removed ones too, marked so), oldest first.",
                "parameters": [{"$ref": "#/components/parameters/Code"}],
                "security": [{"bearer": []}],
                "responses": {
                    "200": _json("The phones.", "Devices"),
                    **_TOKEN_ERRORS,
                },
            }
        },
        "/api/v1/tables/{code}/devices/{device_id}": {
            "delete": {
                "operationId": "removeDevice",
                "summary": "Remove a phone",
                "description": "The phone can no longer enter cards, and the join link is replaced so that it "
                "cannot join again (phones still at the table stay). The answer holds the new link.",
                "parameters": [{"$ref": "#/components/parameters/Code"}, {"$ref": "#/components/parameters/DeviceId"}],
                "security": [{"bearer": []}],
                "responses": {
                    "200": _json("Removed; the new join link.", "JoinLink"),
                    "401": _error("No token."),
                    "403": _error("Wrong token, or the host's own phone (it cannot be removed)."),
                    "404": _error("No such table, or no such phone at it."),
                },
            }
        },
        "/api/v1/tables/{code}/devices/{device_id}/restore": {
            "post": {
                "operationId": "restoreDevice",
                "summary": "Bring a removed phone back",
                "description": "Undoes a removal: the phone may enter cards again as before. The join link the "
                "removal made stays. Bringing back a phone that is at the table changes nothing.",
                "parameters": [{"$ref": "#/components/parameters/Code"}, {"$ref": "#/components/parameters/DeviceId"}],
                "security": [{"bearer": []}],
                "responses": {
                    "200": _json("The phone, back at the table.", "Device"),
                    "401": _error("No token."),
                    "403": _error("Wrong token."),
                    "404": _error("No such table, or no such phone at it."),
                    "422": _error("Another phone speaks for this phone's player now (seat_taken)."),
                },
            }
        },
        "/api/v1/tables/{code}/entry": {
            "put": {
                "operationId": "setEntry",
                "summary": "Choose who may enter cards",
                "description": '"joined": every phone that joined as a player or scorekeeper; "host": only the '
                "host's phone (and the API).",
                "parameters": [{"$ref": "#/components/parameters/Code"}],
                "security": [{"bearer": []}],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Entry"}}},
                },
                "responses": {
                    "200": _json("The setting now.", "Entry"),
                    "400": _error("Malformed: not an object, or entry is neither joined nor host."),
                    **_TOKEN_ERRORS,
                    "413": _error("Body too large."),
                },
            }
        },
        "/api/v1/tables/{code}/rematch": {
            "post": {
                "operationId": "rematch",
                "summary": "Start a rematch",
                "description": "A finished table's rematch: the same players (less any who left) and token; joined "
                "phones follow. No body keeps every setting; a body changes who plays, who starts, the variant, the "
                "teams or house rules (checked as for a new table; house rules given are laid over the finished "
                "game's). "
                "201 when this call made it, 200 when it already existed (its settings stay as they were).",
                "parameters": [{"$ref": "#/components/parameters/Code"}],
                "security": [{"bearer": []}],
                "requestBody": {
                    "required": False,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RematchChanges"}}},
                },
                "responses": {
                    "200": _json("The rematch that already existed.", "Created"),
                    "201": _json("The new table, with its token (the same as this table's).", "Created"),
                    "400": _error("Malformed changes: unknown field, wrong type, bad variant, teams or house rule."),
                    **_TOKEN_ERRORS,
                    "422": _error("The game is not finished."),
                    "429": _error("Too many tables from this address."),
                },
            }
        },
        "/api/v1/tables/{code}/join-requests": {
            "get": {
                "operationId": "listJoinRequests",
                "summary": "Requests to be a player",
                "description": "A phone that typed the table code may ask to be one of the players whose seat no "
                "phone has; the host's phones (or this token) allow or refuse. Oldest first, answered ones too.",
                "parameters": [{"$ref": "#/components/parameters/Code"}],
                "security": [{"bearer": []}],
                "responses": {
                    "200": _json("The requests.", "JoinRequests"),
                    **_TOKEN_ERRORS,
                },
            }
        },
        "/api/v1/tables/{code}/join-requests/{request_id}/{answer}": {
            "post": {
                "operationId": "answerJoinRequest",
                "summary": "Allow or refuse a request to be a player",
                "description": "allow: the phone becomes that player's, as if it had picked the seat through the "
                "join link; refuse: it keeps watching and is told so.",
                "parameters": [
                    {"$ref": "#/components/parameters/Code"},
                    {"name": "request_id", "in": "path", "required": True, "schema": {"type": "integer"}},
                    {"name": "answer", "in": "path", "required": True, "schema": {"enum": ["allow", "refuse"]}},
                ],
                "security": [{"bearer": []}],
                "responses": {
                    "200": _json("The request, answered.", "JoinRequest"),
                    "401": _error("No token."),
                    "403": _error("Wrong token, or the asking phone was removed from the table."),
                    "404": _error("No such table, or no such request at it."),
                    "422": _error("Already answered or withdrawn (not_pending), or the seat is taken (seat_taken)."),
                },
            }
        },
        "/api/v1/tables/{code}/export": {
            "get": {
                "operationId": "exportTable",
                "summary": "Export a table's game",
                "description": "With the table's token, or from a browser that joined the table (its cookie). "
                "The answer can be sent as it is to POST /api/v1/tables/import.",
                "parameters": [{"$ref": "#/components/parameters/Code"}],
                "security": [{"bearer": []}],
                "responses": {
                    "200": _json("The game.", "ExportedGame"),
                    **_TOKEN_ERRORS,
                },
            }
        },
        "/api/v1/tables/{code}/export.csv": {
            "get": {
                "operationId": "exportTableCsv",
                "summary": "Export a table's game as a spreadsheet",
                "description": "CSV: a finished game's standings (place, player, lives left, rounds won, team, left "
                "the game), a blank line, then one row per action (number, round, what happened, entered by, time in "
                "UTC, undone). With the table's token, or from a browser that joined the table.",
                "parameters": [{"$ref": "#/components/parameters/Code"}],
                "security": [{"bearer": []}],
                "responses": {
                    "200": {"description": "The game as CSV.", "content": {"text/csv": {"schema": {"type": "string"}}}},
                    **_TOKEN_ERRORS,
                },
            }
        },
        "/api/v1/tables/{code}/bgstats": {
            "get": {
                "operationId": "bgStatsLink",
                "summary": "A link that logs the finished game in BG Stats",
                "description": "The link follows BG Stats' documented format for pushing a play from another app "
                "(https://app.bgstatsapp.com/createPlay.html?data=...); `play` is what it carries: the players with "
                "their place (rank), lives left (score) and the winner, the date and the length of the game.",
                "parameters": [{"$ref": "#/components/parameters/Code"}],
                "security": [{"bearer": []}],
                "responses": {
                    "200": {
                        "description": "The link and the play it carries.",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["url", "play"],
                                    "properties": {"url": {"type": "string"}, "play": {"type": "object"}},
                                }
                            }
                        },
                    },
                    "422": _error("The game is not over yet (not_finished)."),
                    **_TOKEN_ERRORS,
                },
            }
        },
        "/api/v1/tables/import": {
            "post": {
                "operationId": "importTable",
                "summary": "Make a new table from an exported game",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ExportedGame"}}},
                },
                "responses": {
                    "201": _json("The new table (a new code, token and join link) with the game's state.", "Created"),
                    "400": _error("Not an exported game, or the rules refuse one of its actions; the reason."),
                    "413": _error("Body too large."),
                    "429": _error("Too many tables, or import attempts (refused ones count), from this address."),
                    "503": _error("Another import is running in this process (busy_importing): send it again shortly."),
                },
            }
        },
        "/api/v1/rules": {
            "get": {
                "operationId": "searchRules",
                "summary": "Search the rules panel",
                "description": (
                    "Asked and answered in the language the request's Accept-Language asks for (en, fr or de; "
                    "English for any other): the question is read in it, and each answer's title, verdict, answer, "
                    "example and source are in its words. The ids are the same in every language."
                ),
                "parameters": [
                    {
                        "name": "q",
                        "in": "query",
                        "required": False,
                        "description": (
                            f"The question; of a longer one than {MAX_QUERY_LENGTH} characters, the last question "
                            "and as much of the text before it as fits are read."
                        ),
                        "schema": {"type": "string"},
                    }
                ],
                "responses": {"200": _json("The best answers first, at most 10.", "RuleResults")},
            }
        },
    },
    "components": {
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        "parameters": {
            "Code": {"name": "code", "in": "path", "required": True, "schema": {"type": "string", "maxLength": 40}},
            "DeviceId": {"name": "device_id", "in": "path", "required": True, "schema": {"type": "integer"}},
        },
        "schemas": {
            "NewTable": {
                "type": "object",
                "additionalProperties": False,
                "required": ["players"],
                "properties": {
                    "players": _PLAYERS,
                    "variant": _VARIANT,
                    "teams": {
                        "type": "array",
                        "minItems": 2,
                        "maxItems": 2,
                        "items": {"type": "array", "items": _NAME},
                    },
                    "first_player": _NAME,
                    "house_rules": _HOUSE_RULES,
                    "entry": _ENTRY,
                },
            },
            "Created": {
                "type": "object",
                "required": ["code", "token", "join_url", "state"],
                "properties": {
                    "code": {"type": "string"},
                    "token": {"type": "string"},
                    "join_url": {"type": "string"},
                    "state": {"$ref": "#/components/schemas/State"},
                },
            },
            "JoinLink": {
                "type": "object",
                "required": ["join_url"],
                "properties": {"join_url": {"type": "string"}},
            },
            "Devices": {
                "type": "object",
                "required": ["devices"],
                "properties": {"devices": {"type": "array", "items": {"$ref": "#/components/schemas/Device"}}},
            },
            "Device": {
                "type": "object",
                "required": ["id", "label", "player", "role", "removed"],
                "properties": {
                    "id": {"type": "integer"},
                    "label": {"type": "string"},
                    "player": {
                        "type": ["string", "null"],
                        "description": "The player this phone speaks for (a host phone too, once its host said who).",
                    },
                    "role": {"type": "string", "enum": ["host", "player", "watcher"]},
                    "removed": {"type": "boolean"},
                    "joined_at": {
                        "type": "number",
                        "description": "When the phone joined (seconds since 1970, UTC): two phones with the same "
                        "label, such as Bob's old phone and Bob's new one, are told apart by it and by their id.",
                    },
                },
            },
            "RematchChanges": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "players": {
                        **_PLAYERS,
                        "description": "Who plays, in seat order (default: the finished game's players, less any "
                        "who left). A phone whose player is not named follows the rematch as a watcher, and is that "
                        "player's again in a later rematch that names them.",
                    },
                    "variant": _VARIANT,
                    "teams": {
                        "type": "array",
                        "minItems": 2,
                        "maxItems": 2,
                        "items": {"type": "array", "items": _NAME},
                    },
                    "first_player": _NAME,
                    "house_rules": {**_HOUSE_RULES, "description": "Laid over the finished game's house rules."},
                },
            },
            "JoinRequests": {
                "type": "object",
                "required": ["requests"],
                "properties": {"requests": {"type": "array", "items": {"$ref": "#/components/schemas/JoinRequest"}}},
            },
            "JoinRequest": {
                "type": "object",
                "required": ["id", "player", "status"],
                "properties": {
                    "id": {"type": "integer"},
                    "player": {"type": "string", "description": "The seat the phone asks for."},
                    "status": {
                        "type": "string",
                        "enum": ["pending", "allowed", "refused", "cancelled", "taken"],
                        "description": "cancelled: withdrawn by the phone, the phone was removed, or nobody "
                        "answered it within 30 minutes; taken: another phone took the seat first.",
                    },
                },
            },
            "Entry": {
                "type": "object",
                "additionalProperties": False,
                "required": ["entry"],
                "properties": {"entry": _ENTRY},
            },
            "State": _STATE,
            "ExportedGame": _EXPORTED_GAME,
            **_EXPORTED_ACTIONS,
            "Action": {"oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in _ACTION_SCHEMAS]},
            **_ACTION_SCHEMAS,
            "Error": {
                "type": "object",
                "required": ["error"],
                "properties": {
                    "error": {
                        "type": "object",
                        "required": ["code", "message"],
                        "properties": {
                            "code": {
                                "type": "string",
                                "description": "What was refused, for a program: the same in every language.",
                            },
                            "message": {
                                "type": "string",
                                "description": "The refusal as a sentence for a player, in the language the "
                                "request's Accept-Language asks for (en, fr or de; English for any other).",
                            },
                        },
                    },
                    "state": {"$ref": "#/components/schemas/State"},
                },
            },
            "RuleResults": {
                "type": "object",
                "required": ["results"],
                "properties": {
                    "results": {
                        "type": "array",
                        "maxItems": MAX_RESULTS,
                        "items": {
                            "type": "object",
                            "required": ["id", "title", "verdict", "answer", "example", "source", "house_rule"],
                            "properties": {
                                "id": {"type": "string"},
                                "title": {"type": "string"},
                                "verdict": {
                                    "type": ["string", "null"],
                                    "description": "The ruling in a few words, as the rules panel opens the "
                                    "answer ('One 0 per Bomb: keep any others.'). Every entry has one now; null "
                                    "(allowed since v1) would mean the panel opens with the title instead.",
                                },
                                "answer": {"type": "string"},
                                "example": {
                                    "type": ["string", "null"],
                                    "description": "A short game showing the ruling, as the rules panel's "
                                    "Example, under the default house rules; null if the entry has none.",
                                },
                                "source": {"type": "string"},
                                "house_rule": {"type": ["string", "null"]},
                            },
                        },
                    }
                },
            },
        },
    },
}


# Every request is checked for its Host before it reaches an operation (DNS rebinding; docs/security.md), so
# every operation may answer 400 bad_host, whatever else it documents.
BAD_HOST = "the request's Host is not a name this server answers to (code bad_host)"


def _document_bad_host(paths: dict[str, Any]) -> None:
    """Add the Host refusal to every operation's 400 (adding a 400 where an operation had none)."""
    for operation in (operation for path in paths.values() for operation in path.values()):
        responses = operation["responses"]
        if "400" in responses:
            responses["400"] = _error(f"{responses['400']['description'].rstrip('.')}; or {BAD_HOST}.")
        else:
            responses["400"] = _error(f"{BAD_HOST[0].upper()}{BAD_HOST[1:]}.")


_document_bad_host(DOCUMENT["paths"])


def _document_json_only(paths: dict[str, Any]) -> None:
    """Add the 415 to every operation that reads a body: it must be sent as JSON (docs/security.md)."""
    for operation in (operation for path in paths.values() for operation in path.values()):
        if "requestBody" in operation:
            operation["responses"]["415"] = _error(
                "A body not sent as JSON (Content-Type: application/json, a charset allowed): "
                "code unsupported_media_type; nothing is done or counted."
            )


_document_json_only(DOCUMENT["paths"])


def openapi_document() -> dict[str, Any]:
    """Return the OpenAPI document as a dict (the module's data table; callers must not change it)."""
    return DOCUMENT
