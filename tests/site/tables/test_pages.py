"""Pages of the lobby and the table room, in English and Chinese; a private table's page needs the
invitation."""

from __future__ import annotations

from typing import Any

import pytest
from site_helpers import browser

from games.tables import commands

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("lang, words", [
    ("en", ["Lobby", "Open tables", "Leaderboard", "Settings"]),
    ("zh-hans", ["大厅", "开放的牌桌", "排行榜", "设置"]),
])
def test_pages_render_in_both_languages(make_user: Any, lang: str, words: list[str]) -> None:
    u = make_user("viv", email="viv@example.com")
    c = browser(u, lang)
    body = c.get("/lobby/").content.decode()
    for w in words:
        assert w in body, w
    assert "js/lobby.js" in body and "js/site.js" in body and "/jsi18n/" in body  # one translation channel
    for path in ("/leaderboard/", f"/players/{u.username}/", "/settings/"):
        r = c.get(path)
        assert r.status_code == 200, path
    assert c.get("/players/nobody-here/").status_code == 404


def test_private_table_page_needs_the_invitation(make_user: Any) -> None:
    host, guest = make_user("hal"), make_user("gia")
    table = commands.create_table(host, visibility="private")
    g = browser(guest)
    assert g.get(f"/tables/{table.pk}/").status_code == 404
    r = g.get(f"/invite/{table.invite_code}/")
    assert r.status_code == 302 and r["Location"] == f"/tables/{table.pk}/?code={table.invite_code}"
    page = g.get(r["Location"]).content.decode()
    assert f'data-code="{table.invite_code}"' in page
    assert g.get("/invite/nope/").status_code == 404
    assert browser(host).get(f"/tables/{table.pk}/").status_code == 200


@pytest.mark.parametrize("lang, words", [
    ("en", ["hal invites you to a table of Call Break", "1 of 4 seats taken", "Create an account"]),
    ("zh-hans", ["hal", "创建账号"]),
])
def test_an_invitation_opened_logged_out_says_who_invites_to_what(make_user: Any, lang: str,
                                                                   words: list[str]) -> None:
    from django.test import Client

    table = commands.create_table(make_user("hal"), visibility="private")
    r = Client(HTTP_ACCEPT_LANGUAGE=lang).get(f"/invite/{table.invite_code}/")
    assert r.status_code == 200
    body = r.content.decode()
    for w in words:
        assert w in body, w
    # log-in and sign-up come back to the invitation
    assert f"next=/invite/{table.invite_code}/" in body.replace("%2F", "/")
    assert Client().get("/invite/nope/").status_code == 404
