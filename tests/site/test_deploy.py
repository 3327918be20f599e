"""Deployment files and environment-driven settings.

Docker cannot run here, so docker-compose.yml is parsed and each service's command is checked
against the code: the modules, the ASGI application and the Celery app it names must exist.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_has_the_services_from_one_image() -> None:
    services = compose()["services"]
    assert set(services) == {"web", "worker", "analyst", "beat", "postgres", "redis"}
    app = [services[n] for n in ("web", "worker", "analyst", "beat")]
    assert {s["build"] for s in app} == {"."}
    assert len({s["image"] for s in app}) == 1
    assert (ROOT / "Dockerfile").is_file()
    for s in app:
        env = s["environment"]
        assert env["DATABASE_URL"].startswith("postgres://") and "@postgres:" in env["DATABASE_URL"]
        assert env["REDIS_URL"].startswith("redis://redis:")
        assert env["DJANGO_SETTINGS_MODULE"] == "callbreak_site.settings"
        importlib.import_module(env["DJANGO_SETTINGS_MODULE"])


def _resolve(ref: str) -> object:
    module, _, attr = ref.partition(":")
    obj = importlib.import_module(module)
    for part in filter(None, attr.split(".")):
        obj = getattr(obj, part)
    return obj


def test_each_command_names_real_code() -> None:
    services = compose()["services"]
    web = services["web"]["command"].split("#")[0].split()
    assert web == ["bin/serve"], web  # the same server as `make serve`
    serve = (ROOT / "bin" / "serve").read_text()
    assert os.access(ROOT / "bin" / "serve", os.X_OK)
    assert "manage.py migrate" in serve and (ROOT / "manage.py").is_file()
    server = re.search(r"exec gunicorn -c (\S+) ([\w.]+:[\w.]+)", serve)
    assert server, serve
    from channels.routing import ProtocolTypeRouter

    assert isinstance(_resolve(server.group(2)), ProtocolTypeRouter)
    conf: dict[str, object] = {}
    exec((ROOT / server.group(1)).read_text(), conf)  # our own gunicorn settings file
    module, _, cls = str(conf["worker_class"]).rpartition(".")
    assert getattr(importlib.import_module(module), cls)
    assert isinstance(conf["workers"], int) and conf["workers"] >= 1
    assert "bin/serve" in (ROOT / "Makefile").read_text()
    from celery import Celery

    # the bots' worker consumes the default queue and the pushes', the analyst only the analysis queue
    worker = services["worker"]["command"].split("#")[0].split()
    assert worker[worker.index("-Q") + 1].split(",") == ["celery", "push"]
    analyst = services["analyst"]["command"].split()
    assert analyst[analyst.index("-Q") + 1] == "analysis"
    for name, sub in (("worker", "worker"), ("analyst", "worker"), ("beat", "beat")):
        cmd = services[name]["command"].split()
        assert cmd[:3] == ["celery", "-A", cmd[2]] and sub in cmd
        app = importlib.import_module(cmd[2]).celery_app
        assert isinstance(app, Celery)
    from callbreak_site.celery import app

    app.loader.import_default_modules()
    assert "games.tasks.bot_move" in app.tasks
    for entry in app.conf.beat_schedule.values():
        assert entry["task"] in app.tasks, entry
    dockerfile = (ROOT / "Dockerfile").read_text()
    cmd = re.search(r'CMD \[(.*)\]', dockerfile)
    assert cmd and '"bin/serve"' in cmd.group(1)
    # every file copied from the build context exists (a copy from a build stage, --from=, names the stage's)
    for copied in re.findall(r"^COPY (?!--from=)(\S+) ", dockerfile, re.M):
        for part in copied.split():
            assert (ROOT / part).exists(), part
    stages = re.findall(r"^FROM \S+ AS (\w+)$", dockerfile, re.M)
    assert all(used in stages for used in re.findall(r"^COPY --from=(\w+) ", dockerfile, re.M)), stages


def _settings_in_subprocess(env: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "CELERY_TASK_ALWAYS_EAGER"}}
    clean.update(env, DJANGO_SETTINGS_MODULE="callbreak_site.settings")
    return subprocess.run([sys.executable, "-c", "import django; django.setup()\n" + code],
                          env=clean, cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_embedded_default_settings() -> None:
    r = _settings_in_subprocess({}, (
        "from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.CHANNEL_LAYERS['default']['BACKEND'], "
        "s.CELERY_TASK_ALWAYS_EAGER, s.DEBUG)"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["django.db.backends.sqlite3", "channels.layers.InMemoryChannelLayer", "True", "True"]


def test_database_and_redis_urls_switch_the_stack() -> None:
    r = _settings_in_subprocess(
        {"DATABASE_URL": "postgres://u:p@db.example:5432/cb", "REDIS_URL": "redis://cache.example:6379/2",
         "SECRET_KEY": "x" * 50, "DEBUG": "0"},
        ("from django.conf import settings as s; "
         "print(s.DATABASES['default']['ENGINE'], s.DATABASES['default']['NAME'], "
         "s.CHANNEL_LAYERS['default']['BACKEND'], s.CELERY_BROKER_URL, s.CELERY_TASK_ALWAYS_EAGER, s.DEBUG)"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["django.db.backends.postgresql", "cb",
                                "callbreak_site.channel_layer.BlockingPoolChannelLayer",
                                "redis://cache.example:6379/2", "False", "False"]


def test_secret_key_is_required_without_debug() -> None:
    r = _settings_in_subprocess({"DEBUG": "0"}, "print('started')")
    assert r.returncode != 0
    assert "SECRET_KEY must be set" in r.stderr
    assert "started" not in r.stdout


def test_every_request_context_of_a_process_shares_one_redis_pool() -> None:
    """Django keeps a cache object per ASGI request context; without the shared pool each one opened its own
    Redis connection (a new TCP connection and handshake for every request's rate-limit count)."""
    r = _settings_in_subprocess(
        {"REDIS_URL": "redis://cache.example:6379/2", "SECRET_KEY": "x" * 50, "DEBUG": "0"},
        ("import asyncio; from django.core.cache import caches\n"
         "async def one():\n"
         "    c = caches['default']\n"
         "    return c, c._cache._get_connection_pool(True)\n"
         "(c1, p1), (c2, p2) = asyncio.run(one()), asyncio.run(one())\n"
         "print(type(c1).__name__, c1 is c2, p1 is p2)"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["SharedPoolRedisCache", "False", "True"]


def test_web_processes_on_redis_send_group_messages_on_a_loop_of_their_own() -> None:
    """A request's group messages waited behind every socket of the process on the server's loop; on Redis
    they leave on their own loop. The in-memory layer (``make run``) stays on the server's loop, whose
    queues it uses."""
    code = "import callbreak_site.asgi; from games.platform import outbox; print(outbox._SENDER.enabled)"
    on_redis = _settings_in_subprocess(
        {"REDIS_URL": "redis://cache.example:6379/2", "SECRET_KEY": "x" * 50, "DEBUG": "0"}, code)
    embedded = _settings_in_subprocess({}, code)
    assert on_redis.returncode == 0 and embedded.returncode == 0, on_redis.stderr + embedded.stderr
    assert (on_redis.stdout.split(), embedded.stdout.split()) == (["True"], ["False"])


def test_a_quiet_sockets_wait_for_messages_outlasts_redis_answer() -> None:
    """channels_redis waits for a socket's messages with BZPOPMIN, answered after ``brpop_timeout`` seconds
    when none came. With redis-py's default read timeout (5 s in redis-py 8) equal to that wait, a quiet
    socket's read raced its own answer and, when it lost, the socket closed (1006 at the client)."""
    r = _settings_in_subprocess(
        {"REDIS_URL": "redis://cache.example:6379/2", "SECRET_KEY": "x" * 50, "DEBUG": "0"},
        ("from channels.layers import get_channel_layer; from channels_redis.utils import create_pool\n"
         "layer = get_channel_layer(); pool = create_pool(layer.hosts[0])\n"
         "print(pool.connection_kwargs.get('socket_timeout', 'default'), layer.brpop_timeout)"))
    assert r.returncode == 0, r.stderr
    read_timeout, wait = r.stdout.split()
    assert read_timeout != "default" and float(read_timeout) >= float(wait) + 10, (read_timeout, wait)
