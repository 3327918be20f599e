"""Pages of matches: home (start a match against bots), the rules, my matches, the table, the replay viewer.

The pages are thin shells: the table, the match list and the replay viewer are rendered in the browser
from the JSON API (``/api/matches/...``) and the match WebSocket.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from . import reads


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"bot_levels": reads.offered_bot_levels(),
                                         "default_level": reads.table_bot_levels()[0]})


def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "rules.html", {})


@login_required
def my_matches(request: HttpRequest) -> HttpResponse:
    return render(request, "matches.html", {})


@login_required
def table(request: HttpRequest, match_id: int) -> HttpResponse:
    return render(request, "table.html", {"match_id": match_id})


@login_required
def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    return render(request, "replay.html", {"match_id": match_id})


# --- the installable app: the manifest and the page it shows offline (the service worker, which keeps what
# offline play needs, is games.offline.pages'). Templates, so they can name the hashed static files.

def manifest(request: HttpRequest) -> HttpResponse:
    return render(request, "pwa/manifest.webmanifest", {}, content_type="application/manifest+json")


def offline(request: HttpRequest) -> HttpResponse:
    return render(request, "offline.html", {})
