"""Pages of watching: the Watch page (live matches of the top rated people) and one match watched live."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.platform.errors import GameError, MatchNotFound

from . import reads


def watch_list_page(request: HttpRequest) -> HttpResponse:
    return render(request, "watch_list.html", {"matches": reads.live_matches(), "arena_tables": reads.arena_tables()})


@login_required
def watch_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """A watcher's table: drawn from ``/ws/watch/{id}/`` (``watch.js``); a private table's match is a 403 page."""
    try:
        match = reads.watchable(match_id)
    except MatchNotFound:
        raise Http404() from None
    except GameError:
        return render(request, "watch_private.html", status=403)
    return render(request, "watch.html", {"match_id": match.pk})
