"""The settings module's values under a few environments, for tests/site/test_settings_by_topic.py.

``python tests/site/settings_snapshot.py`` (re)writes ``settings_snapshot.json`` beside this file. It was run
on the one-file ``callbreak_site/settings.py`` before the settings were split by topic (issue 40), so the test
proves the split kept every name, default and environment variable. Regenerate it only when a setting is
meant to change, and say so in the commit.

Each case runs in a fresh interpreter with only the case's variables set (plus PATH), ``os.cpu_count`` pinned
to 3 (some defaults follow it) and the checkout's path written as ``<BASE>``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = Path(__file__).with_name("settings_snapshot.json")

_PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "x" * 60,
    "DATABASE_URL": "postgres://callbreak:pw@db.example:5432/callbreak",
    "REDIS_URL": "redis://redis.example:6379/0",
    "ALLOWED_HOSTS": "callbreak.example",
}

# Every variable the settings read, each set away from its default (SQLITE_PATH in "embedded, all set").
_ALL_SET = {
    **_PRODUCTION,
    "CSRF_TRUSTED_ORIGINS": "https://callbreak.example,https://www.callbreak.example",
    "HTTPS": "1",
    "PROXY_SSL_HEADER": "X-Scheme",
    "SECURE_HSTS_SECONDS": "600",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "0",
    "SECURE_HSTS_PRELOAD": "0",
    "DATABASE_POOL_MAX": "5",
    "DATABASE_POOL_WAIT": "7.5",
    "DATABASE_POOL_QUEUE": "99",
    "DATABASE_PREPARE": "0",
    "REDIS_POOL_SIZE": "11",
    "REDIS_POOL_WAIT": "3.5",
    "CACHE_URL": "redis://cache.example:6379/2",
    "CACHE_RETRY_SECONDS": "9",
    "CELERY_BROKER_URL": "redis://broker.example:6379/1",
    "CELERY_TASK_ALWAYS_EAGER": "1",
    "WORKER_CONCURRENCY": "6",
    "BOT_DELAY_SECONDS": "0.5",
    "BOT_CHAIN_SECONDS": "0.2",
    "BOT_LANE_THREADS": "0",
    "BOT_OWED_SECONDS": "4",
    "BOT_SWEEP_SECONDS": "90",
    "DEADLINE_SWEEP_SECONDS": "45",
    "GUEST_SWEEP_SECONDS": "600",
    "QUICK_MATCH_SWEEP_SECONDS": "2",
    "GUEST_IDLE_DAYS": "9",
    "QUICK_MATCH_BOTS_AFTER": "11",
    "QUICK_MATCH_WINDOW": "3.5",
    "QUICK_MATCH_WINDOW_GROWTH": "0.5",
    "QUICK_MATCH_BOT_POOL_AFTER": "8",
    "BOT_LADDER_HOUSE_BOTS": " strong, ,basic",
    "LIVE_MOVE_SECONDS": "12",
    "LIVE_BANK_SECONDS": "20",
    "QUICK_MATCH_MAX_LIVE_MATCHES": "2",
    "QUICK_MATCH_EAGER_TIMER": "0",
    "QUICK_MATCH_HERE_SECONDS": "4",
    "EMOTE_LIMIT": "5",
    "EMOTE_WINDOW": "7.5",
    "AUTOPILOT_HANDOVER_AFTER": "2",
    "OPEN_PUBLIC_TABLES_PER_USER": "4",
    "BOT_MAX_ACTIVE_MATCHES": "6",
    "BOT_MOVE_SECONDS": "30",
    "BOT_EVENTS_HEARTBEAT_SECONDS": "12.5",
    "TABLE_EXPIRY_SECONDS": "3600",
    "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
    "EMAIL_HOST": "mail.example",
    "EMAIL_PORT": "587",
    "DEFAULT_FROM_EMAIL": "Call Break <cb@callbreak.example>",
    "SITE_URL": "https://callbreak.example",
    "VAPID_PUBLIC_KEY": " public-key ",
    "VAPID_PRIVATE_KEY": " private-key ",
    "VAPID_SUBJECT": " mailto:ops@callbreak.example ",
    "PUSH_ALLOW_HTTP_HOSTS": "127.0.0.1:9000",
    "PUSH_SUBSCRIPTIONS_PER_USER": "3",
    "PUSH_TIMEOUT_SECONDS": "2.5",
    "PASSWORD_HASH_SLOTS": "5",
    "PASSWORD_HASH_WAIT": "12.5",
    "API_TOKEN_TTL_DAYS": "7",
    "API_TOKENS_PER_USER": "9",
    "SOCKETS_PER_USER": "12",
    "MAX_REQUEST_BYTES": "1000",
    "BODY_DRAIN_BYTES": "2000",
    "MAX_JSON_DEPTH": "10",
    "WS_MAX_FRAME_BYTES": "2048",
    "RATE_LIMITS": "0",
    "RATE_LIMIT_SIGNUP": "1000/hour",
    "RATE_LIMIT_CHAT_REPORT": "1/s",
    "LOGIN_FAILURE_LIMIT": "4",
    "LOGIN_COOLOFF_MINUTES": "2",
    "LOGIN_LOCKOUT_BY": "ip_address,username+user_agent",
    "LOG_LEVEL": "debug",
}

CASES: dict[str, dict[str, str]] = {
    "default": {},
    "production": _PRODUCTION,
    "production, HTTPS=0": {**_PRODUCTION, "HTTPS": "0"},
    "production, all set": _ALL_SET,
    "embedded, all set": {
        **{k: v for k, v in _ALL_SET.items() if k not in {"DATABASE_URL", "REDIS_URL", "CACHE_URL"}},
        "SQLITE_PATH": "/srv/callbreak/db.sqlite3",
        "DEBUG": "1",
        "HTTPS": "",
    },
}

_PROBE = r"""
import datetime, importlib, json, os, pathlib, sys
os.cpu_count = lambda: 3
base = sys.argv[1]
module = importlib.import_module("callbreak_site.settings")

def plain(value):
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, tuple):
        return {"tuple": [plain(v) for v in value]}
    if isinstance(value, pathlib.PurePath):
        return {"path": str(value).replace(base, "<BASE>")}
    if isinstance(value, datetime.timedelta):
        return {"timedelta": value.total_seconds()}
    if isinstance(value, str):
        return value.replace(base, "<BASE>")
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return {"repr": repr(value)}

names = [n for n in dir(module) if n.isupper() and not n.startswith("_")]
print(json.dumps({n: plain(getattr(module, n)) for n in names}, sort_keys=True))
"""


def settings_under(env: dict[str, str]) -> dict[str, object]:
    """The settings module's public values, imported in a fresh interpreter with only ``env`` set."""
    clean = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT), **env}
    done = subprocess.run([sys.executable, "-c", _PROBE, str(ROOT)], cwd=ROOT, env=clean, capture_output=True,
                          text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"importing the settings failed:\n{done.stderr}")
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> None:
    snapshot = {name: settings_under(env) for name, env in CASES.items()}
    SNAPSHOT.write_text(json.dumps(snapshot, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"wrote {SNAPSHOT} ({', '.join(f'{k}: {len(v)}' for k, v in snapshot.items())} settings)")


if __name__ == "__main__":
    main()
