"""The JSON API's shapes: a table's State, a Device, a JoinRequest (the names of referee/web/api/schema.py)."""

from __future__ import annotations

from ...service import DeviceRow, JoinRequestRow
from ...service.codec import state_json
from ...service.tableview import TableView
from ..rematchnote import rematch_note


def state_of(view: TableView) -> dict[str, object]:
    """The API's State object for a table."""
    return state_json(
        view.code,
        view.version,
        view.state,
        can_undo=view.can_undo,
        can_redo=view.can_redo,
        rematch_note=rematch_note(view),
        rematch=view.rematch_code,
    )


def device_json(device: DeviceRow) -> dict[str, object]:
    """The API's Device object: a phone that joined the table."""
    return {
        "id": device.id,
        "label": device.label,
        "player": device.player,
        "role": device.role,
        "removed": device.revoked,
        "joined_at": device.created_at,
    }


def join_request_json(join_request: JoinRequestRow) -> dict[str, object]:
    """The API's JoinRequest object: a phone that typed the code asks to be a player."""
    # Contract v1's statuses stay as they were: a request that expired unanswered is closed like a withdrawn one.
    status = "cancelled" if join_request.status == "expired" else join_request.status
    return {"id": join_request.id, "player": join_request.player, "status": status}
