"""What the bot turns do once a write has committed: a bot left to act is played the way ``ways`` says.
Registered right after the match's own reactions (``games.reactions``), so in eager mode the bots' answer is
played before the other concepts hear of the write, as they always were."""

from __future__ import annotations

import time

from games.matches.events import MatchAdvanced, SeatsChanged

from . import chain, lane, tasks, ways
from .ways import Way


def play(match_id: int, seq: int, level: str = "") -> None:
    """Have the bot move due at ``seq`` (a bot of ``level``; empty: not the lane) played, by its row of ``ways``."""
    way = ways.way(level, chaining=chain.running(), lane_on=lane.on())
    if way is Way.CHAIN:
        chain.queue(match_id, seq)
    elif way is Way.LANE:
        lane.submit(match_id, seq, tasks.send)
    else:  # EAGER, WORKER, WORKER_DELAYED: a task (sent_at: when it is due, for the reply latency)
        tasks.send(match_id, seq, time.time() + max(ways.pause_seconds(), 0.0))


def bot_to_act(event: MatchAdvanced) -> None:
    """The write left a bot's (or an autopilot's) turn: it moves."""
    seat = event.match.seat_to_act
    if seat is not None and seat.played_by_bot:
        play(event.match_id, event.seq, seat.bot)


def seat_handed_to_bot(event: SeatsChanged) -> None:
    """A seat went to a bot on its turn: the bot moves (by a task, as a person's card waits on none of these)."""
    if event.bot_to_act:
        play(event.match_id, event.seq)
