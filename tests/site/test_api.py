"""The REST API as a whole: JSON errors for anonymous callers and malformed bodies, the schema and docs."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def test_anonymous_gets_401_json() -> None:
    r = APIClient().get("/api/matches/")
    assert r.status_code == 401
    assert set(r.json()) == {"code", "detail"}


@pytest.mark.parametrize(
    "url, body",
    [
        ("/api/matches/", [1, 2]),
        ("/api/matches/", {"opponents": "bots", "bot": ["x"]}),
        ("/api/matches/", {"opponents": "bots", "seed": {"a": 1}}),
        ("/api/auth/signup/", [1]),
        ("/api/auth/signup/", {"username": None, "password": None}),
        ("/api/auth/token/", {"username": ["a"], "password": 3}),
        ("/api/auth/token/", "garbage"),
    ],
)
def test_malformed_bodies_elsewhere_get_json_400(api: APIClient, url: str, body: Any) -> None:
    if isinstance(body, str):
        r = api.post(url, body, content_type="application/json")
    else:
        r = api.post(url, body, format="json")
    assert r.status_code == 400, r.content
    assert {"code", "detail"} <= set(r.json())
    assert Match.objects.count() == 0


def test_schema_and_docs_are_served(api: APIClient) -> None:
    r = api.get("/api/schema/")
    assert r.status_code == 200
    text = r.content.decode()
    assert "/api/matches/{match_id}/actions/" in text
    assert APIClient().get("/api/docs/").status_code == 200


def test_openapi_document_validates_without_warnings(tmp_path: Any) -> None:
    from django.core.management import call_command

    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    for path in ("/api/auth/signup/", "/api/auth/token/", "/api/auth/logout/", "/api/me/", "/api/matches/",
                 "/api/matches/{match_id}/", "/api/matches/{match_id}/actions/", "/api/matches/{match_id}/replay/"):
        assert f"{path}:" in text, path
