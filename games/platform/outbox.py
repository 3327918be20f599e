"""The outbox: how work leaves a write, and the one module that sends anything.

A command that changed something ``emit``s an event (a frozen dataclass, defined by its concept in
``<concept>/events.py``). The event waits for the transaction to commit; then every reaction registered for
its type runs, in the order registered: ``games.reactions``, at the top, registers each concept's reactions
(functions in ``<concept>/reactions.py``). A rolled-back write emits nothing. Reactions are ``robust``: the
write is committed whatever happens to them, and what they lose is recovered (clients resync by ``seq``,
beat's sweeps find stalled bot turns, due deadlines and unrated matches).

Names say when: ``emit`` runs its reactions *after the commit*; ``group_send_now`` and ``task_now`` send
*now* (reactions call them, and so do code paths outside any transaction, such as an analysis's progress).
This module knows no concept: it carries events, group messages and tasks, nothing else.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connections, transaction
from redis.exceptions import ConnectionError as RedisConnectionError

log = logging.getLogger(__name__)


class Event:
    """Base of every event: a frozen dataclass of ids and values (never a hand of cards)."""


E = TypeVar("E", bound=Event)
Reaction = Callable[[Any], None]

_REACTIONS: dict[type[Event], list[Reaction]] = defaultdict(list)


def register(event_type: type[E], *reactions: Callable[[E], None]) -> None:
    """Run ``reactions``, in this order, after the commit of every write that emits ``event_type``."""
    for func in reactions:
        if func not in _REACTIONS[event_type]:
            _REACTIONS[event_type].append(func)


def reactions_to(event_type: type[Event]) -> list[Reaction]:
    """The reactions registered for ``event_type``, in order (for tests and for ``dispatch``)."""
    return list(_REACTIONS.get(event_type, ()))


def emit(event: Event) -> None:
    """Queue ``event``: its reactions run once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: dispatch(event), robust=True)


def dispatch(event: Event) -> None:
    """Run the reactions to ``event`` now. One that fails is logged and the others still run. The group messages
    they send leave together once they are done (``group_send_now``), or before a write of theirs announces its
    own (a bot move played here: its sockets' messages must follow this event's)."""
    outer = getattr(_batch, "sends", None)
    _flush_group_sends()  # an event dispatched from inside another's reactions: the outer's messages go first
    _batch.sends = []
    try:
        for func in reactions_to(type(event)):
            try:
                func(event)
            except Exception:
                log.exception("reaction %s to %s failed", getattr(func, "__qualname__", func),
                              type(event).__name__)
    finally:
        _flush_group_sends()
        _batch.sends = [] if outer is not None else None


# --- tasks ------------------------------------------------------------------------------------------

def task_now(task: Any, *args: Any, queue: str | None = None, eta: datetime | None = None,
             countdown: float | None = None, eager: str = "inline") -> None:
    """Send a Celery task now. With a broker it goes to ``queue`` (the default one if None), at ``eta`` or
    after ``countdown``. In eager mode (``make run``, tests) there is no broker and no waiting: ``eager``
    says what happens instead: ``inline`` runs it here, ``thread`` in a background thread (a long job that
    must not hold the request that set it off; after ``countdown``, a timer), ``skip`` not at all (its sweep or a
    test runs it)."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        options: dict[str, Any] = {}
        if queue:
            options["queue"] = queue
        if eta is not None:
            options["eta"] = eta
        elif countdown:
            options["countdown"] = countdown
        task.apply_async(args, **options)
    elif eager == "inline":
        task.apply(args=args, throw=True)
    elif eager == "thread":
        wait = max(countdown or 0.0, 0.0)
        thread = threading.Thread(target=_run_in_thread, args=(task, args, wait), daemon=True)
        with _eager_lock:
            _eager_threads.add(thread)
        thread.start()


# Eager background tasks still waiting or running: ``settle_eager_threads`` ends them, so a task set off by one
# piece of work (a test, a request of ``make run``) never runs into the next one's database.
_eager_threads: set[threading.Thread] = set()
_eager_lock = threading.Lock()
_eager_cancel = threading.Event()


def _run_in_thread(task: Any, args: tuple[Any, ...], wait: float = 0.0) -> None:
    try:
        if wait and _eager_cancel.wait(wait):  # a timer, as a broker's countdown would be; cancelled: not run
            return
        task.apply(args=args)
    finally:
        connections.close_all()
        with _eager_lock:
            _eager_threads.discard(threading.current_thread())


def settle_eager_threads(timeout: float = 30.0) -> int:
    """Cancel the eager tasks still waiting for their countdown and wait for the running ones to end; returns
    how many were cancelled or waited for. Tasks sent after this returns run as usual."""
    with _eager_lock:
        threads = list(_eager_threads)
    if not threads:
        return 0
    _eager_cancel.set()
    try:
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
    finally:
        _eager_cancel.clear()
    return len(threads)


# --- group messages ---------------------------------------------------------------------------------

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
    """Send group messages from sync code on a long-lived loop of their own (see ``_SenderLoop``)."""
    _SENDER.enabled = True


def _lost_connection(exc: BaseException) -> bool:
    """A connection to the channel layer's Redis that broke before the message went out. A timeout is not one:
    Redis may have taken that message, and a second wait would double a slow send."""
    return isinstance(exc, RedisConnectionError | OSError) and not isinstance(exc, TimeoutError)


async def _group_send(layer: Any, group: str, message: dict[str, Any]) -> None:
    """``layer.group_send``, once more if the connection was lost. After Redis restarted (or the network dropped)
    the pool's idle connections are dead and the first message sent on one failed, although Redis was back: a
    chat line stored and never shown (issue 39). redis-py drops the broken connection, so the second send
    goes out on a new one."""
    await _group_send_all(layer, [(group, message)])


async def _group_send_all(layer: Any, sends: list[tuple[str, dict[str, Any]]]) -> None:
    """Every ``(group, message)`` of ``sends``, in order: in one exchange with Redis where the layer can
    (``callbreak_site.channel_layer``), else one by one; all once more if the connection was lost."""
    async def send() -> None:
        if len(sends) > 1 and hasattr(layer, "group_send_many"):
            await layer.group_send_many(sends)
        else:
            for group, message in sends:
                await layer.group_send(group, message)

    try:
        await send()
    except Exception as exc:
        if not _lost_connection(exc):
            raise
        log.warning("group %s: the connection to Redis was lost (%s); sending again",
                    ", ".join(group for group, _ in sends), exc)
        await send()


# The group messages of the reactions to the event being dispatched on this thread (None outside a dispatch).
_batch = threading.local()


def group_send_now(group: str, message: dict[str, Any]) -> None:
    """Send a Channels group message now, from sync code (sent again once if its connection was lost); inside a
    dispatch, with the other reactions' messages once they are done. A lost message is logged, never raised: the
    page refetches what it missed."""
    pending = getattr(_batch, "sends", None)
    if pending is not None:
        pending.append((group, message))
        return
    _send_now([(group, message)])


def _flush_group_sends() -> None:
    pending = getattr(_batch, "sends", None)
    if pending:
        _batch.sends = []
        _send_now(pending)


def _send_now(sends: list[tuple[str, dict[str, Any]]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        if _SENDER.enabled:
            asyncio.run_coroutine_threadsafe(_group_send_all(layer, sends), _SENDER.loop()).result(timeout=10)
        else:
            async_to_sync(_group_send_all)(layer, sends)
    except Exception:
        log.exception("could not send to group %s", ", ".join(group for group, _ in sends))


async def group_send_async(layer: Any, group: str, message: dict[str, Any]) -> None:
    """The same from a consumer's own loop (a socket telling its peers); lost messages are logged."""
    try:
        await _group_send(layer, group, message)
    except Exception:
        log.exception("could not send to group %s", group)
