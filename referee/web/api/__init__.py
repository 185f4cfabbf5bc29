"""JSON API v1: create tables, read their state, send actions. Errors are {"error": {code, message}}: the code is
the same in every language, the message is in the language the request's Accept-Language asks for."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, jsonify, request, session, url_for
from werkzeug.exceptions import HTTPException, UnsupportedMediaType

from ... import rulebook
from ...engine import Status
from ...engine.words import N_, N_plural, Sentence
from ...service import Phone, TokenHolder, normalise_code
from ...service.codec import command_from_json, expected_version
from ...service.errors import Conflict, Illegal, Invalid, ServiceError
from ...service.tableview import Created, TableView
from ...service.transfer import export_document, import_document
from ..extensions import action_limit, get_referee, import_slot, table_limit
from ..http import http_error_sentence, http_status
from ..i18n import language, worded
from ..links import join_url
from ..playlog import bgstats_link, bgstats_play, play_csv
from ..security import Limiter
from ..sources import source_said
from .schema import openapi_document
from .shapes import device_json, join_request_json, state_of

PREFIX = "/api/v1"
bp = Blueprint("api", __name__, url_prefix=PREFIX)

CREATE_FIELDS = {"players", "variant", "teams", "first_player", "house_rules", "entry"}
REMATCH_FIELDS = {"players", "variant", "teams", "first_player", "house_rules"}
HTTP_ERROR_CODES = {
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    429: "too_many",
}
# A body the API reads must say it is JSON. A web page can make a visitor's browser send a form or text/plain to
# any site without asking (a "simple" cross-site request), but not a JSON one: the browser asks the server first,
# and this server never says yes. So no page a player visits can start or import tables from their browser.
NOT_JSON = N_("Send the body as JSON, with the header Content-Type: application/json.")
UNKNOWN_FIELD = N_("Unknown field %(field_name)s.")


def error_response(status: int, code: str, message: str, **extra: Any) -> Response:
    """Return the API's error body with `status`: `message` (a Sentence, or a sentence marked with N_) in the
    request's language, `code` as it is."""
    response = jsonify({"error": {"code": code, "message": worded(message)}, **extra})
    response.status_code = status
    return response


@bp.errorhandler(ServiceError)
def _service_error(error: ServiceError) -> Response:
    # A stale version comes with the table as it is now, so the client can retry without another read.
    extra = {"state": state_of(error.view)} if isinstance(error, Conflict) and error.view is not None else {}
    return error_response(http_status(error), error.code, error.message, **extra)


def is_api_request(path: str) -> bool:
    """True if `path` is under the API's prefix (its errors are JSON)."""
    return path == PREFIX or path.startswith(f"{PREFIX}/")


def http_error(error: HTTPException) -> Response:
    """Answer an HTTP error (unknown path or method, too large) as the API's JSON error."""
    status = error.code or 500
    code = HTTP_ERROR_CODES.get(status, "http_error")
    response = error_response(status, code, http_error_sentence(error))
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value  # e.g. Allow on a 405, which RFC 9110 requires
    return response


def _too_many_tables(limiter: Limiter, address: str) -> Response:
    """The 429 for an address over its new-table limit, with when it may make the next one."""
    response = error_response(429, "too_many", N_("Too many new tables from this address: wait a minute."))
    response.headers["Retry-After"] = str(limiter.retry_after(address))
    return response


def _require_json() -> None:
    """Refuse (415) a request whose body is not said to be JSON; a charset parameter is allowed."""
    if request.mimetype != "application/json" or set(request.mimetype_params) - {"charset"}:
        raise UnsupportedMediaType(NOT_JSON)


def _json_body() -> Any:
    _require_json()
    raw = request.get_data(cache=True)
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: "[[[[…" nested thousands deep still fits in 64 KB.
        raise Invalid("bad_json", N_("The request body must be JSON.")) from None


@bp.post("/tables")
def create_table() -> tuple[Response, int]:
    """Create a table; return its code, API token, join link and state."""
    _require_json()  # before counting: a cross-site form costs the address nothing
    limiter = table_limit()
    address = request.remote_addr or "?"
    if not limiter.allow(address):
        return _too_many_tables(limiter, address), 429
    try:
        created = _create_from_body(_json_body())
    except ServiceError:
        # Only tables actually made count: a refused setup costs the server next to nothing (a few checks), and
        # a family fixing a name should not use up its minute.
        limiter.release(address)
        raise
    return _created_response(created), 201


def _created_response(created: Created) -> Response:
    view = created.view
    response = jsonify(
        {
            "code": view.code,
            "token": created.token,
            "join_url": join_url(view),
            "state": state_of(view),
        }
    )
    response.headers["Location"] = url_for("api.get_table", code=view.code)
    return response


def _create_from_body(body: Any) -> Created:
    if not isinstance(body, dict):
        raise Invalid("bad_json", N_("Send the table as a JSON object."))
    unknown = sorted(set(body) - CREATE_FIELDS)
    if unknown:
        raise Invalid("bad_field", UNKNOWN_FIELD, field=unknown[0][:30], field_name=repr(unknown[0][:30]))
    if "players" not in body:
        raise Invalid("bad_players", N_("List the players' names in seat order."), field="players")
    _check_types(body)
    return get_referee().create_table(
        body["players"],
        variant=body.get("variant", "standard"),
        teams=body.get("teams"),
        first_player=body.get("first_player"),
        house_rules=body.get("house_rules"),
        entry=body.get("entry", "joined"),
    )


def _check_types(body: dict[str, Any]) -> None:
    """Refuse a setup field of the wrong JSON type, null included: a field left out takes its default, as the OpenAPI
    document says, and a field sent is checked (by the engine, for its value: an empty variant is no variant)."""
    for field, kind in (
        ("variant", str),
        ("first_player", str),
        ("house_rules", dict),
        ("teams", list),
        ("entry", str),
    ):
        if field in body and not isinstance(body[field], kind):
            raise Invalid(
                "bad_field", N_("The field %(field_name)s has the wrong type."), field=field, field_name=repr(field)
            )
    # The home form sends an empty "who starts" for "the first seat"; in JSON that is left out instead, as the
    # OpenAPI document says (a name of at least one character).
    if isinstance(body.get("first_player"), str) and not body["first_player"].strip():
        raise Invalid(
            "bad_first_player", N_("Name the player who starts, or leave first_player out."), field="first_player"
        )


def _rematch_changes() -> dict[str, Any]:
    """The changes a rematch request asks for: none without a body, else the fields it names (checked)."""
    if not request.get_data(cache=True).strip():
        return {}  # no body: whatever its Content-Type says, there is nothing to read
    body = _json_body()
    if not isinstance(body, dict):
        raise Invalid("bad_json", N_("Send the rematch's changes as a JSON object (or no body for none)."))
    unknown = sorted(set(body) - REMATCH_FIELDS)
    if unknown:
        raise Invalid("bad_field", UNKNOWN_FIELD, field=unknown[0][:30], field_name=repr(unknown[0][:30]))
    _check_types(body)
    return {field: body[field] for field in REMATCH_FIELDS if field in body}


@bp.get("/tables/<code>")
def get_table(code: str) -> Response:
    """Return a table's state."""
    return jsonify(state_of(get_referee().view(code)))


def _bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    return header[7:].strip() if header[:7].lower() == "bearer " else None


@bp.post("/tables/<code>/actions")
def post_action(code: str) -> Response:
    """Apply one action (play, bust, hand, undo, redo, tiebreak) with the table's token."""
    referee = get_referee()
    referee.check_token(code, _bearer_token())  # 404 for an unknown table before asking for a token
    _require_json()  # before counting it towards the token's actions
    if not action_limit().allow(normalise_code(code)):
        wait = action_limit().retry_after(normalise_code(code))
        # The sentence gives the same wait as Retry-After: "a moment" beside a header saying 60 seconds misleads.
        too_many = N_plural(
            "Too many actions for this table: send it again in %(count)s second (Retry-After).",
            "Too many actions for this table: send it again in %(count)s seconds (Retry-After).",
        )
        response = error_response(429, "too_many", Sentence(too_many, count=wait))
        response.headers["Retry-After"] = str(wait)
        return response
    body = _json_body()
    command = command_from_json(body)
    view = referee.act(code, command, actor=_token_holder(), expected_version=expected_version(body))
    return jsonify(state_of(view))


@bp.post("/tables/<code>/join-link")
def new_join_link(code: str) -> Response:
    """Replace the table's join link (the old one stops letting phones join); return the new one."""
    referee = get_referee()
    referee.new_join_link(code, actor=_token_holder())
    view = referee.view(code)
    return jsonify({"join_url": join_url(view)})


def _token_holder() -> TokenHolder:
    """Who sends this request: the holder of the token it carries (the service checks it against the table)."""
    return TokenHolder(_bearer_token())


@bp.get("/tables/<code>/devices")
def list_devices(code: str) -> Response:
    """List the phones that joined the table (removed ones too, marked so) with the table's token."""
    return jsonify({"devices": [device_json(device) for device in get_referee().phones(code, _token_holder())]})


@bp.delete("/tables/<code>/devices/<int:device_id>")
def remove_device(code: str, device_id: int) -> Response:
    """Remove a phone; the join link is replaced too (so it cannot rejoin); return the new link."""
    referee = get_referee()
    referee.revoke(code, device_id, actor=_token_holder())
    return jsonify({"join_url": join_url(referee.view(code))})


@bp.post("/tables/<code>/devices/<int:device_id>/restore")
def restore_device(code: str, device_id: int) -> Response:
    """Bring a removed phone back (undoes a mistaken removal); the join link stays as the removal left it."""
    return jsonify(device_json(get_referee().restore(code, device_id, actor=_token_holder())))


@bp.put("/tables/<code>/entry")
def set_entry(code: str) -> Response:
    """Choose who may enter cards: "joined" (every joined phone) or "host" (the host's phone and the API only)."""
    referee = get_referee()
    referee.check_token(code, _bearer_token())  # a refused token before a malformed body
    body = _json_body()
    if not isinstance(body, dict) or "entry" not in body:
        raise Invalid("bad_entry", N_('Send {"entry": "joined"} or {"entry": "host"}.'), field="entry")
    unknown = sorted(set(body) - {"entry"})
    if unknown:
        raise Invalid("bad_field", UNKNOWN_FIELD, field=unknown[0][:30], field_name=repr(unknown[0][:30]))
    entry = body["entry"]
    referee.set_entry(code, entry if isinstance(entry, str) else "", actor=_token_holder())
    return jsonify({"entry": referee.view(code).entry})


@bp.post("/tables/<code>/rematch")
def rematch(code: str) -> tuple[Response, int]:
    """Start a rematch (the table must be finished): 201 with its code and token, 200 if it already exists."""
    referee = get_referee()
    referee.check_token(code, _bearer_token())  # a refused token before anything is counted
    token = _bearer_token() or ""
    view = referee.view(code)
    limiter, address = table_limit(), request.remote_addr or "?"
    # A rematch is a new table: it counts towards the address's limit, unless it exists already.
    counted = view.rematch_code is None and view.state.status is Status.FINISHED
    changes = _rematch_changes()  # a malformed body is refused before anything is counted
    if counted and not limiter.allow(address):
        return _too_many_tables(limiter, address), 429
    try:
        new_code, made = referee.rematch(code, actor=_token_holder(), **changes)
    except ServiceError:
        if counted:
            limiter.release(address)
        raise
    if counted and not made:
        limiter.release(address)  # another call made it a moment before: this one made no table
    new = referee.view(new_code)
    # The rematch keeps the table's token: the caller's token (checked above) opens it.
    response = jsonify({"code": new.code, "token": token, "join_url": join_url(new), "state": state_of(new)})
    response.headers["Location"] = url_for("api.get_table", code=new.code)
    # 201 only for the call whose changes made the rematch: the others' changes were not used.
    return response, 201 if made else 200


@bp.get("/tables/<code>/join-requests")
def list_join_requests(code: str) -> Response:
    """List the requests to be a player (oldest first; answered ones too, with their status) with the token."""
    requests = get_referee().requests_for_host(code, _token_holder())
    return jsonify({"requests": [join_request_json(item) for item in requests]})


@bp.post("/tables/<code>/join-requests/<int:request_id>/<any(allow, refuse):answer>")
def answer_join_request(code: str, request_id: int, answer: str) -> Response:
    """Allow (the phone becomes that player's) or refuse a pending request, with the table's token."""
    answered = get_referee().answer_request(code, request_id, allow=answer == "allow", actor=_token_holder())
    return jsonify(join_request_json(answered))


def _readable(code: str) -> TableView:
    """The table, once the request may read its whole game: with the table's token, or from a joined phone."""
    referee = get_referee()
    view = referee.view(code)  # 404 for an unknown table before asking for credentials
    token = _bearer_token()
    device_key = session.get("device")
    if token:
        referee.require_reader(view, TokenHolder(token))
    else:
        referee.require_reader(view, Phone(referee.device(view, device_key if isinstance(device_key, str) else None)))
    return view


@bp.get("/tables/<code>/export")
def export_table(code: str) -> Response:
    """Return the table's game (setup and every action) for `POST /tables/import`: its token or a joined phone."""
    view = _readable(code)
    response = jsonify(export_document(get_referee(), view.code, state_of(view)))
    response.headers["Content-Disposition"] = f'attachment; filename="table-{view.code}.json"'
    return response


@bp.get("/tables/<code>/export.csv")
def export_csv(code: str) -> Response:
    """Return the game as CSV (a finished game's standings, then one row per action): its token or a joined phone."""
    view = _readable(code)
    response = Response(play_csv(view), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="5-alive-{view.code}.csv"'
    return response


@bp.get("/tables/<code>/bgstats")
def bgstats(code: str) -> Response:
    """Return the link that logs the finished game in BG Stats, and the play it carries: its token or a joined phone."""
    view = _readable(code)
    if view.state.status is not Status.FINISHED:
        raise Illegal("not_finished", N_("The game is not over yet: BG Stats logs finished plays."))
    return jsonify({"url": bgstats_link(view), "play": bgstats_play(view)})


@bp.after_request
def _never_kept(response: Response) -> Response:
    """A table's answers are never stored by a browser or a proxy: its state changes with every card, and its
    devices, requests and export name phones and carry secrets."""
    if request.path.startswith(f"{PREFIX}/tables"):
        response.headers.setdefault("Cache-Control", "no-store")
    return response


# An export is about 60 bytes an action: a table at its 10,000-action cap is some 600 KB, far above the 64 KB
# every other request may send: under that limit a long game's own export would be refused with a bare 413.
IMPORT_LIMIT = 1024 * 1024
BUSY_IMPORTING = N_("The referee is importing another game just now: send this one again in a few seconds.")
IMPORT_ROUTE = "/tables/import"


def body_limit(path: str, default: int) -> int:
    """The most bytes a request to `path` may send: an import's IMPORT_LIMIT, else `default` (MAX_CONTENT_LENGTH).

    The ASGI front reads every body whole before Flask sees it (referee/server/asgi.py) and asks here how much to allow.
    """
    return IMPORT_LIMIT if path == PREFIX + IMPORT_ROUTE else default


@bp.post(IMPORT_ROUTE)
def import_table() -> tuple[Response, int]:
    """Make a new table from an exported game; return its code, API token, join link and state."""
    request.max_content_length = IMPORT_LIMIT
    _require_json()  # before counting: a cross-site form costs the address nothing
    limiter = table_limit()
    address = request.remote_addr or "?"
    if not limiter.allow(address):
        return _too_many_tables(limiter, address), 429
    # A refused import counts too, unlike a refused new table: checking a document replays its whole game,
    # up to 10,000 actions (0.3-0.5 s of CPU), so a stream of refused ones must meet the limit as made ones do.
    slot = import_slot()
    if not slot.acquire(blocking=False):
        # One import at a time per process: eight at once held every request thread for seconds, and the
        # limit above is per address, so many addresses together could still stall every table.
        response = error_response(503, "busy_importing", BUSY_IMPORTING)
        response.headers["Retry-After"] = "2"
        return response, 503
    try:
        created = import_document(get_referee(), _json_body())
    finally:
        slot.release()
    return _created_response(created), 201


@bp.get("/rules")
def rules() -> Response:
    """Search the rules panel in the request's language (Accept-Language): the best answers first, at most 10."""
    # Cut as the search itself cuts (a paragraph keeps its question, which comes last), not from the end.
    query = rulebook.shortened_query(request.args.get("q", ""))
    if not query.strip():
        return jsonify({"results": []})
    return jsonify({"results": [_result_said(result) for result in rulebook.search(query, language=language())]})


def _result_said(result: rulebook.SearchResult) -> dict[str, str | None]:
    """One answer as the rules panel words it: the entry in the request's language, its example and source too."""
    said = rulebook.result_json(result)
    said["example"] = worded(result.example.text) if result.example is not None else None
    said["source"] = source_said(result.source)
    return said


@bp.get("/openapi.json")
def openapi() -> Response:
    """Return the OpenAPI 3 description of this API."""
    return jsonify(openapi_document())
