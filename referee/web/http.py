"""What the faces share about HTTP: the status of each of the service's typed errors, our sentences for HTTP
errors (in the phone's language), and small htmx helpers named for what they do to a response (after
django-htmx)."""

from __future__ import annotations

from flask import Response, redirect, request
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from ..engine.words import N_
from ..service.errors import (
    Conflict,
    Forbidden,
    Illegal,
    Invalid,
    NeedsCredentials,
    NotFound,
    ServiceError,
    TooMany,
    Unconfirmed,
)

STATUS_OF: dict[type[ServiceError], int] = {
    Invalid: 400,
    NeedsCredentials: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    Illegal: 422,
    TooMany: 429,
    Unconfirmed: 409,
}


def http_status(error: ServiceError) -> int:
    """Return the HTTP status that reports `error` (the nearest class in STATUS_OF; 400 if none)."""
    for kind in type(error).__mro__:
        status = STATUS_OF.get(kind)
        if status is not None:
            return status
    return 400


# Our own words for the HTTP errors the framework raises (an unknown address, a wrong method, a body over the
# size limit...): Werkzeug's stock descriptions ("The requested URL was not found on the server. If you
# entered the URL manually...") are written for web developers, not for a family at a table.
# Each is marked for the catalogs and worded in the phone's language (docs/translations.md).
HTTP_ERROR_SENTENCES = {
    400: N_("The phone sent something the referee can't read. Reload the page and try again."),
    403: N_("This phone may not do that at this table."),
    404: N_("There is nothing at this address. Check it, or start again from the home page."),
    405: N_("That can't be done at this address."),
    408: N_("The phone took too long to send its request. Try again."),
    413: N_("That was too much to send at once."),
    429: N_("Too many requests from this phone: wait a minute."),
    431: N_("The phone sent too much with its request. Try again."),
}
CANT_BE_DONE = N_("That can't be done.")


def http_error_sentence(error: HTTPException) -> str:
    """The sentence for an HTTP error: the one it was raised with (ours, marked with N_), else ours for its status.
    In English: the page or the API's error words it in the phone's language."""
    if error.description and error.description != type(error).description:
        return error.description
    return HTTP_ERROR_SENTENCES.get(error.code or 500, CANT_BE_DONE)


def is_htmx() -> bool:
    """True when htmx asked for a fragment rather than a whole page."""
    return request.headers.get("HX-Request") == "true"


def navigate(target: str) -> BaseResponse:
    """Send the browser to another page after a form post: a 303 for plain forms, HX-Redirect for htmx.

    htmx's XMLHttpRequest would follow a 303 silently and swap the whole next page into the
    form, so htmx requests get an empty answer that tells htmx to navigate instead.
    """
    if is_htmx():
        response = Response(status=204)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, 303)


def nothing_changed() -> Response:
    """Answer a refresh whose page is already current: 204, which htmx leaves unswapped (base.html's config)."""
    return Response(status=204)
