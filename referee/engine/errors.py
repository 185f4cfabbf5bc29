"""The engine's errors: a refused action or setup, each with a code and a sentence for players."""

from __future__ import annotations

from .words import Param, Sentence, said


class EngineError(ValueError):
    """Something the engine will not do; `code` is for machines, `message` for players.

    `message` is a Sentence: the English text of an N_-marked template (or N_plural pair) filled with `params`,
    which the face that answers says again in the phone's language (engine/words.py).
    """

    message: Sentence

    def __init__(
        self,
        code: str,
        message: str | tuple[str, str],
        *,
        rule: str | None = None,
        field: str | None = None,
        **params: Param,
    ):
        sentence = said(message, params)
        super().__init__(sentence)
        self.code = code
        self.message = sentence
        self.rule = rule
        self.field = field


class Refused(EngineError):
    """An action the rules do not allow now (not your turn, does not fit, game over…)."""


class RefusedAt(Refused):
    """An action of a replayed log that the rules refuse: `number` is its place in the log, counted from 1."""

    def __init__(self, number: int, refused: EngineError):
        super().__init__(refused.code, refused.message, rule=refused.rule, field=refused.field)
        self.number = number


class InvalidSetup(EngineError):
    """A table that cannot be set up as asked (bad names, counts, teams or house rules)."""
