"""Serializers of the players' side: rating list, profile, head-to-head, entries, check-in,
player requests, series, and "my match". None of them shows a login id."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from config.serializers import MomentField, StrictSerializer
from tournaments.selectors_players import SORTS


class PlayerBriefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    city = serializers.CharField()
    club = serializers.CharField()
    rating = serializers.IntegerField()


class RatingRowSerializer(PlayerBriefSerializer):
    place = serializers.IntegerField(help_text="Place in the whole list; equal ratings share.")
    change_30_days = serializers.IntegerField(source="change")


class RatingPageSerializer(serializers.Serializer[Any]):
    """One page of the rating list (limit/offset pagination)."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = RatingRowSerializer(many=True)


class RatingQuerySerializer(serializers.Serializer[Any]):
    search = serializers.CharField(required=False, allow_blank=True, max_length=100, default="")
    city = serializers.CharField(required=False, allow_blank=True, max_length=100, default="")
    club = serializers.CharField(required=False, allow_blank=True, max_length=100, default="")
    sort = serializers.ChoiceField(choices=list(SORTS), required=False, default="rating")


class TournamentBriefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    status = serializers.CharField()


class ChartPointSerializer(serializers.Serializer[Any]):
    rating = serializers.IntegerField()
    delta = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED in matches/web/api/serializers.py


class ProfileTournamentSerializer(serializers.Serializer[Any]):
    tournament = TournamentBriefSerializer()
    status = serializers.CharField(source="registration.status")
    place = serializers.CharField(allow_null=True)
    prize = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)


class MatchLineSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="match.pk")
    tournament = serializers.IntegerField(source="match.tournament_id")
    finished_at = serializers.DateTimeField(source="match.finished_at", allow_null=True)
    opponent = PlayerBriefSerializer(allow_null=True)
    won = serializers.BooleanField(allow_null=True)
    score_for = serializers.IntegerField(allow_null=True)
    score_against = serializers.IntegerField(allow_null=True)
    mark = serializers.CharField(
        allow_null=True,
        help_text='How it ended: "walkover", "forfeit", "time", "golden_ball", "corrected"; '
        "null for a race won.",
    )


class SeriesBriefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ProfileSerializer(serializers.Serializer[Any]):
    player = PlayerBriefSerializer()
    place = serializers.IntegerField()
    chart = ChartPointSerializer(many=True, help_text="Rating after each tournament, oldest first.")
    tournaments = ProfileTournamentSerializer(many=True)
    matches = MatchLineSerializer(many=True, help_text="The latest 30 matches with a result.")
    series = SeriesBriefSerializer(many=True)


class HeadToHeadSerializer(serializers.Serializer[Any]):
    player = PlayerBriefSerializer()
    opponent = PlayerBriefSerializer()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    balls_for = serializers.IntegerField()
    balls_against = serializers.IntegerField()
    ball_difference = serializers.IntegerField()
    matches = MatchLineSerializer(many=True)


class EntryRowSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    player = PlayerBriefSerializer()
    status = serializers.CharField()
    online = serializers.BooleanField()
    position = serializers.IntegerField(allow_null=True, help_text="On the reserve list: 1 = next.")
    checked_in = serializers.BooleanField()
    promoted = serializers.BooleanField(help_text="Moved up from the reserve list.")


class EntryStateSerializer(serializers.Serializer[Any]):
    state = serializers.ChoiceField(choices=["off", "not_open", "open", "closed"])
    opens_at = serializers.DateTimeField(allow_null=True)
    closes_at = serializers.DateTimeField(allow_null=True)
    min_rating = serializers.IntegerField(allow_null=True)
    max_rating = serializers.IntegerField(allow_null=True)
    max_players = serializers.IntegerField()
    entered = serializers.IntegerField()
    fee_due = serializers.DecimalField(
        max_digits=10, decimal_places=2, allow_null=True, help_text="Yours, from the fee bands."
    )
    mine = EntryRowSerializer(allow_null=True)
    reserves = EntryRowSerializer(many=True)


class EntrySettingsSerializer(StrictSerializer):
    online_entry = serializers.BooleanField(required=False)
    entry_opens_at = MomentField(required=False, allow_null=True)
    entry_closes_at = MomentField(required=False, allow_null=True)
    entry_min_rating = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=4000
    )
    entry_max_rating = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=4000
    )


class CheckInSerializer(StrictSerializer):
    present = serializers.BooleanField(required=False, default=True)


class RemoveAbsentSerializer(serializers.Serializer[Any]):
    removed = serializers.ListField(child=serializers.IntegerField())
    promoted = serializers.ListField(child=serializers.IntegerField())


class PlayerRequestWriteSerializer(StrictSerializer):
    name = serializers.CharField(max_length=200)
    city = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    club = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class PlayerRequestSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    city = serializers.CharField()
    club = serializers.CharField()
    status = serializers.CharField()
    player = serializers.IntegerField(source="player_id", allow_null=True)
    created_at = serializers.DateTimeField()


class PlayerRequestDecideSerializer(StrictSerializer):
    approve = serializers.BooleanField()


class SeriesWriteSerializer(StrictSerializer):
    name = serializers.CharField(max_length=200, required=False)
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    points_table = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=10_000),
        min_length=1,
        max_length=256,
        required=False,
    )
    participation_points = serializers.IntegerField(min_value=0, max_value=10_000, required=False)
    best_of = serializers.IntegerField(min_value=1, max_value=50, required=False, allow_null=True)
    is_public = serializers.BooleanField(required=False)
    tournaments = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        max_length=50,
        required=False,
        help_text="The stages' tournament ids, in stage order.",
    )


class SeriesSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    points_table = serializers.ListField(child=serializers.IntegerField())
    participation_points = serializers.IntegerField()
    best_of = serializers.IntegerField(allow_null=True)
    is_public = serializers.BooleanField()
    stages = serializers.SerializerMethodField()

    def get_stages(self, series: Any) -> list[dict[str, Any]]:
        stages = self.context.get("stages")
        if stages is None:
            return []
        return [
            {"number": s.number, "tournament": TournamentBriefSerializer(s.tournament).data}
            for s in stages
        ]


class StageScoreSerializer(serializers.Serializer[Any]):
    points = serializers.DecimalField(max_digits=10, decimal_places=2)
    place = serializers.CharField(source="label")
    counted = serializers.BooleanField()


class SeriesRowSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    shared = serializers.BooleanField()
    player = PlayerBriefSerializer()
    total = serializers.DecimalField(max_digits=12, decimal_places=2)
    all_total = serializers.DecimalField(max_digits=12, decimal_places=2)
    stages = serializers.ListField(
        child=StageScoreSerializer(allow_null=True),
        help_text="Per finished stage, in order; null where he did not play.",
    )


class SeriesStandingsSerializer(serializers.Serializer[Any]):
    series = serializers.IntegerField()
    stages = serializers.ListField(child=serializers.DictField())
    rows = SeriesRowSerializer(many=True)


class MyMatchSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    tournament = serializers.IntegerField()
    status = serializers.CharField()
    called = serializers.BooleanField()
    table = serializers.IntegerField(allow_null=True)
    opponent = PlayerBriefSerializer(allow_null=True)
    head_start = serializers.DictField(help_text='{"mine": n, "opponent": n}')
    balls_to_win = serializers.IntegerField(allow_null=True)
    frames_to_win = serializers.IntegerField(allow_null=True)
    score_url = serializers.CharField(allow_null=True, help_text="With self-scoring.")


class MeSerializer(serializers.Serializer[Any]):
    player = PlayerBriefSerializer(allow_null=True)
    next_match = MyMatchSerializer(allow_null=True)
    entries = EntryRowSerializer(many=True)
