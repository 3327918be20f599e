"""Commands of Web Push: subscribe a browser, remove one, set which kinds a person wants pushed, and push one
notice to one subscription, once.

``push_notice`` is what the ``push`` queue's task calls. It makes the (notice, subscription) delivery row and
locks it before pushing, as ``send_notice_email`` locks the notice before its email: a redelivered or repeated
task finds the row done and pushes nothing. The lock is held over the request (a push service answers in well
under its timeout), so a twin task waits instead of pushing alongside.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
import logging
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.notices.models import Notice
from games.platform.errors import GameError, NotFound

from . import endpoints, reads, webpush
from .models import PushDelivery, PushPreferences, PushSubscription

log = logging.getLogger(__name__)


class PushOff(GameError):
    """Push is not set up on this site (no VAPID keys)."""

    def __init__(self, status: int = 409) -> None:
        super().__init__("push_off", "Push notifications are not set up on this site.")
        self.status = status


def _b64url(value: Any, name: str, length: int) -> bytes:
    if not isinstance(value, str) or not value or len(value) > 200:
        raise GameError("bad_keys", f"keys.{name} must be a base64url string.")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise GameError("bad_keys", f"keys.{name} is not base64url.") from None
    if len(raw) != length:
        raise GameError("bad_keys", f"keys.{name} must be {length} bytes, not {len(raw)}.")
    return raw


class EndpointTaken(GameError):
    """Another account's subscription has this endpoint, with other keys (409 ``endpoint_taken``)."""

    status = 409

    def __init__(self) -> None:
        super().__init__("endpoint_taken", "This endpoint is another account's push subscription; only the "
                                           "browser that holds it (the same keys) can move it to you.")


def _check_keys(p256dh: Any, auth: Any) -> bytes:
    """The browser's P-256 public key (65 bytes, a point on the curve) and its 16-byte auth secret, both
    decoded, as one value to compare."""
    raw = _b64url(p256dh, "p256dh", 65)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        raise GameError("bad_keys", "keys.p256dh is not a P-256 public key.") from None
    return raw + _b64url(auth, "auth", 16)


def _held_by_caller(sub: PushSubscription, user: User, keys: bytes) -> bool:
    """Whether ``user`` may update or take ``sub``: it is theirs, or they sent its keys. The endpoint alone
    moves nothing: it is a URL that leaks (logs, a shared screen), while the auth secret stays in the browser
    that subscribed; a browser signed in to another account sends the same keys."""
    if sub.user_id == user.pk:
        return True
    try:
        stored = _check_keys(sub.p256dh, sub.auth)
    except GameError:
        return False
    return hmac.compare_digest(stored, keys)


def subscribe(user: User, data: Any, *, language: str, client: str = "") -> tuple[PushSubscription, bool]:
    """Store the browser's ``PushSubscription.toJSON()`` for ``user``; (subscription, created). The same endpoint
    again updates the one stored (its keys, language). An endpoint another account subscribed moves to ``user``
    only with the same keys (the same browser, signed in to another account); with other keys it stays its
    owner's (``EndpointTaken``; a stale one is deleted when its push service answers 404 or 410). A person keeps
    the newest ``PUSH_SUBSCRIPTIONS_PER_USER``; older ones are dropped."""
    if not reads.push_on():
        raise PushOff()
    if not isinstance(data, dict):
        raise GameError("invalid", "Send the browser's PushSubscription.toJSON(): {endpoint, keys: {p256dh, auth}}.")
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise GameError("bad_keys", "keys must be an object with p256dh and auth.")
    sent_keys = _check_keys(keys.get("p256dh"), keys.get("auth"))
    endpoint = endpoints.check_for_subscription(data.get("endpoint"))  # type: ignore[arg-type]
    fields = {"user": user, "p256dh": keys["p256dh"], "auth": keys["auth"], "language": reads.language_of(language),
              "client": client[:120]}
    with transaction.atomic():
        sub = PushSubscription.objects.select_for_update().filter(endpoint=endpoint.url).first()
        created = sub is None
        if sub is None:
            try:
                with transaction.atomic():
                    sub = PushSubscription.objects.create(endpoint=endpoint.url, **fields)
            except IntegrityError:  # the same endpoint subscribed twice at once
                sub = PushSubscription.objects.select_for_update().get(endpoint=endpoint.url)
                created = False
        if not created:
            if not _held_by_caller(sub, user, sent_keys):
                raise EndpointTaken()
            created = sub.user_id != user.pk
            _update(sub, fields)
        keep = list(PushSubscription.objects.filter(user=user).order_by("-created_at", "-id")
                    .values_list("pk", flat=True)[:settings.PUSH_SUBSCRIPTIONS_PER_USER])
        PushSubscription.objects.filter(user=user).exclude(pk__in=keep).exclude(pk=sub.pk).delete()
    return sub, created


def _update(sub: PushSubscription, fields: dict[str, Any]) -> None:
    if sub.user_id != fields["user"].pk:
        sub.created_at = timezone.now()  # a new subscriber: newest of theirs
    for name, value in fields.items():
        setattr(sub, name, value)
    sub.save()


def unsubscribe(user: User, subscription_id: int) -> None:
    if not PushSubscription.objects.filter(pk=subscription_id, user=user).delete()[0]:
        raise NotFound("No such push subscription of yours.")


def set_preferences(user: User, changes: dict[str, bool]) -> dict[str, bool]:
    with transaction.atomic():
        row, _ = PushPreferences.objects.select_for_update().get_or_create(user=user)
        for kind, on in changes.items():
            if kind in reads.KIND_NAMES:
                setattr(row, kind, bool(on))
        row.save()
    return reads.preferences(user.pk)


# --- pushing a notice -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Outcome:
    """What became of one push: ``sent``, ``skipped`` (nothing to do, or done before), ``gone`` (the service
    forgot the subscription: deleted), ``refused`` (the endpoint is not public now), ``failed``, or ``retry``
    (after ``delay`` seconds)."""

    result: str
    detail: str = ""
    delay: float = 0.0


def _backoff(attempt: int, retry_after: str | None) -> float:
    if retry_after and retry_after.strip().isdigit():
        return float(min(int(retry_after), 600))
    return float(min(5 * 3 ** attempt, 300))  # 5 s, 15 s, 45 s, 135 s


def push_notice(notice_id: int, subscription_id: int, *, last_try: bool = False) -> Outcome:
    """Push one notice to one subscription, at most once (see the module's doc)."""
    if not reads.push_on():
        return Outcome("skipped", "push is off")
    with transaction.atomic():
        notice = Notice.objects.select_related("match", "table__host").filter(pk=notice_id).first()
        sub = PushSubscription.objects.filter(pk=subscription_id).first()
        if notice is None or sub is None or sub.user_id != notice.user_id:
            return Outcome("skipped", "no such notice or subscription")
        try:
            with transaction.atomic():
                PushDelivery.objects.get_or_create(notice=notice, subscription=sub)
        except IntegrityError:
            pass  # a twin made it a moment ago: the lock below waits for it
        delivery = PushDelivery.objects.select_for_update().get(notice=notice, subscription=sub)
        if delivery.status != PushDelivery.Status.PENDING:
            return Outcome("skipped", f"already {delivery.status}")
        outcome = _push(notice, sub, delivery, last_try=last_try)
        if outcome.result != "gone":
            delivery.attempts += 1
            if outcome.result != "retry":
                delivery.status = {"sent": PushDelivery.Status.SENT, "skipped": PushDelivery.Status.SKIPPED}.get(
                    outcome.result, PushDelivery.Status.FAILED)
                delivery.done_at = timezone.now()
            delivery.detail = outcome.detail[:200]
            delivery.save()
    return outcome


def _topic(notice: Notice) -> str:
    """One notification per match (a newer one replaces it), or per challenged table."""
    return f"match-{notice.match_id}" if notice.match_id is not None else f"table-{notice.table_id}"


def _push(notice: Notice, sub: PushSubscription, delivery: PushDelivery, *, last_try: bool) -> Outcome:
    if not reads.should_push(notice.user_id, notice.match_id, notice.kind):
        return Outcome("skipped", "not wanted now (turned off, or the match page is open)")
    ttl = reads.ttl(notice)
    if ttl <= 0:
        return Outcome("skipped", "the turn is over")
    data = json.dumps(reads.payload(notice, sub.language), ensure_ascii=False).encode()
    now = timezone.now()
    try:
        endpoint = endpoints.parse(sub.endpoint)
        answer = webpush.send(endpoint, sub.p256dh, sub.auth, data, ttl=ttl, topic=_topic(notice),
                              urgency="high" if notice.kind in reads.URGENT else "normal")
    except endpoints.EndpointRefused as err:
        _failed(sub, now, err.detail)
        log.warning("push to subscription %s refused: %s", sub.pk, err.detail)
        return Outcome("refused", err.detail)
    except webpush.TransientError as err:
        _failed(sub, now, str(err))
        return Outcome("failed" if last_try else "retry", str(err), _backoff(delivery.attempts, None))
    if 200 <= answer.status < 300:
        sub.last_ok_at = now
        sub.save(update_fields=["last_ok_at"])
        return Outcome("sent", f"HTTP {answer.status}")
    detail = f"HTTP {answer.status}: {answer.body[:120].decode('utf-8', 'replace')}"
    if answer.status in (404, 410):  # the browser unsubscribed or the service forgot it: it will never work again
        sub.delete()
        log.info("push subscription %s is gone (%s); deleted", sub.pk, answer.status)
        return Outcome("gone", detail)
    _failed(sub, now, detail)
    if (answer.status == 429 or answer.status >= 500) and not last_try:
        return Outcome("retry", detail, _backoff(delivery.attempts, answer.retry_after))
    log.warning("push to subscription %s failed: %s", sub.pk, detail)
    return Outcome("failed", detail)


def _failed(sub: PushSubscription, now: Any, detail: str) -> None:
    sub.last_fail_at = now
    sub.last_error = detail[:200]
    sub.save(update_fields=["last_fail_at", "last_error"])
