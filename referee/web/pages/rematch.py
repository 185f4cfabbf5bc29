"""Starting a rematch from a finished game's board: the same game again from any phone that enters cards, or the
game as the host's phone changed it in the form (referee/web/pages/rematchform.py); the service decides who may.
"""

from __future__ import annotations

from flask import Blueprint, flash, render_template, url_for
from werkzeug.wrappers import Response as BaseResponse

from ...engine import Status
from ...service import DeviceRow, Phone, permissions
from ...service.errors import Invalid, ServiceError, TooMany
from ...service.tableview import TableView
from ..extensions import get_referee, table_limit
from ..http import http_status, is_htmx, navigate
from ..i18n import worded
from ..security import csrf_ok
from .common import STALE_PAGE, TOO_MANY_TABLES, client_address, current_device, service_error_page
from .rematchform import (
    TOO_LATE,
    RematchForm,
    asked_for,
    is_change_post,
    may_show_form,
    posted_form,
    refusal_sentence,
    requested,
)
from .table import QUIET, board_context, join_changed, respond

bp = Blueprint("rematch", __name__)
bp.register_error_handler(ServiceError, service_error_page)


def _refused_changes(
    view: TableView, device: DeviceRow | None, form: RematchForm, error: ServiceError
) -> tuple[str, int]:
    """A refused change form comes back open, with the host's choices and the reason beside its button.

    htmx swaps the board (the button keeps its id, so focus goes back to it, on screen: templates/_rematch.html);
    a plain browser gets the whole page at once (a redirect would lose what the host chose).
    """
    full_page = not is_htmx()
    context = board_context(
        view,
        device,
        full_page=full_page,
        rematch_form=form,
        rematch_error=refusal_sentence(form, error),
        rematch_error_field=getattr(error, "field", None),
        rematch_autofocus=full_page,
    )
    if full_page:
        return render_template("table.html", **context), http_status(error)
    context["join_changed"] = join_changed(context["join_tag"])
    return render_template("_board.html", **context), http_status(error)


@bp.post("/t/<code>/rematch")
def start(code: str) -> BaseResponse | tuple[str, int]:
    """Start a rematch with the same players: the same settings, or those the host's phone changed in the form."""
    referee = get_referee()
    view = referee.view(code)
    device = current_device(view)
    form = posted_form(view) if is_change_post() else None
    # A rematch is a new table: it counts towards this phone's limit, unless it exists already.
    makes_table, counted = view.rematch_code is None and view.state.status is Status.FINISHED, False
    try:
        if not csrf_ok():
            raise Invalid("csrf", STALE_PAGE)
        changes = {} if form is None else requested(form)
        # Checked before the phone's limit is counted; the rematch checks it again, as every use case does.
        referee.require_rematch(view, Phone(device), changes=form is not None)
        if makes_table:
            if not table_limit().allow(client_address()):
                raise TooMany("too_many", TOO_MANY_TABLES)
            counted = True
        new_code, made = referee.rematch(view.code, actor=Phone(device), **changes)
    except ServiceError as error:
        if counted:
            table_limit().release(client_address())
        fresh = error.view or view
        if form is not None and permissions(fresh, device).changes_rematch and may_show_form(fresh):
            return _refused_changes(fresh, device, form, error)
        return respond(fresh, device, error)
    if counted and not made:
        table_limit().release(client_address())  # another phone made it a moment before: no table made here
    if form is not None and not made:
        # Another phone's "same players" got there first: the host's changes were not used; say so (not silently).
        started = referee.setup_of(new_code)
        if started is not None and not asked_for(form, started):
            flash(worded(TOO_LATE), QUIET)
    return navigate(url_for("table.page", code=new_code))
