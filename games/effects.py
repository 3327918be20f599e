"""After-commit effects: everything a write sets off, sent only once its transaction has committed.

Commands call these inside their transaction; each registers a ``transaction.on_commit`` hook. Hooks are
``robust``: the write is committed whatever happens here, and a lost socket message or task is recovered
(clients resync by ``seq``, beat's sweeps find stalled bot turns, due deadlines and unrated matches).

This is the one place that sends group messages and Celery tasks and calls ``games.players.notices``.
Tasks are sent by their registered name: ``games.tasks`` sits above the commands that call this module,
so importing it here would close an import circle.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from celery import current_app
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections, transaction

import engine

from .groups import CLOSE_MESSAGE, LOBBY_GROUP, match_group, user_group
from .matches import reads as match_reads
from .matches.models import Match
from .players import notices
from .players.models import Notice
from .tables import reads as table_reads

log = logging.getLogger(__name__)

BOT_MOVE = "games.tasks.bot_move"
EXPIRE_TURN = "games.tasks.expire_turn"
REMIND_TURN = "games.tasks.remind_turn"
RATE_MATCH = "games.tasks.rate_match"
SEND_NOTICE_EMAIL = "games.tasks.send_notice_email"
# On their own queue ("analysis"), consumed by workers of their own: a review never delays a bot's move.
ANALYSIS_QUEUE = "analysis"
START_ANALYSES = "games.tasks.start_analyses"
ANALYZE_SEAT = "games.tasks.analyze_seat"

# Timers for short (live) turns only: beat's sweep handles the rest, and a broker may redeliver a
# far-future ETA task many times (harmless, as the tasks check seq and the deadline, but wasteful).
TIMER_MAX_SECONDS = 3600

_local = threading.local()


def _on_commit(func: Callable[[], None]) -> None:
    transaction.on_commit(func, robust=True)


def send_task(name: str, *args: Any, **options: Any) -> None:
    """Send a task by name (in eager mode, e.g. ``make run`` and tests, it runs at once in-process)."""
    task = current_app.tasks[name]
    if options and not settings.CELERY_TASK_ALWAYS_EAGER:
        task.apply_async(args, **options)
    else:
        task.delay(*args)


class _SenderLoop:
    """An event loop of its own, in a thread, for group messages sent from plain sync code.

    ``async_to_sync`` outside an ASGI server (a Celery worker) makes a new event loop per call, and
    channels_redis keeps its connections per loop: every message would open and close Redis
    connections (tens of ms under load, most of a bot move). In a web process, a request thread's
    message sent on the server's loop waited behind every socket of the process (15% of a request's time
    under the crowd benchmark). So workers (``callbreak_site.celery``) and web processes on Redis
    (``callbreak_site.asgi``) turn this on; the in-memory layer of ``make run`` stays on the server's loop,
    as its queues belong to it.
    """

    def __init__(self) -> None:
        self.enabled = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0
        self._lock = threading.Lock()

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid():  # a forked child starts its own
                self._loop = asyncio.new_event_loop()
                self._pid = os.getpid()
                threading.Thread(target=self._loop.run_forever, name="group-sender", daemon=True).start()
            return self._loop


_SENDER = _SenderLoop()


def use_sender_loop() -> None:
    _SENDER.enabled = True


def _group_send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if _SENDER.enabled:
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _SENDER.loop()).result(timeout=10)
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception:  # a lost message is recovered by the page refetching; never fail a write
        log.exception("could not send to group %s", group)


# --- accounts -------------------------------------------------------------------------------------

def close_sockets(group: str, reason: str) -> None:
    """Once committed, close every open socket in ``group`` (an account, an API token, a session; see
    ``games.groups``); ``reason`` goes to the log. A socket that misses it closes at its next re-check."""
    _on_commit(lambda: _group_send(group, {"type": CLOSE_MESSAGE, "reason": reason}))


# --- matches --------------------------------------------------------------------------------------

def notify_match(match_id: int, seq: int, event: str = "match.updated", public: dict[str, Any] | None = None) -> None:
    """Group message with ids, ``seq`` and what the whole table may see; each consumer builds its own
    seat's view, so a hand never travels through the channel layer.

    ``match.updated``: new actions made ``seq``; ``public`` holds them (``since``, ``actions``: the bids
    and cards played, which every seat sees) and the turn's ``deadline``, so a consumer that holds the
    state at ``since`` or later applies them without reading the database. ``match.changed``: same
    ``seq``, but something else in the views changed (a seat handed to a bot, the match aborted), so
    consumers read the match again.
    """
    _group_send(match_group(match_id), {"type": event, "match_id": match_id, "seq": seq, **(public or {})})


def enqueue_bot_move(match_id: int, seq: int) -> None:
    """Have the bot move due at ``seq`` played: by the bot chain running in this thread if there is
    one (see ``bot_chain``), else by a new ``bot_move`` task (run at once in eager mode)."""
    pending = getattr(_local, "pending", None)
    if pending is not None:
        pending.append((match_id, seq))
        return
    task = current_app.tasks[BOT_MOVE]
    if settings.CELERY_TASK_ALWAYS_EAGER:
        task.apply(args=(match_id, seq), throw=True)
        return
    delay = settings.BOT_DELAY_SECONDS
    task.apply_async((match_id, seq), countdown=delay if delay > 0 else None)


def bot_chain(play: Callable[[int, int], int], match_id: int, seq: int) -> int:
    """Play the bot move due at ``seq`` and then every bot move it leads to, in this thread; returns
    how many were played.

    ``play`` plays the moves due, as many as fit in one short transaction (quick bots: all of them up to
    a person's turn), and the effects of its commit queue the next move here if a bot is still to act:
    consecutive bot turns cost no trip through the broker (a person's card is answered in the time the
    bots take to decide). With ``BOT_DELAY_SECONDS`` a real worker sends each move as a task with that
    pause instead. In eager mode this also keeps a whole bot-only match off the stack: the moves run as
    a loop, not as tasks nested in each other's on-commit hooks.
    """
    if getattr(_local, "pending", None) is not None:  # already inside a chain: just queue it
        _local.pending.append((match_id, seq))
        return 0
    chaining = settings.CELERY_TASK_ALWAYS_EAGER or settings.BOT_DELAY_SECONDS <= 0
    _local.pending = deque() if chaining else None
    played = 0
    try:
        played += play(match_id, seq)
        while _local.pending:
            played += play(*_local.pending.popleft())
    finally:
        _local.pending = None
    return played


def match_advanced(match: Match, state: engine.MatchState, since: int | None = None) -> None:
    """The match began or its log grew from ``since`` actions to ``state``. Once committed: tell its
    sockets (with the new actions), send the bot move if a bot is to act, then (timed or rated matches)
    the your-turn notice, timers and rating."""
    match_id, seq = match.pk, state.version
    bot_to_act = not state.is_finished and match_reads.bot_is_to_act(match, state.turn)
    timed_or_rated = bool(match.move_seconds or match.rated)
    finished = state.is_finished
    summaries = _summaries(match)
    since = seq if since is None else since
    public: dict[str, Any] = {"since": since, "actions": [action.to_json() for action in state.actions[since:]],
              "deadline": match.deadline.isoformat() if match.deadline else None}

    def run() -> None:
        match_reads.remember_state(match, state)  # committed: the next read of this match starts here
        notify_match(match_id, seq, public=public)
        _send_summaries(summaries)
        if bot_to_act:
            enqueue_bot_move(match_id, seq)
        if timed_or_rated:
            _turn_started(match_id, seq)
        if finished:
            _send_analysis_task(START_ANALYSES, match_id)

    _on_commit(run)


def _summaries(match: Match) -> list[tuple[int, dict[str, Any]]]:
    """Each person's row of "My matches" for ``match`` as it stands (built now, sent on commit)."""
    return [(seat.user_id, match_reads.match_summary(match, seat.index))
            for seat in match_reads.seats_of(match) if seat.user_id is not None]


def _send_summaries(summaries: list[tuple[int, dict[str, Any]]]) -> None:
    """To every open tab of each person at the match: its new row of "My matches" (whose turn, time left)."""
    for user_id, summary in summaries:
        send_to_user(user_id, {"type": "match", "match": summary})


def seats_changed(match: Match, *, bot_to_act: bool) -> None:
    """Same ``seq``, other views: a seat went to a bot, the match was aborted or rated. Once committed:
    tell the match's sockets to resend, and send the bot move if the seat handed over is to act."""
    match_id, seq = match.pk, match.seq
    summaries = _summaries(match)

    def run() -> None:
        notify_match(match_id, seq, event="match.changed")
        _send_summaries(summaries)
        if bot_to_act:
            enqueue_bot_move(match_id, seq)

    _on_commit(run)


def _turn_started(match_id: int, seq: int) -> None:
    """After a committed action of a timed or rated match: rate it if it finished, else tell the person
    whose turn it is and set the turn's timers."""
    match = match_reads.match_with_seats(match_id)
    if match is None or match.seq != seq:
        return
    if match.status == Match.Status.FINISHED:
        if match.rated and match.rated_at is None:
            send_task(RATE_MATCH, match_id)
        return
    if match.status != Match.Status.ACTIVE or match.deadline is None or match.turn is None:
        return
    seat = match_reads.seats_of(match)[match.turn]
    if seat.user_id is None or seat.played_by_bot:
        return
    deliver_notice(seat.user_id, match_id, seq, Notice.Kind.YOUR_TURN)
    if not settings.CELERY_TASK_ALWAYS_EAGER and (match.move_seconds or 0) <= TIMER_MAX_SECONDS:
        send_task(EXPIRE_TURN, match_id, seq, eta=match.deadline)
        if match.remind_at:
            send_task(REMIND_TURN, match_id, seq, eta=match.remind_at)


# --- analyses -------------------------------------------------------------------------------------

def _send_analysis_task(name: str, *args: Any) -> None:
    """A review task. With a broker it goes to the analysis queue. In eager mode, queueing runs at once,
    but a review would hold the request that finished the match for a minute, so it runs in a
    background thread (``ANALYSIS_EAGER=thread``, the default: ``make run``), or, with ``off``, not
    until the task is run by hand (the site tests run it themselves)."""
    task = current_app.tasks[name]
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        task.apply_async(args, queue=ANALYSIS_QUEUE)
    elif name != ANALYZE_SEAT:
        task.apply(args=args, throw=True)
    elif _analysis_eager() == "thread":
        threading.Thread(target=_run_in_thread, args=(task, args), daemon=True).start()


def _analysis_eager() -> str:
    """``ANALYSIS_EAGER`` (settings, then the environment): ``thread`` by default, ``off`` in the tests."""
    return str(getattr(settings, "ANALYSIS_EAGER", None) or os.environ.get("ANALYSIS_EAGER") or "thread")


def _run_in_thread(task: Any, args: tuple[Any, ...]) -> None:
    try:
        task.apply(args=args)
    finally:
        connections.close_all()


def analysis_queued(analysis_id: int) -> None:
    """Once committed: compute the analysis."""
    _on_commit(lambda: _send_analysis_task(ANALYZE_SEAT, analysis_id))


def analysis_progress(match: Match, seat: int, done: int, total: int, status: str) -> None:
    """To the people of the match (who may see its replay and its analyses): how far the review of
    ``seat`` is, so the replay page shows its progress and loads it when done."""
    payload = {"type": "analysis", "match_id": match.pk, "seat": seat, "done": done, "total": total,
               "status": status}
    for player in match_reads.seats_of(match):
        if player.user_id is not None:
            send_to_user(player.user_id, payload)


# --- people ---------------------------------------------------------------------------------------

def send_to_user(user_id: int, payload: dict[str, Any]) -> None:
    """To every open tab of the user (ids, kinds and times only: never a hand)."""
    _group_send(user_group(user_id), {"type": "user.notice", "payload": payload})


def deliver_notice(user_id: int, match_id: int, seq: int, kind: str) -> Notice | None:
    """Record one notice, show it in the user's open tabs, and email it unless the user is on the
    match page or does not want email. Does nothing if it was already sent."""
    record = notices.record(user_id, match_id, seq, kind)
    if record is None:
        return None
    obj, payload = record
    send_to_user(user_id, payload)
    if notices.should_email(user_id, match_id):
        send_task(SEND_NOTICE_EMAIL, obj.pk)
    return obj


def notice(user_id: int, match_id: int, seq: int, kind: str) -> None:
    """``deliver_notice`` once the current transaction has committed."""

    def run() -> None:
        deliver_notice(user_id, match_id, seq, kind)

    _on_commit(run)


# --- tables ---------------------------------------------------------------------------------------

def table_changed(table_id: int, extra_user_ids: tuple[int, ...] = ()) -> None:
    """Once committed, tell lobby listeners: everyone for a public table; a private one only its members
    (and ``extra_user_ids``, e.g. someone who just left), so its existence is not broadcast."""

    def run() -> None:
        audience = table_reads.audience(table_id)
        if audience is None:
            return
        message = {"type": "lobby.updated", "table_id": table_id}
        if audience == "public":
            _group_send(LOBBY_GROUP, message)
            return
        for user_id in sorted(set(audience) | set(extra_user_ids)):
            _group_send(user_group(user_id), message)

    _on_commit(run)
