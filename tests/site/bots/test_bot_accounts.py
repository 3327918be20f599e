"""Bot accounts: the upgrade (only without rated matches, for good), the page log-in refused, the badge on
tables, matches, profiles and the bots' leaderboard, the host's invitation and the bot's answer, the cap on
matches at once, and the events a bot answers (your_turn, invited, match_over), stored in order and resumable."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.test import Client
from rest_framework.test import APIClient
from site_helpers import PASSWORD, choose, client_for

from games.models import BotAccount, BotEvent, Match, Seat

pytestmark = pytest.mark.django_db(transaction=True)


def upgrade(client: APIClient) -> Any:
    return client.post("/api/bot/account/upgrade/", {}, format="json")


async def _collect(chunks: Any) -> bytes:
    return b"".join([chunk async for chunk in chunks])


def events(client: APIClient, since: int | None = 0) -> list[dict[str, Any]]:
    """The stored events after ``since`` (``follow=0``: the stream sends them and ends)."""
    query = "?follow=0" + (f"&since={since}" if since is not None else "")
    r = client.get("/api/bot/events/" + query)
    assert r.status_code == 200, r.content
    assert r["Content-Type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in async_to_sync(_collect)(r.streaming_content).decode().splitlines()]
    assert lines[0]["type"] == "hello"
    return lines[1:]


@pytest.fixture
def bot(make_user: Any) -> tuple[Any, APIClient]:
    user = make_user("robo")
    client = client_for(user)
    r = upgrade(client)
    assert r.status_code == 201, r.content
    return user, client


def test_upgrade_once_for_good_and_only_without_rated_matches(make_user: Any, bot: Any) -> None:
    user, client = bot
    assert BotAccount.objects.filter(user=user).exists()
    assert upgrade(client).status_code == 200  # asked again: the same
    # an account with a rated match may not
    person = make_user("rated1")
    match = Match.objects.create(seed="s", seed_commitment="c", bot_seed="b", rated=True)
    Seat.objects.create(match=match, index=0, kind=Seat.Kind.HUMAN, user=person, name="rated1")
    r = upgrade(client_for(person))
    assert r.status_code == 409 and r.json()["code"] == "rated_matches"
    assert not BotAccount.objects.filter(user=person).exists()
    staff = make_user("staffer", is_staff=True)
    assert upgrade(client_for(staff)).json()["code"] == "staff_account"


def test_the_page_log_in_refuses_a_bot_account_but_tokens_work(bot: Any) -> None:
    user, _ = bot
    page = Client()
    r = page.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert r.status_code == 200 and b"API tokens only" in r.content
    assert "_auth_user_id" not in page.session
    r = APIClient().post("/api/auth/token/", {"username": user.username, "password": PASSWORD}, format="json")
    assert r.status_code == 200 and r.json()["token"]


def test_a_person_has_no_event_stream(api: APIClient) -> None:
    r = api.get("/api/bot/events/?follow=0")
    assert r.status_code == 403 and r.json()["code"] == "not_a_bot"


def test_bad_since_is_a_400(bot: Any) -> None:
    r = bot[1].get("/api/bot/events/?follow=0&since=x1")
    assert r.status_code == 400 and r.json()["code"] == "bad_since"


def new_table(client: APIClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables/", {"visibility": "private", "move_seconds": 60, **body}, format="json")
    assert r.status_code == 201, r.content
    return r.json()


def test_host_invites_bot_which_declines_then_accepts_and_plays_a_whole_match(make_user: Any, bot: Any) -> None:
    robo, bot_client = bot
    host_user = make_user("hosty")
    host = client_for(host_user)
    table = new_table(host)
    tid = table["id"]
    # nobody else may invite, a person cannot be invited, an unknown name is a 404
    assert client_for(make_user("other")).post(f"/api/tables/{tid}/seats/1/invite/", {"username": "robo"},
                                               format="json").status_code == 404
    r = host.post(f"/api/tables/{tid}/seats/1/invite/", {"username": "hosty"}, format="json")
    assert r.status_code == 404
    r = host.post(f"/api/tables/{tid}/seats/1/invite/", {"username": "ROBO"}, format="json")
    assert r.status_code == 200, r.content
    seat = r.json()["seats"][1]
    assert seat["kind"] == "invited" and seat["invited"] == "robo"
    assert host.post(f"/api/tables/{tid}/seats/2/invite/", {"username": "robo"},
                     format="json").json()["code"] == "already_seated"
    # the bot is told, sees the private table, and declines
    invited = events(bot_client)
    assert [(e["type"], e["table_id"]) for e in invited] == [("invited", tid)]
    assert bot_client.get(f"/api/tables/{tid}/").status_code == 200
    r = bot_client.post(f"/api/tables/{tid}/invitation/", {"accept": False}, format="json")
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "empty"
    assert bot_client.post(f"/api/tables/{tid}/invitation/", {"accept": True}, format="json").status_code == 404
    # invited again (a new event), it accepts: the seat shows the bot badge
    host.post(f"/api/tables/{tid}/seats/1/invite/", {"username": "robo"}, format="json")
    start = host.post(f"/api/tables/{tid}/start/")
    assert start.status_code == 409  # the invited seat waits, and the others are empty
    r = bot_client.post(f"/api/tables/{tid}/invitation/", {"accept": True}, format="json")
    assert r.status_code == 200
    seat = r.json()["seats"][1]
    assert seat["kind"] == "human" and seat["bot_account"] is True and seat["name"] == "robo"
    host.post(f"/api/tables/{tid}/bots/", {"bot": "easy"}, format="json")
    assert host.post(f"/api/tables/{tid}/start/").status_code == 201
    match_id = host.get(f"/api/tables/{tid}/").json()["match_id"]
    view = bot_client.get(f"/api/matches/{match_id}/").json()
    assert [s["bot_account"] for s in view["seats"]] == [False, True, False, False]
    # the bot plays from its events alone: each your_turn names the seq to answer
    rng, last, seen_turns, host_turns = random.Random(3), 0, 0, 0
    seen: list[dict[str, Any]] = []
    while True:
        new = events(bot_client, last)
        seen += new
        if new:
            last = new[-1]["id"]
        assert [e["id"] for e in new] == sorted(e["id"] for e in new)
        for e in new:
            if e["type"] == "your_turn":
                seen_turns += 1
                v = bot_client.get(f"/api/matches/{match_id}/").json()
                assert v["your_turn"] and v["seq"] == e["seq"]
                r = bot_client.post(f"/api/matches/{match_id}/actions/", {"seq": v["seq"], **choose(v, rng)},
                                    format="json")
                assert r.status_code == 200, r.content
        hv = host.get(f"/api/matches/{match_id}/").json()
        if hv["status"] == "finished":
            break
        if hv["your_turn"]:
            host_turns += 1
            assert host.post(f"/api/matches/{match_id}/actions/", {"seq": hv["seq"], **choose(hv, rng)},
                             format="json").status_code == 200
        assert seen_turns + host_turns < 400
    assert seen_turns == 5 + 5 * 13  # every bid and card of its seat
    seen += events(bot_client, last)
    over = [e for e in seen if e["type"] == "match_over"]
    assert len(over) == 1 and over[0]["match_id"] == match_id and seen[-1] == over[0]
    # no notice for a bot account's turns: its events tell it
    from games.models import Notice
    assert not Notice.objects.filter(user=robo, kind="your_turn").exists()
    # resumed from an earlier id: the same events again, in order
    everything = events(bot_client, 0)
    assert [e["id"] for e in everything] == list(BotEvent.objects.filter(user=robo).values_list("id", flat=True))
    assert events(bot_client, None) == []  # without since: only what comes next


def test_the_cap_on_matches_at_once(settings: Any, make_user: Any, bot: Any) -> None:
    settings.BOT_MAX_ACTIVE_MATCHES = 2
    _, bot_client = bot
    assert bot_client.post("/api/matches/", {"opponents": "bots"}, format="json").status_code == 201
    host = client_for(make_user("hosty"))
    tid = new_table(host)["id"]
    host.post(f"/api/tables/{tid}/seats/2/invite/", {"username": "robo"}, format="json")
    assert bot_client.post(f"/api/tables/{tid}/invitation/", {"accept": True}, format="json").status_code == 200
    tid2 = new_table(host)["id"]
    host.post(f"/api/tables/{tid2}/seats/1/invite/", {"username": "robo"}, format="json")
    r = bot_client.post(f"/api/tables/{tid2}/invitation/", {"accept": True}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "too_many_matches"
    # running matches count when it starts one against the house bots
    assert bot_client.post("/api/matches/", {"opponents": "bots"}, format="json").status_code == 201
    r = bot_client.post("/api/matches/", {"opponents": "bots"}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "too_many_matches"


def test_badges_on_profile_and_the_bots_leaderboard(make_user: Any, bot: Any) -> None:
    from games.models import Rating

    robo, bot_client = bot
    person = make_user("human1")
    Rating.objects.create(user=robo, mu=30, sigma=2, games=3)
    Rating.objects.create(user=person, mu=28, sigma=2, games=3)
    Rating.objects.create(bot="normal", mu=25, sigma=2, games=9)
    Rating.objects.create(bot="heuristic", mu=25, sigma=2, games=4)  # the bot ladder's yardstick
    people = bot_client.get("/api/leaderboard/").json()
    assert [r["name"] for r in people] == ["human1", "bot:normal"]
    bots = bot_client.get("/api/leaderboard/?board=bots").json()
    assert [(r["name"], r["kind"], r["bot_account"], r["fixed"]) for r in bots] == [
        ("robo", "bot_account", True, False), ("bot:heuristic", "bot", False, True)]
    assert bot_client.get("/api/leaderboard/?board=x").status_code == 400
    assert bot_client.get("/api/players/robo/").json()["bot_account"] is True
    page = Client()
    html = page.get("/leaderboard/?board=bots").content.decode()
    assert 'data-testid="bot-account-badge"' in html and "robo" in html
    assert 'data-testid="bot-account-badge"' in page.get("/players/robo/").content.decode()
    assert "robo" not in page.get("/leaderboard/").content.decode()


def test_a_stream_opened_without_since_starts_with_what_awaits_an_answer(make_user: Any, bot: Any) -> None:
    robo, bot_client = bot
    host = client_for(make_user("hosty"))
    t1, t2 = new_table(host)["id"], new_table(host)["id"]
    host.post(f"/api/tables/{t1}/seats/1/invite/", {"username": "robo"}, format="json")
    host.post(f"/api/tables/{t2}/seats/1/invite/", {"username": "robo"}, format="json")
    bot_client.post(f"/api/tables/{t2}/invitation/", {"accept": False}, format="json")  # answered: not pending
    m = bot_client.post("/api/matches/", {"opponents": "bots", "bot": "random"}, format="json").json()
    pending = events(bot_client, None)
    kinds = [(e["type"], e.get("table_id"), e.get("match_id")) for e in pending]
    if m["your_turn"]:
        assert kinds == [("invited", t1, None), ("your_turn", None, m["id"])]
        assert pending[1]["seq"] == m["seq"]
    else:  # a house bot deals first and bids: the turn comes to the bot at once in eager mode
        assert kinds[0] == ("invited", t1, None)


def test_a_silent_bot_gets_the_autopilot_then_a_house_bot_keeps_its_seat(settings: Any, bot: Any) -> None:
    """Even against the house bots (an untimed match), a bot account's turn has BOT_MOVE_SECONDS: past it the
    autopilot plays, and after AUTOPILOT_HANDOVER_AFTER expired turns in a row a house bot keeps the seat."""
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from games.models import Action, Notice
    from games.tasks import sweep_deadlines

    settings.BOT_MOVE_SECONDS = 30
    robo, bot_client = bot
    m = bot_client.post("/api/matches/", {"opponents": "bots", "bot": "random"}, format="json").json()
    match = Match.objects.get(pk=m["id"])
    seat = Seat.objects.get(match=match, user=robo)
    assert seat.bot_account and match.move_seconds is None
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for expired in (1, 2, 3):
            match.refresh_from_db()
            assert match.turn == seat.index and match.deadline is not None
            assert timedelta(seconds=29) <= match.deadline - timezone.now() <= timedelta(seconds=30)
            seq = match.seq
            clock.move_to(match.deadline + timedelta(seconds=1))
            sweep_deadlines.delay()
            assert Action.objects.get(match=match, seq=seq).made_by == Action.MadeBy.AUTOPILOT
            seat.refresh_from_db()
            assert seat.missed_in_row == expired and seat.autopilot == (expired == 3)
    assert not Notice.objects.filter(user=robo, kind="reminder").exists()  # bots get events, not reminders
    match.refresh_from_db()
    assert match.deadline is None  # the house bot plays the seat now


@pytest.mark.rate_limits
def test_per_bot_limits_on_the_stream_and_on_answers(settings: Any, make_user: Any, bot: Any) -> None:
    """Each bot account counts on its own: one that reopens its stream in a loop is refused (429) while
    another bot's stream opens."""
    settings.RATE_LIMITS = {scope: (kind, {"bot_stream": "2/min", "bot_answer": "1/min"}.get(scope, rate))
                            for scope, (kind, rate) in settings.RATE_LIMITS.items()}
    _, bot_client = bot
    other = make_user("robo2")
    other_client = client_for(other)
    assert upgrade(other_client).status_code == 201
    assert [bot_client.get("/api/bot/events/?follow=0").status_code for _ in range(2)] == [200, 200]
    r = bot_client.get("/api/bot/events/?follow=0")
    assert r.status_code == 429 and r.json()["scope"] == "bot_stream" and r["Retry-After"]
    assert other_client.get("/api/bot/events/?follow=0").status_code == 200
    host = client_for(make_user("hosty"))
    tid = new_table(host)["id"]
    host.post(f"/api/tables/{tid}/seats/1/invite/", {"username": "robo"}, format="json")
    assert bot_client.post(f"/api/tables/{tid}/invitation/", {"accept": False}, format="json").status_code == 200
    r = bot_client.post(f"/api/tables/{tid}/invitation/", {"accept": True}, format="json")
    assert r.status_code == 429 and r.json()["scope"] == "bot_answer"
