"""Reads of table talk: who mutes whom, who reads a match's chat, and its newest messages as pages get them."""

from __future__ import annotations

from games.matches import store
from games.matches.models import Match, Seat

from .models import ChatMessage, Mute

#: The messages a page is sent when it (re)connects or resyncs: the newest ones, oldest first.
CHAT_HISTORY = 50


def muted_by(user_id: int) -> set[int]:
    """The people whose emotes and chat messages ``user_id`` does not see."""
    return set(Mute.objects.filter(user_id=user_id).values_list("muted_id", flat=True))


def people_at(match_id: int) -> dict[int, int]:
    """Seat -> user id of the people seated at the match (a socket says which seats its person muted)."""
    match = store.load(match_id)
    if match is None:
        return {}
    return {s.index: s.user_id for s in store.seats_of(match) if s.user_id is not None}


# --- chat: free text among the people of a private table's match ----------------------------------------

def chat_people(match: Match) -> dict[int, int]:
    """Seat -> user id of the people who may read the match's chat: people's seats, not bot accounts' (a
    program has nothing to read; a house bot's seat has no user). Empty when the match has no chat."""
    if not match.chat or match.status == Match.Status.ABORTED:
        return {}
    people = {s.index: s.user_id for s in store.seats_of(match)
              if s.kind == Seat.Kind.HUMAN and s.user_id is not None and not s.bot_account}
    return people if len(people) >= 2 else {}  # alone with bots: nobody to talk to


def chat_open_to(match: Match, seat: Seat) -> bool:
    """Whether the person at ``seat`` reads this match's chat (and may write, unless they resigned)."""
    return chat_people(match).get(seat.index) == seat.user_id


def reads_chat(match: Match, seat_index: int, user_id: int) -> bool:
    """Whether ``user_id``, at ``seat_index`` of the match (a socket's seat), reads its chat."""
    seat = store.seats_of(match)[seat_index]
    return seat.user_id == user_id and chat_open_to(match, seat)


def chat_json(message: ChatMessage, name: str) -> dict[str, object]:
    """A message as every page of its match is sent it (``name``: its author's seat name)."""
    return {"id": message.pk, "seat": message.seat, "name": name, "text": message.text,
            "at": message.created_at.isoformat()}


def recent_chat(match: Match, user_id: int, limit: int = CHAT_HISTORY) -> list[dict[str, object]]:
    """The newest ``limit`` messages of the match, oldest first, without those of people ``user_id`` muted."""
    names = {s.index: s.name for s in store.seats_of(match)}
    rows = list(ChatMessage.objects.filter(match_id=match.pk)
                .exclude(author_id__in=Mute.objects.filter(user_id=user_id).values("muted_id"))
                .order_by("-id")[:limit])
    return [chat_json(row, names.get(row.seat, "")) for row in reversed(rows)]
