"""channels_redis's layer on a blocking connection pool, receiving each message with one command, keeping this
process's group memberships through a Redis restart.

channels_redis makes redis-py's default pool, which raises ``MaxConnectionsError`` once its connections are
all in use: one user opening 600 sockets at once got 400 HTTP 500s (each socket's ``group_add`` wanted a
connection of its own), and another user's socket failed beside them. A blocking pool of a fixed size makes
the 601st operation wait its turn (at most the pool's ``timeout``) instead; the size and the wait come from
the host's options (``max_connections``, ``timeout``; settings ``REDIS_POOL_SIZE``, ``REDIS_POOL_WAIT``).

Group memberships live only in Redis (a sorted set per group). A Redis restarted empty (``--save ""``, as caches
run) or flushed forgot them, and a socket that stayed open through it heard nothing more of its match: the bots
moved, the person's page never knew (issue 39's chaos soak; the next card came a minute later). So the layer
remembers the memberships of its own channels (``group_add``/``group_discard``), and one watcher per event loop
that has any asks Redis one cheap command every ``rejoin_interval`` seconds (``EXPIRE`` of a sentinel key it set:
gone after a restart or a flush). When the sentinel is gone, or Redis could not be reached for a while (messages
sent meanwhile are lost), it adds every remembered membership again and sends each of those channels one
``{"type": "layer.rejoined"}``, on which its consumer resyncs its client. The watcher backs off while Redis is
away, and stops when its loop has no memberships left: it runs only where sockets join groups (web processes,
never Celery workers, which only send), and never with the in-memory layer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

REJOINED = "layer.rejoined"  # the message type a consumer gets once it is back in its groups
SENTINEL_TTL = 300  # seconds: refreshed every check; a loop stalled longer only causes one spare resync
RECEIVE_BACKOFF_MAX = 1.0  # seconds between a receive's tries while Redis is away


@dataclass(eq=False)
class _Memberships:
    """One event loop's channels, the groups each is in, and the watcher keeping them in Redis."""

    sentinel: str
    ready: asyncio.Future[None]  # the sentinel is set: groups joined from now on are watched
    joined: dict[str, set[str]] = field(default_factory=dict)  # channel -> groups
    unsent: set[str] = field(default_factory=set)  # channels rejoined, not yet told
    refreshed: float = field(default_factory=time.monotonic)
    task: asyncio.Task[None] | None = None  # held here: the loop keeps only a weak reference to its tasks


class BlockingPoolChannelLayer(RedisChannelLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, rejoin_interval: float = 2.0, rejoin_backoff: float = 8.0,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rejoin_interval = rejoin_interval  # seconds between the watcher's checks
        self.rejoin_backoff = rejoin_backoff  # the longest pause between checks while Redis is away
        self._memberships: dict[asyncio.AbstractEventLoop, _Memberships] = {}
        self._receive_failures = 0
        self._pop: asyncio.Task[Any] | None = None  # this process's pop, while a socket waits on it (or none does)

    async def receive_single(self, channel: str) -> Any:
        """The next message of this process's channels, popped by a task of its own.

        channels_redis pops in the ``receive()`` of whichever socket holds its receive lock. A socket closing (every
        match's end) cancels that receive, and with no backup queue a message Redis had already popped for another
        socket of the process was lost: that person's page waited for a bot's card that never came (the cluster
        bench at think time 0: one or two of ten people stalled a run). The pop now outlives the socket that
        started it: the next receive takes it over (still one pop at a time, in order), and one that ends while
        no socket waits puts its message in the receive buffer, as a receive would."""
        if "!" not in channel:
            return await super().receive_single(channel)
        if self._pop is None:
            self._pop = asyncio.ensure_future(super().receive_single(channel))
        pop = self._pop
        pop.remove_done_callback(self._orphaned)  # taken over: its message comes back here, not through the buffer
        try:
            result = await asyncio.shield(pop)
        except asyncio.CancelledError:
            if pop.done():  # it ended as this receive was cancelled: deliver it here
                self._pop = None
                self._buffer(pop)
            else:  # still waiting: the next receive takes it over, or it delivers itself if none comes
                pop.add_done_callback(self._orphaned)
            raise
        finally:
            if pop.done() and self._pop is pop:
                self._pop = None
        return result

    def _orphaned(self, pop: asyncio.Task[Any]) -> None:
        """A pop whose socket was cancelled ended: deliver it unless a later receive took it over."""
        if self._pop is pop:
            self._pop = None
            self._buffer(pop)

    def _buffer(self, pop: asyncio.Task[Any]) -> None:
        if pop.cancelled() or pop.exception() is not None:
            return
        message_channel, message = pop.result()
        for name in message_channel if isinstance(message_channel, list) else [message_channel]:
            with contextlib.suppress(asyncio.QueueFull):
                self.receive_buffer[name].put_nowait(message)

    def create_pool(self, index: int) -> Any:
        host = dict(self.hosts[index])
        return BlockingConnectionPool.from_url(host.pop("address"), **host)

    # A message is popped once, without channels_redis's backup queue. The backup (a cleanup script before each
    # wait, a ZADD after each message and a ZPOPMIN once it is handled: four commands a message instead of one)
    # keeps a message whose receive was cancelled in the instant it arrived; it was 40% of a web process's event
    # loop under a crowd (py-spy --gil). Such a message is rare and nothing here depends on it: a socket that
    # misses a message reads the match when the next one does not follow (games.matches.consumers), the table
    # resyncs by seq when its socket is silent, and the user socket's rows are refreshed by the next one.
    #
    # A receive that loses Redis (restarted, cut) waits for it instead of failing: the failure ended the socket
    # of whichever consumer was receiving for the process at that instant (redis-py's pool does not retry), and
    # the watcher resyncs every channel of the process once Redis answers again.

    async def _brpop_with_clean(self, index: int, channel: str, timeout: float) -> Any:
        try:
            result = await self.connection(index).bzpopmin(channel, timeout=timeout)
        except (RedisConnectionError, RedisTimeoutError, OSError) as err:
            self._receive_failures += 1
            if self._receive_failures == 1:
                log.warning("the channel layer lost Redis while receiving (%s); waiting for it", err)
            await asyncio.sleep(min(RECEIVE_BACKOFF_MAX, 0.05 * 2 ** self._receive_failures))
            return None
        self._receive_failures = 0
        return None if result is None else result[1]

    async def _clean_receive_backup(self, index: int, channel: str) -> None:
        return None

    # Group messages in one Redis command, or two when a group has members, instead of channels_redis's two or four
    # per group (drop expired members; read the members; drop each channel's expired messages; push): every write to
    # a match sends to its sockets' group, its people's groups and its watchers' (most often empty), and those round
    # trips were a sixth of a web process's CPU at think time 0 (py-spy --gil). ``group_send_many`` sends the
    # messages of several groups (one write's) in the same two. The same commands, in scripts.

    _GROUP_MEMBERS = """
        local members = {}
        for i = 1, #KEYS do
            redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, ARGV[1])
            members[i] = redis.call('ZRANGE', KEYS[i], 0, -1)
        end
        return members
    """
    _GROUP_PUSH = """
        local n = #KEYS
        local now, expiry, cutoff = ARGV[2 * n + 1], ARGV[2 * n + 2], ARGV[2 * n + 3]
        local over = 0
        for i = 1, n do
            redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, cutoff)
            if redis.call('ZCOUNT', KEYS[i], '-inf', '+inf') < tonumber(ARGV[n + i]) then
                redis.call('ZADD', KEYS[i], now, ARGV[i])
                redis.call('EXPIRE', KEYS[i], expiry)
            else
                over = over + 1
            end
        end
        return over
    """

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every channel of ``group``, as channels_redis does (its expiries, capacities and
        per-process channel keys), in one script per Redis host, two when the group has members."""
        await self.group_send_many([(group, message)])

    async def group_send_many(self, sends: list[tuple[str, dict[str, Any]]]) -> None:
        """Each ``(group, message)`` of ``sends`` as ``group_send`` would, all in two scripts per Redis host (one
        when no group has members); a channel in several groups gets each of their messages, in their order."""
        for group, _ in sends:
            assert self.require_valid_group_name(group), "Group name not valid"
        by_host: dict[int, list[int]] = {}
        for i, (group, _) in enumerate(sends):
            by_host.setdefault(self.consistent_hash(group), []).append(i)
        members: list[list[str]] = [[] for _ in sends]
        for index, which in by_host.items():
            found = await self.connection(index).eval(self._GROUP_MEMBERS, len(which),
                                                      *(self._group_key(sends[i][0]) for i in which),
                                                      int(time.time()) - self.group_expiry)
            for i, names in zip(which, found, strict=True):
                members[i] = [name.decode("utf8") for name in names]
        pushes: dict[int, list[tuple[bytes, bytes, int]]] = {}  # host -> (channel key, message, capacity)
        for (_, message), names in zip(sends, members, strict=True):
            if names:
                keys_by_host, messages, capacities = self._map_channel_keys_to_connection(names, message)
                for index, keys in keys_by_host.items():
                    pushes.setdefault(index, []).extend((key, messages[key], capacities[key]) for key in keys)
        for index, items in pushes.items():
            over = await self.connection(index).eval(
                self._GROUP_PUSH, len(items), *(key for key, _, _ in items), *(msg for _, msg, _ in items),
                *(cap for _, _, cap in items), time.time(), self.expiry, int(time.time()) - int(self.expiry))
            if over:
                log.info("%s of %s channel messages over capacity (groups %s)", over, len(items),
                         ", ".join(group for group, _ in sends))

    # --- group memberships, kept through a Redis restart ---------------------------------------------------

    async def group_add(self, group: str, channel: str) -> None:
        """Join as channels_redis does, remembered (before the first await, so the watcher sees it) and watched."""
        memberships = self._watched()
        memberships.joined.setdefault(channel, set()).add(group)
        try:
            await asyncio.shield(memberships.ready)
            await super().group_add(group, channel)
        except BaseException:
            self._forget(memberships, group, channel)
            raise

    async def group_discard(self, group: str, channel: str) -> None:
        """Leave, forgotten first: a channel that left every group is no longer watched (its consumer is gone)."""
        memberships = self._memberships.get(asyncio.get_running_loop())
        if memberships is not None:
            self._forget(memberships, group, channel)
        await super().group_discard(group, channel)

    def remembered(self) -> dict[str, set[str]]:
        """This event loop's channels and their groups, as the layer will restore them."""
        memberships = self._memberships.get(asyncio.get_running_loop())
        return {} if memberships is None else {c: set(g) for c, g in memberships.joined.items()}

    @staticmethod
    def _forget(memberships: _Memberships, group: str, channel: str) -> None:
        groups = memberships.joined.get(channel)
        if groups is not None:
            groups.discard(group)
            if not groups:
                del memberships.joined[channel]
                memberships.unsent.discard(channel)

    def _watched(self) -> _Memberships:
        """The running loop's memberships, its watcher started with the first of them."""
        loop = asyncio.get_running_loop()
        memberships = self._memberships.get(loop)
        if memberships is None:
            memberships = _Memberships(sentinel=f"{self.prefix}:alive:{self.client_prefix}:{uuid.uuid4().hex}",
                                       ready=loop.create_future())
            # a failure is raised in the group_adds waiting; retrieved here too, in case they were all cancelled
            memberships.ready.add_done_callback(lambda ready: ready.cancelled() or ready.exception())
            self._memberships[loop] = memberships
            memberships.task = loop.create_task(self._watch(loop, memberships), name="channel layer: rejoin watcher")
        return memberships

    async def _watch(self, loop: asyncio.AbstractEventLoop, memberships: _Memberships) -> None:
        """Check Redis every ``rejoin_interval`` while this loop has memberships; restore them when Redis lost
        them or was away. Never raises: Redis away is retried with a doubling pause (up to ``rejoin_backoff``)."""
        try:
            try:
                await self._mark(memberships.sentinel, range(self.ring_size))
            except Exception as err:  # Redis away: the group_add waiting fails as its ZADD would; the next retries
                memberships.ready.set_exception(err)
                return
            memberships.ready.set_result(None)
            delay, failures = self.rejoin_interval, 0
            while memberships.joined:
                await asyncio.sleep(delay)
                if not memberships.joined:
                    break
                try:
                    await self._check(memberships, failures > 0)
                except Exception as err:
                    failures += 1
                    if failures == 1:
                        log.warning("the channel layer cannot reach Redis (%s); its groups are restored once it "
                                    "answers", err)
                    # soon after the first failure (often one dead pooled connection), then less and less often
                    delay = min(self.rejoin_interval * 2 ** (failures - 2), self.rejoin_backoff)
                    continue
                if failures:
                    log.warning("the channel layer reaches Redis again")
                delay, failures = self.rejoin_interval, 0
        finally:
            if not memberships.ready.done():
                memberships.ready.cancel()
            if self._memberships.get(loop) is memberships:
                del self._memberships[loop]

    async def _mark(self, sentinel: str, hosts: range | list[int]) -> None:
        for index in hosts:
            await self.connection(index).set(sentinel, 1, ex=SENTINEL_TTL)

    async def _check(self, memberships: _Memberships, was_away: bool) -> None:
        """One EXPIRE per Redis host: 0 when the sentinel is gone (restarted, flushed). Memberships are also
        added again, unannounced, every quarter of ``group_expiry`` (channels_redis drops older ones)."""
        lost = [index for index in range(self.ring_size)
                if was_away or not await self.connection(index).expire(memberships.sentinel, SENTINEL_TTL)]
        if lost:
            told = await self._rejoin(memberships, lost)
            memberships.unsent |= told
            log.warning("the channel layer %s: %d memberships of %d channels added again",
                        "was away from Redis" if was_away else "found Redis emptied (restarted or flushed)",
                        sum(len(g) for g in memberships.joined.values()), len(told))
        elif time.monotonic() - memberships.refreshed > self.group_expiry / 4:
            await self._rejoin(memberships, list(range(self.ring_size)))
        if memberships.unsent:
            await self._tell(memberships)

    async def _rejoin(self, memberships: _Memberships, hosts: list[int]) -> set[str]:
        """Add every remembered membership on ``hosts`` again, with the sentinel in the same transaction (so a
        restart in between is seen next time); the channels concerned."""
        snapshot = {channel: set(groups) for channel, groups in memberships.joined.items()}
        memberships.refreshed = time.monotonic()
        concerned: set[str] = set()
        for index in hosts:
            pipe = self.connection(index).pipeline(transaction=True)
            now = time.time()
            for channel, groups in snapshot.items():
                for group in groups:
                    if self.consistent_hash(group) == index:
                        key = self._group_key(group)
                        pipe.zadd(key, {channel: now})
                        pipe.expire(key, self.group_expiry)
                        concerned.add(channel)
            pipe.set(memberships.sentinel, 1, ex=SENTINEL_TTL)
            await pipe.execute()
        for channel, groups in snapshot.items():  # left while this ran: out again
            for group in groups - memberships.joined.get(channel, set()):
                await super().group_discard(group, channel)
        return concerned

    async def _tell(self, memberships: _Memberships) -> None:
        """One ``layer.rejoined`` to each channel rejoined and still here; a failure leaves the rest for the
        next check."""
        for channel in list(memberships.unsent):
            if channel in memberships.joined:
                with contextlib.suppress(ChannelFull):  # its consumer is not reading: it will not resync either
                    await self.send(channel, {"type": REJOINED})
            memberships.unsent.discard(channel)
