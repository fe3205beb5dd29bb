"""The query of a tournament's audit log; its page is tournaments.web.shared.serializers
(the matches API answers a match's log with it too)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.serializers import BIGINT_MAX, QueryIntegerField


class AuditQuerySerializer(serializers.Serializer[Any]):
    match = QueryIntegerField(
        required=False,
        min_value=1,
        max_value=BIGINT_MAX,
        help_text="Only the entries of this match.",
    )
