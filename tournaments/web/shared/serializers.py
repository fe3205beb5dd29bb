"""API shapes the API faces share: the audit log's entries and pages."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from audit.models import AuditEntry


class AuditEntrySerializer(serializers.ModelSerializer[AuditEntry]):
    actor = serializers.CharField(
        source="actor_name", help_text='Username of who acted; "system" for the match clock.'
    )
    actor_id = serializers.IntegerField(allow_null=True, help_text="User id (null: system).")
    match_key = serializers.CharField(source="match.key", allow_null=True, default=None)
    # DRF's metaclass takes a declared field out of the class body: "data" is the key of the
    # entry, not Serializer.data, which the stubs cannot know.
    data = serializers.JSONField(  # type: ignore[assignment]
        help_text="What changed, per action."
    )
    imported = serializers.BooleanField(
        help_text="Brought in by import_tournament: recorded elsewhere, not witnessed here."
    )

    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "created_at",
            "actor",
            "actor_id",
            "action",
            "tournament",
            "match",
            "match_key",
            "data",
            "imported",
        ]
        read_only_fields = fields


class AuditPageSerializer(serializers.Serializer[Any]):
    """One page of the audit log, newest first (limit/offset pagination)."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = AuditEntrySerializer(many=True)
