"""The matches API end to end: creating matches, playing whole matches, the replay, errors."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient
from site_helpers import assert_no_leak, choose, client_for

import engine
from games.models import Action, Match

pytestmark = pytest.mark.django_db(transaction=True)


def test_create_match_answers_with_my_view(api: APIClient, user: Any) -> None:
    r = api.post("/api/matches/", {"opponents": "bots"}, format="json")
    assert r.status_code == 201, r.content
    view = r.json()
    match = Match.objects.get(pk=view["id"])
    assert view["seat"] == 0
    assert view["seed_commitment"] == engine.seed_commitment(match.seed)
    assert view["seed"] is None
    assert len(view["hand"]) == 13
    assert [s["kind"] for s in view["seats"]] == ["human", "bot", "bot", "bot"]
    assert {s["bot"] for s in view["seats"][1:]} == {engine.bots.DEFAULT_BOT}
    # In eager mode the bots before me have already bid, so it is my turn now.
    assert view["turn"] == 0 and view["your_turn"] is True
    assert view["legal"] == list(range(1, 14))
    assert view["seq"] == match.seq == Action.objects.filter(match=match).count()


def test_create_match_with_level_and_fresh_seeds(api: APIClient) -> None:
    level = "random"
    a = api.post("/api/matches/", {"opponents": "bots", "bot": level}, format="json").json()
    b = api.post("/api/matches/", {"opponents": "bots", "bot": level}, format="json").json()
    assert {s["bot"] for s in a["seats"][1:]} == {level}
    assert a["seed_commitment"] != b["seed_commitment"]


def test_create_match_refuses_unknown_level_and_seed_for_non_staff(api: APIClient) -> None:
    r = api.post("/api/matches/", {"opponents": "bots", "bot": "grandmaster-9000"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "unknown_bot"
    r = api.post("/api/matches/", {"opponents": "bots", "seed": "example-seed"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "seed_forbidden"
    r = api.post("/api/matches/", {"opponents": "people"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert Match.objects.count() == 0


def test_staff_seed_reproduces_the_deal(make_user: Any) -> None:
    staff = make_user("boss", is_staff=True)
    view = client_for(staff).post("/api/matches/", {"opponents": "bots", "seed": "example-seed"},
                                  format="json").json()
    # fairness.md test vector: seat 0's hand in deal 1 of "example-seed".
    expected = set(["6D", "TS", "9H", "QH", "JC", "TD", "7D", "2D", "6S", "KD", "3C", "4S", "QS"])
    assert set(view["hand"]) == expected
    assert view["dealer"] == 3


def play_to_end(client: APIClient, match_id: int, rng: random.Random, seed: str | None = None) -> int:
    """Play my legal moves until the match is over; returns how many actions I made."""
    mine = 0
    view = client.get(f"/api/matches/{match_id}/").json()
    while view["phase"] != "finished":
        assert view["your_turn"], "eager bots should have brought the turn back to me"
        r = client.post(f"/api/matches/{match_id}/actions/", choose(view, rng), format="json")
        assert r.status_code == 200, r.content
        mine += 1
        view = r.json()
        if seed is not None:
            state = engine.replay(seed, [a.to_engine_json() for a in Action.objects.filter(match_id=match_id)
                                         .order_by("seq")][: view["seq"]])
            assert_no_leak(view, state, 0, seed)
    return mine


def test_full_match_through_the_api_then_replay_verifies(api: APIClient) -> None:
    created = api.post("/api/matches/", {"opponents": "bots"}, format="json").json()
    match_id = created["id"]
    early = api.get(f"/api/matches/{match_id}/replay/")
    assert early.status_code == 409 and early.json()["code"] == "not_finished"
    seed = Match.objects.get(pk=match_id).seed
    mine = play_to_end(api, match_id, random.Random(7), seed)
    assert mine == 5 * (1 + 13)
    final = api.get(f"/api/matches/{match_id}/").json()
    assert final["status"] == "finished" and final["seed"] == seed
    assert final["seq"] == 5 * 4 * 14 and final["legal"] == []
    assert len(final["deals"]) == 5 and final["winners"]
    doc = api.get(f"/api/matches/{match_id}/replay/").json()
    assert doc["format"] == "callbreak-replay/1"
    verified = engine.verify_replay(doc)
    assert verified.version == final["seq"]
    assert doc["players"][0] == {"seat": 0, "name": "alice", "kind": "human", "bot": None}
    assert [p["kind"] for p in doc["players"][1:]] == ["bot"] * 3
    assert [round(t * 10) for t in doc["final_totals"]] == final["totals"]
    match = Match.objects.get(pk=match_id)
    assert match.finished_at is not None and match.turn is None
    made_by = set(Action.objects.filter(match=match).values_list("made_by", flat=True))
    assert made_by == {"player", "bot"}


def test_stale_duplicate_and_illegal_actions(api: APIClient) -> None:
    view = api.post("/api/matches/", {"opponents": "bots"}, format="json").json()
    url = f"/api/matches/{view['id']}/actions/"
    seq = view["seq"]
    r = api.post(url, {"seq": seq + 5, "bid": 3}, format="json")
    assert r.status_code == 409 and r.json() == {"code": "stale_seq", "detail": r.json()["detail"], "seq": seq}
    r = api.post(url, {"seq": seq, "bid": 14}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "bid_out_of_range"
    r = api.post(url, {"seq": seq, "card": view["hand"][0]}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "wrong_phase"
    assert Action.objects.filter(match_id=view["id"]).count() == seq
    ok = api.post(url, {"seq": seq, "bid": 3}, format="json")
    assert ok.status_code == 200
    again = api.post(url, {"seq": seq, "bid": 3}, format="json")  # a duplicate of the same submission
    assert again.status_code == 409 and again.json()["seq"] == ok.json()["seq"]
    assert Action.objects.filter(match_id=view["id"]).count() == ok.json()["seq"]


def test_illegal_card_gets_the_engines_reason(api: APIClient) -> None:
    view = api.post("/api/matches/", {"opponents": "bots"}, format="json").json()
    url = f"/api/matches/{view['id']}/actions/"
    view = api.post(url, {"seq": view["seq"], "bid": 2}, format="json").json()
    # Play until a locked card turns up, and check the API refuses it with the engine's code.
    rng = random.Random(3)
    while view["phase"] != "finished":
        if view["locked"]:
            card, reason = sorted(view["locked"].items())[0]
            r = api.post(url, {"seq": view["seq"], "card": card}, format="json")
            assert r.status_code == 400
            assert r.json()["code"] == reason
            return
        view = api.post(url, choose(view, rng), format="json").json()
    pytest.fail("no locked card in a whole match")


@pytest.mark.parametrize(
    "body",
    [
        "not json at all",
        [],
        {},
        {"seq": "1", "bid": 3},
        {"seq": True, "bid": 3},
        {"seq": -1, "bid": 3},
        {"seq": 0},
        {"seq": 0, "bid": 3, "card": "QH"},
        {"seq": 0, "bid": "three"},
        {"seq": 0, "bid": 3.5},
        {"seq": 0, "bid": None},
        {"seq": 0, "card": 12},
        {"seq": 0, "card": "ZZ"},
        {"seq": 0, "card": "x" * 5000},
        {"seq": 10**30, "bid": 3},
    ],
)
def test_malformed_action_bodies_get_json_4xx(api: APIClient, body: Any) -> None:
    view = api.post("/api/matches/", {"opponents": "bots"}, format="json").json()
    url = f"/api/matches/{view['id']}/actions/"
    if isinstance(body, dict) and body.get("seq") == 0:
        body = dict(body, seq=view["seq"])
    if isinstance(body, str):
        r = api.post(url, body, content_type="application/json")
    else:
        r = api.post(url, body, format="json")
    assert 400 <= r.status_code < 500, (body, r.status_code, r.content)
    data = r.json()
    assert set(data) >= {"code", "detail"}
    assert Action.objects.filter(match_id=view["id"]).count() == view["seq"]


def test_foreign_and_unknown_matches_are_404(api: APIClient, make_user: Any) -> None:
    other = client_for(make_user("mallory"))
    theirs = other.post("/api/matches/", {"opponents": "bots"}, format="json").json()
    for path in ("", "actions/", "replay/"):
        url = f"/api/matches/{theirs['id']}/{path}"
        r = api.post(url, {"seq": theirs["seq"], "bid": 3}, format="json") if path == "actions/" else api.get(url)
        assert r.status_code == 404, path
        assert r.json()["code"] == "not_found"
    assert api.get("/api/matches/999999/").status_code == 404
    assert api.get(f"/api/matches/{10**30}/").json()["code"] == "not_found"
    r = api.post(f"/api/matches/{2**63}/actions/", {"seq": 0, "bid": 1}, format="json")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    assert api.get("/api/nothing-here/").json()["code"] == "not_found"
    assert Action.objects.filter(match_id=theirs["id"]).count() == theirs["seq"]


def test_list_puts_matches_awaiting_me_first(api: APIClient) -> None:
    a = api.post("/api/matches/", {"opponents": "bots"}, format="json").json()
    b = api.post("/api/matches/", {"opponents": "bots"}, format="json").json()
    assert a["your_turn"] and b["your_turn"]
    Match.objects.filter(pk=b["id"]).update(turn=2)  # b, the newer one, now waits on a bot
    rows = api.get("/api/matches/").json()
    assert [r["id"] for r in rows] == [a["id"], b["id"]]
    assert [r["your_turn"] for r in rows] == [True, False]
    assert all("hand" not in r and "seed" not in r for r in rows)
