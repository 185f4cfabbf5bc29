"""A log line's sentences as the events table keeps them: JSON of each sentence's template and parameters, so
that every phone reads the line in its own language (docs/translations.md)."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import Any

from ..engine.words import Param, Sentence, listed

_STORED_JSON = json.JSONEncoder(ensure_ascii=False)


def _sentence_data(sentence: Sentence) -> dict[str, Any]:
    """One sentence as JSON data: its template ("t"), its plural ("n") if it has one, its parameters ("p")."""
    data: dict[str, Any] = {"t": sentence.template}
    if sentence.plural is not None:
        data["n"] = sentence.plural
    if sentence.params:
        data["p"] = {
            name: _sentence_data(value) if isinstance(value, Sentence) else value
            for name, value in sentence.params.items()
        }
    return data


def sentences_to_json(sentences: Sequence[Sentence]) -> str:
    """A log line's sentences as the events table keeps them."""
    return _STORED_JSON.encode([_sentence_data(sentence) for sentence in sentences])


def _sentence(data: Any) -> Sentence:
    if not isinstance(data, dict) or not isinstance(data.get("t"), str):
        raise ValueError("not a stored sentence")
    params: dict[str, Param] = {}
    for name, value in (data.get("p") or {}).items():
        params[name] = value if isinstance(value, str | int) else _sentence(value)
    plural = data.get("n")
    return Sentence(data["t"] if plural is None else (data["t"], str(plural)), **params)


@functools.lru_cache(maxsize=4096)
def line_from_json(sentences: str) -> Sentence:
    """A stored log line as one Sentence, its sentences one after another (the English is the line's `text`).

    Kept per stored text: the same lines are read for every phone's board, in every language."""
    return listed([_sentence(data) for data in json.loads(sentences)], " ")
