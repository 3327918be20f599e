"""Web Push on the real stack: PostgreSQL, Redis as broker, a real Celery worker consuming the default and the
``push`` queues. Person B moves in a correspondence match; the bot after B moves in the worker; person A's turn
comes and A's browser subscription receives exactly one push, which decrypts to "your turn".

Run with `make test-realstack`; skipped with the reason shown when PostgreSQL or Redis is absent."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.db import connection
from push_service import BrowserKeys, PushService, start_push_service, vapid_pair
from site_helpers import choose, client_for, two_people

from games.models import Match, PushDelivery
from tests.stack import celery_drained, log_says, running

pytestmark = [pytest.mark.realstack, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def push_service() -> Iterator[PushService]:
    yield from start_push_service()


@pytest.fixture
def push_env(settings: Any, push_service: PushService) -> dict[str, str]:
    public, private = vapid_pair()
    env = {"VAPID_PUBLIC_KEY": public, "VAPID_PRIVATE_KEY": private, "VAPID_SUBJECT": "mailto:ops@callbreak.example",
           "PUSH_ALLOW_HTTP_HOSTS": push_service.host}
    for name, value in env.items():
        setattr(settings, name, value)
    return env


def _push_log() -> Path:
    return ROOT / "test-artifacts" / f"celery-push-{os.getpid()}.log"


@pytest.fixture
def push_worker(push_env: dict[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    """A `celery worker` for the bots' queue and the push queue (as `make worker` and docker-compose run it)."""
    import redis

    redis.Redis.from_url(django_settings.REDIS_URL).flushdb()
    db = connection.settings_dict
    env = dict(os.environ)
    env.update(push_env, DJANGO_SETTINGS_MODULE="callbreak_site.settings", CELERY_TASK_ALWAYS_EAGER="0",
               REDIS_URL=django_settings.REDIS_URL,
               DATABASE_URL=f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
                            f"/{db['NAME']}")
    env.pop("DATABASE_POOL_MAX", None)
    log_path = _push_log()
    with running([sys.executable, "-m", "celery", "-A", "callbreak_site", "worker", "-P", "solo", "-Q", "celery,push",
                  "-l", "info", "--without-gossip", "--without-mingle", "-n", f"push-{os.getpid()}@%h"],
                 env=env, log=log_path, ready=log_says(log_path, "ready."), what="celery push worker") as proc:
        yield proc


def _wait_turn(match_id: int, seats: set[int], timeout: float = 60) -> Match:
    deadline = time.monotonic() + timeout
    while True:
        match = Match.objects.get(pk=match_id)
        if match.turn in seats:
            return match
        assert time.monotonic() < deadline, f"seat {match.turn} did not move"
        time.sleep(0.05)


def test_b_moves_and_as_browser_receives_exactly_one_push(make_user: Any, push_service: PushService,
                                                          push_worker: Any) -> None:
    import random

    match, amy, bo = two_people(make_user, move_seconds=86400)  # amy seat 0, bo seat 2, bots at 1 and 3
    rng = random.Random(2)
    amy_api, bo_api = client_for(amy), client_for(bo)
    while (match := _wait_turn(match.pk, {0, 2})).turn == 0:  # amy plays until it is bo's turn
        view = amy_api.get(f"/api/matches/{match.pk}/").json()
        assert amy_api.post(f"/api/matches/{match.pk}/actions/", choose(view, rng), format="json").status_code == 200
    keys = BrowserKeys.new()
    r = amy_api.post("/api/me/push-subscriptions/", keys.subscription(push_service.endpoint("amy")), format="json")
    assert r.status_code == 201, r.content
    view = bo_api.get(f"/api/matches/{match.pk}/").json()
    assert bo_api.post(f"/api/matches/{match.pk}/actions/", choose(view, rng), format="json").status_code == 200
    match = _wait_turn(match.pk, {0})  # the bot at seat 3 moved in the worker
    [request] = push_service.wait_for(1, timeout=30)
    payload = keys.decrypt(request.body)
    assert payload["type"] == "your_turn" and payload["match_id"] == match.pk
    from callbreak_site.celery import app

    celery_drained(app, _push_log(), ("celery", "push"))  # nothing more comes: one push for one turn
    assert len(push_service.received) == 1
    assert list(PushDelivery.objects.values_list("status", flat=True)) == ["sent"]
