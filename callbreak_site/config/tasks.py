"""Background work: Celery (broker, workers, queues), where and when bot moves run, and beat's schedule."""

from __future__ import annotations

import os
from typing import Any

from .data import REDIS_URL
from .env import env_bool, env_float, env_int, env_str

CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL or "memory://")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Worker processes (WORKER_CONCURRENCY; default four per CPU): a bot move of the usual levels spends most of
# its time waiting on PostgreSQL and Redis, so two processes on two CPUs left the CPUs idle while matches
# queued for a turn (docs/performance.md). The analysis queue's worker is CPU-bound and sets its own.
CELERY_WORKER_CONCURRENCY = env_int("WORKER_CONCURRENCY", 4 * (os.cpu_count() or 1))
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker or beat that lost Redis retries for as long as it is away (Celery's default gives up after 100 tries,
# about 45 minutes, and the process exits).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Tasks running when the connection drops finish their work: their ack is lost and the task comes again, which
# every task tolerates (a bot move plays once, a push is sent once); cancelling would throw the work away.
# Explicit, as Celery 6 turns it on by default.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# Celery's Django fix-up closes every database connection before and after each task, and in a prefork
# worker with a connection pool it closes the whole pool: each bot move opened a new PostgreSQL session
# (about 35 a second under a crowd, each a backend process to start). With DB_REUSE_MAX it does so only
# every that many tasks; a connection that broke is still dropped before the next task (callbreak_site/celery.py).
# Celery reads it as ``app.conf.CELERY_DB_REUSE_MAX`` from these settings.
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 1000)
# The queues /metrics reports the depth of (callbreak_queue_depth): the default one, the analyses', the pushes'.
CELERY_QUEUES_WATCHED = ["celery", "analysis", "push"]

# --- Bot moves: where and when they run (the table in games/matches/botturns/ways.py) ----------
# Pause before a queued bot move (real worker only; eager mode never sleeps inside a request).
BOT_DELAY_SECONDS = env_float("BOT_DELAY_SECONDS", 0.0)
# Consecutive bot moves shorter than this in all are played and committed together (games.matches.commands).
BOT_CHAIN_SECONDS = env_float("BOT_CHAIN_SECONDS", 0.05)
# Quick bots (easy, normal) answer a person's move on this many threads of the web process that committed it
# (games/matches/botturns/lane.py), not through a worker; 0 sends every bot move to the workers.
BOT_LANE_THREADS = env_int("BOT_LANE_THREADS", 2)
# A bot move not played this many seconds after the write that made it due (past BOT_DELAY_SECONDS) is owed: its
# web process died before its bot lane played it, or its task was lost with a worker or the broker.
BOT_OWED_SECONDS = env_float("BOT_OWED_SECONDS", 3.0)
BOT_SWEEP_SECONDS = env_float("BOT_SWEEP_SECONDS", 5.0)

# --- Beat ---------------------------------------------------------------------------------------
# One beat for the site: a beat holds a lease in the broker's Redis for this long, renewed every third of it; a
# second beat refuses to run while the lease is held, so a standby takes over within this long of the holder's
# death (callbreak_site/beatlock.py). 0 turns the lease off.
BEAT_LEASE_SECONDS = env_float("BEAT_LEASE_SECONDS", 30.0)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    # Recovery net: owed bot moves go to the workers (games.matches.botturns.tasks.resume_stalled_bot_turns): every
    # BOT_SWEEP_SECONDS those of the matches written in the last two minutes (a cheap query), every minute all.
    # A sweep the workers did not take before the next one is due is dropped (a worker that was down a while).
    "resume-stalled-bot-turns": {
        "task": "games.tasks.resume_stalled_bot_turns",
        "schedule": BOT_SWEEP_SECONDS,
        "args": (120.0,),
        "options": {"expires": BOT_SWEEP_SECONDS},
    },
    "resume-all-stalled-bot-turns": {
        "task": "games.tasks.resume_stalled_bot_turns",
        "schedule": max(60.0, BOT_SWEEP_SECONDS),
        "options": {"expires": max(60.0, BOT_SWEEP_SECONDS)},
    },
    # Correspondence and upkeep (games.tasks.sweep): expired turns get the autopilot, reminders at 1/4 time left,
    # unrated matches are rated, deactivated people's seats go to bots, stale tables expire, stale presence and
    # expired API tokens go.
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": env_float("DEADLINE_SWEEP_SECONDS", 30.0),
    },
    # Guests (Play now) idle for GUEST_IDLE_DAYS are removed (games.tasks.remove_idle_guests).
    "remove-idle-guests": {
        "task": "games.tasks.remove_idle_guests",
        "schedule": env_float("GUEST_SWEEP_SECONDS", 3600.0),
    },
    # Arenas (games.tournaments.tasks.sweep): pair every running arena, count ended matches left uncounted, close
    # the arenas whose time is up, make the scheduled ones (TOURNAMENT_SCHEDULE).
    "sweep-arenas": {
        "task": "games.tasks.sweep_arenas",
        "schedule": env_float("TOURNAMENT_SWEEP_SECONDS", 5.0),
    },
    # Quick match: seat the waiting people (the window of ratings widens, bots fill after the wait).
    "pair-quick-matches": {
        "task": "games.tasks.pair_quick_matches",
        "schedule": env_float("QUICK_MATCH_SWEEP_SECONDS", 5.0),
    },
}
