"""The Web Push API: the site's VAPID public key, my subscriptions (one per browser), my push preferences."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.web.api_errors import ERRORS
from games.web.bounds import StrictBooleanField
from games.web.users import signed_in

from . import commands, reads


class PublicKeySerializer(serializers.Serializer[Any]):
    enabled = serializers.BooleanField(help_text="Whether push is set up on this site (VAPID keys).")
    public_key = serializers.CharField(allow_null=True,
                                       help_text="The VAPID public key (base64url, uncompressed P-256 point): "
                                                 "PushManager.subscribe's applicationServerKey; null when push is off.")


class SubscriptionKeysSerializer(serializers.Serializer[Any]):
    p256dh = serializers.CharField(help_text="The browser's P-256 public key, base64url (65 bytes).")
    auth = serializers.CharField(help_text="The browser's auth secret, base64url (16 bytes).")


class SubscribeSerializer(serializers.Serializer[Any]):
    """The browser's ``PushSubscription.toJSON()``."""

    endpoint = serializers.CharField(help_text="The push service's https URL for this browser.")
    expirationTime = serializers.IntegerField(required=False, allow_null=True)  # noqa: N815 - the browser's name
    keys = SubscriptionKeysSerializer()


class SubscriptionIdSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()


class SubscriptionSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    endpoint = serializers.CharField()
    language = serializers.CharField(help_text="The language its pushes are written in.")
    client = serializers.CharField(help_text="The User-Agent that subscribed.")
    device = serializers.CharField(help_text='Its browser and system in short ("Chrome · Android"), or "".')
    created_at = serializers.DateTimeField()
    last_ok_at = serializers.DateTimeField(allow_null=True)
    last_fail_at = serializers.DateTimeField(allow_null=True)


class PreferencesSerializer(serializers.Serializer[Any]):
    your_turn = StrictBooleanField(required=False)
    reminder = StrictBooleanField(required=False)
    autopilot = StrictBooleanField(required=False)
    handed_over = StrictBooleanField(required=False)
    rematch = StrictBooleanField(required=False)
    quick_match = StrictBooleanField(
        required=False, help_text="A quick match found (nothing sends it today: seated people hear it on their tabs).")
    challenge = StrictBooleanField(required=False, help_text="A friend challenges me (a private table, a seat for me).")


class PushKeyView(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: PublicKeySerializer, **ERRORS},
                   summary="The site's VAPID public key, to subscribe a browser with",
                   description="`enabled` false (and `public_key` null) when push is not set up on this site (no "
                               "VAPID keys): an answer, not a 404, so a page asking logs no error.")
    def get(self, request: Request) -> Response:
        key = reads.public_key()
        return Response({"enabled": key is not None, "public_key": key})


class PushSubscriptionListView(APIView):
    @extend_schema(responses={200: SubscriptionSerializer(many=True), **ERRORS}, summary="My push subscriptions")
    def get(self, request: Request) -> Response:
        return Response(reads.subscriptions_json(signed_in(request)))

    @extend_schema(request=SubscribeSerializer, responses={201: SubscriptionIdSerializer,
                                                           200: SubscriptionIdSerializer, **ERRORS},
                   summary="Subscribe this browser to push notifications",
                   description="The body is the browser's `PushSubscription.toJSON()`. 201 with the new id; the "
                               "same endpoint again answers 200 with the same id (its keys and language updated). "
                               "Another account's endpoint moves to the caller (201) only with its keys (the same "
                               "browser), else 409 `endpoint_taken`. "
                               "Pushes are written in the language of this request. The endpoint must be https "
                               "on port 443 and resolve to public addresses only (400 `bad_endpoint`); keys must "
                               "be a P-256 point and a 16-byte secret (400 `bad_keys`); 409 `push_off` when push "
                               "is not set up. A person keeps the newest PUSH_SUBSCRIPTIONS_PER_USER subscriptions.")
    def post(self, request: Request) -> Response:
        ser = SubscribeSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        sub, created = commands.subscribe(signed_in(request), ser.validated_data,
                                          language=translation.get_language() or "",
                                          client=str(request.META.get("HTTP_USER_AGENT", "")))
        return Response({"id": sub.pk}, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class PushSubscriptionDetailView(APIView):
    @extend_schema(request=None, responses={204: None, **ERRORS}, summary="Remove one of my push subscriptions")
    def delete(self, request: Request, subscription_id: int) -> Response:
        commands.unsubscribe(signed_in(request), subscription_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PushPreferencesView(APIView):
    @extend_schema(responses={200: PreferencesSerializer, **ERRORS}, summary="Which notices I want pushed")
    def get(self, request: Request) -> Response:
        return Response(reads.preferences(signed_in(request).pk))

    @extend_schema(request=PreferencesSerializer, responses={200: PreferencesSerializer, **ERRORS},
                   summary="Turn kinds of push notice on or off")
    def patch(self, request: Request) -> Response:
        ser = PreferencesSerializer(data=request.data, partial=True)
        ser.is_valid(raise_exception=True)
        return Response(commands.set_preferences(signed_in(request), dict(ser.validated_data)))
