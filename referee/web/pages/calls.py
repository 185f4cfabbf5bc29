"""The spoken call: a few words a phone or the table display says out loud after the table's latest change
(static/js/speech.js speaks them), written here with the rest of the pages' words so that they are translated with
them.

"Ann and Cy lose a life. Round 2. 0, Bob's turn." The newest change only: a call is short, and a newer one replaces
an unfinished one anyway.
"""

from __future__ import annotations

from ...engine import EventKind, Status, join_names, winners_text
from ...service.tableview import TableView
from .summary import Loss, Strip, TieBreakNote

CALL_LANGUAGE = "en"
"""The language the calls are in, which the speech's voice must read them in (static/js/speech.js): English, as the
narration they are made from (winners, tie-break, "Just now") is English in every language today; a French voice
reading English words is not understood."""


def spoken_call(view: TableView, strip: Strip | None, tiebreak: TieBreakNote | None) -> str:
    """Say the table's latest change in a few words: lives lost, who is out, a new round, then the total and whose
    turn (or the tie-break, or the winner)."""
    state = view.state
    parts: list[str] = []
    if strip is not None and not strip.label.startswith("Just now"):
        # Undo and Redo: the call says the table went back (or forward), then where it stands now.
        parts.append(f"{strip.label}.")
    if strip is not None:
        parts.extend(_losses(strip.losses))
        if strip.out:
            parts.append(f"{join_names(list(strip.out))} {'is' if len(strip.out) == 1 else 'are'} out.")
    # After an Undo the state's events are an older action's: its new round was said then.
    undone = strip is not None and strip.label.startswith("Undone")
    rounds = [] if undone else [event for event in state.events if event.kind is EventKind.NEW_ROUND]
    if rounds and state.status is Status.PLAYING:
        parts.append(f"Round {state.round}.")
    if state.status is Status.FINISHED:
        parts.append(winners_text(state))
    elif tiebreak is not None:
        parts.append(tiebreak.headline)
    elif state.status is Status.PLAYING and state.current_player is not None:
        parts.append(f"{state.total}, {state.current_player.name}'s turn.")
    return " ".join(parts)


def _losses(losses: tuple[Loss, ...]) -> list[str]:
    """One sentence for everyone who lost as many lives, fewest first ("Ann and Cy lose a life.")."""
    by_count: dict[int, list[str]] = {}
    for loss in losses:
        by_count.setdefault(loss.lives, []).append(loss.name)
    sentences = []
    for count, names in sorted(by_count.items()):
        verb = "loses" if len(names) == 1 else "lose"
        lives = "a life" if count == 1 else f"{count} lives"
        sentences.append(f"{join_names(names)} {verb} {lives}.")
    return sentences
