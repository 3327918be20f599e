"""Request shapes (validated with DRF) and response shapes (for the OpenAPI document)."""

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

User = get_user_model()


class SignupSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, trim_whitespace=False, max_length=128)
    email = serializers.EmailField(required=False, allow_blank=True)

    def validate_username(self, value: str) -> str:
        User.username_validator(value)
        if User.objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("That username is taken.", code="username_taken")
        return value

    def validate(self, attrs: dict) -> dict:
        candidate = User(username=attrs["username"], email=attrs.get("email", ""))
        try:
            validate_password(attrs["password"], candidate)
        except DjangoValidationError as err:
            raise serializers.ValidationError({"password": list(err.messages)}, code="weak_password") from None
        return attrs


class LoginSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, trim_whitespace=False, max_length=128)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    user_id = serializers.IntegerField()
    username = serializers.CharField()


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    is_staff = serializers.BooleanField()


class NewMatchSerializer(serializers.Serializer):
    opponents = serializers.ChoiceField(choices=["bots"], default="bots")
    bot = serializers.CharField(required=False, allow_blank=True, allow_null=True, max_length=32,
                                help_text="Bot level; the default level when omitted.")
    seed = serializers.CharField(required=False, max_length=200, help_text="Staff only: reproduce deals.")


class ActionSerializer(serializers.Serializer):
    """Documentation only: the view checks the body itself so every malformed shape gets a clear code."""

    seq = serializers.IntegerField(help_text="The match's current seq, as last seen by the client.")
    bid = serializers.IntegerField(required=False, help_text="1..13, while bidding.")
    card = serializers.CharField(required=False, help_text='A card such as "QH", while playing.')


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField()


class MatchViewSerializer(serializers.Serializer):
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


class MatchSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    seq = serializers.IntegerField()
    turn = serializers.IntegerField(allow_null=True)
    you = serializers.IntegerField()
    your_turn = serializers.BooleanField()
    seed_commitment = serializers.CharField()
    seats = serializers.JSONField()
