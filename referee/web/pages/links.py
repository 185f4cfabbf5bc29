"""The links pages draw: URLs built once per app (`request_url_for`, the templates' `url_for`), and the title of
the rulebook entry a "Why?" link opens (`rule_title`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import current_app, request, url_for

from ... import rulebook
from ..i18n import language

# URLs kept: a board has about fifteen, so a café's hundred tables' boards fit several times over.
URL_ENTRIES = 8192


def request_url_for(endpoint: str, **values: Any) -> str:
    """`url_for`, built once per URL prefix, endpoint and values, then remembered by the app.

    A board asks for the same few URLs (its "act" URL about ten times) at every tap and refresh, and building
    one is about 15 µs. A relative URL depends only on those, and the prefix the app is served under
    (`request.script_root`, set by a proxy) is part of the key. Static files are left out: their URLs carry the
    file's version (assets.py), which changes when the file does.
    """
    if endpoint == "static":
        return url_for(endpoint, **values)
    built: Callable[..., str] = current_app.extensions["referee_urls"]
    return built(request.script_root, endpoint, tuple(values.items()))


def _build_url(script_root: str, endpoint: str, values: tuple[tuple[str, Any], ...]) -> str:
    # script_root is only part of the cache key: url_for reads it from the request itself.
    return url_for(endpoint, **dict(values))


def url_cache(entries: int = URL_ENTRIES) -> Callable[..., str]:
    """A bounded, thread-safe cache of built URLs for `request_url_for` (one per app)."""
    return functools.lru_cache(maxsize=entries)(_build_url)


def rule_title(entry_id: str) -> str:
    """Return the title of a rulebook entry in the phone's language, for "Why?" links."""
    found = rulebook.entry(entry_id, language())
    return found.title if found is not None else entry_id
