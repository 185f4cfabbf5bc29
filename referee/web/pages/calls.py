"""The spoken call: a few words a phone or the table display says out loud after the table's latest change
(static/js/speech.js speaks them), written here with the rest of the pages' words so that they are translated with
them.

"Ann and Cy lose a life. Round 2. 0, Bob's turn." The newest change only: a call is short, and a newer one replaces
an unfinished one anyway.
"""

from __future__ import annotations

from ...engine import EventKind, Status, winners_text
from ...engine.words import N_, N_plural, Sentence, listed, names_said
from ...service.tableview import TableView
from ..i18n import language, worded
from .summary import Loss, Strip, TieBreakNote


def call_language() -> str:
    """The language the calls are in, which the speech's voice must read them in (static/js/speech.js): the page's,
    as the words of the call are (a French voice reading English words is not understood)."""
    return language()


def spoken_call(view: TableView, strip: Strip | None, tiebreak: TieBreakNote | None) -> str:
    """Say the table's latest change in a few words, in this phone's language: lives lost, who is out, a new round,
    then the total and whose turn (or the tie-break, or the winner)."""
    state = view.state
    parts: list[str] = []
    if strip is not None and strip.kind != "played":
        # Undo and Redo: the call says the table went back (or forward), then where it stands now. The strip's
        # label is worded already.
        parts.append(Sentence("%(label)s.", label=strip.label))
    if strip is not None:
        parts.extend(_losses(strip.losses))
        if strip.out:
            out = names_said(list(strip.out))
            parts.append(Sentence(N_plural("%(names)s is out.", "%(names)s are out."), names=out, count=len(strip.out)))
    # After an Undo the state's events are an older action's: its new round was said then.
    undone = strip is not None and strip.kind == "undone"
    rounds = [] if undone else [event for event in state.events if event.kind is EventKind.NEW_ROUND]
    if rounds and state.status is Status.PLAYING:
        parts.append(Sentence(N_("Round %(round)s."), round=state.round))
    if state.status is Status.FINISHED:
        parts.append(winners_text(state))
    elif tiebreak is not None:
        parts.append(tiebreak.headline)  # worded already
    elif state.status is Status.PLAYING and state.current_player is not None:
        parts.append(Sentence(N_("%(total)s, %(name)s's turn."), total=state.total, name=state.current_player.name))
    return worded(listed(parts, " ")) if parts else ""


def _losses(losses: tuple[Loss, ...]) -> list[Sentence]:
    """One sentence for everyone who lost as many lives, fewest first ("Ann and Cy lose a life.")."""
    by_count: dict[int, list[str]] = {}
    for loss in losses:
        by_count.setdefault(loss.lives, []).append(loss.name)
    sentences = []
    for count, names in sorted(by_count.items()):
        # The verb follows how many lose ("Ann loses", "Ann and Cy lose"); the count of lives, how many are lost.
        if len(names) == 1:
            template = N_plural("%(names)s loses a life.", "%(names)s loses %(count)s lives.")
        else:
            template = N_plural("%(names)s lose a life.", "%(names)s lose %(count)s lives.")
        sentences.append(Sentence(template, names=names_said(names), count=count))
    return sentences
