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
from ..engine.words import N_, Sentence
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


def _bad(message: str, field: str, **params: str | int) -> Invalid:
    return Invalid("bad_document", Sentence(message, **params), field=field)


def _at(number: int, refusal: Sentence) -> Invalid:
    """The document's action `number` is malformed or refused: which one, and why."""
    # The number as written in a list of actions ("action 10000"), not grouped like an amount.
    return _bad(N_("action %(number)s: %(refusal)s"), "actions", number=str(number), refusal=refusal)


def _checked(document: object) -> tuple[dict[str, Any], list[Any], int, str]:
    if not isinstance(document, dict):
        raise _bad(N_("Send the exported game as a JSON object."), "format")
    if document.get("format") != FORMAT:
        raise _bad(
            N_("This is not a game exported by the referee: its format must be %(format)s."),
            "format",
            format=repr(FORMAT),
        )
    unknown = sorted(set(document) - FIELDS)
    if unknown:
        raise _bad(
            N_("Unknown field %(field_name)s in the exported game."), unknown[0][:30], field_name=repr(unknown[0][:30])
        )
    setup, actions, undone = document.get("setup"), document.get("actions"), document.get("undone", 0)
    entry = document.get("entry", "joined")
    if not isinstance(setup, dict) or "players" not in setup:
        raise _bad(N_("setup must be an object with the players and the table's settings."), "setup")
    unknown = sorted(set(setup) - SETUP_FIELDS)
    if unknown:  # named, as a field unknown at the top is, so a typo is found, not silently dropped
        raise _bad(
            N_("Unknown field %(field_name)s in the exported game's setup."), "setup", field_name=repr(unknown[0][:30])
        )
    if not isinstance(actions, list):
        raise _bad(N_("actions must be a list of the game's actions."), "actions")
    if isinstance(undone, bool) or not isinstance(undone, int) or not 0 <= undone <= len(actions):
        raise _bad(N_("undone must be a whole number, at most the number of actions."), "undone")
    if entry not in ENTRY_MODES:
        raise _bad(N_("entry must be 'joined' or 'host'."), "entry")
    # Read by people, not by the import; still refused when of the wrong kind, as the OpenAPI schema says.
    for field, kind in (("exported_at", str), ("code", str), ("state", dict)):
        if field in document and not isinstance(document[field], kind):
            raise _bad(N_("The field %(field_name)s has the wrong type."), field, field_name=repr(field))
    return setup, actions, undone, entry


def import_document(referee: Referee, document: object) -> Created:
    """Make a new table with the document's game; raise Invalid (nothing stored) if any part of it is wrong."""
    setup_body, action_bodies, undone, entry = _checked(document)
    if len(action_bodies) > referee.max_actions:
        raise _bad(N_("actions: a table keeps at most %(most)s entries."), "actions", most=referee.max_actions)
    try:
        setup = make_setup(
            setup_body["players"],
            setup_body.get("variant") or "standard",
            setup_body.get("teams") or None,
            setup_body.get("first_player"),
            setup_body.get("house_rules"),
        )
    except EngineError as error:
        raise _bad(N_("setup: %(refusal)s"), "setup", refusal=error.message) from None
    except (TypeError, ValueError, AttributeError):
        raise _bad(N_("setup has a field of the wrong type."), "setup") from None
    actions, malformed = _read_actions(action_bodies)
    if malformed is not None:
        # The first thing wrong with the game is the one to say: a refused action before the malformed one.
        try:
            History.rebuild(setup, actions)
        except RefusedAt as refused:
            raise _at(refused.number, refused.message) from None
        raise malformed
    try:
        return referee.import_table(setup, actions, undone=undone, entry=entry)
    except IllegalEntry as refused:
        raise _at(refused.number, refused.message) from None


def _read_actions(bodies: list[Any]) -> tuple[tuple[Action, ...], Invalid | None]:
    """The document's actions up to the first malformed one, and the refusal for that one (None if none is)."""
    actions: list[Action] = []
    for number, body in enumerate(bodies, start=1):
        try:
            action = codec.command_from_json(body)
            if isinstance(body, dict) and "expected_version" in body:
                raise Invalid("bad_field", N_("an exported action has no expected_version."))
            if isinstance(action, Undo | Redo):
                raise Invalid("bad_action", N_("undo and redo are not actions of a game; use undone."))
        except Invalid as error:
            return tuple(actions), _at(number, error.message)
        actions.append(action)
    return tuple(actions), None
