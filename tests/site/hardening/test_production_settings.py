"""Production settings: with DEBUG off the deploy check is clean (HSTS, SSL redirect, secure cookies, the
proxy SSL header); HTTPS=0 turns the HTTPS-only parts off for a stack on loopback; every page carries a
Content-Security-Policy, with the admin's and the API docs' own additions; the cache follows REDIS_URL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[3]
SECRET = "s" * 20 + "E7x!kP2@qW9#zL4$mN8%rT6^yU1&iO3*"  # 50+ characters, many distinct

ENV_KEYS = {"DATABASE_URL", "REDIS_URL", "CACHE_URL", "SECRET_KEY", "DEBUG", "HTTPS", "CELERY_TASK_ALWAYS_EAGER",
            "SECURE_HSTS_SECONDS", "PROXY_SSL_HEADER"}


def _run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ENV_KEYS}
    clean.update(env, DJANGO_SETTINGS_MODULE="callbreak_site.settings")
    return subprocess.run([sys.executable, *args], env=clean, cwd=ROOT, capture_output=True, text=True, timeout=120)


def _settings(env: dict[str, str], expr: str) -> str:
    r = _run(env, "-c", f"import django; django.setup(); from django.conf import settings as s; print({expr})")
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_the_deploy_check_is_clean_with_debug_off() -> None:
    r = _run({"DEBUG": "0", "SECRET_KEY": SECRET}, "manage.py", "check", "--deploy", "--fail-level", "DEBUG")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no issues" in r.stdout, r.stdout + r.stderr


def test_https_settings_follow_debug_and_https() -> None:
    expr = ("s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS, "
            "s.SECURE_PROXY_SSL_HEADER")
    on = _settings({"DEBUG": "0", "SECRET_KEY": SECRET}, expr)
    assert on == "True True True 31536000 ('HTTP_X_FORWARDED_PROTO', 'https')"
    off = _settings({"DEBUG": "0", "SECRET_KEY": SECRET, "HTTPS": "0"}, expr)
    assert off == "False False False 0 None"
    assert _settings({}, expr) == "False False False 0 None"  # `make run`: DEBUG on, no HTTPS
    assert _settings({"DEBUG": "0", "SECRET_KEY": SECRET, "PROXY_SSL_HEADER": "X-Scheme"},
                     "s.SECURE_PROXY_SSL_HEADER") == "('HTTP_X_SCHEME', 'https')"


def test_the_cache_is_redis_when_redis_is_there_and_memory_otherwise() -> None:
    expr = "s.CACHES['default']['BACKEND'], s.CACHES['default'].get('LOCATION')"
    assert _settings({}, expr).startswith("django.core.cache.backends.locmem.LocMemCache")
    assert _settings({"REDIS_URL": "redis://cache.example:6379/3"}, expr) == (
        "callbreak_site.cache.SharedPoolRedisCache redis://cache.example:6379/3")  # one pool per process


def _policy(response: Any) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.django_db
def test_pages_have_a_strict_content_security_policy(client: Client) -> None:
    for path in ("/", "/rules/", "/accounts/login/", "/accounts/signup/", "/leaderboard/"):
        policy = _policy(client.get(path))
        assert policy["script-src"] == ["'self'"], path
        assert policy["style-src"] == ["'self'"], path
        assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
        assert policy["frame-ancestors"] == ["'none'"]
        assert "'unsafe-inline'" not in str(policy) and "'unsafe-eval'" not in str(policy)


@pytest.mark.django_db
def test_the_admin_and_the_api_docs_get_their_own_additions(client: Client) -> None:
    admin = _policy(client.get("/admin/login/"))
    assert admin["style-src"] == ["'self'", "'unsafe-inline'"] and admin["script-src"] == ["'self'"]
    docs = client.get("/api/docs/")
    policy = _policy(docs)
    assert policy["script-src"] == ["'self'"] and "'unsafe-inline'" in policy["style-src"]
    html = docs.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html and "cdn." not in html
    assert "?script=" in html  # the start-up script is a file of its own, not inline
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()
    redoc = client.get("/api/redoc/")
    policy = _policy(redoc)
    assert policy["script-src"] == ["'self'"] and policy["worker-src"] == ["'self'", "blob:"]
    assert "/static/drf_spectacular_sidecar/redoc/" in redoc.content.decode()
