"""A tournament (/tournaments/): the answer, its settings as written (created from a preset,
or changed), and the presets. Money is a string."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.serializers import LIST_ERRORS, DayField, NamesChoiceField, StrictSerializer
from rules import registry as rules_registry
from tournaments.access import can_manage_tournament
from tournaments.algorithms import handicap
from tournaments.models import Tournament
from tournaments.presets import PRESETS
from tournaments.services.entry_rules import registration_state
from tournaments.services.setup import (
    MAX_LOGO_CHARS,
    MAX_PLAYERS,
    MAX_REGULATION_TEXT,
    MAX_TIME_LIMIT,
    SETTINGS_FIELDS,
)
from tournaments.web.api.serializers.common import rating_field, read_only_enum
from tournaments.web.api.serializers.rulesets import (
    RulesetChangeField,
    RulesetField,
    StageRulesField,
)

# Bounds of the product (the services check the same) and of the columns: a number past them
# is a 400 naming its field, never a value the database refuses (or stores, and then chokes on).
MONEY_MAX = Decimal("99999999.99")  # DecimalField(max_digits=10, decimal_places=2)
MAX_FEE_BANDS = 50
MAX_PLACES = MAX_PLAYERS  # a share per place, at most one place per player


def _money(**kwargs: Any) -> serializers.DecimalField:
    kwargs.setdefault("min_value", Decimal(0))
    kwargs.setdefault("required", False)
    return serializers.DecimalField(max_digits=10, decimal_places=2, max_value=MONEY_MAX, **kwargs)


def _percent(**kwargs: Any) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=5, decimal_places=2, min_value=Decimal(0), max_value=Decimal(100), **kwargs
    )


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
    status = read_only_enum(Tournament.Status.choices)
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

    min_rating = rating_field(required=False, allow_null=True, default=None)
    max_rating = rating_field(required=False, allow_null=True, default=None)
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
    pool_percent = _percent(required=False)
    place_shares = serializers.ListField(
        child=_percent(),
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
    table_time_discount = _percent(
        required=False, help_text="Percent off the table time's price for the payer."
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
    fields = serializers.DictField()  # type: ignore[assignment]  # the key "fields": see SHADOWED in config/serializers.py
