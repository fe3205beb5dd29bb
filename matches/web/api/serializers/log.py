"""A match's log: the query of a page, an entry as the log gives it, the page."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.serializers import INT_MAX, QueryIntegerField, component
from matches.models import MatchEvent
from matches.representation import log_event_data


@extend_schema_field(component("LogEntryEvent"))
class LogEntryEventField(serializers.JSONField):
    """An entry's event as the log gives it: an engine event, or {"seq": n} for an undo."""


EVENTS_PAGE = 500  # entries of a match's log per read; a long match has a few hundred


class MatchLogQuerySerializer(serializers.Serializer[Any]):
    after = QueryIntegerField(
        min_value=0,
        max_value=INT_MAX,
        required=False,
        default=0,
        help_text=_("Only entries after this seq (for polling)."),
    )
    limit = QueryIntegerField(
        min_value=1,
        max_value=EVENTS_PAGE,
        required=False,
        default=EVENTS_PAGE,
        help_text=_("At most this many entries; the answer's next_after continues."),
    )


class MatchEventSerializer(serializers.Serializer[Any]):
    seq = serializers.IntegerField(help_text=_("Position in the log; the version after it."))
    kind = serializers.ChoiceField(choices=MatchEvent.Kind.choices)
    event = LogEntryEventField(
        source="payload",
        help_text=_('The engine event; for an undo, {"seq": n} of the entry it cancels.'),
    )
    undone = serializers.BooleanField()
    undoes = serializers.IntegerField(
        allow_null=True, help_text=_("For an undo, the seq of the entry it cancels.")
    )
    source = serializers.CharField(help_text=_("organiser, referee, player or clock"))  # type: ignore[assignment]  # the key "source": see SHADOWED in config/serializers.py
    created_at = serializers.DateTimeField()
    text = serializers.CharField(
        help_text=_("The entry in one sentence, in the request's language (its discipline's).")
    )

    def to_representation(self, instance: MatchEvent) -> dict[str, Any]:
        # One function for the log and the write answers (matches.representation); the log's
        # view gives the match and the players' names.
        return log_event_data(instance, self.context["match"], self.context["names"])


class MatchEventLogSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    events = MatchEventSerializer(many=True)
    next_after = serializers.IntegerField(
        allow_null=True,
        default=None,
        help_text=_("More entries follow: ask again with after=next_after. Null: the log's end."),
    )
