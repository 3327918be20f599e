"""Commands of table talk: the emotes a seat shows, mutes, a private table's chat and the reports of it.

Nothing here changes a match: a chat message is its own row, sent to the match's sockets once committed
(``ChatSent``); an emote is only checked and counted (the socket relays it).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from games.accounts import reads as account_reads
from games.accounts.usernames import MAX_MARKS
from games.matches import store
from games.matches.models import Match, Seat
from games.platform import outbox, ratelimit
from games.platform.errors import ChatClosed, Forbidden, GameError, MatchNotFound, NotFound

from . import reads
from .events import ChatSent
from .models import ChatMessage, ChatReport, Mute

# --- emotes: a fixed set, nothing to moderate ---------------------------------------------------------

#: The emotes a seat may show (the page draws and names each); nothing else is ever relayed.
EMOTES = ("hello", "well_played", "thanks", "oops", "wow", "thinking")


def check_emote(user_id: int, match_id: int, emote: object) -> str:
    """An emote a seated person may show now: one of ``EMOTES``, at most ``EMOTE_LIMIT`` in ``EMOTE_WINDOW``
    seconds per person and match (the ``emote`` rate limit, counted in the cache, so every socket of the person
    shares the count)."""
    if not isinstance(emote, str) or emote not in EMOTES:
        raise GameError("bad_emote", f"An emote is one of: {', '.join(EMOTES)}.", emotes=list(EMOTES))
    refusal = ratelimit.check(ratelimit.Person(user_id), [ratelimit.EMOTE], per=match_id)
    if refusal is not None:
        raise GameError("throttled", f"At most {settings.EMOTE_LIMIT} emotes per "
                                     f"{float(settings.EMOTE_WINDOW):g} seconds.", retry_after=refusal.wait)
    return emote


def set_mute(user_id: int, match_id: int, seat_index: object, muted: bool) -> int:
    """Mute (or unmute) the person at ``seat_index`` of a match both sit at: their emotes and chat messages no
    longer reach ``user_id`` anywhere. Returns their user id."""
    if isinstance(seat_index, bool) or not isinstance(seat_index, int) or not 0 <= seat_index <= 3:
        raise GameError("bad_seat", "A seat is 0, 1, 2 or 3.")
    seat = Seat.objects.filter(match_id=match_id, index=seat_index, kind=Seat.Kind.HUMAN).first()
    if seat is None or seat.user_id is None or seat.user_id == user_id:
        raise GameError("bad_seat", "Only another person at this table can be muted.")
    if muted:
        Mute.objects.get_or_create(user_id=user_id, muted_id=seat.user_id)
    else:
        Mute.objects.filter(user_id=user_id, muted_id=seat.user_id).delete()
    return seat.user_id


# --- chat: free text at a private table's match --------------------------------------------------------

CHAT_MAX = 200
# Line breaks: each becomes a space (a chat line is one line).
_BREAKS = frozenset("\t\n\r\v\f\x85\u2028\u2029")
# The joiners, the only format characters (Cf) kept: Devanagari's half forms, Persian's ZWNJ and emoji ZWJ
# sequences need them. Every other one goes: bidirectional overrides and isolates reorder a line, the zero-width
# space, the word joiner, the soft hyphen and tag characters hide text in it.
_JOINERS = frozenset("\u200c\u200d")
_MARKS = frozenset(("Mn", "Mc", "Me"))
# The only emoji spelled with tag characters: the flags of England, Scotland and Wales.
_TAG_FLAGS = tuple("\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in region) + "\U000e007f"
                   for region in ("gbeng", "gbsct", "gbwls"))
# Characters that draw nothing: Unicode's Default_Ignorable_Code_Point (the Hangul fillers U+115F, U+1160, U+3164,
# U+FFA0 among them; the Cf ones are dropped anyway) and the Braille blank, which renders as a space.
_BLANK_RANGES = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                 (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800),
                 (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
                 (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def _draws_something(ch: str) -> bool:
    """Whether ``ch`` shows on its own: not a space, a format character, a combining mark or a blank."""
    if ch.isspace() or unicodedata.category(ch) in _MARKS or unicodedata.category(ch) == "Cf":
        return False
    return not any(low <= ord(ch) <= high for low, high in _BLANK_RANGES)


def _shown_characters(text: str) -> str:
    """``text`` without what must not reach another person's page: line breaks become spaces; control and
    surrogate characters and format characters but the joiners go (a subdivision flag's tags stay); combining
    marks past ``MAX_MARKS`` on one character go (the usernames' cap: a pile of them draws over the lines around;
    a joiner between marks does not start a new pile)."""
    kept: list[str] = []
    marks = 0
    i = 0
    while i < len(text):
        ch = text[i]
        flag = next((f for f in _TAG_FLAGS if text.startswith(f, i)), None) if ch == "\U0001f3f4" else None
        if flag is not None:
            kept.append(flag)
            i, marks = i + len(flag), 0
            continue
        i += 1
        category = unicodedata.category(ch)
        if ch in _BREAKS:
            kept.append(" ")
            marks = 0
        elif category in ("Cc", "Cs") or (category == "Cf" and ch not in _JOINERS):
            continue
        elif category in _MARKS:
            marks += 1
            if marks <= MAX_MARKS:
                kept.append(ch)
        else:
            kept.append(ch)
            if ch not in _JOINERS:
                marks = 0
    return "".join(kept)


def _one_line(text: str) -> str:
    """The words of ``text`` one space apart, with one joiner at most between two characters and none at a
    word's ends: a run of joiners, invisible, could carry hidden text."""
    words = (re.sub("[\u200c\u200d]+", lambda run: run.group()[0], word).strip("\u200c\u200d")
             for word in text.split())
    return " ".join(word for word in words if word)


def clean_chat_text(raw: object, *, what: str = "A chat message", allow_empty: bool = False) -> str:
    """The text as stored and shown: NFC, one line (breaks and runs of spaces become one space, trimmed), no
    control, surrogate or format characters but the joiners (``_shown_characters``), at most ``MAX_MARKS``
    combining marks on a character; 1 to ``CHAT_MAX`` characters, at least one of which draws something (a line
    of zero-width spaces, Hangul fillers or Braille blanks is empty: ``empty_message``; with ``allow_empty`` it is
    ""). A NUL is refused outright (PostgreSQL stores none; a client that sends one is broken or probing)."""
    if not isinstance(raw, str):
        raise GameError("bad_text", f"{what} is a string of at most {CHAT_MAX} characters.")
    if "\x00" in raw:
        raise GameError("bad_text", f"{what} may not hold a NUL character.")
    if len(raw) > 4 * CHAT_MAX:  # long before cleaning: refused without the work
        raise GameError("text_too_long", f"{what} is at most {CHAT_MAX} characters.", limit=CHAT_MAX)
    text = _one_line(_shown_characters(unicodedata.normalize("NFC", raw)))
    if not any(_draws_something(ch) for ch in text):
        if not allow_empty:
            raise GameError("empty_message", f"{what} needs some text (something that shows).")
        text = ""
    if len(text) > CHAT_MAX:
        raise GameError("text_too_long", f"{what} is at most {CHAT_MAX} characters.", limit=CHAT_MAX)
    return text


def _chat_seat(user_id: int, match_id: int) -> tuple[Match, Seat]:
    """The match and the caller's seat: 404 for a stranger (as every match read), 403 ``chat_closed`` where
    the match has no chat for the caller."""
    match = store.load(match_id)
    seat = None if match is None else next(
        (s for s in store.seats_of(match) if s.kind == Seat.Kind.HUMAN and s.user_id == user_id), None)
    if match is None or seat is None:
        raise MatchNotFound()
    if not reads.chat_open_to(match, seat):
        raise ChatClosed()
    return match, seat


def send_chat(user_id: int, match_id: int, text: object) -> dict[str, Any]:
    """Store a chat message from a person seated at a match with chat; once committed, the other people's pages
    get it (``ChatSent``). The caller counts it against the rate limits first. Returns it as pages get it."""
    match, seat = _chat_seat(user_id, match_id)
    if seat.resigned:
        raise ChatClosed("You resigned this match: its chat is read-only for you.")
    if account_reads.is_guest(user_id):  # guests react with emotes only, until they keep their games
        raise Forbidden("guest_chat", account_reads.GUEST_NO_CHAT)
    # 403 blocked: one of the people here and the author blocked one another (after the match began)
    account_reads.check_not_blocked(user_id, [s.user_id for s in store.seats_of(match) if s.user_id])
    clean = clean_chat_text(text)
    with transaction.atomic():
        message = ChatMessage.objects.create(match_id=match.pk, author_id=user_id, seat=seat.index, text=clean)
        shown = reads.chat_json(message, seat.name)
        outbox.emit(ChatSent(match.pk, user_id, shown))
    return shown


def _message_id(raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw <= 0:
        raise GameError("bad_message_id", "`message` is a message's id, a positive integer.")
    return raw


def report_chat(user_id: int, match_id: int, message_id: object, reason: object = "") -> tuple[ChatReport, bool]:
    """Report another person's message of a match whose chat the caller reads, for staff (the admin's chat
    reports). Once per person and message: reporting again returns the first report (and False)."""
    pk = _message_id(message_id)
    _chat_seat(user_id, match_id)
    why = clean_chat_text("" if reason is None else reason, what="A reason", allow_empty=True)
    message = ChatMessage.objects.filter(pk=pk, match_id=match_id).first()
    if message is None:
        raise NotFound("No such message at this match.")
    if message.author_id == user_id:
        raise GameError("own_message", "You cannot report your own message.")
    try:
        with transaction.atomic():
            return ChatReport.objects.get_or_create(reporter_id=user_id, message=message, defaults={"reason": why})
    except IntegrityError:  # the same report, at the same moment, from another page
        return ChatReport.objects.get(reporter_id=user_id, message=message), False
