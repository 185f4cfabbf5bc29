"""The rules panel: search as you type, every rule and FAQ entry, one ruling in full, this table's house rules."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ... import rulebook
from ...engine import HOUSE_RULE_SPECS, SPECS_BY_NAME, HouseRules, Variant
from ...engine.words import N_
from ...service.errors import ServiceError
from ...service.tableview import TableView
from ..extensions import get_referee
from ..i18n import language
from ..sources import source_said
from .common import error_page

bp = Blueprint("rules", __name__)


def _chips_for(variant: Variant | None = None) -> tuple[tuple[str, str], ...]:
    """The quick questions' chips for a table of `variant`, asked in the phone's language."""
    return rulebook.quick_questions(variant, language())


@bp.app_context_processor
def _quick_questions() -> dict[str, object]:
    # The search box appears on the table page too, so its chips come with every template: worked out where a page
    # shows them (a chip of a phone in another language asks its question in that language, from its rulebook words).
    return {"rules_chips_for": _chips_for}


# Where a ruling comes from, in the phone's language, for the templates (web/sources.py says it for the API too).
bp.add_app_template_global(source_said)


def _table_rules(code: str | None) -> tuple[TableView | None, HouseRules | None]:
    """The table whose house rules should colour the answers, if the page came from one."""
    if not code:
        return None, None
    try:
        view = get_referee().view(code)
    except ServiceError:
        return None, None
    return view, view.setup.house_rules


def _variant(view: TableView | None) -> Variant | None:
    # A switch that never comes up in the table's game gets no "At this table": it would speak of a point the
    # table never meets.
    return None if view is None else view.setup.variant


def asked_question() -> str:
    """The question in the request's `q`, cut as the search cuts it (`rulebook.MAX_QUERY_LENGTH`, keeping the question).

    Cut rather than refused: a pasted paragraph still gets answers, and its question, which comes last, is kept.
    """
    return rulebook.shortened_query(request.args.get("q", ""))


@bp.get("/rules")
def index() -> str:
    """The whole rules panel: search, every rule and FAQ entry, and this table's house rules."""
    view, house_rules = _table_rules(request.args.get("table"))
    query = asked_question()
    variant = _variant(view)
    said = language()
    results = rulebook.search(query, house_rules, variant=variant, language=said) if query.strip() else []
    return render_template(
        "rules.html",
        query=query,
        results=results,
        sections=rulebook.by_section(said),
        table_view=view,
        house_rules=house_rules,
        specs=HOUSE_RULE_SPECS,
        notes={item.id: rulebook.table_note(item, house_rules, variant) for item in rulebook.entries(said)},
        not_here=_not_here(house_rules, variant),
    )


def _not_here(house_rules: HouseRules | None, variant: Variant | None) -> dict[str, str]:
    """The switches this table's game never reaches, each with where it does come up."""
    if house_rules is None or variant is None:
        return {}
    return {
        spec.name: rulebook.ONLY_IN[spec.name]
        for spec in HOUSE_RULE_SPECS
        if not rulebook.switch_applies(spec.name, house_rules, variant)
    }


def panel_answers(view: TableView | None, query: str) -> list[rulebook.SearchResult]:
    """The answers the search box shows under a question, for this table (five fit a phone screen)."""
    if not query.strip():
        return []
    house_rules = None if view is None else view.setup.house_rules
    return rulebook.search(query, house_rules, limit=5, variant=_variant(view), language=language())


@bp.get("/rules/search")
def search() -> str:
    """The answers to a typed question, as a fragment for the search box (htmx, as you type)."""
    view, _ = _table_rules(request.args.get("table"))
    query = asked_question()
    # The full /rules page shows all ten.
    return render_template("_rules_results.html", query=query, results=panel_answers(view, query), table_view=view)


@bp.get("/rules/<entry_id>")
def entry(entry_id: str) -> Response | tuple[str, int] | str:
    """One ruling in full: answer, reasoning, source, and what this table chose."""
    found = rulebook.entry(entry_id, language())
    if found is None:
        return error_page(N_("No such rule"), N_("That rule is not in the rulebook."), 404)
    if found.id != entry_id:
        # An entry merged into another keeps its address: old links, bookmarks and logs land on the merged one.
        return redirect(url_for("rules.entry", entry_id=found.id, table=request.args.get("table")), 301)
    view, house_rules = _table_rules(request.args.get("table"))
    variant = _variant(view)
    here = rulebook.rules_here(found, house_rules, variant)
    return render_template(
        "rule.html",
        item=found,
        table_view=view,
        variant=variant,
        # The question this ruling was opened from: "Back to table" shows it again with its answers.
        query=asked_question(),
        note=rulebook.table_note(found, here),
        spec=SPECS_BY_NAME.get(found.house_rule or ""),
        # None where the entry's switch never comes up at this table: no reading is marked as this table's.
        house_rules=here,
        not_here=rulebook.ONLY_IN.get(found.house_rule or "") if here is None and house_rules is not None else None,
    )
