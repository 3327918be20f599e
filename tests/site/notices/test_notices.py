"""Notices: your turn reaches every open tab over /ws/me/; no email while the match page is open, and a
stale presence stops silencing it; the same notice is sent once."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from channels.db import database_sync_to_async
from django.core import mail
from django.utils import timezone
from site_helpers import choose, client_for, two_people, ws

from games.matches import commands as match_commands
from games.matches.commands import SeatSpec
from games.models import Match, Notice, Presence
from games.notices import reactions as notice_reactions
from games.presence import commands as presence_commands
from games.presence import reads as presence_reads
from games.tasks import sweep_deadlines

pytestmark = pytest.mark.django_db(transaction=True)


def _move_until_turn_of(match_id: int, mover: Any, target_seat: int) -> None:
    """``mover`` plays legal moves (bots answer at once) until it is ``target_seat``'s turn."""
    rng = random.Random(3)
    client = client_for(mover)
    while Match.objects.get(pk=match_id).turn != target_seat:
        view = client.get(f"/api/matches/{match_id}/").json()
        assert view["your_turn"], view["turn"]
        assert client.post(f"/api/matches/{match_id}/actions/", choose(view, rng), format="json").status_code == 200


async def test_your_turn_reaches_every_tab_and_no_email_while_on_the_match_page(make_user: Any) -> None:
    a = await database_sync_to_async(make_user)("ann", email="ann@example.com")
    b = await database_sync_to_async(make_user)("ben", email="ben@example.com")
    match = await database_sync_to_async(match_commands.create_match)(
        seats=[SeatSpec(user=a), SeatSpec(user=b), SeatSpec(bot="random"), SeatSpec(bot="random")],
        move_seconds=86400,
    )
    # get to ben's turn (ann moves if she must)
    await database_sync_to_async(_move_until_turn_of)(match.pk, a, 1)
    tab1, tab2 = await ws("/ws/me/", a), await ws("/ws/me/", a)
    page = await ws(f"/ws/matches/{match.pk}/", a)
    first = await page.receive_json_from()
    assert first["type"] == "match"
    assert await database_sync_to_async(Presence.objects.filter(user=a, match_id=match.pk).count)() == 1
    mail.outbox.clear()
    await database_sync_to_async(_move_until_turn_of)(match.pk, b, 0)
    seq = (await database_sync_to_async(Match.objects.get)(pk=match.pk)).seq
    for tab in (tab1, tab2):
        msg = await tab.receive_json_from(timeout=3)
        while msg["type"] != "notice":
            msg = await tab.receive_json_from(timeout=3)
        assert msg == {"type": "notice", "kind": "your_turn", "match_id": match.pk, "seq": seq,
                       "deadline": msg["deadline"]}
        assert msg["deadline"]
    notice = await database_sync_to_async(Notice.objects.get)(user=a, match_id=match.pk, seq=seq, kind="your_turn")
    assert not notice.emailed
    assert not [m for m in mail.outbox if "ann@example.com" in m.to], "no email while on the match page"
    # the page closes: presence is gone, and the next notice is emailed
    await page.disconnect()
    assert await database_sync_to_async(Presence.objects.filter(user=a).count)() == 0
    await database_sync_to_async(notice_reactions.deliver)(a.pk, match.pk, seq, "reminder")
    assert [m.subject for m in mail.outbox if "ann@example.com" in m.to] == [
        f"Call Break reminder: your move in match {match.pk} is due soon"]
    # the same notice again sends nothing
    await database_sync_to_async(notice_reactions.deliver)(a.pk, match.pk, seq, "reminder")
    assert len([m for m in mail.outbox if "ann@example.com" in m.to]) == 1
    for tab in (tab1, tab2):
        await tab.disconnect()


def test_stale_presence_stops_silencing_email(make_user: Any) -> None:
    match, a, b = two_people(make_user)
    presence_commands.presence_join(a.pk, match.pk, "specific.channel!1")
    assert presence_reads.on_match_page(a.pk, match.pk)
    with time_machine.travel(timezone.now() + timedelta(hours=7), tick=False):
        assert not presence_reads.on_match_page(a.pk, match.pk)
        sweep_deadlines.delay()
        assert not Presence.objects.exists()
