"""Store an offline match from its replay: checked whole before anything is written, so a refusal stores nothing.

The replay proves itself (``engine.verify_replay``: the seed's deals, every bid and card, every score), so the
server needs nothing else; what it adds is whose it is (the one person's seat names the uploader) and that it
is new (a seed the uploader has played before is a duplicate: an upload retried after a lost answer, or the
replay of a match played on the server).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

import engine
from engine.bots import BOT_NAMES, DEFAULT_BOT
from games.matches.models import Action, Match, Seat
from games.platform import outbox
from games.platform.errors import GameError

from .events import OfflineMatchStored


class Refused(GameError):
    """An upload refused with its own status: 400 not a replay, 403 someone else's, 409 a duplicate, 413 too
    large, 422 a replay the verifier refuses (its reason as the detail)."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(code, detail)
        self.status = status


def too_large(size: int, limit: int) -> Refused:
    return Refused(413, "too_large", f"A replay is at most {limit} bytes; this one is {size}.")


def _human_seat(doc: Mapping[str, Any], user: User) -> int:
    players = doc.get("players")
    if not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, Mapping) for p in players):
        raise Refused(400, "not_a_replay", "A replay names exactly four players.")
    people = [s for s, p in enumerate(players) if p.get("kind") == "human"]
    if len(people) != 1:
        raise Refused(400, "not_a_replay", "An offline match has one person and three bots.")
    if players[people[0]].get("name") != user.get_username():
        raise Refused(403, "not_yours", "This replay is someone else's: its person's seat names another player.")
    return people[0]


def upload(user: User, doc: object) -> Match:
    """The finished, unrated, offline match the replay ``doc`` proves, seated as it says."""
    if not isinstance(doc, Mapping) or doc.get("format") != engine.FORMAT:
        raise Refused(400, "not_a_replay", f"Send the match's {engine.FORMAT} document as `replay`.")
    seed = doc.get("seed")
    if isinstance(seed, str) and len(seed) > 200:
        raise Refused(400, "bad_seed", "A seed is at most 200 characters.")
    seat = _human_seat(doc, user)
    try:
        state = engine.verify_replay(doc)
    except engine.VerifyError as err:
        raise Refused(422, "verify_failed", str(err)) from None
    players = doc["players"]
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one upload of a person's at a time
        if Match.objects.filter(seats__user=user, seed=state.seed).exists():  # by the seat index, then the seed
            raise Refused(409, "duplicate", "This match is stored already.")
        now = timezone.now()
        match = Match.objects.create(
            seed=state.seed, seed_commitment=state.seed_commitment, bot_seed=secrets.token_hex(16),
            status=Match.Status.FINISHED, seq=state.version, turn=None, created_by=user, finished_at=now,
            rated=False, offline=True,
        )
        seats = []
        for index, player in enumerate(players):
            if index == seat:
                seats.append(Seat(match=match, index=index, kind=Seat.Kind.HUMAN, user=user, name=user.get_username()))
            else:
                level = player.get("bot") if player.get("bot") in BOT_NAMES else DEFAULT_BOT
                name = str(player.get("name") or f"Bot {index}")[:40]
                seats.append(Seat(match=match, index=index, kind=Seat.Kind.BOT, bot=level, name=name))
        Seat.objects.bulk_create(seats)
        Action.objects.bulk_create([
            Action(match=match, seq=n, seat=a.seat, bid=a.bid if isinstance(a, engine.Bid) else None,
                   card=a.card if isinstance(a, engine.Play) else "",
                   made_by=Action.MadeBy.PLAYER if a.seat == seat else Action.MadeBy.BOT,
                   user=user if a.seat == seat else None)
            for n, a in enumerate(state.actions)
        ])
        outbox.emit(OfflineMatchStored(match.pk, user.pk))  # after the commit: its review is queued
    return match
