"""Sentences said in the phone's language: each one's English template, marked for extraction, and its parameters.

The engine and the service say what they refuse in English, and cannot know whose phone will read it. A
`Sentence` is that English text (a `str`, so every place that shows, compares or logs it is unchanged) that also
keeps its template and parameters, so the face that answers can word it again in the phone's language with that
language's catalog (docs/translations.md). Nothing here loads a catalog: `worded` takes any object with gettext's
`gettext` and `ngettext` (Babel's `Translations`, or the `ENGLISH` below) and a way to write a number.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


def N_(text: str) -> str:
    """Mark `text` for extraction and leave it as it is (gettext's documented `gettext_noop` convention): the face
    that answers words it."""
    return text


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a sentence with a count for extraction as its singular and plural (worded later with ngettext)."""
    return singular, plural


# A parameter: a name or other text said as it is (a player's name is never translated), a number (written the
# language's way), or a sentence of its own (worded too).
Param = str | int


class Wording(Protocol):
    """What wording a sentence takes: a language's catalog, and how that language writes a number."""

    def gettext(self, message: str, /) -> str:
        """The sentence `message` in this language."""
        ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        """The form of a sentence with a count of `n`, in this language."""
        ...

    def number(self, value: int) -> str:
        """`value` as this language writes it (10,000; 10 000; 10.000)."""
        ...


class _English:
    """English: the templates as written, numbers grouped by commas."""

    def gettext(self, message: str, /) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return singular if n == 1 else plural

    def number(self, value: int) -> str:
        return f"{value:,}"


ENGLISH: Wording = _English()


class Sentence(str):
    """A sentence for a player: its English text, which it is as a `str`, and the template and parameters that make
    it, so that a face can say it in another language (`worded`).

    `template` is an N_-marked sentence, or an N_plural pair whose form follows the parameter `count`.
    """

    template: str
    plural: str | None
    params: dict[str, Param]

    def __new__(cls, template: str | tuple[str, str], /, **params: Param) -> Sentence:
        singular, plural = (template, None) if isinstance(template, str) else template
        if plural is not None and not isinstance(params.get("count"), int):
            raise TypeError("a sentence with a plural needs an int parameter `count`")
        self = super().__new__(cls, _fill(singular, plural, params, ENGLISH))
        self.template = singular
        self.plural = plural
        self.params = params
        return self

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt from its template and parameters (copy, pickle), not from its English text alone.
        template = self.template if self.plural is None else (self.template, self.plural)
        return (_rebuilt, (template, self.params))


def _rebuilt(template: str | tuple[str, str], params: dict[str, Param]) -> Sentence:
    return Sentence(template, **params)


def said(message: str | tuple[str, str], params: dict[str, Param] | None = None) -> Sentence:
    """`message` as a Sentence: a Sentence already made stays as it is; a template is filled with `params`."""
    if isinstance(message, Sentence) and not params:
        return message
    return Sentence(message, **(params or {}))


def _param(value: Param, wording: Wording) -> str:
    if isinstance(value, Sentence):
        # In English a sentence already is its text: made once, not again for every sentence it is part of (a log
        # line nests a dozen).
        return str.__str__(value) if wording is ENGLISH else worded(value, wording)
    if isinstance(value, int) and not isinstance(value, bool):
        return wording.number(value)
    return str(value)


def _fill(singular: str, plural: str | None, params: dict[str, Param], wording: Wording) -> str:
    if plural is None:
        text = wording.gettext(singular)
    else:
        count = params["count"]
        assert isinstance(count, int)
        text = wording.ngettext(singular, plural, count)
    if not params:
        return text
    return text % {name: _param(value, wording) for name, value in params.items()}


def worded(text: str, wording: Wording) -> str:
    """`text` in the language of `wording`: a Sentence from its template, any other text as its catalog says it (a
    constant marked with N_ is its own template); English when the catalog does not have it."""
    if not isinstance(text, Sentence):
        return wording.gettext(text) if text else text
    try:
        return _fill(text.template, text.plural, text.params, wording)
    except (KeyError, ValueError, TypeError):
        # A translation whose placeholders differ from the template's (tests/test_translations.py refuses
        # such a catalog): the player reads English rather than a server error.
        return str.__str__(text)


def names_said(names: Iterable[str]) -> Sentence:
    """Names as a list is said aloud, "Bob", "Bob and Cy", "Bob, Cy and Dee", with "and" in the phone's language
    (a name that is a Sentence, such as a team's, is worded too)."""
    listed = list(names)
    if len(listed) <= 1:
        # A name alone: nothing to translate, but one that is a Sentence (a team's, a count) is worded still.
        return Sentence("%(name)s", name=listed[0] if listed else "")
    # Unmarked templates (nothing to translate in a comma) keep any name that is a Sentence (a team's) a Sentence.
    first: str = listed[0]
    for name in listed[1:-1]:
        first = Sentence("%(first)s, %(next)s", first=first, next=name)
    return Sentence(N_("%(names)s and %(last)s"), names=first, last=listed[-1])


def listed(parts: Iterable[str], separator: str = ", ") -> Sentence:
    """Parts said one after another with `separator` between them ("Ann 3, Bob 5"; sentences with a space), each
    part worded in the phone's language: punctuation, with nothing of its own to translate."""
    items = list(parts)
    if not items:
        return Sentence("%(first)s", first="")
    joined = Sentence("%(first)s", first=items[0])
    template = f"%(first)s{separator}%(next)s"
    for item in items[1:]:
        joined = Sentence(template, first=joined, next=item)
    return joined


def choices_said(choices: Iterable[str]) -> Sentence:
    """Choices as said aloud, "a", "a or b", "a, b or c", with "or" in the phone's language."""
    listed = list(choices)
    if len(listed) <= 1:
        return Sentence("%(name)s", name=listed[0] if listed else "")
    first: str = listed[0]
    for choice in listed[1:-1]:
        first = Sentence("%(first)s, %(next)s", first=first, next=choice)
    return Sentence(N_("%(choices)s or %(last)s"), choices=first, last=listed[-1])
