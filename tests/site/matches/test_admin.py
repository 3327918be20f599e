"""Admin of matches: read-only match logs, and aborting a match (nobody is rated)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.matches import commands
from games.matches.commands import SeatSpec
from games.models import Action, Match, RatingChange

pytestmark = pytest.mark.django_db(transaction=True)


def test_match_admin_shows_the_log_read_only(admin_client_: Client, make_user: Any) -> None:
    gina = make_user("gina")
    match = commands.create_bot_match(gina)
    match.refresh_from_db()
    if match.turn == 0:  # gina bids first with this seed: make one move so the log is not empty
        commands.submit_action(user=gina, match_id=match.pk, payload={"seq": match.seq, "bid": 3})
        match.refresh_from_db()
    r = admin_client_.get(f"/admin/games/match/{match.pk}/change/")
    assert r.status_code == 200
    body = r.content.decode()
    assert "Actions" in body or "actions" in body
    first = Action.objects.filter(match=match).order_by("seq").first()
    assert first is not None
    # Read-only inline: no editable inputs for the log rows, no delete boxes.
    assert 'name="actions-0-card"' not in body and 'name="actions-0-DELETE"' not in body
    assert admin_client_.get("/admin/games/match/").status_code == 200
    assert admin_client_.get("/admin/games/match/add/").status_code == 403
    assert admin_client_.get(f"/admin/games/action/{first.pk}/delete/").status_code == 403
    before = (first.seat, first.bid, first.card)
    r = admin_client_.post(f"/admin/games/action/{first.pk}/change/", {"seat": 3, "bid": 13 - (first.bid or 0)})
    assert r.status_code == 403
    first.refresh_from_db()
    assert (first.seat, first.bid, first.card) == before


def test_admin_aborts_a_match_and_nobody_is_rated(root: Client, make_user: Any) -> None:
    a = make_user("abe")
    match = commands.create_match(seats=[SeatSpec(user=a)] + [SeatSpec(bot="random")] * 3, rated=True,
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


def test_admin_refuses_filters_on_the_seeds_of_a_match(root: Client, make_user: Any) -> None:
    """The attack: `?id=<id>&seed__startswith=<prefix>` answered one match or none, so 311 requests, one hex
    character at a time, recovered the seed of a running match. Every filter on a secret field is refused,
    the right prefix and a wrong one alike, through a relation too."""
    match = commands.create_match(seats=[SeatSpec(user=make_user("rita"))] + [SeatSpec(bot="random")] * 3)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    right = {"seed": match.seed[:1], "bot_seed": match.bot_seed[:1]}
    for field, prefix in right.items():
        wrong = "0" if prefix != "0" else "1"
        answers = []
        for guess in (prefix, wrong):
            for lookup in (f"{field}__startswith", field, f"{field}__gte", f"seats__match__{field}__startswith"):
                r = root.get(f"/admin/games/match/?id={match.pk}&{lookup}={guess}")
                answers.append(r.status_code)
                assert r.status_code == 400, (lookup, r.status_code)
            r = root.get(f"/admin/games/action/?match__{field}__startswith={guess}")
            assert r.status_code == 400
        assert len(set(answers)) == 1
    # the change list itself, its search and its other filters still work
    assert root.get(f"/admin/games/match/?id={match.pk}").status_code == 200
    assert root.get(f"/admin/games/match/?q={match.seed_commitment[:8]}").status_code == 200
    assert root.get("/admin/games/match/?status__exact=active&o=1").status_code == 200
    body = root.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert match.seed not in body and match.bot_seed not in body


def test_admin_refuses_filters_on_password_hashes(root: Client, make_user: Any) -> None:
    """Django's UserAdmin refuses these; kept here so a custom user admin cannot lose it."""
    user = make_user("pia")
    for guess in (user.password[:3], "zzz"):
        assert root.get(f"/admin/auth/user/?password__startswith={guess}").status_code == 400
    assert root.get("/admin/auth/user/?is_active__exact=1").status_code == 200
