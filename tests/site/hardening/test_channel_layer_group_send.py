"""A group's message through the channel layer (``callbreak_site.channel_layer``) against a ``redis-server`` of the
test's own: every member gets it once, in one Redis command for an empty group and two for a group with members
(channels_redis sent two and four), with channels_redis's expiry of old members and its channels' capacity."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import redis
from redis.asyncio.client import Redis as RedisClient

from callbreak_site.channel_layer import BlockingPoolChannelLayer
from hardening.test_worker_outage_realstack import OwnRedis, own_redis  # noqa: F401  (the fixture)


def _layer(url: str, **config: Any) -> BlockingPoolChannelLayer:
    return BlockingPoolChannelLayer(hosts=[{"address": url}], **config)


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
            try:
                extra = await asyncio.wait_for(layer.receive(channel), 0.3)
            except TimeoutError:
                continue
            raise AssertionError(f"{channel} got a second message: {extra}")

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
        try:
            extra = await asyncio.wait_for(layer.receive(staying), 0.5)
        except TimeoutError:
            return
        raise AssertionError(f"the message came twice: {extra}")

    asyncio.run(asyncio.wait_for(scenario(), 30))
