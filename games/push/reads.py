"""Reads of Web Push: whether it is on, a person's subscriptions and wishes, and what one notice says when pushed
(in the subscriber's language, never a card of anyone's hand)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.notices.models import Notice
from games.presence import reads as presence_reads
from games.tables.models import Table

from . import webpush
from .models import PushPreferences, PushSubscription

# Every kind of notice that may be pushed, in the settings page's order, with its label there. ``quick_match``:
# quick match (games/quickmatch) tells a seated person on their open tabs, so nothing records such a notice today.
KINDS: tuple[tuple[str, Any], ...] = (
    (Notice.Kind.YOUR_TURN, gettext_lazy("Your turn")),
    (Notice.Kind.REMINDER, gettext_lazy("Reminder before your time runs out")),
    (Notice.Kind.AUTOPILOT, gettext_lazy("The autopilot moved for you")),
    (Notice.Kind.HANDED_OVER, gettext_lazy("A bot took over your seat")),
    (Notice.Kind.REMATCH, gettext_lazy("Invitation to a rematch")),
    (Notice.Kind.QUICK_MATCH, gettext_lazy("A quick match was found")),
    (Notice.Kind.CHALLENGE, gettext_lazy("A friend challenges you")),
)
KIND_NAMES = tuple(str(kind) for kind, _label in KINDS)

# How long a push service keeps a push for a browser that is offline: a turn's news goes stale fast.
TTL_SECONDS = {
    Notice.Kind.YOUR_TURN: 3600,
    Notice.Kind.REMINDER: 1800,
    Notice.Kind.AUTOPILOT: 6 * 3600,
    Notice.Kind.HANDED_OVER: 24 * 3600,
    Notice.Kind.REMATCH: 24 * 3600,
    Notice.Kind.QUICK_MATCH: 300,
    Notice.Kind.CHALLENGE: 3600,
}
URGENT = {Notice.Kind.YOUR_TURN, Notice.Kind.REMINDER, Notice.Kind.QUICK_MATCH, Notice.Kind.CHALLENGE}


def push_on() -> bool:
    return webpush.configured()


def public_key() -> str | None:
    """The VAPID public key browsers subscribe with (base64url), or None when push is off."""
    return str(settings.VAPID_PUBLIC_KEY) if push_on() else None


def preferences(user_id: int) -> dict[str, bool]:
    """Which kinds the person wants pushed (every kind until they say otherwise)."""
    row = PushPreferences.objects.filter(user_id=user_id).first()
    return {kind: row is None or bool(getattr(row, kind)) for kind in KIND_NAMES}


def should_push(user_id: int, match_id: int | None, kind: str) -> bool:
    """Push is on, the person wants this kind, and does not have the match page open (emails agree: no email
    then either)."""
    return (push_on() and preferences(user_id).get(kind, False)
            and not (match_id is not None and presence_reads.on_match_page(user_id, match_id))
            and get_user_model().objects.filter(pk=user_id, is_active=True).exists())


def subscription_ids(user_id: int) -> list[int]:
    return list(PushSubscription.objects.filter(user_id=user_id).order_by("id").values_list("pk", flat=True))


# (User-Agent token, name) in the order to look for them: Edge and Opera say "Chrome" too, Chrome says "Safari".
_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser/", "Samsung Internet"), ("Firefox/", "Firefox"),
             ("FxiOS/", "Firefox"), ("CriOS/", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))
_SYSTEMS = (("Android", "Android"), ("iPhone", "iOS"), ("iPad", "iPadOS"), ("Windows", "Windows"),
            ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))


def device(client: str) -> str:
    """A short name for a subscriber's User-Agent ("Chrome on Android"), or "" when it says nothing known."""
    browser = next((name for token, name in _BROWSERS if token in client), "")
    system = next((name for token, name in _SYSTEMS if token in client), "")
    return f"{browser} · {system}" if browser and system else browser or system


def subscription_json(sub: PushSubscription) -> dict[str, Any]:
    return {
        "id": sub.pk,
        "endpoint": sub.endpoint,
        "language": sub.language,
        "client": sub.client,
        "device": device(sub.client),
        "created_at": sub.created_at.isoformat(),
        "last_ok_at": sub.last_ok_at.isoformat() if sub.last_ok_at else None,
        "last_fail_at": sub.last_fail_at.isoformat() if sub.last_fail_at else None,
    }


def subscriptions_json(user: User) -> list[dict[str, Any]]:
    return [subscription_json(s) for s in PushSubscription.objects.filter(user=user).order_by("-created_at", "-id")]


def language_of(code: str | None) -> str:
    """One of the site's languages for ``code`` (a browser's or a page's), else the site's default."""
    if code:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            pass
    return str(settings.LANGUAGE_CODE)


def _time_left(seconds: float) -> str:
    if seconds >= 2 * 3600:
        return _("about %(hours)d hours") % {"hours": round(seconds / 3600)}
    return _("about %(minutes)d minutes") % {"minutes": max(1, round(seconds / 60))}


def ttl(notice: Notice) -> int:
    """Seconds the push service may hold this notice: its kind's, and no longer than the turn it is about."""
    seconds = TTL_SECONDS.get(Notice.Kind(notice.kind), 3600)
    deadline = notice.match.deadline if notice.match is not None else None
    if deadline and notice.kind in (Notice.Kind.YOUR_TURN, Notice.Kind.REMINDER):
        seconds = min(seconds, int((deadline - timezone.now()).total_seconds()))
    return max(0, seconds)


def payload(notice: Notice, language: str) -> dict[str, Any]:
    """``{"type", "match_id", "title", "body", "url"}`` in ``language``: which match and what to do, no cards."""
    if notice.kind == Notice.Kind.CHALLENGE:  # a table, no match yet
        with translation.override(language_of(language)):
            host = notice.table.host.get_username() if notice.table is not None else ""
            return {"type": str(Notice.Kind.CHALLENGE), "match_id": None, "table_id": notice.table_id,
                    "title": _("A challenge"), "body": _("%(name)s challenges you to a match.") % {"name": host},
                    "url": f"/tables/{notice.table_id}/"}
    match = notice.match
    assert match is not None
    url = f"/play/{match.pk}/"
    with translation.override(language_of(language)):
        left = ""
        if match.deadline and match.status == "active":
            left = _time_left(max(0.0, (match.deadline - timezone.now()).total_seconds()))
        kind = Notice.Kind(notice.kind)
        if kind == Notice.Kind.YOUR_TURN:
            title = _("Your turn")
            body = (_("Match %(id)s: your move, %(left)s left.") if left else _("Match %(id)s: your move.")) % {
                "id": match.pk, "left": left}
        elif kind == Notice.Kind.REMINDER:
            title = _("Your move is due soon")
            body = _("Match %(id)s: %(left)s left before the autopilot moves for you.") % {
                "id": match.pk, "left": left or _("little time")}
        elif kind == Notice.Kind.AUTOPILOT:
            title = _("The autopilot moved for you")
            body = _("Match %(id)s: your time ran out, so a bot made your move.") % {"id": match.pk}
        elif kind == Notice.Kind.HANDED_OVER:
            title = _("A bot now plays your seat")
            body = _("Match %(id)s: after missed turns a bot plays your seat to the end.") % {"id": match.pk}
        elif kind == Notice.Kind.REMATCH:
            title = _("Rematch?")
            body = _("You are invited to a rematch of match %(id)s.") % {"id": match.pk}
            table = Table.objects.filter(rematch_of=match).first()
            if table is not None:
                url = f"/invite/{table.invite_code}/"
        else:  # Notice.Kind.QUICK_MATCH
            title = _("A match was found")
            body = _("Match %(id)s is ready: your seat is waiting.") % {"id": match.pk}
    return {"type": str(kind), "match_id": match.pk, "title": title, "body": body, "url": url}
