"""What a client is shown of a match, and the OpenAPI shapes of it: the one source of both.

Everything sent to a client is built here from ``engine.player_view`` for the viewer's seat (never the raw
state, never the seed of a running match), plus site fields (``id``, ``seq``, seat names and kinds). The
serializers below document these shapes in the OpenAPI document; ``tests/site/test_presenters_schema.py``
checks every key sent against them, both ways, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone
from rest_framework import serializers

import engine
from games.platform import rating_scale

from . import store
from .events import MatchSnapshot, SeatSnapshot
from .models import Match, Seat


def seats_json(match: Match, for_seat: int | None) -> list[dict[str, Any]]:
    return _seats_json(store.seats_of(match), for_seat)


def _seats_json(seats: Sequence[Seat] | Sequence[SeatSnapshot], for_seat: int | None) -> list[dict[str, Any]]:
    return [
        {
            "seat": s.index,
            "name": s.name,
            "kind": s.kind,
            "bot": s.bot or None,
            "autopilot": s.autopilot,
            "bot_account": s.bot_account,
            "bank_seconds": s.bank_seconds,
            "you": s.index == for_seat,
        }
        for s in seats
    ]


def match_view(match: Match, seat: int, state: engine.MatchState | None = None) -> dict[str, Any]:
    """What ``seat`` may see of ``match``: the engine's player view plus site fields."""
    if state is None:
        state = store.state_of(match)
    data: dict[str, Any] = engine.player_view(state, seat).to_json()
    data.update(
        {
            "id": match.pk,
            "seq": state.version,
            "status": match.status if match.status == Match.Status.ABORTED
            else Match.Status.FINISHED if state.is_finished else Match.Status.ACTIVE,
            "your_turn": state.turn == seat,
            "seats": seats_json(match, seat),
            "created_at": match.created_at.isoformat() if match.created_at else None,
            "finished_at": match.finished_at.isoformat() if match.finished_at and state.is_finished else None,
            **timing_json(match),
            **(end_json(match, seat) if state.is_finished else {"table_id": None, "rematch_table_id": None,
                                                                 "rating": None}),
        }
    )
    return data


def watch_view(match: Match, state: engine.MatchState, live_seq: int) -> dict[str, Any]:
    """What a watcher is shown (``state``: the match as it was a trick or some seconds ago, ``seatview.WatcherView``):
    the engine's spectator view (no hand, no seed before the end) with the seats' names and the match's public
    fields; ``behind``: how many bids and cards are held back."""
    data: dict[str, Any] = engine.spectator_view(state).to_json()
    for private in ("hand", "legal", "locked", "seat"):  # a watcher has no seat: nothing of a seat's own
        data.pop(private, None)
    finished = state.is_finished
    data.update(
        {
            "id": match.pk,
            "seq": state.version,
            "behind": max(0, live_seq - state.version),
            "status": match.status if match.status == Match.Status.ABORTED
            else Match.Status.FINISHED if finished else Match.Status.ACTIVE,
            "seats": seats_json(match, None),
            "rated": match.rated,
            "move_seconds": match.move_seconds,
            "created_at": match.created_at.isoformat() if match.created_at else None,
            "finished_at": match.finished_at.isoformat() if match.finished_at and finished else None,
        }
    )
    return data


def view_after_action(match: Match, seat: int, state: engine.MatchState) -> dict[str, Any]:
    """The answer to a person's action: the view after it, or the newest one if bots have answered in
    this process already (eager mode: ``make run``, tests); bots answering on a worker reach the page
    through its socket, so the answer costs no query."""
    return match_view(match, seat, store.caught_up(match, state))


def _related_pk(match: Match, name: str) -> int | None:
    try:
        return int(getattr(match, name).pk)
    except ObjectDoesNotExist:
        return None


def end_json(match: Match, seat: int) -> dict[str, Any]:
    """What the end screen needs: the table the match came from and its rematch (for a rematch among
    people), and the viewer's rating change once the rating task has run, as people see it
    (``games.platform.rating_scale``, the same number the ratings' pages show)."""
    rating = None
    user_id = store.seats_of(match)[seat].user_id
    if match.rated and match.rated_at is not None and user_id is not None:
        change = match.rating_changes.filter(rating__user_id=user_id).first()
        if change is not None:
            rating = rating_scale.change_json(change.mu_before, change.sigma_before,
                                              change.mu_after, change.sigma_after)
    return {"table_id": _related_pk(match, "table"), "rematch_table_id": _related_pk(match, "rematch_table"),
            "rating": rating}


def timing_json(match: Match | MatchSnapshot) -> dict[str, Any]:
    """Correspondence fields: time per move, the current turn's deadline and seconds left, rated."""
    left = None
    if match.deadline is not None and match.status == Match.Status.ACTIVE:
        left = max(0, int((match.deadline - timezone.now()).total_seconds()))
    return {
        "move_seconds": match.move_seconds,
        "deadline": match.deadline.isoformat() if match.deadline and match.status == Match.Status.ACTIVE else None,
        "seconds_left": left,
        "rated": match.rated,
    }


def match_summary(match: Match, my_seat: int | None = None, *, totals: bool = True) -> dict[str, Any]:
    """A list row: no hands, no seed; from the row's cached fields (tests check them against replay), and
    the seats' totals (tenths) so far when ``totals`` (the state: cached after a write, else a replay)."""
    if my_seat is None:
        my_seat = getattr(match, "my_seat", None)
    return _summary(match, store.seats_of(match), my_seat, list(store.state_of(match).totals) if totals else None)


def snapshot_summary(match: MatchSnapshot, my_seat: int) -> dict[str, Any]:
    """The same row from a write's snapshot (sent to the seat's person once the write committed)."""
    return _summary(match, match.seats, my_seat, list(match.state.totals))


def _summary(match: Match | MatchSnapshot, seats: Sequence[Seat] | Sequence[SeatSnapshot], my_seat: int | None,
             totals: list[int] | None) -> dict[str, Any]:
    return {
        "totals": totals,
        "id": match.pk,
        "status": match.status,
        "seq": match.seq,
        "turn": match.turn,
        "you": my_seat,
        "your_turn": match.status == Match.Status.ACTIVE and match.turn is not None and match.turn == my_seat,
        "seed_commitment": match.seed_commitment,
        "seats": _seats_json(seats, my_seat),
        "created_at": match.created_at.isoformat(),
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "offline": match.offline,
        **timing_json(match),
    }


def replay_document(match: Match) -> dict[str, Any]:
    """The ``callbreak-replay/1`` document of a finished match."""
    state = store.state_of(match)
    players = [
        {
            "seat": s.index,
            "name": s.name,
            "kind": s.kind,
            "bot": (s.bot or None) if s.played_by_bot else None,
        }
        for s in store.seats_of(match)
    ]
    return engine.export_replay(state, players, str(match.pk))


# --- the shapes, for the OpenAPI document ---------------------------------------------------------------

class SeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["human", "bot"])
    bot = serializers.CharField(allow_null=True, help_text="The bot level playing it (a bot's, or on autopilot).")
    autopilot = serializers.BooleanField()
    bot_account = serializers.BooleanField(help_text="A bot account (a program, not a house bot) plays this seat.")
    bank_seconds = serializers.IntegerField(help_text="Live pace: this deal's time bank left (part of the "
                                                      "turn's deadline while it is the seat's turn).")
    you = serializers.BooleanField()


class PlaySerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    card = serializers.CharField()


class TrickSerializer(serializers.Serializer[Any]):
    """The trick in play: who led it and the cards played so far."""

    leader = serializers.IntegerField(allow_null=True)
    plays = PlaySerializer(many=True)


class FinishedTrickSerializer(serializers.Serializer[Any]):
    leader = serializers.IntegerField()
    plays = PlaySerializer(many=True)
    winner = serializers.IntegerField()


class DealSerializer(serializers.Serializer[Any]):
    """A finished deal: bids, tricks won and scores (tenths)."""

    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    bids = serializers.ListField(child=serializers.IntegerField())
    tricks_won = serializers.ListField(child=serializers.IntegerField())
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="Tenths: 42 means 4.2.")
    totals = serializers.ListField(child=serializers.IntegerField(), help_text="After the deal, in tenths.")


class RatingChangeSerializer(serializers.Serializer[Any]):
    """My rating change at the match as people see it (``games.platform.rating_scale``), and the model's numbers."""

    before = serializers.IntegerField(help_text="The shown rating before the match (1500 + 20 × (mu − 25)).")
    after = serializers.IntegerField(help_text="The shown rating after it.")
    change = serializers.IntegerField(help_text="after − before.")
    provisional_before = serializers.BooleanField()
    provisional = serializers.BooleanField(help_text="True while sigma is above 5: shown as `1500?`.")
    text_before = serializers.CharField(help_text="As a page prints it: `1500` or `1500?`.")
    text = serializers.CharField()
    mu_before = serializers.FloatField()
    sigma_before = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


class TimingFields(serializers.Serializer[Any]):
    move_seconds = serializers.IntegerField(allow_null=True, help_text="Time per move; null: no limit.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the current turn expires.")
    seconds_left = serializers.IntegerField(allow_null=True)
    rated = serializers.BooleanField()


class MatchViewSerializer(TimingFields):
    """The caller's view: the engine's player view plus site fields (see docs/engine-api.md)."""

    id = serializers.IntegerField()
    seq = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The engine's version: the same as seq.")
    status = serializers.ChoiceField(choices=[c for c, _ in Match.Status.choices])
    seat = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=["bidding", "playing", "finished"])
    deal_number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    turn = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    first_trick = serializers.BooleanField()
    trick_number = serializers.IntegerField()
    hand = serializers.ListField(child=serializers.CharField())
    hand_counts = serializers.ListField(child=serializers.IntegerField())
    legal = serializers.ListField(child=serializers.JSONField(), help_text="Bids (integers) or cards (strings).")
    locked = serializers.DictField(child=serializers.CharField(), help_text="A card in hand: why it cannot be played.")
    bids = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    tricks_won = serializers.ListField(child=serializers.IntegerField())
    trick = TrickSerializer()
    last_trick = FinishedTrickSerializer(allow_null=True)
    tricks = FinishedTrickSerializer(many=True, help_text="The finished tricks of the deal in play.")
    deals = DealSerializer(many=True)
    totals = serializers.ListField(child=serializers.IntegerField(), help_text="Tenths: 42 means 4.2.")
    winners = serializers.ListField(child=serializers.IntegerField())
    seats = SeatSerializer(many=True)
    seed_commitment = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="Only once the match is finished.")
    created_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    table_id = serializers.IntegerField(allow_null=True, help_text="Once finished: the table it came from.")
    rematch_table_id = serializers.IntegerField(allow_null=True, help_text="Once finished: its rematch, if asked.")
    rating = RatingChangeSerializer(allow_null=True, help_text="Once rated: my rating before and after, as shown.")


class WatchViewSerializer(serializers.Serializer[Any]):
    """A watcher's view: the engine's spectator view (no hand, no seed before the end) a trick (or
    ``SPECTATOR_DELAY_SECONDS``) behind the match, plus site fields."""

    id = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="The bids and cards shown (the match may be further on).")
    version = serializers.IntegerField()
    behind = serializers.IntegerField(help_text="Bids and cards made but not shown yet.")
    status = serializers.ChoiceField(choices=[c for c, _ in Match.Status.choices])
    phase = serializers.ChoiceField(choices=["bidding", "playing", "finished"])
    deal_number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    turn = serializers.IntegerField(allow_null=True)
    first_trick = serializers.BooleanField()
    trick_number = serializers.IntegerField()
    hand_counts = serializers.ListField(child=serializers.IntegerField())
    bids = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    tricks_won = serializers.ListField(child=serializers.IntegerField())
    trick = TrickSerializer()
    last_trick = FinishedTrickSerializer(allow_null=True)
    tricks = FinishedTrickSerializer(many=True)
    deals = DealSerializer(many=True)
    totals = serializers.ListField(child=serializers.IntegerField(), help_text="Tenths: 42 means 4.2.")
    winners = serializers.ListField(child=serializers.IntegerField())
    seats = SeatSerializer(many=True)
    seed_commitment = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="Only once the match is finished.")
    rated = serializers.BooleanField()
    move_seconds = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class MatchSummarySerializer(TimingFields):
    """A row of "My matches": no hands, no seed."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=[c for c, _ in Match.Status.choices])
    seq = serializers.IntegerField()
    turn = serializers.IntegerField(allow_null=True)
    you = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    seed_commitment = serializers.CharField()
    seats = SeatSerializer(many=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    totals = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                   help_text="Each seat's total so far (tenths); null beyond the newest rows.")
    offline = serializers.BooleanField(help_text="Played offline in the installed app and uploaded as its verified "
                                                 "replay (never rated).")
