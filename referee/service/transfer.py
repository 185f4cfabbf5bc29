"""Export and import of a game: a table as one JSON document (its setup and every action), and back again.

The document is the table's own record (setup + event log) rather than its state, so an imported table has the
same history, undo and redo included, and its state is rebuilt by the same engine that built the original.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from ..engine import Action, EngineError, History, RefusedAt, make_setup
from . import ENTRY_MODES, Referee, codec
from .codec import Redo, Undo
from .errors import IllegalEntry, Invalid
from .tableview import Created

FORMAT = "five-alive-referee/1"
FIELDS = {"format", "exported_at", "code", "setup", "entry", "actions", "undone", "state"}
SETUP_FIELDS = {"players", "variant", "teams", "first_player", "house_rules"}


def export_document(referee: Referee, code: str, state: Mapping[str, object]) -> dict[str, Any]:
    """Return the table's game as a document that `import_document` accepts (`state`: the API's State, for reading)."""
    view = referee.view(code)
    history = view.history
    return {
        "format": FORMAT,
        "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "code": view.code,
        "setup": json.loads(codec.setup_to_json(view.setup)),
        "entry": view.entry,
        "actions": [json.loads(codec.action_to_json(action)) for action in history.actions],
        "undone": history.undone,
        "state": dict(state),
    }


def _bad(message: str, field: str) -> Invalid:
    return Invalid("bad_document", message, field=field)


def _checked(document: object) -> tuple[dict[str, Any], list[Any], int, str]:
    if not isinstance(document, dict):
        raise _bad("Send the exported game as a JSON object.", "format")
    if document.get("format") != FORMAT:
        raise _bad(f"This is not a game exported by the referee: its format must be {FORMAT!r}.", "format")
    unknown = sorted(set(document) - FIELDS)
    if unknown:
        raise _bad(f"Unknown field {unknown[0][:30]!r} in the exported game.", unknown[0][:30])
    setup, actions, undone = document.get("setup"), document.get("actions"), document.get("undone", 0)
    entry = document.get("entry", "joined")
    if not isinstance(setup, dict) or "players" not in setup:
        raise _bad("setup must be an object with the players and the table's settings.", "setup")
    unknown = sorted(set(setup) - SETUP_FIELDS)
    if unknown:  # named, as a field unknown at the top is, so a typo is found, not silently dropped
        raise _bad(f"Unknown field {unknown[0][:30]!r} in the exported game's setup.", "setup")
    if not isinstance(actions, list):
        raise _bad("actions must be a list of the game's actions.", "actions")
    if isinstance(undone, bool) or not isinstance(undone, int) or not 0 <= undone <= len(actions):
        raise _bad("undone must be a whole number, at most the number of actions.", "undone")
    if entry not in ENTRY_MODES:
        raise _bad("entry must be 'joined' or 'host'.", "entry")
    # Read by people, not by the import; still refused when of the wrong kind, as the OpenAPI schema says.
    for field, kind in (("exported_at", str), ("code", str), ("state", dict)):
        if field in document and not isinstance(document[field], kind):
            raise _bad(f"The field {field!r} has the wrong type.", field)
    return setup, actions, undone, entry


def import_document(referee: Referee, document: object) -> Created:
    """Make a new table with the document's game; raise Invalid (nothing stored) if any part of it is wrong."""
    setup_body, action_bodies, undone, entry = _checked(document)
    if len(action_bodies) > referee.max_actions:
        raise _bad(f"actions: a table keeps at most {referee.max_actions:,} entries.", "actions")
    try:
        setup = make_setup(
            setup_body["players"],
            setup_body.get("variant") or "standard",
            setup_body.get("teams") or None,
            setup_body.get("first_player"),
            setup_body.get("house_rules"),
        )
    except EngineError as error:
        raise _bad(f"setup: {error.message}", "setup") from None
    except (TypeError, ValueError, AttributeError):
        raise _bad("setup has a field of the wrong type.", "setup") from None
    actions, malformed = _read_actions(action_bodies)
    if malformed is not None:
        # The first thing wrong with the game is the one to say: a refused action before the malformed one.
        try:
            History.rebuild(setup, actions)
        except RefusedAt as refused:
            raise _bad(f"action {refused.number}: {refused.message}", "actions") from None
        raise malformed
    try:
        return referee.import_table(setup, actions, undone=undone, entry=entry)
    except IllegalEntry as refused:
        raise _bad(f"action {refused.number}: {refused.message}", "actions") from None


def _read_actions(bodies: list[Any]) -> tuple[tuple[Action, ...], Invalid | None]:
    """The document's actions up to the first malformed one, and the refusal for that one (None if none is)."""
    actions: list[Action] = []
    for number, body in enumerate(bodies, start=1):
        try:
            action = codec.command_from_json(body)
            if isinstance(body, dict) and "expected_version" in body:
                raise Invalid("bad_field", "an exported action has no expected_version.")
            if isinstance(action, Undo | Redo):
                raise Invalid("bad_action", "undo and redo are not actions of a game; use undone.")
        except Invalid as error:
            return tuple(actions), _bad(f"action {number}: {error.message}", "actions")
        actions.append(action)
    return tuple(actions), None
