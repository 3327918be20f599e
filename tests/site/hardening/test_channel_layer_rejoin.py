"""The channel layer keeps its process's group memberships through a Redis restart or flush
(``callbreak_site.channel_layer``), against a ``redis-server`` of the test's own (killed and started again on
its port; the machine's Redis is never touched): it remembers what its channels joined and left, adds it all
again once Redis lost it, tells each channel concerned once (``layer.rejoined``), waits out a Redis that is away
without failing a receive or spinning, and keeps old memberships from expiring. Only a layer whose channels
joined a group watches Redis (a Celery worker only sends)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import redis

from callbreak_site.channel_layer import BlockingPoolChannelLayer
from hardening.test_worker_outage_realstack import OwnRedis, own_redis  # noqa: F401  (the fixture)

REJOINED = {"type": "layer.rejoined"}


def _layer(url: str, **config: Any) -> BlockingPoolChannelLayer:
    return BlockingPoolChannelLayer(hosts=[{"address": url}], rejoin_interval=0.1, rejoin_backoff=0.4, **config)


def _members(url: str, group: str) -> set[str]:
    return {m.decode() for m in redis.Redis.from_url(url).zrange(f"asgi:group:{group}", 0, -1)}


async def _until(check: Callable[[], bool], within: float, what: str) -> None:
    deadline = time.monotonic() + within
    while not check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


def _run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_it_remembers_what_its_channels_joined_and_forgets_what_they_left(own_redis: OwnRedis) -> None:  # noqa: F811
    layer = _layer(own_redis.url)

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        await layer.group_send("g1", {"type": "x"})
        await layer.send("specific.elsewhere!x", {"type": "x"})
        assert loop not in layer._memberships  # sending only (a worker) watches nothing

        a, b = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("g1", a)
        await layer.group_add("g2", a)
        await layer.group_add("g1", b)
        assert layer.remembered() == {a: {"g1", "g2"}, b: {"g1"}}
        watcher = layer._memberships[loop].task
        assert watcher is not None and not watcher.done()
        await layer.group_discard("g2", a)
        await layer.group_discard("g1", a)
        assert layer.remembered() == {b: {"g1"}}
        await layer.group_discard("g1", b)
        assert layer.remembered() == {}
        await _until(watcher.done, 5, "the watcher stops once no channel is in a group")
        assert loop not in layer._memberships and watcher.exception() is None
        assert _members(own_redis.url, "g1") == set()
        await layer.close_pools()

    _run(scenario)


@pytest.mark.parametrize("lose", ["restart", "flush"])
def test_memberships_lost_by_redis_are_added_again_and_their_channels_told_once(
        own_redis: OwnRedis, lose: str) -> None:  # noqa: F811
    layer = _layer(own_redis.url)

    async def scenario() -> None:
        a, b, gone = [await layer.new_channel() for _ in range(3)]
        for group, channel in (("g1", a), ("g2", a), ("g1", b), ("g1", gone)):
            await layer.group_add(group, channel)
        await layer.group_discard("g1", gone)
        waiting = asyncio.create_task(layer.receive(a))  # receiving for the process while Redis goes
        await asyncio.sleep(0.2)
        if lose == "restart":
            await asyncio.to_thread(own_redis.kill)
            await asyncio.to_thread(own_redis.start)
        else:
            redis.Redis.from_url(own_redis.url).flushdb()
        assert await asyncio.wait_for(waiting, 10) == REJOINED
        assert await asyncio.wait_for(layer.receive(b), 10) == REJOINED
        assert _members(own_redis.url, "g1") == {a, b} and _members(own_redis.url, "g2") == {a}
        await layer.group_send("g1", {"type": "after"})
        # the next message of each is the group's: told once
        assert await asyncio.wait_for(layer.receive(a), 5) == {"type": "after"}
        assert await asyncio.wait_for(layer.receive(b), 5) == {"type": "after"}
        for group, channel in (("g1", a), ("g2", a), ("g1", b)):
            await layer.group_discard(group, channel)
        await layer.close_pools()

    _run(scenario)


def test_redis_away_is_waited_out_with_a_backoff_then_everyone_is_told(own_redis: OwnRedis) -> None:  # noqa: F811
    layer = _layer(own_redis.url)
    checks: list[float] = []
    check = layer._check

    async def counted(*args: Any) -> None:
        checks.append(time.monotonic())
        await check(*args)

    layer._check = counted  # type: ignore[method-assign]

    async def scenario() -> None:
        a = await layer.new_channel()
        await layer.group_add("g1", a)
        waiting = asyncio.create_task(layer.receive(a))
        watcher = layer._memberships[asyncio.get_running_loop()].task
        assert watcher is not None
        await asyncio.to_thread(own_redis.kill)
        away = time.monotonic()
        # seven checks while away: their pauses double up to rejoin_backoff (0.05, 0.1, 0.2, 0.4, 0.4, 0.4 s) where
        # checks every 0.1 s would be 0.6 s apart in all
        await _until(lambda: len([t for t in checks if t > away]) >= 7, 20, "seven checks while Redis is away")
        first, *_, seventh = [t for t in checks if t > away][:7]
        assert seventh - first >= 1.2, seventh - first
        assert not watcher.done() and not waiting.done()
        await asyncio.to_thread(own_redis.start)
        assert await asyncio.wait_for(waiting, 10) == REJOINED
        assert _members(own_redis.url, "g1") == {a}
        await layer.group_discard("g1", a)
        await layer.close_pools()

    _run(scenario)


def test_a_membership_older_than_the_group_expiry_is_kept(own_redis: OwnRedis) -> None:  # noqa: F811
    layer = _layer(own_redis.url, group_expiry=1)
    members = redis.Redis.from_url(own_redis.url)

    async def scenario() -> None:
        a = await layer.new_channel()
        await layer.group_add("g1", a)
        added = members.zscore("asgi:group:g1", a)
        assert added is not None
        # until the first membership is older than group_expiry (channels_redis's group_send drops such members,
        # by whole seconds) and the layer has added it again since
        await _until(lambda: int(time.time()) - 1 > added and (members.zscore("asgi:group:g1", a) or 0) > added,
                     10, "the membership refreshed past the group expiry")
        await layer.group_send("g1", {"type": "still"})
        assert await asyncio.wait_for(layer.receive(a), 5) == {"type": "still"}
        await layer.group_discard("g1", a)
        await layer.close_pools()

    _run(scenario)
