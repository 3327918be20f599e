"""Request shape of the offline upload (documentation and the first check; the engine's verifier does the rest)."""

from typing import Any

from rest_framework import serializers


class OfflineMatchSerializer(serializers.Serializer[Any]):
    replay = serializers.JSONField(help_text="The `callbreak-replay/1` document the app exported at the match's end.")
