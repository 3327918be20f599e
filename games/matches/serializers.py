"""Request shapes (validated with DRF) and response shapes (for the OpenAPI document) of the matches API."""

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


class MatchViewSerializer(serializers.Serializer[Any]):
    """The caller's view: the engine's player view plus site fields (see docs/engine-api.md)."""

    id = serializers.IntegerField()
    seq = serializers.IntegerField()
    status = serializers.CharField()
    seat = serializers.IntegerField()
    phase = serializers.CharField()
    turn = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    hand = serializers.ListField(child=serializers.CharField())
    legal = serializers.ListField(child=serializers.JSONField())
    locked = serializers.DictField(child=serializers.CharField())
    bids = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    tricks_won = serializers.ListField(child=serializers.IntegerField())
    trick = serializers.JSONField()
    totals = serializers.ListField(child=serializers.IntegerField(), help_text="Tenths: 42 means 4.2.")
    seats = serializers.JSONField()
    seed_commitment = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="Only once the match is finished.")
    table_id = serializers.IntegerField(allow_null=True, help_text="Once finished: the table it came from.")
    rematch_table_id = serializers.IntegerField(allow_null=True, help_text="Once finished: its rematch, if asked.")
    rating = serializers.JSONField(allow_null=True, help_text="Once rated: my conservative rating before, after.")


class MatchSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.CharField()
    seq = serializers.IntegerField()
    turn = serializers.IntegerField(allow_null=True)
    you = serializers.IntegerField()
    your_turn = serializers.BooleanField()
    seed_commitment = serializers.CharField()
    seats = serializers.JSONField()
