"""Fast checks of the page views (Django test client, no browser)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

PASSWORD = "felt-table-Q7-spades"


@pytest.mark.django_db
def test_public_pages_render_in_both_languages(client: Any) -> None:
    for path in ("/", "/rules/", "/accounts/login/", "/accounts/signup/"):
        r = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
        assert r.status_code == 200, path
        assert b'lang="en"' in r.content
        r = client.get(path, HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9")
        assert r.status_code == 200, path
        assert b'lang="zh-hans"' in r.content
        assert "规则" in r.content.decode()


@pytest.mark.django_db
def test_rules_page_carries_the_first_trick_hint(client: Any) -> None:
    zh = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    assert "首墩领非黑桃（全是黑桃除外）" in zh
    en = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "lead a non-spade unless you hold only spades" in en


@pytest.mark.django_db
def test_player_pages_need_a_login(client: Any) -> None:
    for path in ("/matches/", "/play/1/", "/replay/1/"):
        r = client.get(path)
        assert r.status_code == 302
        assert r["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_sign_up_validates_and_logs_in(client: Any) -> None:
    r = client.post("/accounts/signup/", {"username": "ann", "password1": "123", "password2": "123"})
    assert r.status_code == 200
    assert not get_user_model().objects.filter(username="ann").exists()
    assert b"field-errors" in r.content

    r = client.post(
        "/accounts/signup/",
        {"username": "ann", "email": "", "password1": PASSWORD, "password2": PASSWORD, "next": "/matches/"},
    )
    assert r.status_code == 302 and r["Location"] == "/matches/"
    assert get_user_model().objects.get(username="ann").email == ""
    assert client.get("/matches/").status_code == 200
    # an off-site next is ignored
    client.post("/accounts/logout/")
    r = client.post(
        "/accounts/signup/",
        {"username": "bea", "password1": PASSWORD, "password2": PASSWORD, "next": "https://evil.example/"},
    )
    assert r["Location"] == "/"


@pytest.mark.django_db
def test_log_in_and_log_out_by_post(client: Any) -> None:
    get_user_model().objects.create_user("cat", password=PASSWORD)
    r = client.post("/accounts/login/", {"username": "cat", "password": PASSWORD})
    assert r.status_code == 302
    page = client.get("/").content.decode()
    assert "cat" in page and 'action="/accounts/logout/"' in page
    assert client.get("/accounts/logout/").status_code == 405  # log out is a POST
    r = client.post("/accounts/logout/")
    assert r.status_code == 302
    assert client.get("/matches/").status_code == 302


@pytest.mark.django_db
def test_table_and_replay_shells(client: Any) -> None:
    get_user_model().objects.create_user("dan", password=PASSWORD)
    client.login(username="dan", password=PASSWORD)
    table = client.get("/play/7/").content.decode()
    assert 'data-match-id="7"' in table and "js/table.js" in table
    replay = client.get("/replay/7/").content.decode()
    assert 'data-match-id="7"' in replay and "js/replay.js" in replay
    assert 'id="review"' in replay and 'id="review-body"' in replay  # the review panel
    assert 'data-testid="review-link"' in table  # the end dialog's link to it


@pytest.mark.django_db
def test_javascript_catalog_has_chinese(client: Any) -> None:
    r = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="zh-CN")
    assert r.status_code == 200
    body = r.content.decode("utf-8")
    assert "轮到你叫墩" in body or "\\u8f6e\\u5230\\u4f60" in body
    assert "复盘中" in body or "\\u590d\\u76d8\\u4e2d" in body  # the review's progress
