"""Every language is whole: each catalog translates every sentence, keeps its placeholders, and is compiled; no
sentence of the app is left out of the template (docs/translations.md)."""

from __future__ import annotations

import gettext
import json
import re
from collections.abc import Iterator
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from referee.web.i18n import DEFAULT_LANGUAGE, LANGUAGES
from tools.translations import CATALOGS, KEYWORDS, MAPPING, ROOT, TEMPLATE

# A placeholder as the app fills it: %(name)s or %s (Python's % formatting, which gettext's docs use).
PLACEHOLDER = re.compile(r"%(?:\([a-z_]+\))?[sd]")


def _catalog(path: Path) -> object:
    with path.open("rb") as file:
        return read_po(file)


def _messages(catalog: object) -> dict[object, object]:
    return {message.id: message for message in catalog if message.id}  # type: ignore[attr-defined]


def _texts(message_id: object) -> tuple[str, ...]:
    return (message_id,) if isinstance(message_id, str) else tuple(message_id)  # type: ignore[arg-type]


def _placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def test_every_language_but_english_has_a_whole_catalog() -> None:
    template = _messages(_catalog(TEMPLATE))
    assert template, "the template holds no sentence"
    for language in LANGUAGES:
        if language == DEFAULT_LANGUAGE:
            continue
        translated = _messages(_catalog(CATALOGS / language / "LC_MESSAGES" / "messages.po"))
        missing = sorted(str(key) for key in template if key not in translated)
        assert missing == [], f"{language}: not in the catalog: {missing[:5]}"
        for key, message in translated.items():
            if key not in template:
                continue
            strings = _texts(message.string)  # type: ignore[attr-defined]
            assert all(strings), f"{language}: not translated: {key!r}"
            assert not message.fuzzy, f"{language}: marked fuzzy (check it, then remove the mark): {key!r}"  # type: ignore[attr-defined]
            # A plural's first form says the singular (which may leave the count out: "in a minute"), the others
            # the plural, as gettext's own check pairs them.
            singular, plural = _texts(key)[0], _texts(key)[-1]
            for number, text in enumerate(strings):
                wanted = _placeholders(singular if number == 0 else plural)
                assert _placeholders(text) == wanted, f"{language}: placeholders differ in {key!r}: {text!r}"


def test_every_sentence_of_the_app_is_in_the_template() -> None:
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), **KEYWORDS}
    method_map = []
    for line in MAPPING.read_text().splitlines():
        found = re.fullmatch(r"\[(\w+): (.+)\]", line.strip())
        if found:
            method_map.append((found.group(2), found.group(1)))
    extracted = {
        message if isinstance(message, str) else message[0]
        for _, _, message, *_ in extract_from_dir(ROOT, method_map=method_map, keywords=keywords)
        if message
    }
    template = {key if isinstance(key, str) else key[0] for key in _messages(_catalog(TEMPLATE))}
    assert sorted(extracted - template) == [], "run: python -m tools.translations extract && … update"
    assert sorted(template - extracted) == [], "the template holds sentences the app no longer says: extract again"


def test_every_compiled_catalog_says_what_its_source_says() -> None:
    for language in LANGUAGES:
        if language == DEFAULT_LANGUAGE:
            continue
        folder = CATALOGS / language / "LC_MESSAGES"
        with (folder / "messages.mo").open("rb") as file:
            compiled = gettext.GNUTranslations(file)
        for key, message in _messages(_catalog(folder / "messages.po")).items():
            if isinstance(key, str):
                assert compiled.gettext(key) == message.string, f"{language}: compile again: {key!r}"  # type: ignore[attr-defined]


# French typography (docs/translations.md, "French typography"): a narrow no-break space (U+202F) before ":", ";", "?"
# and "!" and inside « », so that no sign is glued to its word and none wraps alone onto the next line. Code is
# written as it is sent: a time (20:14), an address (https://), a JSON key ("entry":), an HTTP header's name.
NARROW_NO_BREAK_SPACE = "\u202f"
FRENCH_SPACED = re.compile(r"[:;?!]|«|»")
CODE = re.compile(r'\d:\d|://|":|\b(?:Content-Type|Authorization): ')


def french_typography_faults(text: str) -> list[str]:
    """Each place in `text` where a French sign lacks its narrow no-break space, shown in its context."""
    code = [match.span() for match in CODE.finditer(text)]
    faults = []
    for match in FRENCH_SPACED.finditer(text):
        at = match.start()
        if any(start <= at < end for start, end in code):
            continue
        if match.group() == "«":
            spaced = text[at + 1 : at + 2] == NARROW_NO_BREAK_SPACE
        else:
            # "?!": the second sign follows the first, which has the space.
            spaced = at > 0 and (text[at - 1] == NARROW_NO_BREAK_SPACE or text[at - 1] in ":;?!")
        if not spaced:
            faults.append(repr(text[max(0, at - 20) : at + 5]))
    return faults


def test_the_french_catalog_spaces_its_colons_semicolons_question_and_exclamation_marks() -> None:
    with (CATALOGS / "fr" / "LC_MESSAGES" / "messages.mo").open("rb") as file:
        catalog = read_mo(file)
    faults = [
        fault
        for message in catalog
        if message.id
        for text in _texts(message.string)
        for fault in french_typography_faults(text)
    ]
    assert faults == []


def test_the_french_rulebook_spaces_its_colons_semicolons_question_and_exclamation_marks() -> None:
    def strings(value: object) -> Iterator[str]:
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for item in value.values():
                yield from strings(item)
        elif isinstance(value, list):
            for item in value:
                yield from strings(item)

    words = json.loads((CATALOGS / "fr" / "rulebook.json").read_text(encoding="utf-8"))
    faults = [fault for text in strings(words) for fault in french_typography_faults(text)]
    assert faults == []
