"""The board's markup that Python writes instead of a template: the action forms' shared parts, the card pad's
buttons, the players' rows with their Fix forms, and the log's lines, round headings and "Show all" link.

Why Python: these are drawn at every tap and refresh, many times a board, and as Jinja loops and macros they were
most of a tap's server time (docs/performance.md, "Python-written markup for the hot lines"). The action forms'
fields as macros were a third of a board's render; a tap's new log line takes 25 µs here against 45 µs as a macro;
with the pad and the players' rows written here (measured together with other savings), the server's CPU per tap
fell from 4.39 to 2.81 ms and a tap from 2.93 to 1.93 × an API action (medians of five pairs), where the goal is
1.5. Everything else on the board is in templates/_board.html.

Each writer stands for a Jinja macro in templates/_board_parts.html, its reference template: the readable form
to read and edit first. The pages never render those macros (they would cost what this module saves);
tests/web/test_markup_reference.py renders both for many inputs and fails when their HTML differs (runs of
whitespace count as one space). A change to one needs the same change to the other.

    writer (this module)        reference macro (templates/_board_parts.html)
    ActionForms.attrs           action_form_attrs
    ActionForms.fields          action_fields
    number_buttons              number_buttons
    wild_buttons                wild_buttons
    player_items                player_items
    log_line_html               log_line_html
    round_heading               round_heading
    log_more_html               log_more_html
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from ...engine import Card, CardOption, GameState, Status
from ...service.tableview import LogEntry, TableView
from ..i18n import Wording, catalog_wording, request_wording
from ..security import CSRF_FIELD, csrf_token
from .labels import label_by, label_said, line_said
from .links import request_url_for, rule_title


@dataclass(frozen=True)
class ActionForms:
    """What every action form on one board shares, worked out once per board: its attributes (the "act" URL,
    a plain post without JavaScript, an htmx swap with it), and the hidden CSRF token and version fields.

    A board has about ten action forms; worked out per form, looking up the request, the session and the URL
    each time, these fields were the costliest part of a tap's answer.
    Reference macros: `action_form_attrs` and `action_fields`.
    """

    attrs: Markup
    csrf_field: str
    version_field: str
    player_fields: Mapping[str, str]
    """Each player's hidden field, escaped once: a board names each player in two to four forms."""

    @classmethod
    def for_view(cls, view: TableView, *, versioned: bool = True) -> ActionForms:
        """The shared parts for this phone (its CSRF token) and this version of the table.

        `versioned=False` leaves the version out of the forms: a board sent to htmx carries it once, in the board's
        hx-vals, which htmx adds to every request from the board. Its forms are then the same from one version to
        the next, and a board changed in place (static/js/morph.js) leaves them alone. A whole page keeps the field
        in every form: without JavaScript, that is what posts it.
        """
        url = escape(request_url_for("table.act", code=view.code))
        return cls(
            attrs=Markup(f'method="post" action="{url}" hx-post="{url}"'),
            csrf_field=f'<input type="hidden" name="{CSRF_FIELD}" value="{escape(csrf_token())}">',
            version_field=f'\n<input type="hidden" name="version" value="{int(view.version)}">' if versioned else "",
            player_fields={player.name: _player_field(player.name) for player in view.state.players},
        )

    def fields(self, kind: str, player: str | None = None) -> Markup:
        """The hidden fields one action form posts: the CSRF token, the action's kind, its player, and the version
        the phone saw (a stale version is refused, so two phones tapping at once never count a card twice)."""
        player_field = "" if player is None else self.player_fields.get(player) or _player_field(player)
        return Markup(f"{self.csrf_field}\n{_kind_field(kind)}\n{player_field}{self.version_field}")


def _player_field(player: str) -> str:
    return f'<input type="hidden" name="player" value="{escape(player)}">'


@functools.cache
def _kind_field(kind: str) -> str:
    # The kinds are the templates' own words (play, bust, undo…): a handful, each written once per process.
    return f'<input type="hidden" name="kind" value="{escape(kind)}">'


# Where a long card name may break on the pad's quarter-width buttons: a soft hyphen, drawn only at a break and left
# out of the button's accessible name. Browsers hyphenate by themselves only with a dictionary, which Chromium on
# Linux and many phones do not have offline; without it "Richtungswechsel" ran out of its button at 390 px.
PAD_BREAKS = {
    "Richtungswechsel": "Richtungs\u00adwechsel",
    "Aussetzen": "Aus\u00adsetzen",
    "Redistribution": "Redis\u00adtribution",
}


@functools.cache
def card_text(said_in: str) -> dict[Card, tuple[str, str]]:
    """Every card's value and label as they appear on the pad, the label in the language `said_in`, with its break
    (PAD_BREAKS), escaped once per language and process: the pad shows all eighteen at every tap."""
    wording = catalog_wording(said_in)
    labels = {card: wording.gettext(card.label) for card in Card}
    return {card: (str(escape(card.value)), str(escape(PAD_BREAKS.get(said, said)))) for card, said in labels.items()}


def number_buttons(numbers: list[CardOption], total: int) -> Markup:
    """The card pad's number buttons (_board.html, block pad). Reference macro: `number_buttons`.

    No aria-label: a button's name is its text, "7 makes 14", so it starts with what a voice-control user reads
    off the button; a disabled card's reason is its description. In words, not "→ 14": an arrow means nothing to
    someone who has not seen the app before, and sat one row above "=10" and "=21".
    The id ("card-7") is how htmx finds the same card again to put a keyboard's focus back after a swap.
    """
    wording = request_wording()
    cards = card_text(wording.language)
    # The catalog's words are trusted as a template's are; the sum is an int (plain formatting, see _said).
    busts, makes_sum, over = (
        wording.gettext("goes bust"),
        wording.gettext("makes %(total)s"),
        wording.gettext("over 21"),
    )
    parts = []
    for option in numbers:
        (value, label), makes = cards[option.card], total + (option.card.number or 0)
        if option.allowed:
            shown = busts if option.busts else makes_sum % {"total": makes}
            sub = f'<span class="sub">{shown}</span>\n        '
            disabled = ""
        else:
            reason = escape(wording.said(option.reason)) if option.reason else ""
            # "over 21", not "makes 22": a child learning to read gets what is wrong with the card at a glance; the
            # sum is in the description (and the title), "That 7 makes 22: ...".
            sub = f'<span class="sub" title="{reason}">{over}</span><span id="why-{value}" hidden>{reason}</span>'
            disabled = f'disabled aria-describedby="why-{value}"'
        parts.append(
            f'\n      \n      <button type="submit" name="card" value="{value}" id="card-{value}"\n'
            f'              data-label="{label}"\n'
            f'              class="card num{" busts" if option.busts else ""}" {disabled}>\n'
            f'        <span class="face">{label}</span>\n'
            f"        {sub}\n      </button>\n      "
        )
    return Markup("".join(parts))


BOMB_OPENS_SHEET = (
    '<button type="submit" name="card" value="bomb" id="card-bomb" class="card wild bomb"'
    ' data-opens="bomb-sheet">{label}</button>'
)


def wild_buttons(wilds: list[CardOption], bomb_answerers: tuple[str, ...]) -> Markup:
    """The card pad's wild-card buttons (_board.html, block pad). Reference macro: `wild_buttons`.

    A Bomb that others must answer opens the "Who put down a 0?" sheet instead of posting at once.
    """
    cards = card_text(request_wording().language)
    parts = []
    for option in wilds:
        if option.card is Card.BOMB and bomb_answerers:
            button = BOMB_OPENS_SHEET.format(label=cards[Card.BOMB][1])
        else:
            value, label = cards[option.card]
            confirmed = 'data-confirmed="1"' if option.card is Card.BOMB else ""
            button = (
                f'<button type="submit" name="card" value="{value}" id="card-{value}" class="card wild {value}"\n'
                f"              {confirmed}>{label}</button>"
            )
        parts.append(f"\n      \n      {button}\n      \n      ")
    return Markup("".join(parts))


LIFE = '<span class="life alive">♥</span>'
# A lost life is an empty heart, greyed: a cross read as "remove" (the setup's ✕ button) or "wrong" to a child.
LOST = '<span class="life lost">♡</span>'
ARIA_CURRENT = 'aria-current="true"'


def _said(wording: Wording, sentence: str, **values: Markup | int) -> str:
    """`sentence` in the language of `wording`, with `values`, already escaped, in its placeholders.

    The catalog's words are the app's own, trusted as a template's are (Jinja's `_()` does the same). Plain string
    formatting, not Markup's: Markup's escapes each value again (at about 34 sentences a board, a tenth of its time).
    """
    return wording.gettext(sentence) % values if values else wording.gettext(sentence)


@dataclass(frozen=True)
class _FixWords:
    """The words of one player's "Fix" in one language, each with the player's name in it."""

    fix_label: str
    cards_label: str
    fix: str
    save: str
    left: str
    hint: str


@functools.lru_cache(maxsize=1024)
def _fix_words(wording: Wording, name: Markup) -> _FixWords:
    # Worded once per player and language: every board shows each player's "Fix", with six sentences.
    return _FixWords(
        fix_label=_said(wording, "Fix %(name)s's hand size, or say %(name)s has left", name=name),
        cards_label=_said(wording, "Cards %(name)s holds", name=name),
        fix=_said(wording, "Fix"),
        save=_said(wording, "Save"),
        left=_said(wording, "%(name)s has left the game", name=name),
        hint=_said(wording, "Out for good, cards on the discard pile. Undo brings %(name)s back.", name=name),
    )


def _fix_form(
    wording: Wording, forms: ActionForms, name: Markup, player: str, hand: int, seat: int, may_leave: bool
) -> str:
    """The "Fix" of one player: their hand size, or that they got up and left the game (at bedtime, say: the
    others play on without them).

    The summary's id is where a keyboard's focus goes back to once the fix is saved (static/js/focus.js).
    """
    words = _fix_words(wording, name)
    field = Markup(
        f'<input type="number" name="cards" min="1" max="77" value="{hand}" '
        f'inputmode="numeric" aria-label="{words.cards_label}">'
    )
    return (
        '\n      <details class="fix-hand">\n'
        f'        <summary id="fix-{seat}" aria-label="{words.fix_label}">{words.fix}</summary>\n'
        f"        <form {forms.attrs}>\n"
        f"          {forms.fields('hand', player)}\n"
        f"          <label>{_said(wording, '%(name)s really holds %(field)s cards', name=name, field=field)}</label>\n"
        f'          <button type="submit" class="secondary">{words.save}</button>\n'
        "        </form>\n"
        f"{_leave_form(words, forms, player) if may_leave else ''}"
        "      </details>\n      "
    )


def _leave_form(words: _FixWords, forms: ActionForms, player: str) -> str:
    """The Fix's "… has left the game" (rulebook entry player-leaves)."""
    return (
        f'        <form {forms.attrs} class="leave-form">\n'
        f"          {forms.fields('leave', player)}\n"
        f'          <button type="submit" class="secondary leave">{words.left}</button>\n'
        f'          <span class="hint">{words.hint}</span>\n'
        "        </form>\n"
    )


def player_items(state: GameState, forms: ActionForms | None) -> Markup:
    """The players' list items (_board.html, block players): name, badges, lives, hand and its "Fix" form.
    Reference macro: `player_items`.

    Four players' items as a Jinja loop were a quarter of a board's render.
    """
    # No "Fix" once the game is over, nor on a phone that only watches (it has no action forms).
    fix_forms = forms if state.status is not Status.FINISHED else None
    # Nobody leaves during a tie-break: it is refused ("must first add up"), so it is not offered.
    playing = state.status is Status.PLAYING
    wording = request_wording()
    # The badges, worded once per board.
    dealer = f'<span class="badge" title="{_said(wording, "Dealer")}">{_said(wording, "Dealer")}</span>'
    out = f'<span class="badge out-badge">{_said(wording, "Out")}</span>'
    gone = f'<span class="badge out-badge">{_said(wording, "Left")}</span>'
    in_hand = _said(wording, "Cards in hand")
    lives_left = wording.gettext("%(lives)s of 5 lives left")
    parts = []
    for seat, player in enumerate(state.players):
        name = escape(player.name)
        current = seat == state.current
        classes = (" out" if player.out else "") + (" current" if current else "")
        team = ""
        if player.team is not None:
            team = f'<span class="badge team">{escape(wording.said(state.teams[player.team].name))}</span>'
        lives = ""
        if not state.teams:
            alive = max(min(player.lives, 5), 0)
            shown = LIFE * alive + LOST * (5 - alive)
            label = lives_left % {"lives": int(player.lives)}
            lives = f'\n      <span class="lives" role="img" aria-label="{label}">{shown}</span>\n      '
        fix = ""
        if fix_forms is not None and not player.out:
            fix = _fix_form(wording, fix_forms, name, player.name, player.hand, seat, playing)
        cards = wording.ngettext("%(num)s card", "%(num)s cards", player.hand) % {"num": int(player.hand)}
        parts.append(
            f'\n    \n    <li class="player{classes}"\n'
            f"        {ARIA_CURRENT if current else ''}>\n"
            f'      <span class="pname">{name}\n'
            f"        {dealer if seat == state.dealer else ''}\n"
            f"        {team}\n"
            f"        {(gone if player.left else out) if player.out else ''}\n"
            f"      </span>\n      {lives}\n"
            f'      <span class="hand" title="{in_hand}">{cards}</span>\n'
            f"      {fix}\n    </li>\n    "
        )
    return Markup("".join(parts))


# A real heading (under "What happened", an h2) inside its list item: a screen reader's heading keys jump from
# round to round, where a plain item read as one more line of the log. Its id lets a tap's answer keep it.
ROUND_HEADING = '\n    <li class="round-separator" id="log-round-{0}"><h3>{1}</h3></li>'


def round_heading(round_number: int) -> str:
    """A round's heading in the log, above the round's newest line. Reference macro: `round_heading`."""
    number = int(round_number)
    return ROUND_HEADING.format(number, _said(request_wording(), "Round %(number)s", number=number))


def log_line_html(entry: LogEntry, code: str, players: Sequence[str]) -> str:
    """One line of the log, as a list item whose id is its entry's: what was done, its "Why?" link to the ruling,
    the phone that entered it (by its label, `players` telling a player's phone), and who undid or redid it, all in
    this request's language. Reference macro: `log_line_html`.

    A tap draws one new line: 25 µs here, 45 µs as a Jinja macro.
    """
    wording = request_wording()
    undone = entry.undone
    why = ""
    if entry.rule:
        href = escape(request_url_for("rules.entry", entry_id=entry.rule, table=code))
        named = _said(wording, "Why? (%(rule)s)", rule=escape(rule_title(entry.rule)))
        why = f' <a class="why" href="{href}" aria-label="{named}">{_said(wording, "Why?")}</a>'
    by = f'<span class="by">· {escape(label_said(entry.entered_by, players))}</span>' if entry.entered_by else ""
    changed = ""
    if entry.status_by:
        sentence = "undone %(by)s" if undone else "redone %(by)s"
        changed = f'<span class="by">· {_said(wording, sentence, by=escape(label_by(entry.status_by, players)))}</span>'
    badge = f'<span class="badge">{_said(wording, "Undone")}</span> ' if undone else ""
    return (
        f'\n    <li id="log-{int(entry.seq)}" class="{"undone" if undone else ""}">\n'
        f"      {badge}{escape(line_said(entry))}\n"
        f"      {why}\n      {by}\n      {changed}\n    </li>\n    "
    )


def log_more_html(code: str, shown: int, count: int) -> Markup:
    """The link to the whole log under the board's `shown` recent lines, when the log has more (`count`).
    Reference macro: `log_more_html`.

    There even while the log is short (hidden), so that the board changed in place always has this element to
    change (static/js/morph.js). Written here, not included: an include builds a new template context per tap.
    """
    if count <= shown:
        return Markup('<p id="log-more" hidden></p>')
    url = escape(request_url_for("logview.full_log", code=code))
    wording = request_wording()
    show_all = wording.ngettext("Show all %(num)s entries", "Show all %(num)s entries", count) % {"num": int(count)}
    return Markup(f'<p id="log-more"><a href="{url}" class="show-all">{show_all}</a></p>')
