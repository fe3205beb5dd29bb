"""Players, ratings, tournaments, registrations, claims, logins, requests and club cups."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

import rules
from tournaments.names import fold_name


def default_rating() -> int:
    return int(getattr(settings, "LUZA_INITIAL_RATING", 900))


def default_place_shares() -> list[str]:
    return ["45", "30", "25"]


def default_ruleset() -> dict[str, object]:
    return {"discipline": rules.default().name}


class Player(models.Model):
    name = models.CharField(_("name"), max_length=200)
    # The name as search compares it (tournaments.names.fold_name): kept by save().
    name_folded = models.CharField(max_length=200, blank=True, editable=False)
    city = models.CharField(_("city"), max_length=100, blank=True)
    club = models.CharField(_("club"), max_length=100, blank=True)
    rating = models.IntegerField(_("Elo rating"), default=default_rating)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("login"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        indexes = [
            models.Index(
                fields=["name_folded"], name="player_name_folded", opclasses=["varchar_pattern_ops"]
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Derived, never edited: every way a name is written (services, admin, import) keeps it.
        self.name_folded = fold_name(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_folded"}
        super().save(*args, **kwargs)


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration")
        DRAWN = "drawn", _("Drawn")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class Format(models.TextChoices):
        SINGLE = "single", _("Single elimination")
        DOUBLE = "double", _("Double elimination")
        DOUBLE_TO_SINGLE = "double_to_single", _("Double elimination, then single elimination")
        GROUPS_PLAYOFF = "groups_playoff", _("Round-robin groups, then play-off")

    class GrandFinal(models.TextChoices):
        NONE = "none", _("No grand final")
        SINGLE = "single", _("One match")
        RESET = "reset", _("With a reset")

    class ThirdPlace(models.TextChoices):
        MATCH = "match", _("Third-place match")
        SHARED = "shared", _("Shared third place")

    class WithdrawnPrize(models.TextChoices):
        WITHHOLD = "withhold", _("Withheld, shown as not paid")
        PAY = "pay", _("Paid as usual")

    class WithdrawalFee(models.TextChoices):
        # What happens to the fee a player paid when he withdraws (a disqualified player's fee
        # is always kept).
        REFUND_BEFORE_DRAW = "refund_before_draw", _("Refunded before the draw, kept after it")
        REFUND = "refund", _("Always refunded")
        KEEP = "keep", _("Always kept")

    class TableTimePayer(models.TextChoices):
        NOBODY = "nobody", _("Nobody: the table is free")
        LOSER = "loser", _("The loser")
        SPLIT = "split", _("Both players, half each")

    class TableTimeBreaks(models.TextChoices):
        EXCLUDED = "excluded", _("Technical breaks are not charged")
        INCLUDED = "included", _("Technical breaks are charged")

    class LatenessUnit(models.TextChoices):
        BALLS = "balls", _("Balls: a head start for the opponent")
        FRAMES = "frames", _("Frames: a frame credited to the opponent")

    class NoShowRule(models.TextChoices):
        LOWER_BRACKET = "lower_bracket", _("Loses by walkover and drops to the lower bracket")
        OUT = "out", _("Loses by walkover and is out of the tournament")

    class DrawMethod(models.TextChoices):
        SEEDED = "seeded", _("By rating")
        RANDOM = "random", _("Random draw")
        MANUAL = "manual", _("Manual order")

    class DiplomaPlaces(models.TextChoices):
        PRIZES = "prizes", _("Prize places")
        ALL = "all", _("Every place")

    # Django's own catalogue names the languages: «Русский» on a Russian screen, English in the API.
    DIPLOMA_LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]

    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    chief_judge = models.CharField(_("chief judge"), max_length=200, blank=True)
    description = models.TextField(_("description"), blank=True)
    # The organiser's own words printed at the end of the regulation (anything the settings
    # cannot say: the dress code, the schedule, the club's rules of conduct).
    regulation_text = models.TextField(_("more of the regulation, in your words"), blank=True)
    preset = models.CharField(_("preset"), max_length=40, blank=True)

    discipline = models.CharField(_("discipline"), max_length=30, default=rules.default().name)
    ruleset: models.JSONField[dict[str, Any], dict[str, Any]] = models.JSONField(
        _("ruleset"), default=default_ruleset
    )
    # Per stage ("upper", "lower", "playoff", "group"): overrides of balls_to_win, frames_to_win
    # and time_limit_minutes, e.g. upper to 3 frames, lower to 2.
    stage_rules = models.JSONField(_("rules per stage"), default=dict, blank=True)
    time_limit_minutes = models.PositiveSmallIntegerField(
        _("net time limit, minutes"), null=True, blank=True, default=80
    )

    format = models.CharField(
        _("format"), max_length=20, choices=Format.choices, default=Format.DOUBLE
    )
    grand_final = models.CharField(
        _("grand final"), max_length=10, choices=GrandFinal.choices, default=GrandFinal.SINGLE
    )
    third_place = models.CharField(
        _("third place"), max_length=10, choices=ThirdPlace.choices, default=ThirdPlace.SHARED
    )
    playoff_size = models.PositiveSmallIntegerField(
        _("play-off size (double to single)"), null=True, blank=True
    )
    group_size = models.PositiveSmallIntegerField(_("group size"), null=True, blank=True)
    group_advance = models.PositiveSmallIntegerField(_("advance from each group"), default=2)
    max_players = models.PositiveSmallIntegerField(_("maximum players"), default=64)

    entry_fee = models.DecimalField(
        _("entry fee"), max_digits=10, decimal_places=2, default=Decimal("0")
    )
    fee_bands = models.JSONField(_("entry fee by rating"), default=list, blank=True)
    pool_percent = models.DecimalField(
        _("prize pool, percent of fees"), max_digits=5, decimal_places=2, default=Decimal("70")
    )
    place_shares = models.JSONField(_("shares of places, percent"), default=default_place_shares)
    prize_unit = models.DecimalField(
        _("prize rounding unit"), max_digits=10, decimal_places=2, default=Decimal("1")
    )
    added_money = models.DecimalField(
        _("added money"), max_digits=10, decimal_places=2, default=Decimal("0")
    )
    # The prize (and diploma) of a player who withdrew or was disqualified.
    withdrawn_prize = models.CharField(
        _("prize of a withdrawn or disqualified player"),
        max_length=10,
        choices=WithdrawnPrize.choices,
        default=WithdrawnPrize.WITHHOLD,
    )
    withdrawal_fee = models.CharField(
        _("fee of a player who withdraws"),
        max_length=20,
        choices=WithdrawalFee.choices,
        default=WithdrawalFee.REFUND_BEFORE_DRAW,
    )
    # Table time: the table-hour price, who pays it, the discount he gets, and whether the
    # clock's technical breaks count (tournaments.algorithms.table_time).
    table_hour_price = models.DecimalField(
        _("table-hour price"), max_digits=10, decimal_places=2, default=Decimal("0")
    )
    table_time_payer = models.CharField(
        _("who pays for the table time"),
        max_length=10,
        choices=TableTimePayer.choices,
        default=TableTimePayer.NOBODY,
    )
    table_time_discount = models.DecimalField(
        _("discount on the table time, percent"),
        max_digits=5,
        decimal_places=2,
        default=Decimal("0"),
    )
    table_time_breaks = models.CharField(
        _("technical breaks in the table time"),
        max_length=10,
        choices=TableTimeBreaks.choices,
        default=TableTimeBreaks.EXCLUDED,
    )
    # Lateness from the call to the table: every full `lateness_step_minutes` late costs
    # `lateness_penalty_balls` in `lateness_penalty_unit`: balls (a head start for the
    # opponent) or frames (frames credited to the opponent, in a race of frames); at
    # `lateness_walkover_minutes` the late player loses by walkover (the no-show rule
    # follows). Empty: no such rule. The count's name is older than the unit.
    lateness_step_minutes = models.PositiveSmallIntegerField(
        _("lateness: minutes per penalty"), null=True, blank=True
    )
    lateness_penalty_balls = models.PositiveSmallIntegerField(
        _("lateness: balls or frames lost per step"), default=1
    )
    lateness_penalty_unit = models.CharField(
        _("lateness: what a step costs"),
        max_length=8,
        choices=LatenessUnit.choices,
        default=LatenessUnit.BALLS,
    )
    lateness_walkover_minutes = models.PositiveSmallIntegerField(
        _("lateness: walkover after, minutes"), null=True, blank=True
    )
    no_show_rule = models.CharField(
        _("a player who does not come to his match"),
        max_length=16,
        choices=NoShowRule.choices,
        default=NoShowRule.LOWER_BRACKET,
    )

    handicap_scheme = models.CharField(_("handicap scheme"), max_length=40, default="race_2_per_50")
    rated = models.BooleanField(_("rated"), default=True)
    elo_k = models.PositiveSmallIntegerField(_("Elo K factor"), default=32)
    self_scoring = models.BooleanField(_("players score their own matches"), default=False)
    # G7.1, D4.1: the lag decides who breaks frame 1, and its winner may give the break; off
    # when the tournament draws the break (the ruleset's first_break then stands).
    break_by_lag = models.BooleanField(_("the lag decides who breaks"), default=True)
    is_public = models.BooleanField(_("public"), default=True)
    # Online entry (/t/<id>/entry/): players with a login enter themselves while it is open;
    # past max_players they go on the reserve list. Rating limits apply to every entry.
    online_entry = models.BooleanField(_("online entry"), default=False)
    entry_opens_at = models.DateTimeField(_("online entry opens"), null=True, blank=True)
    entry_closes_at = models.DateTimeField(_("online entry closes"), null=True, blank=True)
    entry_min_rating = models.IntegerField(_("minimum rating to enter"), null=True, blank=True)
    entry_max_rating = models.IntegerField(_("maximum rating to enter"), null=True, blank=True)
    # Registration closed by the organiser before the draw (desk and online alike), and when it
    # was last reopened: the states open / closed / reopened (entry_rules.registration_state).
    registration_closed_at = models.DateTimeField(_("registration closed"), null=True, blank=True)
    registration_reopened_at = models.DateTimeField(
        _("registration reopened"), null=True, blank=True
    )
    # Hidden from public lists (a test or a finished season), still reachable by its organisers.
    archived = models.BooleanField(_("archived"), default=False)

    # Diplomas as the club gives them: its name on them, which places, in which language.
    organiser_name = models.CharField(
        _("club or organiser on the diplomas"), max_length=200, blank=True
    )
    # A small PNG as a data URI (made from the upload by the settings page): printed by
    # WeasyPrint and shown by browsers with nothing to serve or fetch.
    organiser_logo = models.TextField(_("club logo"), blank=True)
    diploma_places = models.CharField(
        _("diplomas for"),
        max_length=10,
        choices=DiplomaPlaces.choices,
        default=DiplomaPlaces.PRIZES,
    )
    diploma_language = models.CharField(
        _("language of the diplomas"), max_length=5, choices=DIPLOMA_LANGUAGES, default="ru"
    )
    diploma_amount = models.BooleanField(_("print the prize amount on diplomas"), default=False)
    diploma_degree = models.BooleanField(_("diplomas of I, II, III degree"), default=False)

    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    draw_method = models.CharField(
        _("draw method"), max_length=10, choices=DrawMethod.choices, blank=True
    )
    random_seed = models.BigIntegerField(_("random seed of the draw"), null=True, blank=True)
    drawn_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every change a public page shows (result, event, draw): ETags and caches key on it.
    public_version = models.PositiveIntegerField(default=0)

    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="organised_tournaments",
        blank=True,
        verbose_name=_("organisers"),
    )
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="refereed_tournaments",
        blank=True,
        verbose_name=_("referees"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%d.%m.%Y})"


class Registration(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Registered")
        RESERVE = "reserve", _("Reserve")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        DISQUALIFIED = "disqualified", _("Disqualified")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    rating_at_entry = models.IntegerField(_("rating at entry"))
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    fee_due = models.DecimalField(
        _("fee due"), max_digits=10, decimal_places=2, default=Decimal("0")
    )
    paid = models.BooleanField(_("paid"), default=False)
    paid_at = models.DateTimeField(null=True, blank=True)
    # The money of this registration, kept by the desk's services (never edited by hand):
    # `fee_paid` is what the current entry paid and the club keeps (0 when not paid),
    # `fee_collected` every payment taken (less payments ticked by mistake), `fee_refunded`
    # every refund given; fee_collected - fee_refunded == fee_paid at every moment.
    fee_paid = models.DecimalField(
        _("fee kept"), max_digits=10, decimal_places=2, default=Decimal("0")
    )
    fee_collected = models.DecimalField(
        _("fees collected"), max_digits=10, decimal_places=2, default=Decimal("0")
    )
    fee_refunded = models.DecimalField(
        _("fees refunded"), max_digits=10, decimal_places=2, default=Decimal("0")
    )
    refunded_at = models.DateTimeField(_("refunded"), null=True, blank=True)
    refunded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("refunded by"),
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    # When he withdrew or was disqualified.
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # Entered by the player himself (online), not at the desk.
    online = models.BooleanField(_("entered online"), default=False)
    # On the reserve list since (its order: first in, first promoted).
    reserve_since = models.DateTimeField(null=True, blank=True)
    checked_in_at = models.DateTimeField(_("checked in"), null=True, blank=True)
    # Moved up from the reserve list (the player is told on his pages).
    promoted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "seed", "id"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="one_registration_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament_id}"


class RatingChange(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    match = models.ForeignKey(
        "matches.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    opponent = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    rating_before = models.IntegerField()
    rating_after = models.IntegerField()
    delta = models.IntegerField()
    reason = models.CharField(max_length=40, default="match")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating history")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating_before} → {self.rating_after}"


class PlayerClaim(models.Model):
    """A one-time code that links a login to a player: issued by an organiser of one of his
    tournaments (printed on the player's slip), used once, before it expires. Only its hash is
    kept."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    code_hash = models.CharField(max_length=64, unique=True)
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("claim code")
        verbose_name_plural = _("claim codes")

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.created_at:%Y-%m-%d}"


class IssuedLogin(models.Model):
    """A login an organiser created in the panel (a referee's): who made it, for which
    tournament. He (or a fellow organiser of that tournament) may reset its password."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="issued_login"
    )
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("issued login")
        verbose_name_plural = _("issued logins")

    def __str__(self) -> str:
        return str(self.user_id)


class PlayerRequest(models.Model):
    """A login without a player asks to be added as a new player; an organiser approves (the
    player is created and linked to the login) or declines."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the organiser")
        APPROVED = "approved", _("Approved")
        DECLINED = "declined", _("Declined")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_requests"
    )
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="player_requests"
    )
    name = models.CharField(_("name"), max_length=200)
    city = models.CharField(_("city"), max_length=100, blank=True)
    club = models.CharField(_("club"), max_length=100, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("request to be added as a player")
        verbose_name_plural = _("requests to be added as players")

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"


class PlayerChange(models.Model):
    """A change to a player's name, city or club proposed by an organiser who may not make it
    himself (tournaments.access.can_edit_player_identity: the player is shown by another
    organiser's tournament, or has a login); the player (his linked login) or a superuser
    approves it (the change is then made in the approver's name) or declines it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the player")
        APPROVED = "approved", _("Approved")
        DECLINED = "declined", _("Declined")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="changes")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Only the fields to change: {"name": ..., "city": ..., "club": ...} (an empty city clears it).
    fields = models.JSONField(default=dict)
    note = models.CharField(_("reason"), max_length=300, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("proposed change to a player")
        verbose_name_plural = _("proposed changes to players")
        indexes = [
            models.Index(
                fields=["player", "status"],
                name="player_change_pending",
                condition=models.Q(status="pending"),
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.fields} ({self.status})"


def default_series_points() -> list[int]:
    return [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]


class Series(models.Model):
    """A club cup: several tournaments (stages) whose places earn points; the best
    `best_of` stages of each player count (tournaments.algorithms.series)."""

    name = models.CharField(_("name"), max_length=200)
    description = models.TextField(_("description"), blank=True)
    # Points for 1st, 2nd, ... place; places past the table earn `participation_points`.
    points_table = models.JSONField(_("points per place"), default=default_series_points)
    participation_points = models.PositiveSmallIntegerField(
        _("points for any other place"), default=0
    )
    best_of = models.PositiveSmallIntegerField(_("best stages that count"), null=True, blank=True)
    is_public = models.BooleanField(_("public"), default=True)
    tournaments = models.ManyToManyField(
        Tournament, through="SeriesStage", related_name="series", verbose_name=_("stages")
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organised_series", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return self.name


class SeriesStage(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="stages")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="series_stages"
    )
    number = models.PositiveSmallIntegerField(_("stage"))

    class Meta:
        ordering = ["series", "number"]
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="series_stage_once"),
            models.UniqueConstraint(fields=["series", "number"], name="series_stage_number"),
        ]

    def __str__(self) -> str:
        return f"{self.series_id}#{self.number}"


class TableTimePayment(models.Model):
    """A player's table time for one match, paid at the desk: the amount he paid, who took
    it, when. What he owes is computed from the match's clock (tournaments.selectors.desk.table_time)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="table_time_payments"
    )
    # Named here, lazily: a verbose name taken from the other model is read once, in the
    # language of the moment, and leaked Russian into the English API schema.
    match = models.ForeignKey(
        "matches.Match",
        on_delete=models.CASCADE,
        related_name="table_time_payments",
        verbose_name=_("match"),
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    amount = models.DecimalField(_("amount"), max_digits=10, decimal_places=2)
    paid_at = models.DateTimeField(auto_now_add=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name = _("table time paid")
        verbose_name_plural = _("table time paid")
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="table_time_paid_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.match_id}: {self.amount}"


class Webhook(models.Model):
    """An organiser's URL that hears of his tournaments' events (tournaments.services.webhooks):
    every tournament he organises, or one."""

    class Event(models.TextChoices):
        MATCH_STARTED = "match.started", _("Match started")
        MATCH_EVENT = "match.event", _("Ball (an entry of a match's log)")
        MATCH_FINISHED = "match.finished", _("Match finished")
        MATCH_CORRECTED = "match.corrected", _("Result corrected")
        DRAW = "tournament.draw", _("Draw")
        STANDINGS = "standings.changed", _("Standings changed")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="webhooks"
    )
    url = models.URLField(_("URL"), max_length=500)
    # The key of the deliveries' HMAC signature, shown to its owner.
    secret = models.CharField(max_length=64)
    events = models.JSONField(default=list)
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """One event for one hook: the outbox row, written in the change's transaction, then sent
    (and retried) in order by a worker; its last answer is kept."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed")

    hook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    delivery_id = models.UUIDField(unique=True)
    event = models.CharField(max_length=40)
    payload = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    response_body = models.TextField(blank=True, default="")
    error = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        indexes = [models.Index(fields=["hook", "status", "id"], name="webhook_delivery_queue")]

    def __str__(self) -> str:
        return str(self.delivery_id)
