"""The player registry (/players/): a player, his rating history, the organisers' writes and
the search."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.serializers import StrictSerializer
from tournaments.access import can_see_player_login
from tournaments.models import Player, RatingChange
from tournaments.web.api.serializers.common import PlayerRefSerializer, rating_field


class PlayerSerializer(serializers.ModelSerializer[Player]):
    user: serializers.PrimaryKeyRelatedField[User] = serializers.PrimaryKeyRelatedField(
        read_only=True,
        allow_null=True,
        help_text="Linked login (user id), shown to the player himself, organisers and "
        "superusers (context `request`); null for everybody else, as for no login.",
    )
    registration_status = serializers.SerializerMethodField(
        help_text='With ?tournament=: "active" or "withdrawn" in it, null if not registered.'
    )

    class Meta:
        model = Player
        fields = [
            "id",
            "name",
            "city",
            "club",
            "rating",
            "user",
            "registration_status",
            "created_at",
            "updated_at",
        ]

    def get_registration_status(self, player: Player) -> str | None:
        status: str | None = self.context.get("statuses", {}).get(player.pk)
        return status

    def to_representation(self, player: Player) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(player)
        request = self.context.get("request")
        if request is None or not can_see_player_login(request.user, player):
            data["user"] = None
        return data


class RatingChangeSerializer(serializers.ModelSerializer[RatingChange]):
    tournament_name = serializers.CharField(source="tournament.name", default=None)
    opponent = PlayerRefSerializer(allow_null=True)

    class Meta:
        model = RatingChange
        fields = [
            "id",
            "tournament",
            "tournament_name",
            "match",
            "opponent",
            "rating_before",
            "rating_after",
            "delta",
            "reason",
            "created_at",
        ]


class RatingLineSerializer(RatingChangeSerializer):
    """A line of the rating history as the schema shows it: a rating change, or the one line
    (reason "private", no id) that sums the changes of tournaments the reader may not see."""

    id = serializers.IntegerField(allow_null=True)
    rating_before = serializers.IntegerField(allow_null=True)
    rating_after = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField(allow_null=True)


class PlayerDetailSerializer(PlayerSerializer):
    rating_history = serializers.SerializerMethodField()

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "rating_history"]

    @extend_schema_field(RatingLineSerializer(many=True))
    def get_rating_history(self, player: Player) -> list[dict[str, Any]]:
        history = self.context["rating_history"]
        lines = list(RatingChangeSerializer(history.visible, many=True).data)
        if history.private_count:
            # The private tournaments' changes in one line, with no date, tournament or
            # opponent: the lines still add up to the rating everybody sees.
            lines.append(
                {
                    "id": None,
                    "tournament": None,
                    "tournament_name": str(_("Private tournaments")),
                    "match": None,
                    "opponent": None,
                    "rating_before": None,
                    "rating_after": None,
                    "delta": history.private_delta,
                    "reason": "private",
                    "created_at": None,
                }
            )
        return lines


class PlayerWriteSerializer(StrictSerializer):
    name = serializers.CharField(max_length=200)
    city = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    club = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    rating = rating_field(
        required=False, allow_null=True, help_text=_("Empty: the starting rating.")
    )
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Create although a player with this name (and city) exists: a namesake.",
    )


class PlayerUpdateSerializer(StrictSerializer):
    name = serializers.CharField(max_length=200, required=False)
    city = serializers.CharField(max_length=100, required=False, allow_blank=True)
    club = serializers.CharField(max_length=100, required=False, allow_blank=True)
    rating = rating_field(
        required=False, help_text="A superuser's adjustment (recorded in the rating history)."
    )
    user = serializers.PrimaryKeyRelatedField(
        queryset=get_user_model().objects.all(),
        required=False,
        allow_null=True,
        help_text="A superuser's direct link (user id) or unlink (null); organisers use "
        "claim codes.",
    )


class PlayerSearchQuerySerializer(serializers.Serializer[Any]):
    search = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=100,
        help_text="Words, each the start of a word of the name, in any order; case, the letters "
        "yo and ye (U+0451, U+0435) and "
        "spaces do not matter.",
    )
    tournament = serializers.IntegerField(
        required=False, help_text="Show each player's registration status in this tournament."
    )
