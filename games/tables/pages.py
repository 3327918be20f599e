"""Pages of tables among people: the lobby, a table room, an invitation link.

The lobby and the table room are rendered in the browser from the tables API and ``/ws/me/``.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from games.matches.reads import table_bot_levels
from games.platform.errors import TableNotFound
from games.web.users import signed_in

from . import reads


def _time_choices() -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for seconds in reads.MOVE_SECONDS_CHOICES:
        if seconds < reads.DAY:
            out.append((seconds, _("Live: %(s)d seconds a move") % {"s": seconds}))
        else:
            days = seconds // reads.DAY
            out.append((seconds, _("%(d)d day a move") % {"d": days} if days == 1
                        else _("%(d)d days a move") % {"d": days}))
    return out


@login_required
def lobby_page(request: HttpRequest) -> HttpResponse:
    return render(request, "lobby.html", {"time_choices": _time_choices(),
                                          "bot_levels": table_bot_levels()})


@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    code = request.GET.get("code") or None
    try:
        table = reads.visible_table(signed_in(request), table_id, code)
    except TableNotFound:
        raise Http404() from None
    if table.rematch_of_id is not None and table.status != table.Status.OPEN:
        # a one-tap rematch has no room: it is answered on the old match's end dialog, then played
        return redirect(f"/play/{table.match_id or table.rematch_of_id}/")
    return render(request, "table_room.html", {"table_id": table_id, "code": code or "",
                                               "bot_levels": table_bot_levels()})


def invite(request: HttpRequest, code: str) -> HttpResponse:
    """The invitation link: to the table for a signed-in person; otherwise who invites to what, with log-in
    and sign-up links that come back here."""
    try:
        table = reads.table_by_code(code)
    except TableNotFound:
        raise Http404() from None
    if not request.user.is_authenticated:
        seats = list(table.seats.all())
        return render(request, "invite.html", {
            "table": table, "host": table.host.get_username(), "here": request.get_full_path(),
            "taken": sum(1 for s in seats if s.user_id or s.bot), "per_move": dict(_time_choices()).get(
                table.move_seconds, ""),
        })
    return redirect(f"/tables/{table.pk}/?code={code}")
