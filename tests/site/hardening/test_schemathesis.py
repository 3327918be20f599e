"""The API against its own OpenAPI document, with schemathesis: a few thousand generated requests, signed in
(a fresh token per request, so logging out does not end the run), with and without valid data. No answer is
a 5xx, and every answer (status, content type, headers, body) is one the document states.

Rate limits are off here (they would answer most requests 429, which the document states too); the
limits themselves are tested in test_rate_limits.py."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from callbreak_site.wsgi import application

EXAMPLES = 75  # per operation and mode (valid, invalid data): about 26 operations, some 2,500 requests

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance, negative_data_rejection]


@pytest.fixture
def in_process_requests() -> Any:
    """Requests go straight to the WSGI application, inside the test's transaction: keep its database connection
    open across them, as Django's own test client does."""
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def signed_in(django_user_model: Any, settings: Any, in_process_requests: Any) -> Any:
    """A person with a running match against bots and a table, so some generated ids hit real things."""
    from games.matches import commands as match_commands
    from games.tables import commands as table_commands

    user = django_user_model.objects.create_user(username="fuzz", password="correct-horse-battery-9")
    for _ in range(3):
        match_commands.create_bot_match(user, bot="random")
        table_commands.create_table(user)
    return user


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_the_api_keeps_to_its_document(case: Any, signed_in: Any) -> None:
    from site_helpers import token_for

    case.call_and_validate(headers={"Authorization": f"Token {token_for(signed_in)}"}, checks=CHECKS)


def _operation(path: str, method: str) -> dict[str, Any]:
    from django.test import Client

    document = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    return dict(document["paths"][path][method])


@pytest.mark.django_db
def test_the_document_states_what_the_views_enforce(django_user_model: Any) -> None:
    from site_helpers import client_for

    action = _operation("/api/matches/{match_id}/actions/", "post")["requestBody"]["content"]
    assert list(action) == ["application/json"]
    shapes = action["application/json"]["schema"]["oneOf"]
    assert [sorted(s["required"]) for s in shapes] == [["bid", "seq"], ["card", "seq"]]
    assert [s["not"] for s in shapes] == [{"required": ["card"]}, {"required": ["bid"]}]
    new_match = _operation("/api/matches/", "post")
    assert "Staff only" in new_match["description"] and "seed_forbidden" in new_match["description"]
    assert {"413", "429"} <= set(new_match["responses"]) and "Retry-After" in new_match["responses"]["429"]["headers"]

    user = django_user_model.objects.create_user(username="rules", password="correct-horse-battery-9")
    api = client_for(user)
    view = api.post("/api/matches/", {"bot": "random"}, format="json").json()
    for body in ({"seq": view["seq"], "bid": 3, "card": "QH"}, {"seq": view["seq"]}):
        r = api.post(f"/api/matches/{view['id']}/actions/", body, format="json")
        assert r.status_code == 400 and r.json()["code"] == "bad_action"
    r = api.post("/api/matches/", {"bot": "random", "seed": "mine"}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "seed_forbidden"
