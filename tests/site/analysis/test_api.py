"""The review of a finished match on the site: queued when the match ends, computed by a task that
resumes where it stopped and stores each decision once, served as 202 (progress) then 200 (document)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from site_helpers import choose, client_for

from games import tasks
from games.analysis import commands
from games.models import Analysis, Match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def small_budget(settings: Any) -> None:
    settings.ANALYSIS_BUDGET = 2  # the review's logic, not its strength, is under test here


def _finished_bot_match(user: Any) -> Match:
    client = client_for(user)
    r = client.post("/api/matches/", {"opponents": "bots", "bot": "random"}, format="json")
    assert r.status_code == 201, r.content
    view = r.json()
    rng = random.Random(3)
    while view["phase"] != "finished":
        view = client.post(f"/api/matches/{view['id']}/actions/", choose(view, rng), format="json").json()
    return Match.objects.get(pk=view["id"])


def test_analysis_api_202_then_200_and_refusals(make_user: Any) -> None:
    amy, zed = make_user("amy"), make_user("zed")
    client = client_for(amy)
    running = client.post("/api/matches/", {"opponents": "bots"}, format="json")
    assert running.status_code == 201, running.content
    running = running.json()
    r = client.get(f"/api/matches/{running['id']}/analysis/")
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    match = _finished_bot_match(amy)
    assert client_for(zed).get(f"/api/matches/{match.pk}/analysis/").status_code == 404
    assert client.get(f"/api/matches/{match.pk}/analysis/?seat=1").json()["code"] == "bad_seat"  # a bot's seat
    assert client.get(f"/api/matches/{match.pk}/analysis/?seat=x").status_code == 400
    # the match's end queued it (in eager mode the task waits to be run, as a busy worker would)
    analysis = Analysis.objects.get(match=match, seat=0)
    r = client.get(f"/api/matches/{match.pk}/analysis/")
    assert r.status_code == 202 and r.json()["status"] == "queued"
    assert tasks.analyze_seat.apply(args=(analysis.pk,)).get() is True
    r = client.get(f"/api/matches/{match.pk}/analysis/")
    assert r.status_code == 200
    doc = r.json()
    assert doc["format"] == "callbreak-analysis/1" and doc["seat"] == 0 and doc["match_id"] == str(match.pk)
    assert len(doc["decisions"]) == 5 * 14  # 5 bids and 65 cards
    assert [d["kind"] for d in doc["decisions"][:1]] == ["bid"]
    assert all(d["label"] is None for d in doc["decisions"] if d["forced"])


def test_the_task_run_twice_stores_one_analysis_and_a_run_resumes(make_user: Any) -> None:
    amy = make_user("amy")
    match = _finished_bot_match(amy)
    analysis = Analysis.objects.get(match=match, seat=0)
    assert tasks.analyze_seat.apply(args=(analysis.pk,)).get() is True
    assert tasks.analyze_seat.apply(args=(analysis.pk,)).get() is False  # redelivered: nothing to do
    assert Analysis.objects.filter(match=match).count() == 1
    whole = Analysis.objects.get(pk=analysis.pk).document
    # interrupted after 20 decisions (a worker killed): the next run keeps them and finishes the rest
    stored = Analysis.objects.get(pk=analysis.pk).decisions[:20]
    Analysis.objects.filter(pk=analysis.pk).update(status="running", decisions=stored, progress=20, document=None)
    assert commands.run(analysis.pk) is True
    assert Analysis.objects.get(pk=analysis.pk).document == whole
    # a run that finds its decision already stored by another stops, leaving the other to finish
    Analysis.objects.filter(pk=analysis.pk).update(status="running", decisions=stored, progress=21, document=None)
    assert commands.run(analysis.pk) is False
    assert len(Analysis.objects.get(pk=analysis.pk).decisions) == 20


def test_a_run_stores_its_decisions_in_batches_not_one_write_each(make_user: Any, monkeypatch: Any) -> None:
    """A review used to rewrite its whole list of decisions after each of its 70 (about 1 MB of JSON a
    match); a run now stores at most every STORE_EVERY_S, and the document is the same."""
    match = _finished_bot_match(make_user("amy"))
    analysis = Analysis.objects.get(match=match, seat=0)

    def writes() -> tuple[int, Any]:
        Analysis.objects.filter(pk=analysis.pk).update(status="queued", decisions=[], progress=0, document=None)
        with CaptureQueriesContext(connection) as ctx:
            assert commands.run(analysis.pk) is True
        updates = [q for q in ctx.captured_queries if q["sql"].startswith("UPDATE") and "analysis" in q["sql"]]
        return len(updates), Analysis.objects.get(pk=analysis.pk).document

    monkeypatch.setattr(commands, "STORE_EVERY_S", 0.0)
    each, document = writes()
    monkeypatch.setattr(commands, "STORE_EVERY_S", 3600.0)
    batched, same = writes()
    assert each >= 70 and batched == 2  # "running", then the decisions with the document
    assert same == document and len(same["decisions"]) == 70
