"""Every language is whole: each catalog translates every sentence, keeps its placeholders, and is compiled; no
sentence of the app is left out of the template (docs/translations.md)."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

from babel.messages.extract import extract_from_dir
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
