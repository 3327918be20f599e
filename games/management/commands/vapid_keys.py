"""``manage.py vapid_keys``: a new VAPID key pair for Web Push, as the environment variables to set."""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives import serialization
from django.core.management.base import BaseCommand
from py_vapid import Vapid
from py_vapid.utils import b64urlencode


class Command(BaseCommand):
    help = "Print a new VAPID key pair (P-256, base64url) for VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY."

    def handle(self, *args: Any, **options: Any) -> None:
        vapid = Vapid()
        vapid.generate_keys()
        public = vapid.public_key.public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint)
        private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
        self.stdout.write(f"VAPID_PUBLIC_KEY={b64urlencode(public)}\n")
        self.stdout.write(f"VAPID_PRIVATE_KEY={b64urlencode(private)}\n")
        self.stdout.write("# Keep the private key secret. Changing the pair makes every browser subscribe again.\n")
