"""Small htmx helpers, named for what they do (after django-htmx): is this htmx asking, send the browser elsewhere."""

from __future__ import annotations

from flask import Response, redirect, request
from werkzeug.wrappers import Response as BaseResponse


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
