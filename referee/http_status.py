"""HTTP statuses for the service's typed errors: the one mapping the JSON API and the pages share."""

from __future__ import annotations

from .errors import Conflict, Forbidden, Illegal, Invalid, NeedsCredentials, NotFound, ServiceError, TooMany

STATUS_OF: dict[type[ServiceError], int] = {
    Invalid: 400,
    NeedsCredentials: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    Illegal: 422,
    TooMany: 429,
}


def http_status(error: ServiceError) -> int:
    """Return the HTTP status that reports `error` (the nearest class in STATUS_OF; 400 if none)."""
    for kind in type(error).__mro__:
        status = STATUS_OF.get(kind)
        if status is not None:
            return status
    return 400
