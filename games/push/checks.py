"""``manage.py check``: VAPID keys that cannot work are said at start-up, not at the first push."""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core import checks
from py_vapid import Vapid
from py_vapid.utils import b64urlencode


@checks.register(checks.Tags.security)
def vapid_keys(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    public, private = settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY
    if not public and not private:
        return []
    if not (public and private):
        return [checks.Warning("Only one of VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY is set: push is off.",
                               hint="Set both (manage.py vapid_keys prints a pair).", id="push.W001")]
    try:
        derived = b64urlencode(Vapid.from_string(private).public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
    except Exception as err:  # py_vapid raises several kinds for a malformed key
        return [checks.Error(f"VAPID_PRIVATE_KEY is not a P-256 private key ({type(err).__name__}).",
                             hint="manage.py vapid_keys prints a pair.", id="push.E001")]
    if derived != public.rstrip("="):
        return [checks.Error("VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY.",
                             hint="Set the pair that manage.py vapid_keys printed together.", id="push.E002")]
    subject = settings.VAPID_SUBJECT
    if subject and not subject.startswith(("mailto:", "https://")):
        return [checks.Error("VAPID_SUBJECT must be a mailto: or https: URL.", id="push.E003")]
    return []
