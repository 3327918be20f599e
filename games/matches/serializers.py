"""Request shapes of the matches API (validated with DRF); the response shapes are ``presenters``'."""

from typing import Any

from rest_framework import serializers


class NewMatchSerializer(serializers.Serializer[Any]):
    opponents = serializers.ChoiceField(choices=["bots"], default="bots")
    bot = serializers.CharField(required=False, allow_blank=True, allow_null=True, max_length=32,
                                help_text="Bot level; the default level when omitted.")
    seed = serializers.CharField(required=False, max_length=200, help_text="Staff only: reproduce deals.")


class ActionSerializer(serializers.Serializer[Any]):
    """Documentation only: the view checks the body itself so every malformed shape gets a clear code."""

    seq = serializers.IntegerField(help_text="The match's current seq, as last seen by the client.")
    bid = serializers.IntegerField(required=False, help_text="1..13, while bidding.")
    card = serializers.CharField(required=False, help_text='A card such as "QH", while playing.')
