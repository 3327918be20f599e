"""Chat at a private table's match: free text among its people (the host and those who joined by the invitation),
over the match socket, after the commit; never at a quick match, a public table or for a bot account; cleaned
and bounded text; rate limited; one mute for emotes and chat; reports that staff see and handle in the admin."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from site_helpers import next_of, nothing_of, two_people, ws

from games.matches import commands
from games.matches.commands import SeatSpec
from games.models import ChatMessage, ChatReport, Match, Table
from games.platform.errors import ChatClosed, GameError, MatchNotFound
from games.tables import commands as tables
from games.tabletalk import commands as talk
from games.tabletalk.commands import CHAT_MAX, clean_chat_text

pytestmark = pytest.mark.django_db(transaction=True)


def invited_match(make_user: Any, visibility: str = Table.Visibility.PRIVATE, names: tuple[str, str] = ("amy", "bo"),
                  ) -> tuple[Match, Any, Any]:
    """Amy hosts a table (private: Bo joins by its invitation code; public: from the lobby), bots fill the
    rest, Amy starts it."""
    amy, bo = make_user(names[0]), make_user(names[1])
    table = tables.create_table(amy, visibility=visibility, move_seconds=86400, rated=False)
    code = table.invite_code if visibility == Table.Visibility.PRIVATE else None
    tables.join_table(bo, table.pk, code=code)
    tables.fill_bots(amy, table.pk, bot="random")
    match = tables.start_table(amy, table.pk)
    match.refresh_from_db()
    return match, amy, bo


async def opened(match: Match, user: Any) -> tuple[WebsocketCommunicator, list[dict[str, Any]] | None]:
    """A socket on the match, and the chat history it was sent on connect (None: no chat for this person)."""
    comm = await ws(f"/ws/matches/{match.pk}/", user)
    await next_of(comm, "match")
    await comm.send_json_to({"type": "resync"})  # a marker: the connect's messages all came before its view
    history = None
    while True:
        msg = await comm.receive_json_from(timeout=5)
        if msg.get("type") == "chat_history" and history is None:
            history = msg["messages"]
        if msg.get("type") == "match":
            break
    if history is not None:
        assert (await next_of(comm, "chat_history"))["messages"] == history  # the resync's own
    return comm, history


async def test_people_of_a_private_table_chat_and_a_reload_shows_the_history(make_user: Any) -> None:
    match, amy, bo = await database_sync_to_async(invited_match)(make_user)
    assert match.chat
    (a, a_history), (b, b_history) = await opened(match, amy), await opened(match, bo)
    assert a_history == [] and b_history == []
    await a.send_json_to({"type": "chat", "text": "  Namaste,\tgood\x07 luck!\n "})
    got = (await next_of(b, "chat"))["message"]
    assert got["text"] == "Namaste, good luck!" and got["seat"] == 0 and got["name"] == "amy"
    assert (await next_of(a, "chat"))["message"] == got  # my other tabs show it too
    stored = await database_sync_to_async(ChatMessage.objects.get)(pk=got["id"])
    assert (stored.author_id, stored.match_id, stored.text) == (amy.pk, match.pk, "Namaste, good luck!")
    await b.send_json_to({"type": "chat", "text": "शुभकामना"})
    assert (await next_of(a, "chat"))["message"]["text"] == "शुभकामना"
    await b.disconnect()
    b, history = await opened(match, bo)  # a reload
    assert [m["text"] for m in history or []] == ["Namaste, good luck!", "शुभकामना"]
    await asyncio.gather(a.disconnect(), b.disconnect())


@pytest.mark.parametrize("where", ["public table", "quick match", "bots' match"])
async def test_no_chat_where_people_did_not_invite_each_other(make_user: Any, where: str) -> None:
    def make() -> tuple[Match, Any, Any]:
        if where == "public table":
            return invited_match(make_user, Table.Visibility.PUBLIC)
        amy, bo = make_user("amy"), make_user("bo")
        if where == "quick match":  # the pairing run seats strangers at a started private table
            match = tables.start_full_table(amy, [SeatSpec(user=amy), SeatSpec(bot="random"), SeatSpec(user=bo),
                                                  SeatSpec(bot="random")], move_seconds=86400, rated=False)
        else:
            match = commands.create_match(seats=[SeatSpec(user=amy), SeatSpec(bot="random"), SeatSpec(user=bo),
                                                 SeatSpec(bot="random")])
        return match, amy, bo

    match, amy, bo = await database_sync_to_async(make)()
    (a, a_history), (b, _) = await opened(match, amy), await opened(match, bo)
    assert a_history is None  # no chat: nothing said on connect, the page shows no chat
    await a.send_json_to({"type": "chat", "text": "hello"})
    err = await next_of(a, "error")
    assert (err["about"], err["code"]) == ("chat", "chat_closed")
    assert await nothing_of(b, "chat")
    assert not await database_sync_to_async(ChatMessage.objects.exists)()
    await asyncio.gather(a.disconnect(), b.disconnect())


def test_strangers_bots_and_the_resigned_do_not_chat(make_user: Any) -> None:
    match, amy, bo = invited_match(make_user)
    stranger = make_user("eve")
    with pytest.raises(MatchNotFound):  # not seated: the match is no business of theirs
        talk.send_chat(stranger.pk, match.pk, "hi")
    with pytest.raises(MatchNotFound):
        talk.report_chat(stranger.pk, match.pk, 1)
    # alone with bots at a private table: nobody to talk to
    solo = make_user("solo")
    table = tables.create_table(solo, visibility=Table.Visibility.PRIVATE, rated=False)
    tables.fill_bots(solo, table.pk, bot="random")
    with pytest.raises(ChatClosed):
        talk.send_chat(solo.pk, tables.start_table(solo, table.pk).pk, "hi")
    # a person who resigned reads the chat but writes no more
    commands.resign(bo, match.pk)
    with pytest.raises(ChatClosed):
        talk.send_chat(bo.pk, match.pk, "bye")
    assert talk.send_chat(amy.pk, match.pk, "still here")["text"] == "still here"


@pytest.mark.rate_limits
async def test_chat_is_rate_limited_per_person(make_user: Any, settings: Any) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "chat": ("user", "3/min")}
    match, amy, bo = await database_sync_to_async(invited_match)(make_user)
    (a, _), (b, _) = await opened(match, amy), await opened(match, bo)
    for n in range(3):
        await a.send_json_to({"type": "chat", "text": f"line {n}"})
        assert (await next_of(b, "chat"))["message"]["text"] == f"line {n}"
    await a.send_json_to({"type": "chat", "text": "one too many"})
    err = await next_of(a, "error")
    assert (err["about"], err["code"], err["scope"]) == ("chat", "throttled", "chat") and err["retry_after"] >= 1
    assert await nothing_of(b, "chat")
    await b.send_json_to({"type": "chat", "text": "my own count"})  # counted per person
    assert (await next_of(a, "chat"))["message"]["text"] == "my own count"
    assert await database_sync_to_async(ChatMessage.objects.count)() == 4
    await asyncio.gather(a.disconnect(), b.disconnect())


async def test_one_mute_hides_chat_and_emotes_and_the_history(make_user: Any) -> None:
    match, amy, bo = await database_sync_to_async(invited_match)(make_user)
    (a, _), (b, _) = await opened(match, amy), await opened(match, bo)
    await a.send_json_to({"type": "chat", "text": "before"})
    await asyncio.gather(next_of(a, "chat"), next_of(b, "chat"))
    await b.send_json_to({"type": "mute", "seat": 0, "muted": True})
    assert await next_of(b, "mutes") == {"type": "mutes", "seats": [0]}
    await a.send_json_to({"type": "chat", "text": "after the mute"})
    assert (await next_of(a, "chat"))["message"]["text"] == "after the mute"  # stored and shown to its author
    await a.send_json_to({"type": "emote", "emote": "wow"})
    await next_of(a, "emote")
    assert await nothing_of(b, "chat")
    assert await nothing_of(b, "emote")
    await b.send_json_to({"type": "chat", "text": "I still talk"})
    assert (await next_of(a, "chat"))["message"]["text"] == "I still talk"
    await b.disconnect()
    b, history = await opened(match, bo)  # a reload leaves her messages out too
    assert [m["text"] for m in history or []] == ["I still talk"]
    await b.send_json_to({"type": "mute", "seat": 0, "muted": False})
    await next_of(b, "mutes")
    await b.disconnect()
    b, history = await opened(match, bo)
    assert [m["text"] for m in history or []] == ["before", "after the mute", "I still talk"]
    await asyncio.gather(a.disconnect(), b.disconnect())


async def test_a_report_makes_one_row_that_staff_see_and_handle(make_user: Any, root: Client) -> None:
    match, amy, bo = await database_sync_to_async(invited_match)(make_user)
    (a, _), (b, _) = await opened(match, amy), await opened(match, bo)
    await a.send_json_to({"type": "chat", "text": "you play like a potato"})
    message = (await next_of(b, "chat"))["message"]
    for _ in range(2):  # twice: still one report
        await b.send_json_to({"type": "report", "message": message["id"], "reason": "rude\x07"})
        assert await next_of(b, "reported") == {"type": "reported", "message": message["id"]}
    await a.send_json_to({"type": "report", "message": message["id"]})
    assert (await next_of(a, "error"))["code"] == "own_message"
    await b.send_json_to({"type": "report", "message": 10**9})
    assert (await next_of(b, "error"))["code"] == "not_found"
    await b.send_json_to({"type": "report", "message": "1; drop"})
    assert (await next_of(b, "error"))["code"] == "bad_message_id"
    await asyncio.gather(a.disconnect(), b.disconnect())
    report = await database_sync_to_async(ChatReport.objects.get)()
    assert (report.reporter_id, report.message_id, report.reason, report.handled) == (bo.pk, message["id"], "rude",
                                                                                       False)

    def staff_side() -> None:
        page = root.get("/admin/games/chatreport/?handled__exact=0").content.decode()
        assert "you play like a potato" in page and "amy" in page and "bo" in page
        assert f'href="/admin/games/match/{match.pk}/change/"' in page
        assert "you play like a potato" in root.get(f"/admin/games/match/{match.pk}/change/").content.decode()
        assert root.get("/admin/games/chatreport/add/").status_code == 403
        r = root.post("/admin/games/chatreport/", {"action": "mark_handled", "_selected_action": [report.pk]})
        assert r.status_code == 302
        report.refresh_from_db()
        assert report.handled
        assert "you play like a potato" not in root.get("/admin/games/chatreport/?handled__exact=0").content.decode()
        assert "you play like a potato" in root.get("/admin/games/chatreport/?handled__exact=1").content.decode()

    await database_sync_to_async(staff_side)()


@pytest.mark.parametrize(("raw", "code"), [
    ("", "empty_message"), (" \t\n\x07\u202e ", "empty_message"), ("a\x00b", "bad_text"), (42, "bad_text"),
    (None, "bad_text"), ("x" * (CHAT_MAX + 1), "text_too_long"), ("x" * 5000, "text_too_long"),
])
def test_chat_text_refused(raw: object, code: str) -> None:
    with pytest.raises(GameError) as err:
        clean_chat_text(raw)
    assert err.value.code == code and err.value.status == 400


@pytest.mark.parametrize(("raw", "clean"), [
    ("x" * CHAT_MAX, "x" * CHAT_MAX),
    ("  gg\r\n  wp  ", "gg wp"),
    ("a\x1b[31mred\x7f", "a[31mred"),  # terminal escapes and DEL go
    ("\u202eevil\u202c txt", "evil txt"),  # no reordering of what others read
    ("क्\u200dष नमस्ते 👍🏽", "क्\u200dष नमस्ते 👍🏽"),  # joiners and emoji stay
    ("e\u0301", "\u00e9"),  # NFC
])
def test_chat_text_cleaned(raw: str, clean: str) -> None:
    assert clean_chat_text(raw) == clean


ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"  # 🏴 + tags "gbeng" + cancel
LEGIBLE = [  # Nepali, Hindi (a nukta and a candrabindu on one letter, ZWJ and ZWNJ half forms), Chinese, Persian, emoji
    "नमस्ते! तपाईंलाई कस्तो छ? शुभकामना 🙏",
    "क़ुँवर जी, अच्छा खेला! क्\u200dष क्\u200cष",
    "你好，祝你好运！再来一局？",
    "می\u200cخواهم بازی کنم",
    "👨\u200d👩\u200d👧\u200d👦 🏳\ufe0f\u200d🌈 ❤\ufe0f\u200d🔥 👍🏽 #\ufe0f\u20e3 🇳🇵 " + ENGLAND,
]
PILE = "\u0301\u0302\u0303\u0304\u0306"  # five marks on one letter


@pytest.mark.parametrize("line", LEGIBLE)
def test_chat_in_every_script_and_emoji_is_kept_unchanged(line: str) -> None:
    assert clean_chat_text(line) == line


@pytest.mark.parametrize(("raw", "clean"), [
    ("a" + "\u0336" * 199, "a" + "\u0336" * 3),  # a strike-through drawn across the lines around
    ("a" + "\u0489" * 199, "a" + "\u0489" * 3),  # an enclosing mark (Me)
    ("o" + "\u0308" * 199 + " k", "\u00f6" + "\u0308" * 3 + " k"),  # NFC first (ö), then the pile goes
    ("x" + "\u0301\u200d" * 90, "x\u0301\u200d\u0301\u200d\u0301"),  # a joiner does not start a new pile
    ("\u0301" * 9 + "x", "\u0301" * 3 + "x"),
    ("x" + PILE + "q" + PILE, "x" + PILE[:3] + "q" + PILE[:3]),  # the cap is per character
    ("hi\U000e0069\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065\U000e007f", "hi"),  # tag characters: hidden text
    ("\U0001f3f4\U000e0078\U000e0078\U000e007f", "\U0001f3f4"),  # tags that spell no flag
    ("g\u200bg\u2060w\u00adp\u180e!", "ggwp!"),  # zero-width space, word joiner, soft hyphen, separator
    ("\u200e\u200fok\u061c", "ok"),  # direction marks
    ("a\u200d\u200c\u200d\u200db", "a\u200db"),  # a run of joiners is one
    ("\u200dok\u200c \u200d", "ok"),  # a joiner by a space or at an end joins nothing
    ("\u3164 hi \u2800", "\u3164 hi \u2800"),  # blanks beside words are like spaces: kept
])
def test_chat_text_without_piles_or_hidden_characters(raw: str, clean: str) -> None:
    assert clean_chat_text(raw) == clean


INVISIBLE = [
    "\u200b" * 20, "\u2060\u2060", "\u3164" * 50, "\u115f\u1160\uffa0", "\u2800" * 30, "\u00ad" * 10,
    "\U000e0068\U000e0069", "\u200d\u200c", "\ufe0f\u034f", "\u3000\u00a0\u2003 \u200b\u3164\u2800\u00ad",
]


@pytest.mark.parametrize("raw", INVISIBLE)
def test_a_line_that_shows_nothing_is_empty(raw: str) -> None:
    with pytest.raises(GameError) as err:
        clean_chat_text(raw)
    assert (err.value.code, err.value.status) == ("empty_message", 400)
    assert clean_chat_text(raw, what="A reason", allow_empty=True) == ""


async def test_the_socket_keeps_legible_lines_and_refuses_or_trims_the_rest(make_user: Any) -> None:
    match, amy, bo = await database_sync_to_async(invited_match)(make_user)
    (a, _), (b, _) = await opened(match, amy), await opened(match, bo)
    for line in LEGIBLE:
        await a.send_json_to({"type": "chat", "text": line})
        assert (await next_of(b, "chat"))["message"]["text"] == line
    for line in ("\u200b" * 20, "\u3164" * 50, "\u2800 \u00ad", "\u2060"):
        await a.send_json_to({"type": "chat", "text": line})
        err = await next_of(a, "error")
        assert (err["about"], err["code"]) == ("chat", "empty_message") and err["detail"]
    await a.send_json_to({"type": "chat", "text": "a" + "\u0336" * 199})
    assert (await next_of(b, "chat"))["message"]["text"] == "a" + "\u0336" * 3
    await a.send_json_to({"type": "chat", "text": "hi\U000e0068\U000e0069"})
    assert (await next_of(b, "chat"))["message"]["text"] == "hi"
    stored = await database_sync_to_async(lambda: list(ChatMessage.objects.order_by("pk")))()
    assert [m.text for m in stored] == [*LEGIBLE, "a" + "\u0336" * 3, "hi"]
    message = stored[0]
    await b.send_json_to({"type": "report", "message": message.pk, "reason": "\u200b\u3164"})
    assert await next_of(b, "reported") == {"type": "reported", "message": message.pk}
    assert (await database_sync_to_async(ChatReport.objects.get)()).reason == ""
    await asyncio.gather(a.disconnect(), b.disconnect())


def test_a_bot_account_neither_reads_nor_writes_the_chat(make_user: Any) -> None:
    amy, bo, prog = make_user("amy"), make_user("bo"), make_user("prog")
    match = commands.create_match(seats=[SeatSpec(user=amy), SeatSpec(user=bo), SeatSpec(user=prog),
                                         SeatSpec(bot="random")], chat=True)
    from games.matches.models import Seat

    Seat.objects.filter(match=match, user=prog).update(bot_account=True)
    match = Match.objects.get(pk=match.pk)
    from games.matches import reads
    from games.tabletalk import reads as talk_reads

    loaded = reads.match_with_seats(match.pk)
    assert loaded is not None and set(talk_reads.chat_people(loaded)) == {0, 1}
    with pytest.raises(ChatClosed):
        talk.send_chat(prog.pk, match.pk, "beep")


def test_two_people_of_a_plain_match_have_no_chat(make_user: Any) -> None:
    match, amy, _ = two_people(make_user)
    with pytest.raises(ChatClosed):
        talk.send_chat(amy.pk, match.pk, "hi")


def test_the_migration_marks_the_invited_tables_matches_only(make_user: Any) -> None:
    import importlib

    from django.apps import apps

    from games.models import Seek

    invited, amy, bo = invited_match(make_user)
    public, _, _ = invited_match(make_user, Table.Visibility.PUBLIC, ("cy", "di"))
    quick = tables.start_full_table(amy, [SeatSpec(user=amy), SeatSpec(bot="random"), SeatSpec(user=bo),
                                          SeatSpec(bot="random")], move_seconds=86400, rated=False)
    for user in (amy, bo):
        Seek.objects.create(user=user, pace="live", rated=False, skill=25.0, waiting_since=quick.created_at,
                            status=Seek.Status.MATCHED, match=quick)
    Match.objects.update(chat=False)  # as before the migration
    importlib.import_module("games.migrations.0013_table_chat").chat_at_invited_tables(apps, None)
    assert set(Match.objects.filter(chat=True).values_list("pk", flat=True)) == {invited.pk}
    assert Match.objects.filter(pk__in=[public.pk, quick.pk]).count() == 2
