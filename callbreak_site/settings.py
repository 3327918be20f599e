"""Settings (``DJANGO_SETTINGS_MODULE``): the topics of callbreak_site/config/, gathered here (each imports the
topics it builds on, so their order here does not matter).

Every value comes from the environment, read in one place (``config/env.py``). Nothing set gives the embedded
mode: SQLite file, in-memory channel layer and Celery tasks run eagerly in-process, so ``make run`` needs no
services. ``DATABASE_URL`` switches to PostgreSQL and ``REDIS_URL`` to channels_redis plus a Redis broker for a
real ``celery worker``.

- ``framework``: Django, apps, middleware, templates, the API framework, languages, static files, mail
- ``security``: secret key, hosts, HTTPS, cookies, CSP, passwords, API tokens, the log-in lockout
- ``data``: the database and its pool, Redis for the channel layer, the cache
- ``tasks``: Celery, its queues, where bot moves run, beat's schedule
- ``limits``: bounded input, rate limits, sockets per account, emotes
- ``game``: product rules (bots, guests, quick match, the live pace, tables, push, analyses)
- ``operations``: logs, /metrics, request threads
"""

import django_stubs_ext

from .config.data import *  # noqa: F403
from .config.framework import *  # noqa: F403
from .config.game import *  # noqa: F403
from .config.limits import *  # noqa: F403
from .config.operations import *  # noqa: F403
from .config.security import *  # noqa: F403
from .config.tasks import *  # noqa: F403

# Lets classes such as ``admin.ModelAdmin[Match]`` be subscripted at run time, as the type checker wants.
django_stubs_ext.monkeypatch()

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    # A pool's retries at most 0.2 s apart: one whose connections all died recovers within a second of the
    # database's return, not after psycopg_pool's doubling waits (callbreak_site/dbpool.py).
    from .dbpool import steady_retries

    steady_retries()
