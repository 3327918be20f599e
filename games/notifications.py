"""Telling people: a WebSocket message to every open tab of a user, and email.

Each notice is a ``Notice`` row unique per (user, match, seq, kind), so a re-run sweep or a
redelivered task never tells anyone twice. Email goes out unless the user turned it off, has no
address, or has the match page open (a ``Presence`` row per open match socket).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from .models import Match, Notice, Presence, Profile

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def _group_send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a lost message is recovered by the page refetching; never fail a write
        log.exception("could not send to group %s", group)


def send_to_user(user_id: int, payload: dict[str, Any]) -> None:
    """To every open tab of the user (ids, kinds and times only: never a hand)."""
    _group_send(user_group(user_id), {"type": "user.notice", "payload": payload})


def lobby_changed(table_id: int, user_ids: list[int] | None = None) -> None:
    """A table changed: to the lobby group (public tables) or to the given users' groups (private)."""
    message = {"type": "lobby.updated", "table_id": table_id}
    if user_ids is None:
        _group_send(LOBBY_GROUP, message)
    for user_id in user_ids or ():
        _group_send(user_group(user_id), message)


def wants_email(user_id: int) -> bool:
    profile = Profile.objects.filter(user_id=user_id).first()
    return profile is None or profile.email_notifications


# A socket open longer than this no longer counts as "on the page": a web process that died without
# closing its sockets must not silence someone's email for ever (the sweep deletes such rows).
PRESENCE_MAX_AGE = timedelta(hours=6)


def on_match_page(user_id: int, match_id: int) -> bool:
    since = timezone.now() - PRESENCE_MAX_AGE
    return Presence.objects.filter(user_id=user_id, match_id=match_id, connected_at__gte=since).exists()


def forget_stale_presence() -> int:
    return Presence.objects.filter(connected_at__lt=timezone.now() - PRESENCE_MAX_AGE).delete()[0]


def notice(user_id: int, match_id: int, seq: int, kind: str) -> Notice | None:
    """Record and deliver one notice; does nothing if it was already sent."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    try:
        with transaction.atomic():
            obj = Notice.objects.create(user_id=user_id, match_id=match_id, seq=seq, kind=kind)
    except IntegrityError:
        return None
    send_to_user(
        user_id,
        {
            "type": "notice",
            "kind": kind,
            "match_id": match_id,
            "seq": seq,
            "deadline": match.deadline.isoformat() if match.deadline else None,
        },
    )
    if not on_match_page(user_id, match_id) and wants_email(user_id):
        from .tasks import run_task, send_notice_email

        run_task(send_notice_email, obj.pk)
    return obj


def notice_on_commit(user_id: int, match_id: int, seq: int, kind: str) -> None:
    transaction.on_commit(lambda: notice(user_id, match_id, seq, kind), robust=True)


def _email_text(notice: Notice) -> tuple[str, str]:
    match = notice.match
    link = f"{settings.SITE_URL.rstrip('/')}/play/{match.pk}/"
    left = ""
    if match.deadline and notice.kind in (Notice.Kind.YOUR_TURN, Notice.Kind.REMINDER):
        hours = max(0, int((match.deadline - timezone.now()).total_seconds() // 3600))
        left = _("Time left: about %(hours)d hours (deadline %(deadline)s UTC).") % {
            "hours": hours,
            "deadline": match.deadline.strftime("%Y-%m-%d %H:%M"),
        }
    subjects = {
        Notice.Kind.YOUR_TURN: _("Call Break: your turn in match %(id)s"),
        Notice.Kind.REMINDER: _("Call Break reminder: your move in match %(id)s is due soon"),
        Notice.Kind.AUTOPILOT: _("Call Break: the autopilot moved for you in match %(id)s"),
        Notice.Kind.HANDED_OVER: _("Call Break: a bot now plays your seat in match %(id)s"),
    }
    subject = subjects[Notice.Kind(notice.kind)] % {"id": match.pk}
    body = "\n\n".join(p for p in (subject, left, link, _("Turn these emails off in your settings.")) if p)
    return subject, body


def send_notice_email(notice_id: int) -> bool:
    """Send the notice's email once (``emailed`` is set under a row lock)."""
    with transaction.atomic():
        obj = Notice.objects.select_for_update().select_related("match").filter(pk=notice_id).first()
        if obj is None or obj.emailed:
            return False
        user = get_user_model().objects.filter(pk=obj.user_id, is_active=True).first()
        if user is None or not user.email or not wants_email(user.pk) or on_match_page(user.pk, obj.match_id):
            return False
        with translation.override(settings.LANGUAGE_CODE):
            subject, body = _email_text(obj)
        send_mail(subject, body, None, [user.email])
        obj.emailed = True
        obj.save(update_fields=["emailed"])
    return True


def after_action(match_id: int, seq: int) -> None:
    """On commit of any action (hook in ``services._after_commit``): your-turn notice, timers, ratings."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.seq != seq:
        return
    if match.status == Match.Status.FINISHED:
        if match.rated and match.rated_at is None:
            from .tasks import rate_match, run_task

            run_task(rate_match, match_id)
        return
    if match.status != Match.Status.ACTIVE or match.deadline is None or match.turn is None:
        return
    seat = match.seats.filter(index=match.turn).first()
    if seat is None or seat.user_id is None or seat.played_by_bot:
        return
    notice(seat.user_id, match_id, seq, Notice.Kind.YOUR_TURN)
    if not settings.CELERY_TASK_ALWAYS_EAGER and (match.move_seconds or 0) <= 3600:
        # Timers for short (live) turns only: beat's sweep handles the rest, and a broker may redeliver
        # a far-future ETA task many times (harmless, as the tasks check seq and the deadline, but wasteful).
        from .tasks import expire_turn, remind_turn

        expire_turn.apply_async((match_id, seq), eta=match.deadline)
        if match.remind_at:
            remind_turn.apply_async((match_id, seq), eta=match.remind_at)


def presence_join(user_id: int, match_id: int, channel_name: str) -> None:
    Presence.objects.update_or_create(channel_name=channel_name, defaults={"user_id": user_id, "match_id": match_id})


def presence_leave(channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).delete()
