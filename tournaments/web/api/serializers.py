"""API shapes: input parsing (the services decide what is allowed) and output descriptions that
drf-spectacular turns into the OpenAPI schema. Money is a string."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.serializers import (
    BIGINT_MAX,
    LIST_ERRORS,
    DayField,
    ErrorSerializer,
    NamesChoiceField,
    QueryIntegerField,
    StrictSerializer,
    component,
)
from matches.models import Match
from rules import registry as rules_registry
from tournaments.access import can_manage_tournament, can_see_player_login
from tournaments.algorithms import handicap
from tournaments.models import Player, RatingChange, Registration, Tournament
from tournaments.presets import PRESETS
from tournaments.services.entry_rules import registration_state
from tournaments.services.players import MAX_RATING, MIN_RATING
from tournaments.services.setup import (
    MAX_LOGO_CHARS,
    MAX_PLAYERS,
    MAX_REGULATION_TEXT,
    MAX_TIME_LIMIT,
    SETTINGS_FIELDS,
)

__all__ = ["ErrorSerializer"]  # the one error body, described where the API describes errors


def _enum(choices: Any) -> serializers.ChoiceField:
    """A read-only closed set: an enum in the schema (named in ENUM_NAME_OVERRIDES, since
    three models have a "status")."""
    return serializers.ChoiceField(choices=choices, read_only=True)


# Bounds of the product (the services check the same) and of the columns: a number past them
# is a 400 naming its field, never a value the database refuses (or stores, and then chokes on).
MONEY_MAX = Decimal("99999999.99")  # DecimalField(max_digits=10, decimal_places=2)
MAX_FEE_BANDS = 50
MAX_PLACES = MAX_PLAYERS  # a share per place, at most one place per player


@extend_schema_field(component("RulesetChange"))
class RulesetChangeField(serializers.JSONField):
    """Keys of the rules engine to set (validated by the engine with the other settings)."""


@extend_schema_field(component("Ruleset"))
class RulesetField(serializers.JSONField):
    pass


_STAGE_RULES: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "balls_to_win": {"type": "integer", "minimum": 1, "maximum": 200},
        "frames_to_win": {"type": "integer", "minimum": 1, "maximum": 25},
        "time_limit_minutes": {"type": ["integer", "null"], "minimum": 1, "maximum": 600},
        "pair_race": {
            "type": "object",
            "description": "The race by the pair's ratings: bands of their sum or difference, "
            "each up to a figure (inclusive; the last open), setting frames_to_win and/or "
            "balls_to_win.",
            "additionalProperties": False,
            "required": ["by", "bands"],
            "properties": {
                "by": {"type": "string", "enum": ["sum", "difference"]},
                "bands": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 10,
                    "items": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "up_to": {"type": ["integer", "null"], "minimum": 0, "maximum": 10000},
                            "frames_to_win": {"type": "integer", "minimum": 1, "maximum": 200},
                            "balls_to_win": {"type": "integer", "minimum": 1, "maximum": 200},
                        },
                    },
                },
            },
        },
    },
}


@extend_schema_field(component("MatchRuleset"))
class MatchRulesetField(serializers.JSONField):
    """A match's effective ruleset (empty while its players are not known)."""


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": False,
        "properties": dict.fromkeys(("upper", "lower", "playoff", "group"), _STAGE_RULES),
        "description": "Per stage: the race and the time limit that override the tournament's.",
    }
)
class StageRulesField(serializers.JSONField):
    pass


def _rating(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=MIN_RATING, max_value=MAX_RATING, **kwargs)


def _money(**kwargs: Any) -> serializers.DecimalField:
    kwargs.setdefault("min_value", Decimal(0))
    kwargs.setdefault("required", False)
    return serializers.DecimalField(max_digits=10, decimal_places=2, max_value=MONEY_MAX, **kwargs)


def _id(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=BIGINT_MAX, **kwargs)


# --- players -------------------------------------------------------------------------------


class PlayerRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


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
    rating = _rating(required=False, allow_null=True, help_text=_("Empty: the starting rating."))
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Create although a player with this name (and city) exists: a namesake.",
    )


class PlayerUpdateSerializer(StrictSerializer):
    name = serializers.CharField(max_length=200, required=False)
    city = serializers.CharField(max_length=100, required=False, allow_blank=True)
    club = serializers.CharField(max_length=100, required=False, allow_blank=True)
    rating = _rating(
        required=False, help_text="A superuser's adjustment (recorded in the rating history)."
    )
    user = serializers.PrimaryKeyRelatedField(
        queryset=get_user_model().objects.all(),
        required=False,
        allow_null=True,
        help_text="A superuser's direct link (user id) or unlink (null); organisers use "
        "claim codes.",
    )


# --- tournaments -----------------------------------------------------------------------------


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    ruleset = RulesetField(read_only=True)
    stage_rules = StageRulesField(read_only=True)
    organisers: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username",
        many=True,
        read_only=True,
        help_text="The organisers' logins; empty for anonymous readers (no login names to guess "
        "passwords for).",
    )
    can_manage = serializers.SerializerMethodField()
    registration_state = serializers.SerializerMethodField(
        help_text="not_open (draft), open, closed (by the organiser: no desk or online entry), "
        "reopened, drawn (the draw closed it)."
    )
    status = _enum(Tournament.Status.choices)
    draw_method = serializers.ChoiceField(
        choices=Tournament.DrawMethod.choices,
        allow_blank=True,
        read_only=True,
        help_text="Empty until the draw.",
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "preset",
            *SETTINGS_FIELDS,
            "status",
            "draw_method",
            "random_seed",
            "drawn_at",
            "finished_at",
            "public_version",
            "organisers",
            "can_manage",
            "created_at",
            "updated_at",
            "registration_state",
            "registration_closed_at",
            "registration_reopened_at",
        ]
        read_only_fields = fields

    def to_representation(self, tournament: Tournament) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(tournament)
        request = self.context.get("request")
        if request is None or not request.user.is_authenticated:
            data["organisers"] = []
        return data

    @extend_schema_field(
        {"type": "string", "enum": ["not_open", "open", "closed", "reopened", "drawn"]}
    )
    def get_registration_state(self, tournament: Tournament) -> str:
        return registration_state(tournament)

    def get_can_manage(self, tournament: Tournament) -> bool:
        """Whether the requesting user organises it (``managed``: ids read once per request)."""
        request = self.context.get("request")
        if request is None or not request.user.is_authenticated:
            return False
        managed = self.context.get("managed")
        if managed is not None and not request.user.is_superuser:
            return tournament.pk in managed
        return can_manage_tournament(request.user, tournament)


class FeeBandSerializer(StrictSerializer):
    """Ratings min_rating..max_rating inclusive pay ``fee``; null leaves the band open-ended."""

    min_rating = _rating(required=False, allow_null=True, default=None)
    max_rating = _rating(required=False, allow_null=True, default=None)
    fee = _money(required=True)

    def to_internal_value(self, data: Any) -> Any:
        values = super().to_internal_value(data)
        if "fee" not in values:  # a partial update of the tournament still needs whole bands
            raise serializers.ValidationError(
                {"fee": [self.fields["fee"].error_messages["required"]]}
            )
        # The services read the bands as they are stored: the fee as a string.
        return {**values, "fee": format(values["fee"].normalize(), "f")}


class TournamentWriteSerializer(StrictSerializer):
    """Settings of a tournament; on create, ``preset`` fills whatever is not sent."""

    preset = serializers.ChoiceField(
        choices=[],
        required=False,
        allow_blank=True,
        help_text=", ".join(PRESETS),
    )
    name = serializers.CharField(max_length=200)
    date = DayField()
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    chief_judge = serializers.CharField(max_length=200, required=False, allow_blank=True)
    description = serializers.CharField(required=False, allow_blank=True)
    regulation_text = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=MAX_REGULATION_TEXT,
        help_text="The organiser's own words printed at the end of the regulation.",
    )
    discipline = NamesChoiceField(rules_registry.names, required=False)
    ruleset = RulesetChangeField(required=False)
    stage_rules = StageRulesField(required=False)
    time_limit_minutes = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=MAX_TIME_LIMIT
    )
    format = serializers.ChoiceField(choices=Tournament.Format.choices, required=False)
    grand_final = serializers.ChoiceField(choices=Tournament.GrandFinal.choices, required=False)
    third_place = serializers.ChoiceField(choices=Tournament.ThirdPlace.choices, required=False)
    # Checked by the service only for the format that uses them: bound to what the column holds.
    playoff_size = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=MAX_PLAYERS
    )
    group_size = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=MAX_PLAYERS
    )
    group_advance = serializers.IntegerField(required=False, min_value=0, max_value=MAX_PLAYERS)
    max_players = serializers.IntegerField(required=False, min_value=2, max_value=MAX_PLAYERS)
    entry_fee = _money()
    # many=True makes a ListSerializer, which takes max_length; the stubs type the child's
    # __init__ only.
    fee_bands = FeeBandSerializer(  # type: ignore[call-arg]
        many=True,
        required=False,
        max_length=MAX_FEE_BANDS,
        error_messages=LIST_ERRORS,
        help_text="Entry fee by rating; a rating no band covers pays entry_fee.",
    )
    pool_percent = serializers.DecimalField(
        max_digits=5,
        decimal_places=2,
        min_value=Decimal(0),
        max_value=Decimal(100),
        required=False,
    )
    place_shares = serializers.ListField(
        child=serializers.DecimalField(
            max_digits=5, decimal_places=2, min_value=Decimal(0), max_value=Decimal(100)
        ),
        required=False,
        min_length=1,
        max_length=MAX_PLACES,
        error_messages=LIST_ERRORS,
        help_text="Percent of the prize fund per place, adding up to 100.",
    )
    prize_unit = _money(min_value=Decimal("0.01"))
    added_money = _money()
    withdrawn_prize = serializers.ChoiceField(
        choices=Tournament.WithdrawnPrize.choices,
        required=False,
        help_text="Prize and diploma of a withdrawn or disqualified player: withhold (shown as "
        "not paid) or pay.",
    )
    withdrawal_fee = serializers.ChoiceField(
        choices=Tournament.WithdrawalFee.choices,
        required=False,
        help_text="The paid fee of a player who withdraws: refund_before_draw (refunded before "
        "the draw, kept after it), refund, keep. A disqualified player's fee is kept.",
    )
    table_hour_price = _money(help_text="Table-hour price; 0: table time is not charged.")
    table_time_payer = serializers.ChoiceField(
        choices=Tournament.TableTimePayer.choices,
        required=False,
        help_text="Who pays a match's table time: nobody, loser, split (half each).",
    )
    table_time_discount = serializers.DecimalField(
        max_digits=5,
        decimal_places=2,
        min_value=Decimal(0),
        max_value=Decimal(100),
        required=False,
        help_text="Percent off the table time's price for the payer.",
    )
    table_time_breaks = serializers.ChoiceField(
        choices=Tournament.TableTimeBreaks.choices,
        required=False,
        help_text="Whether the clock's technical breaks count as table time.",
    )
    lateness_step_minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=600,
        help_text="Every full N minutes late from the call costs lateness_penalty_balls (in "
        "lateness_penalty_unit); null: no such rule.",
    )
    lateness_penalty_balls = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=100,
        help_text="What each step late costs, counted in lateness_penalty_unit: balls or frames "
        "(the name is older than the unit).",
    )
    lateness_penalty_unit = serializers.ChoiceField(
        choices=Tournament.LatenessUnit.choices,
        required=False,
        help_text="balls: each step is a head start for the opponent (never reaching the race); "
        "frames: each step credits the opponent frames (the match's frames_credit, never "
        "reaching frames_to_win). frames only where the discipline plays a race of frames "
        "(frames_to_win > 1 in the ruleset or a stage).",
    )
    lateness_walkover_minutes = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=600,
        help_text="Late this many minutes from the call: a walkover (then the no-show rule).",
    )
    no_show_rule = serializers.ChoiceField(
        choices=Tournament.NoShowRule.choices,
        required=False,
        help_text="A player who does not come loses by walkover and drops to the lower bracket "
        "(lower_bracket) or is out of the tournament (out).",
    )
    handicap_scheme = serializers.ChoiceField(choices=list(handicap.SCHEMES), required=False)
    rated = serializers.BooleanField(required=False)
    elo_k = serializers.IntegerField(required=False, min_value=1, max_value=100)
    self_scoring = serializers.BooleanField(required=False)
    break_by_lag = serializers.BooleanField(
        required=False,
        help_text="The referee form records the lag (G7.1) and whether its winner breaks "
        "(default); false when the tournament draws the break (the ruleset's first_break).",
    )
    is_public = serializers.BooleanField(required=False)
    archived = serializers.BooleanField(required=False)
    organiser_name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    organiser_logo = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=MAX_LOGO_CHARS,
        help_text="A PNG or JPEG as a data URI (data:image/png;base64,…), at most 250,000 "
        "characters (about 180 KB of image).",
    )
    diploma_places = serializers.ChoiceField(
        choices=Tournament.DiplomaPlaces.choices, required=False
    )
    diploma_language = serializers.ChoiceField(choices=Tournament.DIPLOMA_LANGUAGES, required=False)
    diploma_amount = serializers.BooleanField(required=False)
    diploma_degree = serializers.BooleanField(required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        preset = self.fields["preset"]
        assert isinstance(preset, serializers.ChoiceField)
        preset.choices = [(slug, slug) for slug in PRESETS]


class TournamentUpdateSerializer(TournamentWriteSerializer):
    name = serializers.CharField(max_length=200, required=False)
    date = DayField(required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.pop("preset")


class PresetSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    title = serializers.CharField()
    description = serializers.CharField()
    fields = serializers.DictField()  # type: ignore[assignment]  # the key "fields": see SHADOWED in matches/web/api/serializers.py


# --- registrations ---------------------------------------------------------------------------


class RegistrationPlayerSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name", "city", "club", "rating"]


class RegistrationSerializer(serializers.ModelSerializer[Registration]):
    """Fee fields are shown to the tournament's organisers only (null for everybody else)."""

    player = RegistrationPlayerSerializer()
    status = _enum(Registration.Status.choices)
    fee_due = serializers.SerializerMethodField()
    paid = serializers.SerializerMethodField()
    paid_at = serializers.SerializerMethodField()
    fee_kept = serializers.SerializerMethodField()
    fee_refunded = serializers.SerializerMethodField()
    refunded_at = serializers.SerializerMethodField()

    class Meta:
        model = Registration
        fields = [
            "id",
            "player",
            "rating_at_entry",
            "seed",
            "status",
            "fee_due",
            "paid",
            "paid_at",
            "withdrawn_at",
            "created_at",
            "fee_kept",
            "fee_refunded",
            "refunded_at",
        ]

    def _private(self) -> bool:
        return bool(self.context.get("can_manage"))

    @extend_schema_field(
        {"type": "string", "format": "decimal", "pattern": r"^\d{1,8}\.\d{2}$", "nullable": True}
    )
    def get_fee_due(self, reg: Registration) -> str | None:
        return format(reg.fee_due, "f") if self._private() else None

    @extend_schema_field({"type": "boolean", "nullable": True})
    def get_paid(self, reg: Registration) -> bool | None:
        return reg.paid if self._private() else None

    @extend_schema_field({"type": "string", "format": "date-time", "nullable": True})
    def get_paid_at(self, reg: Registration) -> str | None:
        # In the API's time zone, as every other date-time of the answer.
        if not (self._private() and reg.paid_at):
            return None
        return serializers.DateTimeField().to_representation(reg.paid_at)

    @extend_schema_field(
        {"type": "string", "format": "decimal", "pattern": r"^\d{1,8}\.\d{2}$", "nullable": True}
    )
    def get_fee_kept(self, reg: Registration) -> str | None:
        """What the club keeps of this player's money (his paid fee, 0 after a refund)."""
        return format(reg.fee_paid, "f") if self._private() else None

    @extend_schema_field(
        {"type": "string", "format": "decimal", "pattern": r"^\d{1,8}\.\d{2}$", "nullable": True}
    )
    def get_fee_refunded(self, reg: Registration) -> str | None:
        return format(reg.fee_refunded, "f") if self._private() else None

    @extend_schema_field({"type": "string", "format": "date-time", "nullable": True})
    def get_refunded_at(self, reg: Registration) -> str | None:
        if not (self._private() and reg.refunded_at):
            return None
        return serializers.DateTimeField().to_representation(reg.refunded_at)


class RegistrationPageSerializer(serializers.Serializer[Any]):
    """One page of a tournament's registrations (limit/offset pagination)."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = RegistrationSerializer(many=True)


class NewPlayerSerializer(StrictSerializer):
    confirm = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Create although a player with this name (and city) exists: a namesake.",
    )
    name = serializers.CharField(max_length=200)
    city = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    club = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    rating = _rating(required=False, allow_null=True)


class RegistrationCreateSerializer(StrictSerializer):
    """Either ``player_id`` (an existing player) or ``player`` (a new one)."""

    player_id = _id(required=False)
    player = NewPlayerSerializer(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("player_id" in attrs) == ("player" in attrs):
            raise serializers.ValidationError(
                _("Give either player_id (an existing player) or player (a new one).")
            )
        return attrs


class RegistrationUpdateSerializer(StrictSerializer):
    paid = serializers.BooleanField(required=False, help_text="Absent: nothing changes.")


class WithdrawSerializer(StrictSerializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class TotalsSerializer(serializers.Serializer[Any]):
    players = serializers.IntegerField()
    paid_players = serializers.IntegerField()
    withdrawn = serializers.IntegerField()
    disqualified = serializers.IntegerField()
    fees_due = serializers.DecimalField(max_digits=12, decimal_places=2)
    fees_paid = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="The fees kept (fees_kept, its older name)."
    )
    fees_outstanding = serializers.DecimalField(max_digits=12, decimal_places=2)
    pool = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="pool_percent of fees_kept, plus added money."
    )
    refunds = serializers.IntegerField(help_text="Players given their fee back.")
    fees_collected = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="Every payment taken."
    )
    fees_refunded = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="Given back to players who left."
    )
    fees_kept = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="fees_collected - fees_refunded."
    )


# --- draw ------------------------------------------------------------------------------------

DRAW_METHODS = [("seeded", "seeded"), ("random", "random"), ("manual", "manual")]


class DrawSerializer(StrictSerializer):
    method = serializers.ChoiceField(choices=DRAW_METHODS)
    random_seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=BIGINT_MAX,
        help_text="random: replay a draw.",
    )
    order = serializers.ListField(
        child=_id(),
        required=False,
        max_length=MAX_PLAYERS,
        error_messages=LIST_ERRORS,
        help_text="manual: player ids, seed 1 first.",
    )
    allow_unpaid = serializers.BooleanField(
        required=False, default=False, help_text="Draw although some entry fees are unpaid."
    )


class DrawPreviewQuerySerializer(serializers.Serializer[Any]):
    method = serializers.ChoiceField(choices=DRAW_METHODS, default="seeded")
    random_seed = QueryIntegerField(required=False, min_value=0, max_value=BIGINT_MAX)
    order = serializers.CharField(
        required=False,
        max_length=MAX_PLAYERS * 21,
        help_text="manual: comma-separated player ids.",
    )

    def validate_order(self, value: str) -> list[int]:
        try:
            ids = [int(x) for x in value.split(",") if x.strip()]
        except ValueError:
            raise serializers.ValidationError(_("Give player ids separated by commas.")) from None
        if len(ids) > MAX_PLAYERS or any(not 1 <= i <= BIGINT_MAX for i in ids):
            raise serializers.ValidationError(_("Give player ids separated by commas."))
        return ids


# --- bracket, standings, prizes (output only) ------------------------------------------------


def _match_statuses() -> Any:
    return Match.Status.choices


class SideSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    rating = serializers.IntegerField()
    withdrawn = serializers.BooleanField()
    disqualified = serializers.BooleanField()


class SourceSerializer(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["seed", "winner", "loser", "group"])
    ref = serializers.JSONField(help_text="Seed number, match key, or [group, rank].")
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED in matches/web/api/serializers.py


class LinkSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    slot = serializers.CharField(help_text='"a" or "b"')


class HeadStartSerializer(StrictSerializer):
    a = serializers.IntegerField()
    b = serializers.IntegerField()


class BracketMatchSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(allow_null=True)
    key = serializers.CharField()
    stage = serializers.CharField()
    round = serializers.IntegerField()
    order = serializers.IntegerField()
    group = serializers.IntegerField(allow_null=True)
    schedule_round = serializers.IntegerField()
    conditional = serializers.BooleanField()
    status = serializers.ChoiceField(choices=_match_statuses())
    status_label = serializers.CharField()
    player_a = SideSerializer(allow_null=True)
    player_b = SideSerializer(allow_null=True)
    source_a = SourceSerializer(allow_null=True)
    source_b = SourceSerializer(allow_null=True)
    score_a = serializers.IntegerField(allow_null=True)
    score_b = serializers.IntegerField(allow_null=True)
    balls_to_win = serializers.IntegerField(allow_null=True)
    frames_to_win = serializers.IntegerField(allow_null=True)
    head_start = HeadStartSerializer(allow_null=True)
    head_start_overridden = serializers.BooleanField()
    winner = serializers.ChoiceField(choices=["a", "b"], allow_null=True)
    result = serializers.CharField(allow_blank=True)
    mark = serializers.ChoiceField(
        choices=["walkover", "forfeit", "time", "golden_ball", "corrected"],
        allow_null=True,
        help_text="How the match ended, when not by the race: walkover, forfeit, time, "
        "golden ball, or a corrected result.",
    )
    mark_label = serializers.CharField(
        allow_blank=True, help_text='The mark in words, e.g. "corrected: was 10:1".'
    )
    table = serializers.IntegerField(allow_null=True)
    winner_to = LinkSerializer(allow_null=True)
    loser_to = LinkSerializer(allow_null=True)
    rating_change = HeadStartSerializer(allow_null=True, help_text="Elo delta per slot.")


class BracketRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    title = serializers.CharField()
    matches = BracketMatchSerializer(many=True)


class BracketStageSerializer(serializers.Serializer[Any]):
    stage = serializers.CharField()
    group = serializers.IntegerField(allow_null=True)
    title = serializers.CharField()
    rounds = BracketRoundSerializer(many=True)


class BracketSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    version = serializers.IntegerField()
    preview = serializers.BooleanField()
    draw_method = serializers.CharField(allow_blank=True)
    random_seed = serializers.IntegerField(allow_null=True)
    unpaid = PlayerRefSerializer(many=True, required=False)
    stages = BracketStageSerializer(many=True)


class StandingPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    city = serializers.CharField(allow_blank=True)
    club = serializers.CharField(allow_blank=True)
    seed = serializers.IntegerField()
    withdrawn = serializers.BooleanField()
    disqualified = serializers.BooleanField()


class PlaceSerializer(serializers.Serializer[Any]):
    first = serializers.IntegerField()
    last = serializers.IntegerField()
    shared = serializers.BooleanField()
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED in matches/web/api/serializers.py
    players = StandingPlayerSerializer(many=True)
    pending = serializers.IntegerField(help_text="How many of these places are not decided yet.")


class GroupRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = StandingPlayerSerializer()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    balls_for = serializers.IntegerField()
    balls_against = serializers.IntegerField()
    ball_difference = serializers.IntegerField()


class GroupTableSerializer(serializers.Serializer[Any]):
    group = serializers.IntegerField()
    title = serializers.CharField()
    complete = serializers.BooleanField()
    rows = GroupRowSerializer(many=True)


class StandingsSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    complete = serializers.BooleanField()
    version = serializers.IntegerField()
    places = PlaceSerializer(many=True)
    pending = PlaceSerializer(many=True, help_text="Places nobody has yet (no players).")
    all_places = PlaceSerializer(many=True, help_text="places and pending, in order.")
    groups = GroupTableSerializer(many=True)


class PrizePlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    amount = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="What he is paid (0 when withheld)."
    )
    due = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="His share of the place's money."
    )
    paid = serializers.BooleanField(help_text="False: withdrawn or disqualified, withheld.")
    withdrawn = serializers.BooleanField()
    disqualified = serializers.BooleanField()


class AwardSerializer(serializers.Serializer[Any]):
    first = serializers.IntegerField()
    last = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # the key "label": see SHADOWED in matches/web/api/serializers.py
    share_percent = serializers.DecimalField(max_digits=6, decimal_places=2)
    total = serializers.DecimalField(max_digits=12, decimal_places=2)
    amount_each = serializers.DecimalField(max_digits=12, decimal_places=2)
    paid_total = serializers.DecimalField(max_digits=12, decimal_places=2)
    pending = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="Reserved for players not decided yet."
    )
    pending_places = serializers.IntegerField(help_text="Places of the range not decided yet.")
    withheld = serializers.DecimalField(
        max_digits=12, decimal_places=2, help_text="Not paid (withdrawn/disqualified, untaken)."
    )
    players = PrizePlayerSerializer(many=True)


class PrizesSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    complete = serializers.BooleanField()
    paid_fees = serializers.DecimalField(max_digits=12, decimal_places=2)
    pool_percent = serializers.DecimalField(max_digits=5, decimal_places=2)
    added_money = serializers.DecimalField(max_digits=12, decimal_places=2)
    unit = serializers.DecimalField(max_digits=12, decimal_places=2)
    pool = serializers.DecimalField(max_digits=12, decimal_places=2)
    withdrawn_prize = serializers.ChoiceField(choices=Tournament.WithdrawnPrize.choices)
    awarded = serializers.DecimalField(max_digits=12, decimal_places=2)
    pending = serializers.DecimalField(max_digits=12, decimal_places=2)
    withheld = serializers.DecimalField(max_digits=12, decimal_places=2)
    awards = AwardSerializer(many=True)


# --- match corrections -------------------------------------------------------------------------


HEAD_START_MAX = 199  # the rules engine's bound (rules.rulesets: head_start)
BALLS_TO_WIN_MAX = 200


class HeadStartWriteSerializer(StrictSerializer):
    a = serializers.IntegerField(min_value=0, max_value=HEAD_START_MAX)
    b = serializers.IntegerField(min_value=0, max_value=HEAD_START_MAX)


class HandicapSerializer(StrictSerializer):
    head_start = HeadStartWriteSerializer()
    balls_to_win = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=BALLS_TO_WIN_MAX
    )


class CorrectResultSerializer(StrictSerializer):
    winner = serializers.ChoiceField(choices=["a", "b"])
    score_a = serializers.IntegerField(min_value=0, max_value=999)
    score_b = serializers.IntegerField(min_value=0, max_value=999)
    reason = serializers.CharField(
        max_length=300, required=False, allow_blank=True, default="", help_text="Why."
    )


class NoShowSerializer(StrictSerializer):
    absent = serializers.ChoiceField(choices=["a", "b"], help_text="The slot of who did not come.")


class MatchSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    key = serializers.CharField()
    status = serializers.CharField()
    player_a = serializers.IntegerField(source="player_a_id", allow_null=True)
    player_b = serializers.IntegerField(source="player_b_id", allow_null=True)
    # The winner's slot, as the correction's request names it and every match answer gives it;
    # winner_id is the player.
    winner = serializers.SerializerMethodField(
        help_text="The winner's slot (a or b), as in the correction's request; null: none."
    )
    winner_id = serializers.IntegerField(
        allow_null=True, help_text="The winner's player id; null: none."
    )
    score_a = serializers.IntegerField(allow_null=True)
    score_b = serializers.IntegerField(allow_null=True)
    result = serializers.CharField(allow_blank=True)
    ruleset = MatchRulesetField()
    head_start_overridden = serializers.BooleanField()
    clock_limit_seconds = serializers.IntegerField(allow_null=True)

    @extend_schema_field(serializers.ChoiceField(choices=["a", "b"], allow_null=True))
    def get_winner(self, match: Match) -> str | None:
        if match.winner_id is None:
            return None
        if match.winner_id == match.player_a_id:
            return "a"
        return "b" if match.winner_id == match.player_b_id else None


class RatingDeltaSerializer(serializers.Serializer[Any]):
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    delta = serializers.IntegerField()


class MatchRatingSerializer(serializers.Serializer[Any]):
    a = RatingDeltaSerializer(required=False)
    b = RatingDeltaSerializer(required=False)


# --- audit log ---------------------------------------------------------------------------------


class AuditQuerySerializer(serializers.Serializer[Any]):
    match = QueryIntegerField(
        required=False,
        min_value=1,
        max_value=BIGINT_MAX,
        help_text="Only the entries of this match.",
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
