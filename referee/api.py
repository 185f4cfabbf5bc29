"""JSON API v1: create tables, read their state, send actions. Errors are {"error": {code, message}}."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from werkzeug.exceptions import HTTPException

from . import get_referee, rulebook
from .codec import Malformed, command_from_json, expected_version
from .netaddr import lan_address, phone_url
from .openapi import openapi_document
from .security import RateLimiter
from .service import Created, ServiceError

bp = Blueprint("api", __name__, url_prefix="/api/v1")

CREATE_FIELDS = {"players", "variant", "teams", "first_player", "house_rules", "entry"}


def error_response(status: int, code: str, message: str, **extra: Any) -> Response:
    """Return the API's error body with `status`."""
    response = jsonify({"error": {"code": code, "message": message}, **extra})
    response.status_code = status
    return response


@bp.errorhandler(ServiceError)
def _service_error(error: ServiceError) -> Response:
    extra = {"state": error.view.state_json()} if error.view is not None and error.status == 409 else {}
    return error_response(error.status, error.code, error.message, **extra)


@bp.errorhandler(Malformed)
def _malformed(error: Malformed) -> Response:
    return error_response(400, error.code, error.message)


@bp.errorhandler(HTTPException)
def _http_error(error: HTTPException) -> Response:
    code = {404: "not_found", 405: "method_not_allowed", 413: "too_large", 429: "too_many"}.get(
        error.code or 500, "http_error"
    )
    response = error_response(error.code or 500, code, error.description or "That request cannot be answered.")
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value  # e.g. Allow on a 405, which RFC 9110 requires
    return response


@bp.app_errorhandler(404)
@bp.app_errorhandler(405)
def _routing_error(error: HTTPException) -> Response | HTTPException:
    # An unknown path or method fails before any blueprint is chosen: answer API clients in JSON too.
    if request.path == bp.url_prefix or request.path.startswith(f"{bp.url_prefix}/"):
        return _http_error(error)
    return error


def _json_body() -> Any:
    raw = request.get_data(cache=True)
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        # RecursionError: "[[[[…" nested thousands deep still fits in 64 KB.
        raise Malformed("bad_json", "The request body must be JSON.") from None


def join_url(code: str, secret: str) -> str:
    """Return the link a phone opens to join `code`, on an address other phones can reach."""
    return phone_url(url_for("web.join", code=code, secret=secret, _external=True), lan_address())


@bp.post("/tables")
def create_table() -> tuple[Response, int]:
    """Create a table; return its code, API token, join link and state."""
    limiter = current_app.extensions["referee.table_limit"]
    assert isinstance(limiter, RateLimiter)
    address = request.remote_addr or "?"
    if not limiter.allow(address):
        return error_response(429, "too_many", "Too many new tables from this address: wait a minute."), 429
    try:
        created = _create_from_body(_json_body())
    except (Malformed, ServiceError):
        limiter.release(address)  # only tables actually made count towards the limit
        raise
    view = created.view
    response = jsonify(
        {
            "code": view.code,
            "token": created.token,
            "join_url": join_url(view.code, view.join_secret),
            "state": view.state_json(),
        }
    )
    response.headers["Location"] = url_for("api.get_table", code=view.code)
    return response, 201


def _create_from_body(body: Any) -> Created:
    if not isinstance(body, dict):
        raise Malformed("bad_json", "Send the table as a JSON object.")
    unknown = set(body) - CREATE_FIELDS
    if unknown:
        raise Malformed("bad_field", f"Unknown field {sorted(unknown)[0][:30]!r}.")
    if "players" not in body:
        raise Malformed("bad_players", "List the players' names in seat order.")
    for field, kind in (("variant", str), ("first_player", str), ("house_rules", dict), ("teams", list)):
        if body.get(field) is not None and not isinstance(body[field], kind):
            raise Malformed("bad_field", f"The field {field!r} has the wrong type.")
    return get_referee().create_table(
        body["players"],
        variant=body.get("variant") or "standard",
        teams=body.get("teams"),
        first_player=body.get("first_player"),
        house_rules=body.get("house_rules"),
        entry=body.get("entry") or "joined",
        address=request.remote_addr,
    )


@bp.get("/tables/<code>")
def get_table(code: str) -> Response:
    """Return a table's state."""
    return jsonify(get_referee().view(code).state_json())


def _bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    return header[7:].strip() if header[:7].lower() == "bearer " else None


@bp.post("/tables/<code>/actions")
def post_action(code: str) -> Response:
    """Apply one action (play, bust, hand, undo, redo, tiebreak) with the table's token."""
    referee = get_referee()
    referee.check_token(code, _bearer_token())  # 404 for an unknown table before asking for a token
    body = _json_body()
    command = command_from_json(body)
    view = referee.act(code, command, expected_version=expected_version(body), entered_by="API")
    return jsonify(view.state_json())


@bp.post("/tables/<code>/join-link")
def new_join_link(code: str) -> Response:
    """Replace the table's join link (the old one stops letting phones join); return the new one."""
    referee = get_referee()
    referee.check_token(code, _bearer_token())
    referee.new_join_link(code)
    view = referee.view(code)
    return jsonify({"join_url": join_url(view.code, view.join_secret)})


@bp.get("/rules")
def rules() -> Response:
    """Search the rules panel: the best answers first, at most 10."""
    query = request.args.get("q", "")[:200]
    return jsonify(rulebook.search_json(query) if query.strip() else {"results": []})


@bp.get("/openapi.json")
def openapi() -> Response:
    """Return the OpenAPI 3 description of this API."""
    return jsonify(openapi_document())
