"""Request and response shapes of the accounts API."""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from . import reads, usernames
from .commands import USERNAME_TAKEN

User = get_user_model()


class SignupSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(
        max_length=64, help_text=f"{usernames.ALLOWED_DESCRIPTION}; unique regardless of case, look-alike "
                                 "letters (Cyrillic а and Latin a are the same) and . _ - at either end.")
    password = serializers.CharField(write_only=True, trim_whitespace=False, max_length=128)
    email = serializers.EmailField(required=False, allow_blank=True)

    def validate_username(self, value: str) -> str:
        return self._free_name(value, except_user_id=None)

    @staticmethod
    def _free_name(value: str, except_user_id: int | None) -> str:
        """The sign-up's name rules: a valid name no other account has (or looks like)."""
        try:
            name = usernames.validate(value)
        except DjangoValidationError as err:
            raise serializers.ValidationError(err.messages, code="bad_username") from None
        if reads.username_taken(name, except_user_id=except_user_id):
            raise serializers.ValidationError(USERNAME_TAKEN, code="username_taken")
        return name

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        candidate = User(username=attrs["username"], email=attrs.get("email", ""))
        try:
            validate_password(attrs["password"], candidate)
        except DjangoValidationError as err:
            raise serializers.ValidationError({"password": list(err.messages)}, code="weak_password") from None
        return attrs


class KeepSerializer(SignupSerializer):
    """*Keep my games* by the API: the sign-up's rules, on the guest's own account (``context["user"]``), whose
    generated name may stay."""

    username = serializers.CharField(max_length=64, help_text="The name to keep: the generated one or another "
                                                              "by the sign-up's rules.")

    def validate_username(self, value: str) -> str:
        me = self.context["user"]
        if value == me.get_username():
            return value
        return self._free_name(value, except_user_id=me.pk)


class LoginSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(write_only=True, trim_whitespace=False, max_length=128)


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField()
    user_id = serializers.IntegerField()
    username = serializers.CharField()


class MeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField()
    is_staff = serializers.BooleanField()
    guest = serializers.BooleanField(help_text="A guest account (Play now): unrated only, no chat, until kept.")


class GuestSerializer(serializers.Serializer[Any]):
    user_id = serializers.IntegerField()
    username = serializers.CharField(help_text="The generated name.")
    guest = serializers.BooleanField()


class ApiTokenSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="The token's public id (not its key).")
    client = serializers.CharField(help_text="The User-Agent that asked for it.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="If unused until then; each use moves it on.")
    current = serializers.BooleanField(help_text="The token this request came with.")
