"""Play now, name later: a guest account in one tap (a generated name, no password, the session), unrated only,
emotes but no chat, a limit per address, never on a leaderboard; *Keep my games* names it by the sign-up's
rules and keeps everything; idle guests are removed by beat with their matches' replays intact."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.utils import timezone
from site_helpers import choose

import engine
from games import tasks
from games.accounts import commands as account_commands
from games.accounts import reads as account_reads
from games.accounts import usernames
from games.matches import commands as match_commands
from games.matches.commands import SeatSpec
from games.models import BotAccount, Guest, Match, Notice, Profile, Rating, Seat, Seek, Table
from games.platform.errors import GameError
from games.tables import commands as tables
from games.tabletalk import commands as talk_commands
from games.tabletalk.commands import EMOTES

pytestmark = pytest.mark.django_db(transaction=True)


def guest_browser() -> tuple[Client, Any]:
    """A browser that pressed *Play now*: its guest account, signed in by the session."""
    c = Client(enforce_csrf_checks=True)
    c.get("/")  # the home page sets the CSRF cookie the button's request sends back
    r = c.post("/api/auth/guest/", HTTP_X_CSRFTOKEN=c.cookies["csrftoken"].value)
    assert r.status_code == 201, r.content
    user = Guest.objects.get(user_id=r.json()["user_id"]).user
    return c, user


def csrf(c: Client) -> dict[str, str]:
    return {"HTTP_X_CSRFTOKEN": c.cookies["csrftoken"].value}


def play_to_end(c: Client, match_id: int, rng: random.Random) -> None:
    view = c.get(f"/api/matches/{match_id}/").json()
    while view["phase"] != "finished":
        assert view["your_turn"]
        r = c.post(f"/api/matches/{match_id}/actions/", choose(view, rng), content_type="application/json", **csrf(c))
        assert r.status_code == 200, r.content
        view = r.json()


def test_play_now_makes_a_signed_in_guest_with_a_readable_name_and_no_password() -> None:
    c, guest = guest_browser()
    assert usernames.validate(guest.username) == guest.username
    assert account_reads.username_taken(guest.username)  # its key is kept: no look-alike of it later
    assert not guest.has_usable_password()
    me = c.get("/api/me/").json()
    assert me["username"] == guest.username and me["guest"] is True
    # the same tap then opens a table against bots (unrated)
    r = c.post("/api/matches/", {"opponents": "bots"}, content_type="application/json", **csrf(c))
    assert r.status_code == 201, r.content
    assert Match.objects.get(pk=r.json()["id"]).rated is False
    # pressing again in the same browser makes no second guest
    again = c.post("/api/auth/guest/", **csrf(c))
    assert again.status_code == 200 and again.json()["user_id"] == guest.pk
    assert Guest.objects.count() == 1


def test_play_now_needs_the_pages_csrf_token() -> None:
    c = Client(enforce_csrf_checks=True)
    assert c.post("/api/auth/guest/").status_code == 403
    assert Guest.objects.count() == 0


@pytest.mark.rate_limits
def test_guests_per_address_are_limited(settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "guest": ("ip", "3/hour")}
    for _ in range(3):
        assert Client().post("/api/auth/guest/").status_code == 201
    r = Client().post("/api/auth/guest/")
    assert r.status_code == 429 and r.json()["code"] == "throttled" and r.json()["scope"] == "guest"
    assert "Retry-After" in r
    assert Guest.objects.count() == 3


def test_the_default_guest_limit_is_per_address_and_hourly() -> None:
    assert settings.RATE_LIMITS["guest"] == ("ip", "10/hour")
    assert settings.RATE_LIMIT_ROUTES["api-guest"] == {"POST": ["guest"]}


def test_guests_play_unrated_only(make_user: Any) -> None:
    c, guest = guest_browser()
    r = c.post("/api/quick-match/", {"rated": True}, content_type="application/json", **csrf(c))
    assert r.status_code == 403 and r.json()["code"] == "guest_unrated", r.content
    r = c.post("/api/quick-match/", {"rated": False}, content_type="application/json", **csrf(c))
    assert r.status_code == 201 and r.json()["rated"] is False
    Seek.objects.all().delete()
    r = c.post("/api/tables/", {"visibility": "private", "rated": True}, content_type="application/json", **csrf(c))
    assert r.status_code == 403 and r.json()["code"] == "guest_unrated"
    r = c.post("/api/tables/", {"visibility": "private", "rated": False}, content_type="application/json",
               **csrf(c))
    assert r.status_code == 201, r.content
    # a friend's private tables, by their room code: an unrated one seats the guest, a rated one refuses
    host = make_user("host")
    casual = tables.create_table(host, visibility=Table.Visibility.PRIVATE, rated=False)
    rated = tables.create_table(host, visibility=Table.Visibility.PRIVATE, rated=True)
    r = c.post("/api/tables/join-by-code/", {"code": rated.room_code}, content_type="application/json", **csrf(c))
    assert r.status_code == 403 and r.json()["code"] == "guest_unrated"
    r = c.post("/api/tables/join-by-code/", {"code": casual.room_code}, content_type="application/json",
               **csrf(c))
    assert r.status_code == 200, r.content
    assert casual.seats.filter(user=guest).exists()
    # the pages offer no rated choice to a guest
    for page in ("/", "/lobby/"):
        assert 'name="rated" checked' not in c.get(page).content.decode()


def test_guests_may_emote_but_not_chat(make_user: Any) -> None:
    _c, guest = guest_browser()
    amy = make_user("amy")
    table = tables.create_table(amy, visibility=Table.Visibility.PRIVATE, rated=False)
    tables.join_table(guest, table.pk, code=table.invite_code)
    tables.fill_bots(amy, table.pk, bot="random")
    match = tables.start_table(amy, table.pk)
    assert Match.objects.get(pk=match.pk).chat is True
    assert talk_commands.check_emote(guest.pk, match.pk, EMOTES[0]) == EMOTES[0]
    with pytest.raises(GameError) as err:
        talk_commands.send_chat(guest.pk, match.pk, "hello")
    assert err.value.code == "guest_chat" and err.value.status == 403
    assert talk_commands.send_chat(amy.pk, match.pk, "hello")["text"] == "hello"
    # the table page shows the guest the hint in place of the chat box
    page = _c.get(f"/play/{match.pk}/").content.decode()
    assert 'data-testid="chat-guest-hint"' in page and '<form class="chat-form" autocomplete="off" hidden>' in page


def test_keep_my_games_keeps_matches_options_and_notices_and_logs_in_with_the_password() -> None:
    c, guest = guest_browser()
    created = c.post("/api/matches/", {"opponents": "bots"}, content_type="application/json", **csrf(c)).json()
    play_to_end(c, created["id"], random.Random(3))
    c.patch("/api/me/settings/", {"card_speed": "fast", "sound": False}, content_type="application/json", **csrf(c))
    Notice.objects.create(user=guest, match_id=created["id"], kind=Notice.Kind.values[0], seq=0)
    home = c.get("/").content.decode()
    assert 'data-testid="keep-banner"' in home
    assert 'data-testid="keep-banner"' in c.get("/matches/").content.decode()
    assert 'data-testid="keep-games"' in c.get(f"/play/{created['id']}/").content.decode()
    page = c.get("/accounts/keep/")
    assert page.status_code == 200 and guest.username in page.content.decode()  # its name is offered
    r = c.post("/accounts/keep/", {"username": "सीता42", "email": "", "password1": "a long pass phrase 9",
                                   "password2": "a long pass phrase 9",
                                   "csrfmiddlewaretoken": c.cookies["csrftoken"].value})
    assert r.status_code == 302 and r["Location"] == "/matches/", r.content.decode()[:3000]
    kept = type(guest).objects.get(pk=guest.pk)  # the same row
    assert kept.username == "सीता42" and kept.has_usable_password()
    assert not Guest.objects.filter(user=kept).exists() and not account_reads.is_guest(kept)
    assert c.get("/api/me/").json()["guest"] is False  # this session stays signed in
    assert [m["id"] for m in c.get("/api/matches/").json()] == [created["id"]]
    assert Profile.objects.get(user=kept).table_options["card_speed"] == "fast"
    assert Notice.objects.filter(user=kept).count() >= 1
    assert Seat.objects.get(match_id=created["id"], user=kept).kind == "human"
    fresh = Client()
    assert fresh.login(username="सीता42", password="a long pass phrase 9")
    # now a full account: rated play is open
    r = c.post("/api/quick-match/", {"rated": True}, content_type="application/json", **csrf(c))
    assert r.status_code == 201, r.content
    # and the keep page sends a full account on
    assert c.get("/accounts/keep/").status_code == 302


def test_keep_my_games_applies_the_sign_up_name_and_password_rules(make_user: Any) -> None:
    make_user("Alice")
    c, guest = guest_browser()

    def keep(name: str, password: str = "a long pass phrase 9") -> str:
        r = c.post("/accounts/keep/", {"username": name, "password1": password, "password2": password,
                                       "csrfmiddlewaretoken": c.cookies["csrftoken"].value})
        assert r.status_code == 200  # the form again, with its errors
        return r.content.decode()

    assert account_commands.USERNAME_TAKEN.split(",")[0] in keep("A1ice")  # a look-alike of a taken name
    assert "one script" in keep("аlicе-ok")  # Cyrillic а and е among Latin letters
    assert "password" in keep("Sita99", "123").lower()  # Django's password rules, as at sign-up
    assert Guest.objects.filter(user=guest).exists() and not type(guest).objects.get(pk=guest.pk).has_usable_password()
    # the generated name may stay
    r = c.post("/accounts/keep/", {"username": guest.username, "password1": "a long pass phrase 9",
                                   "password2": "a long pass phrase 9",
                                   "csrfmiddlewaretoken": c.cookies["csrftoken"].value})
    assert r.status_code == 302 and not Guest.objects.filter(user=guest).exists()


def test_idle_guests_are_removed_by_beat_and_their_replays_still_verify(make_user: Any) -> None:
    assert settings.CELERY_BEAT_SCHEDULE["remove-idle-guests"]["task"] == "games.tasks.remove_idle_guests"
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        c, player = guest_browser()
        created = c.post("/api/matches/", {"opponents": "bots"}, content_type="application/json", **csrf(c)).json()
        play_to_end(c, created["id"], random.Random(5))
        before = c.get(f"/api/matches/{created['id']}/replay/").json()
        _c2, idler = guest_browser()  # never sat at a match
        _c3, recent = guest_browser()
        active = make_user("regular")
    name = player.username
    with time_machine.travel(start + timedelta(days=settings.GUEST_IDLE_DAYS - 1), tick=False):
        recent_match = match_commands.create_match(
            seats=[SeatSpec(user=recent), SeatSpec(bot="random"), SeatSpec(bot="random"), SeatSpec(bot="random")])
    with time_machine.travel(start + timedelta(days=settings.GUEST_IDLE_DAYS, hours=1), tick=False):
        assert tasks.remove_guests() == {"deleted": 1, "anonymised": 1}
        assert tasks.remove_guests() == {"deleted": 0, "anonymised": 0}  # once
    assert not type(idler).objects.filter(pk=idler.pk).exists()
    gone = type(player).objects.get(pk=player.pk)
    assert not gone.is_active and not gone.has_usable_password() and gone.username == f"guest~{gone.pk}"
    assert Guest.objects.get(user=gone).removed_at is not None and not account_reads.is_guest(gone)
    assert not account_reads.username_taken(name)  # the generated name is free again
    seat = Seat.objects.get(match_id=created["id"], user=gone)
    assert seat.name == "Guest"
    # the replay (as a seated person or staff downloads it) verifies, naming the seat "Guest"
    from games.matches import presenters

    doc = presenters.replay_document(Match.objects.get(pk=created["id"]))
    assert doc["players"][seat.index]["name"] == "Guest"
    assert engine.verify_replay(doc).version == engine.verify_replay(before).version
    assert account_reads.is_guest(recent) and Match.objects.filter(pk=recent_match.pk).exists()
    assert type(active).objects.get(pk=active.pk).is_active  # full accounts are never touched
    with time_machine.travel(start + timedelta(days=2 * settings.GUEST_IDLE_DAYS), tick=False):
        assert tasks.remove_guests()["anonymised"] == 1
    assert Seat.objects.get(match=recent_match, user=recent).name == "Guest"


def test_a_guest_cannot_become_a_bot_account() -> None:
    c, guest = guest_browser()
    r = c.post("/api/bot/account/upgrade/", {}, content_type="application/json", **csrf(c))
    assert (r.status_code, r.json()["code"]) == (403, "guest_account")
    assert not BotAccount.objects.filter(user=guest).exists()


def test_guests_never_appear_on_a_leaderboard() -> None:
    c, guest = guest_browser()
    created = c.post("/api/matches/", {"opponents": "bots"}, content_type="application/json", **csrf(c)).json()
    play_to_end(c, created["id"], random.Random(9))
    assert not Rating.objects.filter(user=guest).exists()
    for board in ("people", "bots"):
        rows = Client().get(f"/api/leaderboard/?board={board}").json()
        assert guest.username not in str(rows)
    assert guest.username not in Client().get("/leaderboard/").content.decode()


def test_the_admin_filters_guests(root: Client, make_user: Any) -> None:
    make_user("member")
    _c, guest = guest_browser()
    page = root.get("/admin/auth/user/?guest__isempty=0").content.decode()
    assert guest.username in page and "member" not in page
    page = root.get("/admin/auth/user/?guest__isempty=1").content.decode()
    assert guest.username not in page and "member" in page


def test_keep_my_games_by_the_api_for_a_client_that_is_no_form(make_user: Any) -> None:
    c, guest = guest_browser()
    make_user("alice")
    created = c.post("/api/matches/", {"opponents": "bots"}, content_type="application/json", **csrf(c)).json()

    def keep(body: dict[str, str]) -> Any:
        return c.post("/api/auth/keep/", body, content_type="application/json", **csrf(c))

    r = keep({"username": "A1ice", "password": "a long pass phrase 9"})  # a look-alike of a taken name
    assert r.status_code == 400 and r.json()["code"] == "invalid" and "username" in r.json()["errors"]
    r = keep({"username": "Sita99", "password": "123"})  # Django's password rules, as at sign-up
    assert r.status_code == 400 and "password" in r.json()["errors"]
    assert Guest.objects.filter(user=guest).exists(), "a refused try changes nothing"
    r = keep({"username": "सीता42", "password": "a long pass phrase 9", "email": "sita@example.com"})
    assert r.status_code == 200, r.content
    assert r.json() == {"user_id": guest.pk, "username": "सीता42", "guest": False}
    # the same account, still signed in on this session, with its match; the password logs in elsewhere
    assert c.get("/api/me/").json()["guest"] is False
    assert c.get(f"/api/matches/{created['id']}/").status_code == 200
    token = Client().post("/api/auth/token/", {"username": "सीता42", "password": "a long pass phrase 9"},
                          content_type="application/json")
    assert token.status_code == 200, token.content
    # kept already: 409, and a full account (by its token) is no guest either
    r = keep({"username": "सीता42", "password": "a long pass phrase 9"})
    assert r.status_code == 409 and r.json()["code"] == "not_a_guest"
    r = Client().post("/api/auth/keep/", {"username": "x1", "password": "a long pass phrase 9"},
                      content_type="application/json", HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    assert r.status_code == 409 and r.json()["code"] == "not_a_guest"
    assert Client().post("/api/auth/keep/", {}, content_type="application/json").status_code in (401, 403)
