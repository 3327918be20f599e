"""A group's message through the channel layer (``callbreak_site.channel_layer``) against a ``redis-server`` of the
test's own: every member gets it once, in one Redis command for an empty group and two for a group with members
(channels_redis sent two and four), with channels_redis's expiry of old members and its channels' capacity."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
import redis
from redis.asyncio.client import Redis as RedisClient

from callbreak_site.channel_layer import BlockingPoolChannelLayer
from hardening.test_worker_outage_realstack import OwnRedis, own_redis  # noqa: F401  (the fixture)


def _layer(url: str, **config: Any) -> BlockingPoolChannelLayer:
    return BlockingPoolChannelLayer(hosts=[{"address": url}], **config)


async def nothing_more(layer: BlockingPoolChannelLayer, channel: str, why: str, wait: float = 0.3) -> None:
    """``channel`` gets no message within ``wait`` seconds (``why`` says what one would mean)."""
    try:
        extra = await asyncio.wait_for(layer.receive(channel), wait)
    except TimeoutError:
        return
    raise AssertionError(f"{channel}: {why}: {extra}")


class Sent:
    """The commands the layer's Redis clients send (a script is one), by name."""

    def __init__(self, monkeypatch: Any) -> None:
        self.names: list[str] = []
        real = RedisClient.execute_command

        async def execute_command(client: Any, *args: Any, **options: Any) -> Any:
            self.names.append(str(args[0]).upper())
            return await real(client, *args, **options)

        monkeypatch.setattr(RedisClient, "execute_command", execute_command)

    def since(self, mark: int) -> list[str]:
        return self.names[mark:]


def test_every_member_gets_the_message_once_in_two_commands(own_redis: OwnRedis, monkeypatch: Any) -> None:  # noqa: F811
    here, there = _layer(own_redis.url), _layer(own_redis.url)  # two processes
    sent = Sent(monkeypatch)

    async def scenario() -> None:
        a, b, c = await here.new_channel(), await here.new_channel(), await there.new_channel()
        for channel in (a, b, c):
            await here.group_add("table", channel)
        mark = len(sent.names)
        await here.group_send("table", {"type": "match.updated", "seq": 7})
        # the members in one script; the messages in one more (one Redis host): a's and b's process shares a key
        assert sent.since(mark) == ["EVAL", "EVAL"]
        for layer, channel in ((here, a), (here, b), (there, c)):
            got = await asyncio.wait_for(layer.receive(channel), 5)
            assert got == {"type": "match.updated", "seq": 7}
        # once each: nothing more for anyone
        for layer, channel in ((here, a), (here, b), (there, c)):
            await nothing_more(layer, channel, "a second message")

        mark = len(sent.names)
        await here.group_send("nobody-watches", {"type": "watch.updated"})
        assert sent.since(mark) == ["EVAL"]

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_old_members_are_dropped_and_full_channels_skipped(own_redis: OwnRedis) -> None:  # noqa: F811
    layer = _layer(own_redis.url, group_expiry=60, capacity=1)

    async def scenario() -> None:
        gone, full = "gone.channel", "full.channel"
        client = redis.Redis.from_url(own_redis.url)
        client.zadd("asgi:group:g", {gone: time.time() - 3600})  # joined an hour ago: past the group's expiry
        await layer.group_add("g", full)
        await layer.group_send("g", {"type": "one"})
        await layer.group_send("g", {"type": "two"})  # over the channel's capacity of 1: dropped
        assert client.zrange("asgi:group:g", 0, -1) == [full.encode()]
        assert client.zcard("asgigone.channel") == 0
        assert client.zcard("asgifull.channel") == 1
        assert await asyncio.wait_for(layer.receive(full), 5) == {"type": "one"}

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_a_message_popped_as_its_receiver_closes_reaches_its_socket(own_redis: OwnRedis) -> None:  # noqa: F811
    """A process pops its sockets' messages in the receive of whichever socket holds the lock. When that socket
    closed just as Redis handed over a message for another socket, the message was lost (a person at the
    cluster waited for a bot's card that never came): it now reaches the other socket, once."""
    layer = _layer(own_redis.url)
    real_pop = layer._brpop_with_clean

    async def slow_reply(index: int, channel: str, timeout: float) -> Any:
        content = await real_pop(index, channel, timeout)
        if content is not None:
            await asyncio.sleep(0.3)  # the reply on its way back while the socket that asked closes
        return content

    layer._brpop_with_clean = slow_reply  # type: ignore[method-assign]

    async def scenario() -> None:
        closing, staying = await layer.new_channel(), await layer.new_channel()
        holder = asyncio.create_task(layer.receive(closing))  # first in: it holds the pop
        await asyncio.sleep(0.1)
        waiter = asyncio.create_task(layer.receive(staying))
        await asyncio.sleep(0.1)
        await layer.send(staying, {"type": "match.updated", "seq": 273})
        await asyncio.sleep(0.1)  # popped, its reply not yet read
        holder.cancel()  # the socket holding the pop closes
        got = await asyncio.wait_for(waiter, 5)
        assert got == {"type": "match.updated", "seq": 273}
        await nothing_more(layer, staying, "the message came twice", 0.5)

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_members_of_the_sending_process_get_it_without_a_trip_through_redis(
        own_redis: OwnRedis, monkeypatch: Any) -> None:  # noqa: F811
    """A person's card and the bots' answer are written by the process holding the person's socket: its members get
    the message straight in their buffers (the members still read from Redis, nothing pushed or popped for them),
    while members of other processes still get it through Redis, once."""
    here, there = _layer(own_redis.url), _layer(own_redis.url)
    sent = Sent(monkeypatch)
    client = redis.Redis.from_url(own_redis.url)

    async def scenario() -> None:
        a, b, c = await here.new_channel(), await here.new_channel(), await there.new_channel()
        for channel in (a, b):
            await here.group_add("table", channel)
        mark = len(sent.names)
        await here.group_send("table", {"type": "match.updated", "seq": 8, "actions": [["QH"]]})
        assert sent.since(mark) == ["EVAL"]  # the members; no push
        for channel in (a, b):
            got = await asyncio.wait_for(here.receive(channel), 5)
            assert got == {"type": "match.updated", "seq": 8, "actions": [["QH"]]}
        assert client.keys("asgispecific.*") == []  # nothing was left in Redis for this process either

        await there.group_add("table", c)
        mark = len(sent.names)
        await here.group_send("table", {"type": "match.updated", "seq": 9})
        assert sent.since(mark) == ["EVAL", "EVAL"]  # the members, then the push to the other process only
        assert await asyncio.wait_for(there.receive(c), 5) == {"type": "match.updated", "seq": 9}
        for channel in (a, b):
            assert await asyncio.wait_for(here.receive(channel), 5) == {"type": "match.updated", "seq": 9}
        for layer, channel in ((here, a), (here, b), (there, c)):  # once each
            await nothing_more(layer, channel, "a second message")

        # a socket that left the group here gets nothing, even while Redis still lists it (a leave under way)
        await here.group_discard("table", b)
        client.zadd("asgi:group:table", {b: time.time()})
        await here.group_send("table", {"type": "match.updated", "seq": 10})
        assert await asyncio.wait_for(here.receive(a), 5) == {"type": "match.updated", "seq": 10}
        await nothing_more(here, b, "out of the group, yet it got")

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_a_socket_holding_the_pop_is_woken_by_a_message_sent_from_another_thread(own_redis: OwnRedis) -> None:  # noqa: F811
    """Web processes send group messages from a loop of their own (``games.platform.outbox``), on another thread
    than the sockets'. The socket whose receive holds the process's pop waits on Redis, where nothing comes: the
    message delivered to its buffer wakes it, and the pop goes on for the messages that do come through Redis."""
    layer = _layer(own_redis.url)
    other = _layer(own_redis.url)  # another process, sending through Redis

    async def scenario() -> None:
        holder, waiter = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("table", holder)
        await layer.group_add("tabs", waiter)
        first = asyncio.create_task(layer.receive(holder))  # first in: it holds the pop
        await asyncio.sleep(0.2)
        second = asyncio.create_task(layer.receive(waiter))
        await asyncio.sleep(0.2)
        sender = threading.Thread(target=lambda: asyncio.run(layer.group_send("table", {"type": "mine", "seq": 1})))
        sender.start()
        await asyncio.to_thread(sender.join)
        assert await asyncio.wait_for(first, 5) == {"type": "mine", "seq": 1}
        await other.send(waiter, {"type": "through.redis"})  # the pop, now held by the other socket, gets it
        assert await asyncio.wait_for(second, 5) == {"type": "through.redis"}

    asyncio.run(asyncio.wait_for(scenario(), 30))


@pytest.mark.parametrize("left_by_an_ended_loop", [False, True])
def test_a_message_reaching_a_socket_as_it_takes_the_receive_lock_is_not_left_waiting(
        own_redis: OwnRedis, left_by_an_ended_loop: bool) -> None:  # noqa: F811
    """A socket checks its buffer, then takes the receive lock and waits on the process's pop. A local message put in
    its buffer between the two (as its lock was granted, before it ran again) woke nobody, and the socket waited on
    Redis for a message that had already come: a whole match's socket hung in the real-stack suite. It now looks
    at its buffer again, also when a receive of an earlier event loop (a test before) left its wake behind."""
    layer = _layer(own_redis.url)
    if left_by_an_ended_loop:
        async def leave() -> None:
            layer._wake = asyncio.get_running_loop().create_future()

        asyncio.run(leave())
    real = layer.receive_single
    armed: list[str] = []

    async def entering(channel: str) -> Any:
        if armed:  # the message arrives exactly as the socket takes the lock
            layer._arrived(asyncio.get_running_loop(), "table", [armed.pop()], {"type": "match.updated", "seq": 5})
        return await real(channel)

    layer.receive_single = entering  # type: ignore[method-assign]

    async def scenario() -> None:
        mine = await layer.new_channel()
        await layer.group_add("table", mine)
        armed.append(mine)
        assert await asyncio.wait_for(layer.receive(mine), 5) == {"type": "match.updated", "seq": 5}

    asyncio.run(asyncio.wait_for(scenario(), 30))
