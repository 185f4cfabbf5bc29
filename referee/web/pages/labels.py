"""A phone's label ("Bob's phone", "Host") in the reading phone's language: the host's list of phones and the log
name phones by these labels, which the service stores in English."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ...engine.words import N_, Sentence
from ...engine.words import worded as worded_in
from ...service.base import (
    HOST_LABEL,
    HOST_MOVED_LABEL,
    HOST_SCORING_LABEL,
    MOVED_SUFFIX,
    WAS_HOST_SUFFIX,
    WATCHING_LABEL,
)
from ...service.tableview import LogEntry
from ..i18n import DEFAULT_LANGUAGE, catalog_wording, language, worded

# The labels the service gives phones (service/base.py, "Bob's phone" in service/seats.py and service/requests.py),
# said in the reading phone's language. They are stored in English: the log names the phone that entered a card
# by its label.
FIXED_LABELS = {
    HOST_LABEL: N_("Host"),
    HOST_SCORING_LABEL: N_("Host (keeping score)"),
    WATCHING_LABEL: N_("Watching"),
    HOST_MOVED_LABEL: N_("The host's old phone"),
    "Scorekeeper": N_("Scorekeeper"),  # a phone that joined to keep score (service/seats.py)
}
NAMED_LABELS = ((MOVED_SUFFIX, N_("%(name)s's old phone")), ("'s phone", N_("%(name)s's phone")))

# The phone that undid or redid a line, after "by" ("Undone by Host"): German joins the article to "von" ("vom
# Gastgeber") and French needs one ("par l'hôte"), so each label has its whole "by …" phrase, filled into "Undone
# %(by)s". "API" is what the log says for a table's token (service/play.py).
FIXED_BY = {
    HOST_LABEL: N_("by Host"),
    HOST_SCORING_LABEL: N_("by Host (keeping score)"),
    HOST_MOVED_LABEL: N_("by the host's old phone"),
    "Scorekeeper": N_("by Scorekeeper"),
    "API": N_("by API"),
}
NAMED_BY = ((MOVED_SUFFIX, N_("by %(name)s's old phone")), ("'s phone", N_("by %(name)s's phone")))


def label_said(label: str, players: Sequence[str]) -> str:
    """A phone's label in this request's language ("Bob's phone": "Téléphone de Bob"); any other label as it is."""
    return _said(label, players, FIXED_LABELS, NAMED_LABELS) or label


def label_by(label: str, players: Sequence[str]) -> str:
    """ "by" and a phone's label in this request's language ("by Host": "vom Gastgeber", "par l'hôte")."""
    return _said(label, players, FIXED_BY, NAMED_BY) or worded(
        Sentence(N_("by %(name)s"), name=label_said(label, players))
    )


def _said(label: str, players: Sequence[str], fixed: dict[str, str], named: tuple[tuple[str, str], ...]) -> str | None:
    """`label` worded with `fixed` and `named` templates; None for a label neither knows."""
    if label in fixed:
        return worded(fixed[label])
    was_host = label.endswith(WAS_HOST_SUFFIX)
    core = label.removesuffix(WAS_HOST_SUFFIX)
    for suffix, template in named:
        name = core.removesuffix(suffix)
        if name != core and name in players:
            phone = Sentence(template, name=name)
            return worded(Sentence(N_("%(phone)s (was the host)"), phone=phone) if was_host else phone)
    return None


def line_said(entry: LogEntry) -> str:
    """A log entry's line in this request's language (the "Just now" strip and the log say the same line)."""
    said_in = language()
    if said_in == DEFAULT_LANGUAGE:
        # The stored text is the line in English already, made from the same sentences when it was entered.
        return entry.text
    return _line_said(entry, said_in)


@functools.lru_cache(maxsize=4096)
def _line_said(entry: LogEntry, said_in: str) -> str:
    # Worded once per entry and language: the tap that enters a line says it in its strip and in its log, and every
    # phone reading that language says it again at each refresh (a line nests a dozen sentences).
    return worded_in(entry.said(), catalog_wording(said_in))
