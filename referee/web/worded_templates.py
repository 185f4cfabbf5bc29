"""Templates compiled once per language, with their sentences that take no values written in.

`{{ _("Undo") }}` asks the catalog at every render, through a call in Jinja's context and an escape; a tap's board
says about twenty such sentences. Here each template is compiled once per language instead: a request loads
`_board.html` under the name "fr:_board.html" (its language, then the template's own name), what it extends,
includes and imports is loaded in the same language, and while the template is read, each `_("...")` or
`gettext("...")` of a literal alone becomes the catalog's sentence as markup. That is what `_()` gives at render
time (Jinja's newstyle gettext: the catalog's words are markup, "%%" is "%"). Sentences with values, `ngettext` and
`{% trans %}` still run at render time; a template loaded outside a request (the ASGI front's pages) is compiled
once, unfolded, and asks the catalog at render time as before.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, MutableMapping
from typing import Any

import jinja2
from flask import has_request_context
from flask.sansio.app import App
from flask.templating import Environment
from jinja2 import BaseLoader, Template
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream

from .i18n import LANGUAGES, catalog_wording, filled, language

# Between a template's language and its name: "de:_board.html". No template name has one.
SEPARATOR = ":"
# The callables whose literal sentence is written in while the template is read (init_app in i18n.py binds both).
FOLDED_CALLS = frozenset({"_", "gettext"})
# The filter that fills a folded sentence's values in at render time.
FILL_FILTER = "filled"


def split_name(name: str) -> tuple[str | None, str]:
    """A loaded template's language (None for one loaded outside a request) and its own name."""
    said_in, separator, plain = name.partition(SEPARATOR)
    if separator and said_in in LANGUAGES:
        return said_in, plain
    return None, name


class WordedEnvironment(Environment):
    """Flask's template environment, loading each template in the request's language (see the module's text).

    The app's class for it (`Flask.jinja_environment`, set by create_app before the environment is made).
    """

    def __init__(self, app: App, **options: Any):
        super().__init__(app, **options)
        self.loader = LanguageLoader(self.loader) if self.loader is not None else None
        fold_sentences(self)

    def get_template(
        self,
        name: str | Template,
        parent: str | None = None,
        globals: MutableMapping[str, Any] | None = None,
    ) -> Template:
        """The template `name`, compiled for this request's language when a request is being answered."""
        if parent is None and isinstance(name, str) and has_request_context() and split_name(name)[0] is None:
            name = f"{language()}{SEPARATOR}{name}"
        return super().get_template(name, parent, globals)

    def join_path(self, template: str, parent: str) -> str:
        """What a template extends, includes or imports is loaded in the same language as the template itself."""
        said_in, _ = split_name(parent)
        if said_in is None or split_name(template)[0] is not None:
            return template
        return f"{said_in}{SEPARATOR}{template}"


def fold_sentences(environment: jinja2.Environment) -> None:
    """Have `environment` write literal sentences into the templates it loads under a language's name."""
    environment.add_extension(FoldedSentences)
    environment.filters[FILL_FILTER] = filled


class LanguageLoader(BaseLoader):
    """Finds "fr:_board.html" where the app's own loader finds "_board.html"."""

    def __init__(self, loader: BaseLoader):
        self.loader = loader

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        """The source of the template's own name, whatever language it is loaded in."""
        return self.loader.get_source(environment, split_name(template)[1])

    def list_templates(self) -> list[str]:
        """The templates the app's own loader lists."""
        return self.loader.list_templates()


class FoldedSentences(Extension):
    """Writes a literal sentence's words into a template compiled for one language."""

    def filter_stream(self, stream: TokenStream) -> Iterable[Token]:
        """The template's tokens, with `_("...")` of a literal alone replaced by `("<the catalog's words>"|safe)`."""
        said_in, _ = split_name(stream.name or "")
        if said_in is None:
            return stream
        return _folded(list(stream), catalog_wording(said_in).translations.gettext)


# Tokens that open and close a nesting inside a call's arguments.
OPENING = {"lparen": "rparen", "lbracket": "rbracket", "lbrace": "rbrace"}


def _closing(tokens: list[Token], start: int) -> int | None:
    """The index of the token closing the parenthesis at `start`, or None if the template ends first."""
    waiting: list[str] = []
    for index in range(start, len(tokens)):
        kind = tokens[index].type
        if kind in OPENING:
            waiting.append(OPENING[kind])
        elif waiting and kind == waiting[-1]:
            waiting.pop()
            if not waiting:
                return index
    return None


def _folded(tokens: list[Token], gettext: Callable[[str], str]) -> Iterator[Token]:
    index = 0
    while index < len(tokens):
        token = tokens[index]
        head = [part.type for part in tokens[index : index + 4]]
        end = None
        if (
            token.type == "name"
            and token.value in FOLDED_CALLS
            and head[:3] == ["name", "lparen", "string"]
            and head[3:] in (["rparen"], ["comma"])
            and (index == 0 or tokens[index - 1].type != "dot")
        ):
            end = _closing(tokens, index + 1)
        if end is None:
            yield token
            index += 1
            continue
        line, sentence = token.lineno, gettext(tokens[index + 2].value)
        if end == index + 3:
            try:
                # "%%" is "%", as at render time; a sentence that wants values is left to fail there, as it would.
                said = sentence % {}
            except (KeyError, ValueError, TypeError):
                yield token
                index += 1
                continue
            # `|safe` on a constant is folded by Jinja's compiler: the words are written into the compiled code.
            yield from (Token(line, "lparen", "("), Token(line, "string", said), Token(line, "pipe", "|"))
            yield from (Token(line, "name", "safe"), Token(line, "rparen", ")"))
        else:
            # `_("...", name=value)` becomes `("<the catalog's words>"|filled(name=value))`: a filter is called
            # directly, where `_()` went through the context's call; the values are filled in at render time.
            yield from (Token(line, "lparen", "("), Token(line, "string", sentence), Token(line, "pipe", "|"))
            yield from (Token(line, "name", FILL_FILTER), Token(line, "lparen", "("))
            yield from tokens[index + 4 : end + 1]
            yield Token(line, "rparen", ")")
        index = end + 1
