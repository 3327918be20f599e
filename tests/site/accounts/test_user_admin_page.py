"""The admin for people who manage users: a user's page lists their latest matches (links to the match pages, the
seat, who plays it), a link to all of them, their rating, API tokens (never a key), push subscriptions; it has a
*Deactivate* button (the action's command) and no *Delete* (people's matches must survive); its help texts say the
site's rules; a Devanagari name is saved; and its queries do not grow with the number of matches."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from site_helpers import client_for, token_for

from accounts.test_admin import _change_form_data
from games.accounts.models import ApiToken, Guest
from games.matches import commands as match_commands
from games.matches.commands import SeatSpec
from games.models import Match, Seat
from games.push.models import PushSubscription

pytestmark = pytest.mark.django_db(transaction=True)


def _matches(user: Any, n: int) -> list[Any]:
    return [match_commands.create_match(seats=[SeatSpec(user=user)] + [SeatSpec(bot="easy")] * 3)
            for _ in range(n)]


def test_a_users_page_shows_matches_tokens_rating_and_subscriptions(admin_client_: Client, make_user: Any) -> None:
    u = make_user("gita", email="gita@example.com")
    matches = _matches(u, 3)
    key = token_for(u)
    PushSubscription.objects.create(user=u, endpoint="https://push.example.net/abc", p256dh="x", auth="y",
                                    language="hi", client="Firefox")
    page = admin_client_.get(f"/admin/auth/user/{u.pk}/change/").content.decode()
    for m in matches:
        assert f'href="/admin/games/match/{m.pk}/change/"' in page
    everything = re.search(r'href="(/admin/games/match/\?seats__user__id__exact=\d+)"', page)
    assert everything and "All 3 matches" in page
    listed = admin_client_.get(everything.group(1).replace("&amp;", "&"))
    assert listed.status_code == 200 and listed.context["cl"].result_count == 3
    token = ApiToken.objects.get(user=u)
    assert "API tokens" in page and key not in page and token.digest not in page
    assert "push.example.net" in page and "/abc" not in page  # the push service, not the browser's secret URL
    assert "Rating" in page and "unrated" in page
    assert re.search(r"Guest:</label>\s*<div class=\"readonly\">no<", page)
    Guest.objects.create(user=u)
    page = admin_client_.get(f"/admin/auth/user/{u.pk}/change/").content.decode()
    assert re.search(r"Guest:</label>\s*<div class=\"readonly\">yes, since ", page)


def test_no_delete_and_the_page_deactivates(admin_client_: Client, make_user: Any) -> None:
    u = make_user("hari")
    api = client_for(u)
    view = api.post("/api/matches/", {"opponents": "bots"}, format="json").json()
    page = admin_client_.get(f"/admin/auth/user/{u.pk}/change/").content.decode()
    assert f"/admin/auth/user/{u.pk}/delete/" not in page and 'data-testid="admin-deactivate"' in page
    assert admin_client_.get(f"/admin/auth/user/{u.pk}/delete/").status_code == 403
    assert "delete_selected" not in admin_client_.get("/admin/auth/user/").content.decode()
    assert admin_client_.get(f"/admin/auth/user/{u.pk}/deactivate/").status_code == 405
    r = admin_client_.post(f"/admin/auth/user/{u.pk}/deactivate/")
    assert r.status_code == 302 and r["Location"] == f"/admin/auth/user/{u.pk}/change/"
    u.refresh_from_db()
    assert not u.is_active and api.get("/api/me/").status_code == 401
    seat = Seat.objects.get(match_id=view["id"], index=0)
    assert seat.autopilot and seat.bot
    assert Match.objects.filter(pk=view["id"]).exists()
    page = admin_client_.get(f"/admin/auth/user/{u.pk}/change/").content.decode()
    assert 'data-testid="admin-deactivate"' not in page


def test_the_admin_cannot_deactivate_themself_from_their_page(admin_client_: Client, django_user_model: Any) -> None:
    me = django_user_model.objects.get(username="root")
    admin_client_.post(f"/admin/auth/user/{me.pk}/deactivate/")
    me.refresh_from_db()
    assert me.is_active


def test_help_texts_and_a_devanagari_name(admin_client_: Client, make_user: Any) -> None:
    u = make_user("kiran")
    url = f"/admin/auth/user/{u.pk}/change/"
    page = admin_client_.get(url).content.decode()
    assert "Users are never deleted" in page and "Unselect this instead of deleting accounts" not in page
    r = admin_client_.post(url, {**_change_form_data(admin_client_, url), "username": "सीता"})
    assert r.status_code == 302, r.context["adminform"].form.errors if r.context else r
    u.refresh_from_db()
    assert u.username == "सीता"


def test_the_users_page_queries_do_not_grow_with_their_matches(admin_client_: Client, make_user: Any,
                                                               django_assert_max_num_queries: Any) -> None:
    u = make_user("lila")
    _matches(u, 2)
    url = f"/admin/auth/user/{u.pk}/change/"
    admin_client_.get(url)  # warm: the session, the content types
    with django_assert_max_num_queries(20) as few:
        admin_client_.get(url)
    _matches(u, 30)
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = admin_client_.get(url).content.decode()
    assert len(re.findall(r'href="/admin/games/match/\d+/change/"', page)) == 20  # the last 20, and a link to all
    assert "All 32 matches" in page
