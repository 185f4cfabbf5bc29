"""Templates compiled once per language: the words written in are the catalog's, and never another phone's."""

from __future__ import annotations

import re

import jinja2
import pytest
from conftest import Api
from flask import Flask

from referee.web.worded_templates import fold_sentences, split_name


def _compiled(source: str, name: str) -> jinja2.Template:
    """`source` compiled under `name` ("fr:page.html") by an environment that folds sentences, as the app's does."""
    environment = jinja2.Environment(loader=jinja2.DictLoader({name: source}), autoescape=True)
    fold_sentences(environment)
    return environment.get_template(name)


@pytest.mark.parametrize(
    ("language", "undo", "plays"),
    [("en", "Undo", "&lt;b&gt;Ann&lt;/b&gt; plays…"), ("fr", "Annuler", "&lt;b&gt;Ann&lt;/b&gt; joue…")],
)
def test_a_sentence_is_written_in_the_language_it_was_compiled_for(language: str, undo: str, plays: str) -> None:
    # The catalog's words are markup; a value filled in is escaped (Jinja's newstyle gettext, as at render time).
    source = '{{ _("Undo") }}|{{ _("%(name)s plays…", name=name) }}|{{ gettext("Undo") }}'
    said = _compiled(source, f"{language}:page.html").render(name="<b>Ann</b>")
    assert said == f"{undo}|{plays}|{undo}"


def test_what_is_not_a_literal_sentence_alone_is_left_to_render_time() -> None:
    # An attribute named _ is not the catalog; a sentence made at render time cannot be looked up before it.
    source = '{{ words._("Undo") }}|{{ _("Undo" ~ "") }}|{{ _("100%% sure") }}'
    said = _compiled(source, "fr:page.html").render(words={"_": "[{}]".format}, _="asked: {}".format)
    assert said == "[Undo]|asked: Undo|100% sure"
    # A template loaded outside a request has no language in its name: nothing is folded.
    assert _compiled('{{ _("Undo") }}', "page.html").render(_="asked: {}".format) == "asked: Undo"


def test_a_template_name_carries_its_language_only_when_it_is_one_the_app_speaks() -> None:
    assert split_name("fr:_board.html") == ("fr", "_board.html")
    assert split_name("_board.html") == (None, "_board.html")
    assert split_name("xx:_board.html") == (None, "xx:_board.html")


def test_one_process_answers_each_phone_in_its_own_language_turn_by_turn(app: Flask, api: Api) -> None:
    """The compiled pages of one language never reach a phone reading another (each is cached by language)."""
    api.create(["Ann", "Bob"])
    expected = {
        "en": ("Clockwise", "Round 1"),
        "fr": ("Sens des aiguilles d'une montre", "Manche 1"),
        "de": ("Im Uhrzeigersinn", "Runde 1"),
    }
    phones = {language: app.test_client() for language in expected}
    for _ in range(2):
        for language, phone in phones.items():
            html = phone.get(f"/t/{api.code}", headers={"Accept-Language": language}).get_data(as_text=True)
            # The page, the layout it extends and the board it includes are all in the phone's language.
            assert re.search(rf'<html lang="{language}"', html)
            direction, round_line = expected[language]
            assert f"&nbsp;{direction}\n" in html and f">{round_line} · " in html, language
