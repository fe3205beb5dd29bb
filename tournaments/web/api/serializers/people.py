"""Serializers of the people endpoints: referees' logins, claim codes, merges, history."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.serializers import StrictSerializer


class RefereeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField(help_text="Full name, may be empty.")
    issued = serializers.BooleanField(
        help_text="The login was made in the panel: its password can be reset there."
    )


class RefereeAddSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150, help_text="An existing login.")


class RefereeLoginCreateSerializer(StrictSerializer):
    username = serializers.CharField(max_length=150)
    name = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")


class IssuedPasswordSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    password = serializers.CharField(help_text="Shown this once; only its hash is stored.")
    login_url = serializers.CharField()


class ClaimIssueSerializer(StrictSerializer):
    tournament = serializers.IntegerField(
        required=False, allow_null=True, help_text="The tournament the slip is printed for."
    )


class ClaimCodeSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    code = serializers.CharField(help_text="Shown this once; only its hash is stored.")
    claim_url = serializers.CharField()
    expires_at = serializers.DateTimeField()


class ClaimRedeemSerializer(StrictSerializer):
    code = serializers.CharField(max_length=40)


class MergeSerializer(StrictSerializer):
    drop = serializers.IntegerField(help_text="The duplicate record; it is deleted.")
