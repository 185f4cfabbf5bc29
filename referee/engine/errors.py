"""The engine's errors: a refused action or setup, each with a code and a sentence for players."""

from __future__ import annotations


class EngineError(ValueError):
    """Something the engine will not do; `code` is for machines, `message` for players."""

    def __init__(self, code: str, message: str, *, rule: str | None = None, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
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
