"""Controls only a script can serve are sent disabled and enabled by the module that binds them.

A form handled by a module has no ``action``: tapped before its module has run (a slow phone, a busy machine), it
submitted natively and the page reloaded with nothing created; a script-only button did nothing. Every such
submit button (and the guest's play buttons) carries ``data-bound-by-script disabled``, and one of the page's
modules calls ``bound()`` on it once its handlers are attached.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from django.test import Client
from site_helpers import browser, client_for

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "frontend" / "static"


class Controls(HTMLParser):
    """The submit buttons of forms with no action, the guest's play buttons, and the page's module scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.in_script_form = 0
        self.controls: list[dict[str, str | None]] = []
        self.modules: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.in_script_form += 1 if "action" not in a else 0
        elif tag == "button" and ((self.in_script_form and a.get("type") == "submit") or "data-guest-play" in a):
            self.controls.append(a)
        elif tag == "script" and a.get("type") == "module" and a.get("src"):
            self.modules.append(str(a["src"]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.in_script_form:
            self.in_script_form -= 1


def _module_sources(src: str, seen: set[Path]) -> str:
    """The text of a page's module and of every module it imports, read from the static files."""
    path = STATIC / src.split("/static/", 1)[1].split("?")[0]
    if path in seen:
        return ""
    seen.add(path)
    text = "" if path.name == "bound.js" else path.read_text()  # its own definition is no call
    deps = path.read_text()
    for dep in re.findall(r'^import [^;]*? from "(\.{1,2}/[^"]+)";', deps, flags=re.M | re.S):
        text += _module_sources("/static/" + str((path.parent / dep).resolve().relative_to(STATIC)), seen)
    return text


def _check(body: str, page: str) -> int:
    parsed = Controls()
    parsed.feed(body)
    for a in parsed.controls:
        live = "disabled" not in a or "data-bound-by-script" not in a
        assert not live, f"{page}: a script-served button is live before its script: {a}"
    if parsed.controls:
        seen: set[Path] = set()
        sources = "".join(_module_sources(src, seen) for src in parsed.modules)
        assert "bound(" in sources, f"{page}: no module of the page enables its script-served buttons"
    return len(parsed.controls)


def test_script_served_buttons_wait_for_their_module(make_user: Any) -> None:
    amy = make_user("amy_bound")
    match = client_for(amy).post("/api/matches/", {"opponents": "bots"}, format="json").json()
    signed_in = browser(amy, "en")
    counted = 0
    for path in ("/", "/lobby/", "/matches/", "/friends/", f"/play/{match['id']}/"):
        response = signed_in.get(path)
        assert response.status_code == 200, path
        counted += _check(response.content.decode(), path)
    counted += _check(Client().get("/").content.decode(), "/ (logged out)")
    # home: play-bots, play-online, join; lobby: create, play-online, join; matches: play-bots; friends: follow;
    # the table: the chat's send; the logged-out home: play now, play online
    assert counted >= 11, counted
