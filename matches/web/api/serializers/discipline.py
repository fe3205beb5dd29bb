"""The discipline's description of a match (rules.describe), its texts translated: the view
of the state, and what the referee may enter now. Declared for the schema only: match_data
builds them (matches.texts)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


def _slot(**kw: Any) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=["a", "b"], **kw)


class PerSlotSerializer(serializers.Serializer[Any]):
    a = serializers.IntegerField()
    b = serializers.IntegerField()


class PerSlotMaybeSerializer(serializers.Serializer[Any]):
    a = serializers.IntegerField(allow_null=True)
    b = serializers.IntegerField(allow_null=True)


class ViewFactSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(help_text='Stable: "plus", "minus", "balls", "debt", ...')
    value = serializers.JSONField(allow_null=True)
    text = serializers.CharField()


class ViewPlayerSerializer(serializers.Serializer[Any]):
    score = serializers.IntegerField(allow_null=True, help_text="The headline number.")
    facts = ViewFactSerializer(many=True)
    colour = serializers.CharField(allow_null=True, help_text="His balls' colour, if any.")
    turn = serializers.BooleanField()
    winner = serializers.BooleanField()


class ViewPlayersSerializer(serializers.Serializer[Any]):
    a = ViewPlayerSerializer()
    b = ViewPlayerSerializer()


class ViewFeaturesSerializer(serializers.Serializer[Any]):
    time_limit = serializers.BooleanField()
    head_start = serializers.BooleanField()
    colours = serializers.BooleanField()


class ViewTableSerializer(serializers.Serializer[Any]):
    balls = serializers.IntegerField(allow_null=True)
    colours = PerSlotSerializer(allow_null=True)
    text = serializers.CharField(allow_null=True)


class ViewFrameSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(allow_null=True)
    of = serializers.IntegerField(allow_null=True)
    rack = serializers.IntegerField(allow_null=True)
    text = serializers.CharField(allow_null=True)


class ViewFrameRowSerializer(serializers.Serializer[Any]):
    frame = serializers.IntegerField()
    points = PerSlotSerializer()


class ViewFrameSummarySerializer(serializers.Serializer[Any]):
    frame = serializers.IntegerField()
    points = PerSlotSerializer()
    lines = serializers.ListField(child=serializers.CharField())
    rules = serializers.ListField(child=serializers.CharField())


class MatchViewSerializer(serializers.Serializer[Any]):
    """The discipline's view of the state (the same shape for every discipline)."""

    discipline = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED in config/serializers.py
    renderer = serializers.CharField(help_text="The referee form's renderer for it.")
    features = ViewFeaturesSerializer()
    finished = serializers.BooleanField()
    winner = _slot(allow_null=True)
    turn = _slot(allow_null=True)
    awaiting = serializers.CharField(allow_null=True)
    end_reason = serializers.CharField(allow_null=True)
    end_label = serializers.CharField(
        allow_null=True, help_text="How the match ended, in words (its discipline's)."
    )
    to_spot = serializers.IntegerField()
    spotting = serializers.CharField(allow_null=True, help_text="Where the balls to spot go.")
    penalty = serializers.CharField(
        allow_null=True,
        help_text="What the last event's penalty did to the balls, with its clause.",
    )
    score = PerSlotMaybeSerializer()
    score_kind = serializers.CharField(
        help_text='"points", "frames", "plus", "provisional_final", "final".'
    )
    score_label = serializers.CharField(allow_null=True)
    players = ViewPlayersSerializer()
    table = ViewTableSerializer()
    frame = ViewFrameSerializer()
    frames = PerSlotSerializer(allow_null=True, help_text="Frames won, if several.")
    frame_points = ViewFrameRowSerializer(many=True)
    frame_summary = ViewFrameSummarySerializer(allow_null=True)
    provisional = PerSlotSerializer(allow_null=True, help_text="Duplex frame 3 so far.")
    lines = serializers.ListField(child=serializers.CharField())
    notices = serializers.ListField(child=serializers.CharField())


class EntryChoiceSerializer(serializers.Serializer[Any]):
    value = serializers.CharField()
    label = serializers.CharField(allow_null=True, help_text="Null: the player's name.")  # type: ignore[assignment]  # the key "label": see SHADOWED in config/serializers.py
    player = _slot(allow_null=True)
    hint = serializers.CharField(allow_null=True)
    rule = serializers.CharField(allow_null=True)
    rule_label = serializers.CharField(allow_null=True)
    disabled = serializers.BooleanField()
    confirm = serializers.CharField(
        allow_null=True, help_text="Ask this before sending: the choice ends the match."
    )


class EntryFieldSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(help_text='The event\'s key; "pocketed.a": key a of pocketed.')
    kind = serializers.ChoiceField(choices=["count", "choice"])
    min = serializers.IntegerField(allow_null=True)
    max = serializers.IntegerField(allow_null=True)
    default = serializers.JSONField(allow_null=True)
    choices = EntryChoiceSerializer(many=True)
    prompt = serializers.CharField(allow_null=True)


class EntryLimitSerializer(serializers.Serializer[Any]):
    fields = serializers.ListField(child=serializers.CharField())  # type: ignore[assignment]  # the key "fields": see SHADOWED in config/serializers.py
    max = serializers.IntegerField(help_text="The sum of these fields is at most this.")


class FinishingResultSerializer(serializers.Serializer[Any]):
    a = serializers.IntegerField(allow_null=True)
    b = serializers.IntegerField(allow_null=True)
    winner = _slot(allow_null=True)


class EntryKindSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    type = serializers.CharField(help_text="The event's type.")
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED in config/serializers.py
    prompt = serializers.CharField(allow_null=True)
    rule = serializers.CharField(allow_null=True)
    player = _slot(allow_null=True, help_text="Who acts; null: a player field says.")
    fixed = serializers.DictField(help_text="The event's keys the kind sets itself.")
    fields = EntryFieldSerializer(many=True)  # type: ignore[assignment]  # the key "fields": see SHADOWED in config/serializers.py
    limits = EntryLimitSerializer(many=True)
    finishing = serializers.ListField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="The field values (name: count) that end the match: the form asks to confirm.",
    )
    results = FinishingResultSerializer(
        many=True, help_text="For each of `finishing`, the result it leaves (the form says it)."
    )


class MatchEntrySerializer(serializers.Serializer[Any]):
    """What the referee may enter now: who acts, the question, and the kinds of event."""

    awaiting = serializers.CharField(allow_null=True)
    player = _slot(allow_null=True)
    prompt = serializers.CharField(allow_null=True)
    kinds = EntryKindSerializer(many=True)
