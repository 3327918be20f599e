"""The rate limits' scopes for sockets and the table (games.platform.ratelimit): ``emote`` per person and match in the
cache, ``resync`` per socket in its own memory, both on with RATE_LIMITS=0 too; a ``Socket`` counts in the
people's scopes as its person (the match socket's bids and chat), and the open-socket cap."""

from __future__ import annotations

import time
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from games.accounts.sockets import FollowsAccount
from games.platform import ratelimit
from games.platform.ratelimit import EMOTE, RESYNC, RESYNC_LIMIT, RESYNC_WINDOW, Person, Refusal, Socket

NOON = (time.time() // 3600 + 1) * 3600  # the next full hour: the start of every window used here


class _User:
    is_authenticated = True

    def __init__(self, pk: int) -> None:
        self.pk = pk


@pytest.fixture(autouse=True)
def _emotes(settings: Any) -> None:
    settings.EMOTE_LIMIT = 3
    settings.EMOTE_WINDOW = 10


def test_emotes_are_counted_per_person_and_match_even_with_the_limits_off(settings: Any) -> None:
    assert settings.RATE_LIMITS_ON is False  # this test is not marked rate_limits: the table's rule still holds
    with time_machine.travel(NOON + 2.5, tick=False):
        assert [ratelimit.check(Person(7), [EMOTE], per=1) for _ in range(3)] == [None, None, None]
        assert ratelimit.check(Person(7), [EMOTE], per=1) == Refusal(EMOTE, 8)  # the window ends at NOON + 10
        assert ratelimit.check(Person(7), [EMOTE], per=2) is None  # another match
        assert ratelimit.check(Person(8), [EMOTE], per=1) is None  # another person
        assert ratelimit.check(Socket(7, "10.0.0.1"), [EMOTE], per=1) == Refusal(EMOTE, 8)  # any socket of theirs
    with time_machine.travel(NOON + 10.5, tick=False):
        assert ratelimit.check(Person(7), [EMOTE], per=1) is None  # the next window


def test_an_emote_window_may_be_a_fraction_of_a_second(settings: Any) -> None:
    settings.EMOTE_LIMIT, settings.EMOTE_WINDOW = 1, 7.5
    assert ratelimit.scope_rate(EMOTE) == ("user", ratelimit.Rate(1, 7.5))
    with time_machine.travel(NOON + 0.5, tick=False):  # NOON is a multiple of 7.5 s too
        assert ratelimit.check(Person(7), [EMOTE], per=1) is None
        assert ratelimit.check(Person(7), [EMOTE], per=1) == Refusal(EMOTE, 7)
    with time_machine.travel(NOON + 7.6, tick=False):
        assert ratelimit.check(Person(7), [EMOTE], per=1) is None


def test_resyncs_are_counted_per_socket_in_a_sliding_window(monkeypatch: Any) -> None:
    clock = [1000.0]
    monkeypatch.setattr(ratelimit.time, "monotonic", lambda: clock[0])
    socket, other = Socket(7, "10.0.0.1", "a"), Socket(7, "10.0.0.1", "b")
    assert ratelimit.scope_rate(RESYNC) == ("socket", ratelimit.Rate(RESYNC_LIMIT, RESYNC_WINDOW)) \
        == ("socket", ratelimit.Rate(10, 10.0))
    for _ in range(RESYNC_LIMIT):
        assert ratelimit.check(socket, [RESYNC]) is None
        clock[0] += 0.5
    assert ratelimit.check(socket, [RESYNC]) == Refusal(RESYNC, 5)  # at 1005; the first leaves at 1010
    assert ratelimit.check(other, [RESYNC]) is None  # the person's other socket has its own count
    clock[0] = 1010.0  # the first resync has left the window; the refusal was not counted
    assert ratelimit.check(socket, [RESYNC]) is None
    assert ratelimit.check(socket, [RESYNC]) is not None


def test_only_a_socket_has_a_resync_count() -> None:
    request = RequestFactory().get("/")
    with pytest.raises(TypeError):
        ratelimit.check(request, [RESYNC])


def test_a_socket_is_its_person_and_address() -> None:
    socket = Socket.of({"user": _User(41), "client": ("2001:DB8:0::1", 5000)}, "chan")
    assert (socket.user_id, socket.address, socket.channel) == (41, "2001:db8::1", "chan")
    anonymous = Socket.of({"user": AnonymousUser(), "client": ("10.0.0.8", 5000)})
    assert (anonymous.user_id, anonymous.address) == (None, "10.0.0.8")
    assert Socket.of({"user": AnonymousUser()}).address is None
    assert ratelimit._ident("user", socket) == "user:41"
    assert ratelimit._ident("ip", socket) == "ip:2001:db8::1"
    assert ratelimit._ident("user", anonymous) == ratelimit._ident("ip", anonymous) == "ip:10.0.0.8"
    assert ratelimit._ident("account", socket, {"username": "amy"}) is None


@pytest.mark.rate_limits
def test_a_socket_shares_its_persons_counts_with_their_requests(settings: Any) -> None:
    """A bid sent on the socket and one posted to the API count against the same ``action`` limits."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "action": ("user", "3/s")}
    request = RequestFactory().post("/api/matches/1/actions/", REMOTE_ADDR="10.0.0.9")
    request.user = _User(41)  # type: ignore[assignment]
    socket = Socket.of({"user": _User(41), "client": ("10.0.0.7", 1)})
    with time_machine.travel(NOON + 0.25, tick=False):
        assert ratelimit.check(request, ["action"]) is None
        assert ratelimit.check(socket, ["action"]) is None
        assert ratelimit.check(Person(41), ["action"]) is None
        assert ratelimit.check(socket, ["action"]) == Refusal("action", 1)
        assert ratelimit.check(Socket.of({"user": _User(42), "client": ("10.0.0.7", 1)}), ["action"]) is None


def test_the_open_socket_cap(settings: Any) -> None:
    settings.SOCKETS_PER_USER = 2
    cap = ratelimit.OpenSockets()
    assert [cap.admit(5), cap.admit(5), cap.admit(5), cap.admit(6)] == [True, True, False, True]
    cap.release(5)
    assert cap.counts[5] == 1 and cap.admit(5)
    for user_id in (5, 5, 6):
        cap.release(user_id)
    assert not cap.counts  # a person with no socket holds no entry


def test_a_consumer_is_one_socket_entity() -> None:
    consumer = FollowsAccount()
    consumer.scope = {"user": _User(3), "client": ("10.0.0.1", 1)}
    consumer.channel_name = "specific.x"
    assert consumer.limited_as is consumer.limited_as
    assert (consumer.limited_as.user_id, consumer.limited_as.channel) == (3, "specific.x")
