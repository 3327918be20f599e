"""Commands on notices: record one (a ``Notice`` row unique per (user, match, seq, kind), so a re-run sweep
or a redelivered task never tells anyone twice) and send its email once.

``games.notices.reactions`` records them after the writes that make them due; the email task calls
``send_notice_email``. A notice recorded emits ``NoticeRecorded`` (after the commit), on which other concepts
act (Web Push) without this one knowing them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.matches.models import Match
from games.platform import outbox
from games.tables.models import Table

from . import reads
from .events import NoticeRecorded
from .models import Notice


def record(user_id: int, match_id: int | None, seq: int, kind: str,
           table_id: int | None = None) -> tuple[Notice, dict[str, Any]] | None:
    """Store one notice and return it with the message for the user's tabs; None if it was already sent. A
    challenge is about a table (``table_id``), not yet a match."""
    if kind == Notice.Kind.CHALLENGE:
        return _record_challenge(user_id, table_id)
    match = Match.objects.filter(pk=match_id).first() if match_id is not None else None
    if match is None or match_id is None:
        return None
    try:
        with transaction.atomic():
            obj = Notice.objects.create(user_id=user_id, match_id=match_id, seq=seq, kind=kind)
            outbox.emit(NoticeRecorded(obj.pk, user_id, match_id, seq, kind))
    except IntegrityError:
        return None
    payload: dict[str, Any] = {
        "type": "notice",
        "kind": kind,
        "match_id": match_id,
        "seq": seq,
        "deadline": match.deadline.isoformat() if match.deadline else None,
    }
    if kind == Notice.Kind.REMATCH:  # answered on the finished match's end dialog (its page: /play/<id>/)
        table = Table.objects.select_related("host").filter(rematch_of_id=match_id).first()
        payload.update(table_id=table.pk if table else None,
                       asked_by=table.host.get_username() if table else None)
    return obj, payload


def _record_challenge(user_id: int, table_id: int | None) -> tuple[Notice, dict[str, Any]] | None:
    """A friend challenged the person to a private table they are invited to: once per table."""
    table = Table.objects.select_related("host").filter(pk=table_id).first() if table_id is not None else None
    if table is None:
        return None
    try:
        with transaction.atomic():
            obj = Notice.objects.create(user_id=user_id, table=table, seq=0, kind=Notice.Kind.CHALLENGE)
            outbox.emit(NoticeRecorded(obj.pk, user_id, None, 0, Notice.Kind.CHALLENGE, table.pk))
    except IntegrityError:
        return None
    return obj, {"type": "notice", "kind": Notice.Kind.CHALLENGE, "match_id": None, "seq": 0, "deadline": None,
                 "table_id": table.pk, "asked_by": table.host.get_username(), "url": f"/tables/{table.pk}/"}


def _email_text(notice: Notice) -> tuple[str, str]:
    if notice.kind == Notice.Kind.CHALLENGE:
        host = notice.table.host.get_username() if notice.table else ""
        subject = _("Call Break: %(name)s challenges you to a match") % {"name": host}
        link = f"{settings.SITE_URL.rstrip('/')}/tables/{notice.table_id}/"
        return subject, "\n\n".join((subject, link, _("Turn these emails off in your settings.")))
    match = notice.match
    assert match is not None
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
        Notice.Kind.REMATCH: _("Call Break: you are invited to a rematch of match %(id)s"),
        Notice.Kind.QUICK_MATCH: _("Call Break: match %(id)s was found for you"),
    }
    subject = subjects[Notice.Kind(notice.kind)] % {"id": match.pk}
    body = "\n\n".join(p for p in (subject, left, link, _("Turn these emails off in your settings.")) if p)
    return subject, body


def send_notice_email(notice_id: int) -> bool:
    """Send the notice's email once (``emailed`` is set under a row lock)."""
    with transaction.atomic():
        # the notice's row only: its match and table are nullable (outer joins), which PostgreSQL will not lock
        obj = (Notice.objects.select_for_update(of=("self",)).select_related("match", "table__host")
               .filter(pk=notice_id).first())
        if obj is None or obj.emailed:
            return False
        user = get_user_model().objects.filter(pk=obj.user_id, is_active=True).first()
        if user is None or not user.email or not reads.should_email(user.pk, obj.match_id):
            return False
        with translation.override(settings.LANGUAGE_CODE):
            subject, body = _email_text(obj)
        send_mail(subject, body, None, [user.email])
        obj.emailed = True
        obj.save(update_fields=["emailed"])
    return True
