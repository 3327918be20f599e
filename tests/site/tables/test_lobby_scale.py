"""The lobby holds a crowd: its list costs the same few queries for 3 tables or 60, it comes in pages (newest
first, a `Link` to the next page), and one person hosts at most OPEN_PUBLIC_TABLES_PER_USER open public
tables (private ones are not counted)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient
from site_helpers import client_for

from games.tables import commands

pytestmark = pytest.mark.django_db


def _fill(make_user: Any, hosts: int) -> None:
    for _ in range(hosts):
        host = make_user()
        for _ in range(3):
            table = commands.create_table(host)
        guest = make_user()
        commands.join_table(guest, table.pk)  # people seated at some: their names are listed too
    commands.create_table(make_user(), visibility="private")  # never listed for strangers


def _queries(client: APIClient, url: str, django_assert_max_num_queries: Any, limit: int) -> list[Any]:
    with django_assert_max_num_queries(limit) as ctx:
        r = client.get(url)
    assert r.status_code == 200, r.content
    return [r.json(), r.get("Link"), len(ctx.captured_queries)]


def test_the_list_costs_a_fixed_number_of_queries(make_user: Any, django_assert_max_num_queries: Any) -> None:
    viewer = client_for(make_user("viewer"))
    _fill(make_user, 1)
    few, _, small = _queries(viewer, "/api/tables/", django_assert_max_num_queries, 12)
    _fill(make_user, 19)
    many, _, large = _queries(viewer, "/api/tables/", django_assert_max_num_queries, 12)
    assert len(few) == 3 and len(many) == 50
    assert large == small  # the same queries, however many tables


def test_pages_newest_first_with_a_link_to_the_next(make_user: Any) -> None:
    viewer = client_for(make_user("viewer"))
    _fill(make_user, 4)  # 12 public tables
    first = viewer.get("/api/tables/?limit=5")
    ids = [t["id"] for t in first.json()]
    assert len(ids) == 5 and ids == sorted(ids, reverse=True)
    link = first["Link"]
    assert link == f'</api/tables/?limit=5&before={ids[-1]}>; rel="next"'
    seen = list(ids)
    url = link[1:link.index(">")]
    while url:
        r = viewer.get(url)
        page = [t["id"] for t in r.json()]
        assert not set(page) & set(seen)
        seen += page
        link = r.get("Link")
        url = link[1:link.index(">")] if link else ""
    assert len(seen) == 12
    for bad in ("limit=0", "limit=101", "limit=x", "before=-1", "before=%C2%B2"):
        r = viewer.get(f"/api/tables/?{bad}")
        assert r.status_code == 400 and r.json()["code"] == "invalid", bad


def test_one_person_hosts_a_few_open_public_tables(make_user: Any, settings: Any) -> None:
    settings.OPEN_PUBLIC_TABLES_PER_USER = 2
    host = make_user("host")
    api = client_for(host)
    body = {"visibility": "public", "move_seconds": 86400}
    first = api.post("/api/tables/", body, format="json").json()
    assert api.post("/api/tables/", body, format="json").status_code == 201
    r = api.post("/api/tables/", body, format="json")
    assert r.status_code == 409 and r.json()["code"] == "too_many_tables" and r.json()["limit"] == 2
    assert api.post("/api/tables/", {**body, "visibility": "private"}, format="json").status_code == 201
    assert api.post(f"/api/tables/{first['id']}/leave/", {}, format="json").status_code == 200  # closes it
    assert api.post("/api/tables/", body, format="json").status_code == 201


def test_one_person_hosts_a_few_open_private_tables(make_user: Any, settings: Any) -> None:
    settings.OPEN_PRIVATE_TABLES_PER_USER = 2
    api = client_for(make_user("host"))
    body = {"visibility": "private", "move_seconds": 60, "rated": False}
    assert api.post("/api/tables/", body, format="json").status_code == 201
    second = api.post("/api/tables/", body, format="json").json()
    r = api.post("/api/tables/", body, format="json")
    assert r.status_code == 409 and r.json()["code"] == "too_many_tables" and r.json()["limit"] == 2
    assert api.post("/api/tables/", {**body, "visibility": "public", "rated": True}, format="json").status_code == 201
    # a started one no longer counts
    assert api.post(f"/api/tables/{second['id']}/bots/", {"bot": "random"}, format="json").status_code == 200
    assert api.post(f"/api/tables/{second['id']}/start/").status_code == 201
    assert api.post("/api/tables/", body, format="json").status_code == 201
