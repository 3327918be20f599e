"""Pages for the lobby, table room, leaderboard, profile and settings (en and zh-hans), and the admin
additions: abort a match (nobody rated), ratings and tables lists, password-reset email."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from site_helpers import PASSWORD, client_for

from games import lobby, services
from games.models import Match, Profile, RatingChange
from games.services import SeatSpec

pytestmark = pytest.mark.django_db(transaction=True)


def browser(user: Any, lang: str = "en") -> Client:
    c = Client()
    assert c.login(username=user.username, password=PASSWORD)
    c.cookies["django_language"] = lang
    return c


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
    assert 'id="lobby-strings"' in body and "js/lobby.js" in body and "js/notices.js" in body
    for path in ("/leaderboard/", f"/players/{u.username}/", "/settings/"):
        r = c.get(path)
        assert r.status_code == 200, path
    assert c.get("/players/nobody-here/").status_code == 404


def test_anonymous_is_sent_to_log_in_but_may_see_the_leaderboard() -> None:
    c = Client()
    assert c.get("/lobby/").status_code == 302
    assert c.get("/settings/").status_code == 302
    assert c.get("/leaderboard/").status_code == 200


def test_settings_page_turns_email_off(make_user: Any) -> None:
    u = make_user("wes", email="wes@example.com")
    c = browser(u)
    assert 'checked' in c.get("/settings/").content.decode()
    r = c.post("/settings/", {})
    assert r.status_code == 302
    assert Profile.objects.get(user=u).email_notifications is False
    c.post("/settings/", {"email_notifications": "on"})
    assert Profile.objects.get(user=u).email_notifications is True


def test_private_table_page_needs_the_invitation(make_user: Any) -> None:
    host, guest = make_user("hal"), make_user("gia")
    table = lobby.create_table(host, visibility="private")
    g = browser(guest)
    assert g.get(f"/tables/{table.pk}/").status_code == 404
    r = g.get(f"/invite/{table.invite_code}/")
    assert r.status_code == 302 and r["Location"] == f"/tables/{table.pk}/?code={table.invite_code}"
    page = g.get(r["Location"]).content.decode()
    assert f'data-code="{table.invite_code}"' in page
    assert g.get("/invite/nope/").status_code == 404
    assert browser(host).get(f"/tables/{table.pk}/").status_code == 200


def test_leaderboard_and_profile_pages_show_ratings(make_user: Any) -> None:
    from games.ratings import rate_match

    a = make_user("ada")
    match = services.create_match(seats=[SeatSpec(user=a)] + [SeatSpec(bot="random")] * 3, rated=True)
    # play it to the end through the API
    import random

    from site_helpers import choose

    api, rng = client_for(a), random.Random(2)
    while (view := api.get(f"/api/matches/{match.pk}/").json())["status"] != "finished":
        api.post(f"/api/matches/{match.pk}/actions/", choose(view, rng), format="json")
    assert rate_match(match.pk) is False  # already rated on finishing
    c = browser(a)
    board = c.get("/leaderboard/").content.decode()
    assert 'href="/players/ada/"' in board and "Bot (random)" in board
    assert "Bot (random)" not in c.get("/leaderboard/?bots=0").content.decode()
    prof = c.get("/players/ada/").content.decode()
    assert "<polyline" in prof and RatingChange.objects.filter(rating__user=a).count() == 1
    assert f'href="/replay/{match.pk}/"' in prof


@pytest.fixture
def root(django_user_model: Any) -> Client:
    django_user_model.objects.create_superuser("root", "root@example.com", PASSWORD)
    c = Client()
    assert c.login(username="root", password=PASSWORD)
    return c


def test_admin_aborts_a_match_and_nobody_is_rated(root: Client, make_user: Any) -> None:
    a = make_user("abe")
    match = services.create_match(seats=[SeatSpec(user=a)] + [SeatSpec(bot="random")] * 3, rated=True,
                                  move_seconds=86400)
    r = root.post("/admin/games/match/", {"action": "abort_matches", "_selected_action": [match.pk]})
    assert r.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.deadline is None
    assert root.get("/admin/games/match/?status__exact=aborted").status_code == 200
    assert not RatingChange.objects.filter(match=match).exists()
    for path in ("/admin/games/table/", "/admin/games/rating/", "/admin/games/notice/", "/admin/games/profile/",
                 "/admin/games/table/?q=abe", "/admin/games/rating/?q=abe"):
        assert root.get(path).status_code == 200, path


def test_admin_sends_a_password_reset_email_that_works(root: Client, make_user: Any) -> None:
    u = make_user("ria", email="ria@example.com")
    mail.outbox.clear()
    r = root.post("/admin/auth/user/", {"action": "send_password_reset", "_selected_action": [u.pk]})
    assert r.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ria@example.com"]
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mail.outbox[0].body)
    assert link, mail.outbox[0].body
    c = Client()
    r = c.get(link.group(1), follow=True)
    assert r.status_code == 200
    form_url = r.redirect_chain[-1][0] if r.redirect_chain else link.group(1)
    new = "another-horse-battery-7"
    r = c.post(form_url, {"new_password1": new, "new_password2": new})
    assert r.status_code == 302
    assert Client().login(username="ria", password=new)
