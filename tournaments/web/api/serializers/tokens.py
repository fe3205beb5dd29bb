"""API tokens: the password exchange's request, a token issued (shown once), its status."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.serializers import StrictSerializer


class TokenStatusSerializer(serializers.Serializer[Any]):
    exists = serializers.BooleanField()
    created = serializers.DateTimeField(allow_null=True)
    expires = serializers.DateTimeField(allow_null=True)
    hint = serializers.CharField(allow_null=True, help_text="the key's first 4 characters")


class TokenIssuedSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="shown once: send it as 'Authorization: Bearer <key>'")
    created = serializers.DateTimeField()
    expires = serializers.DateTimeField(help_text="after this, 401 token_expired: ask again")
    hint = serializers.CharField()


class TokenRequestSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)
