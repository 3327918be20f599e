"""``POST /api/offline-matches/``: a match played offline (engine.solo) uploaded as its replay, verified by the
engine's verifier and stored unrated and flagged offline; every bad upload a clear 4xx and nothing stored."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from site_helpers import client_for

import engine
from engine.solo import SoloMatch
from games import tasks
from games.models import Action, Analysis, Match

pytestmark = pytest.mark.django_db(transaction=True)


def offline_replay(name: str, seed: str = "offline-seed", level: str = "easy") -> dict[str, Any]:
    match = SoloMatch(seed, level=level, name=name, seat=0, match_id="local-1")
    match.play_bots()
    rng = random.Random(seed)
    while not match.state.is_finished:
        view = match.view()
        key = "bid" if view["phase"] == "bidding" else "card"
        match.act({"seq": view["seq"], key: rng.choice(view["legal"])})
    doc: dict[str, Any] = json.loads(json.dumps(match.export()))
    return doc


@pytest.fixture(scope="module")
def amy_replay() -> dict[str, Any]:
    return offline_replay("amy")


def test_a_verified_replay_is_stored_unrated_offline_and_reviewable(make_user: Any, amy_replay: dict[str, Any],
                                                                     settings: Any) -> None:
    settings.ANALYSIS_BUDGET = 2
    amy = make_user("amy")
    client = client_for(amy)
    r = client.post("/api/offline-matches/", {"replay": amy_replay}, format="json")
    assert r.status_code == 201, r.content
    row = r.json()
    assert row["offline"] is True and row["status"] == "finished" and row["rated"] is False and row["you"] == 0
    match = Match.objects.get(pk=row["id"])
    assert match.offline and not match.rated and match.seq == 5 * 56 and match.created_by == amy
    assert Action.objects.filter(match=match, made_by=Action.MadeBy.PLAYER).count() == 5 * 14
    # the stored match is the replay: the server's own export of it verifies and has the same log
    served = client.get(f"/api/matches/{match.pk}/replay/").json()
    assert engine.verify_replay(served).actions == engine.verify_replay(amy_replay).actions
    listed = client.get("/api/matches/").json()
    assert [m["offline"] for m in listed] == [True]
    # the post-game review works on it as on any finished match: queued by the upload itself
    assert list(Analysis.objects.filter(match=match).values_list("seat", "status")) == [(0, Analysis.Status.QUEUED)]
    assert client.get(f"/api/matches/{match.pk}/analysis/").status_code == 202
    assert tasks.analyze_seat.apply(args=(Analysis.objects.get(match=match, seat=0).pk,)).get() is True
    review = client.get(f"/api/matches/{match.pk}/analysis/")
    assert review.status_code == 200 and review.json()["format"] == "callbreak-analysis/1"


def test_a_duplicate_is_refused(make_user: Any, amy_replay: dict[str, Any]) -> None:
    client = client_for(make_user("amy"))
    assert client.post("/api/offline-matches/", {"replay": amy_replay}, format="json").status_code == 201
    r = client.post("/api/offline-matches/", {"replay": amy_replay}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "duplicate" and r.json()["detail"]
    assert Match.objects.count() == 1


def test_the_replay_of_a_server_match_is_a_duplicate(make_user: Any) -> None:
    amy = make_user("amy")
    client = client_for(amy)
    view = client.post("/api/matches/", {"opponents": "bots", "bot": "random"}, format="json").json()
    rng = random.Random(4)
    while view["phase"] != "finished":
        key = "bid" if view["phase"] == "bidding" else "card"
        view = client.post(f"/api/matches/{view['id']}/actions/", {"seq": view["seq"], key: rng.choice(view["legal"])},
                           format="json").json()
    served = client.get(f"/api/matches/{view['id']}/replay/").json()
    r = client.post("/api/offline-matches/", {"replay": served}, format="json")
    assert r.status_code == 409 and r.json()["code"] == "duplicate"
    assert Match.objects.count() == 1


def test_a_tampered_replay_is_refused_with_the_verifiers_reason(make_user: Any, amy_replay: dict[str, Any]) -> None:
    doc = copy.deepcopy(amy_replay)
    trick = doc["deals"][2]["tricks"][5]
    hand = doc["deals"][2]["hands"][trick["plays"][0]["seat"]]
    played = trick["plays"][0]["card"]
    trick["plays"][0]["card"] = next(c for c in hand if c != played)  # one card changed
    with pytest.raises(engine.VerifyError) as err:
        engine.verify_replay(doc)
    r = client_for(make_user("amy")).post("/api/offline-matches/", {"replay": doc}, format="json")
    assert r.status_code == 422, r.content
    assert r.json() == {"code": "verify_failed", "detail": str(err.value)}
    assert "deal 3 trick 6" in r.json()["detail"]
    assert not Match.objects.exists()


@pytest.mark.parametrize("body", [{}, {"replay": "text"}, {"replay": {"format": "other"}}, [1, 2],
                                  {"replay": {"format": engine.FORMAT, "players": []}}])
def test_not_a_replay_is_refused(make_user: Any, body: Any) -> None:
    r = client_for(make_user("amy")).post("/api/offline-matches/", body, format="json")
    assert r.status_code == 400 and r.json()["code"] == "not_a_replay" and r.json()["detail"]
    assert not Match.objects.exists()


def test_someone_elses_replay_is_refused(make_user: Any, amy_replay: dict[str, Any]) -> None:
    make_user("amy")
    r = client_for(make_user("zed")).post("/api/offline-matches/", {"replay": amy_replay}, format="json")
    assert r.status_code == 403 and r.json()["code"] == "not_yours"
    assert not Match.objects.exists()


def test_a_replay_over_the_size_limit_is_refused(make_user: Any, amy_replay: dict[str, Any], settings: Any) -> None:
    settings.OFFLINE_REPLAY_MAX_BYTES = 4096
    r = client_for(make_user("amy")).post("/api/offline-matches/", {"replay": amy_replay}, format="json")
    assert r.status_code == 413 and r.json()["code"] == "too_large" and "4096" in r.json()["detail"]
    assert not Match.objects.exists()


def test_signed_out_is_refused(amy_replay: dict[str, Any]) -> None:
    from rest_framework.test import APIClient

    r = APIClient().post("/api/offline-matches/", {"replay": amy_replay}, format="json")
    assert r.status_code in (401, 403)
    assert not Match.objects.exists()


@pytest.mark.rate_limits
def test_uploads_are_rate_limited(make_user: Any, settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "offline_upload": ("user", "2/hour")}
    client = client_for(make_user("amy"))
    codes = [client.post("/api/offline-matches/", {"replay": {}}, format="json").status_code for _ in range(3)]
    assert codes == [400, 400, 429]

