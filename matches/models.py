"""Matches, their append-only event log, idempotency records and tables."""

from __future__ import annotations

from typing import Any, TypeAlias

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# A tournament (tournaments.models.Tournament) as this app sees it: the tournaments app sits
# above matches, which knows it only through the foreign keys below (docs/architecture.md).
TournamentRow: TypeAlias = models.Model


class Table(models.Model):
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("table number"))
    label = models.CharField(_("label"), max_length=60, blank=True)
    is_active = models.BooleanField(_("in use"), default=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_table_number")
        ]

    def __str__(self) -> str:
        return f"#{self.number}"


class Match(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Waiting for players")
        READY = "ready", _("Ready")
        ON_TABLE = "on_table", _("Called to a table")
        RUNNING = "running", _("Playing")
        PAUSED = "paused", _("Technical break")
        FINISHED = "finished", _("Finished")
        WALKOVER = "walkover", _("Walkover")
        VOID = "void", _("Not needed")

    class Result(models.TextChoices):
        RACE = "race", _("Race won")
        TIME = "time", _("Time limit")
        FORFEIT = "forfeit", _("Forfeit")
        WALKOVER = "walkover", _("Walkover")
        CORRECTED = "corrected", _("Result entered by the organiser")

    # Indexed by unique_match_key and the (tournament, status) index, which begin with it.
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="matches", db_index=False
    )
    key = models.CharField(_("bracket key"), max_length=24)
    stage = models.CharField(_("stage"), max_length=24)
    round = models.PositiveSmallIntegerField(_("round"))
    order = models.PositiveSmallIntegerField(_("order in round"))
    group = models.PositiveSmallIntegerField(_("group"), null=True, blank=True)
    schedule_round = models.PositiveSmallIntegerField(default=0)
    conditional = models.BooleanField(default=False)  # grand-final reset

    player_a = models.ForeignKey(
        "tournaments.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    player_b = models.ForeignKey(
        "tournaments.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    winner_to = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    winner_slot = models.CharField(max_length=1, blank=True)
    loser_to = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    loser_slot = models.CharField(max_length=1, blank=True)

    ruleset: models.JSONField[dict[str, Any], dict[str, Any]] = models.JSONField(
        _("ruleset"), default=dict
    )
    head_start_overridden = models.BooleanField(default=False)

    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.SCHEDULED
    )
    held = models.BooleanField(_("held back"), default=False)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    called_at = models.DateTimeField(null=True, blank=True)

    # The engine's state after the log, and the number of log entries (events and undos).
    state: models.JSONField[dict[str, Any], dict[str, Any]] = models.JSONField(default=dict)
    version = models.PositiveIntegerField(default=0)
    # The newest log entries as the API shows them, oldest first: every read and every write
    # of a match answers with them, so they travel with the row instead of being read from
    # the log each time. Kept by the services that append to the log.
    recent_log = models.JSONField(default=list, blank=True, editable=False)

    winner = models.ForeignKey(
        "tournaments.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    loser = models.ForeignKey(
        "tournaments.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    result = models.CharField(max_length=12, choices=Result.choices, blank=True)
    score_a = models.IntegerField(null=True, blank=True)
    score_b = models.IntegerField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    # The organiser's last correction of the result. The fields above then hold the corrected
    # result (result "corrected"), which every reader shows; the log keeps what was played.
    # corrected_from is the result it replaced: {"winner": "a"|"b"|None, "score_a", "score_b",
    # "result", "status"}; every correction is also in the audit log (before, after, reason).
    corrected_at = models.DateTimeField(null=True, blank=True)
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    correction_reason = models.CharField(max_length=300, blank=True)
    corrected_from = models.JSONField(default=dict, blank=True)

    # Net match clock: the truth lives here, Celery only acts on it.
    clock_limit_seconds = models.PositiveIntegerField(null=True, blank=True)
    clock_elapsed_ms = models.BigIntegerField(default=0)  # net time before clock_running_since
    clock_running_since = models.DateTimeField(null=True, blank=True)
    clock_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    clock_generation = models.PositiveIntegerField(default=0)
    clock_expired_at = models.DateTimeField(null=True, blank=True)

    # Self-scoring: a player calls the tournament judge; the match is flagged until resolved.
    judge_called_at = models.DateTimeField(null=True, blank=True)
    judge_called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    judge_note = models.CharField(max_length=300, blank=True)

    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="refereed_matches"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "schedule_round", "stage", "round", "order"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="unique_match_key"),
            # Backstop for the table services' row locks: one match at a table at a time.
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(status__in=["on_table", "running", "paused"]),
                name="one_live_match_per_table",
            ),
        ]
        indexes = [
            models.Index(fields=["tournament", "status"]),
            models.Index(fields=["status", "clock_deadline"]),
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.tournament_id})"


class MatchEvent(models.Model):
    """One entry of a match's append-only log: an engine event, or an undo of an earlier entry."""

    class Kind(models.TextChoices):
        EVENT = "event", _("Event")
        UNDO = "undo", _("Undo")

    # Indexed by unique_event_seq, which begins with it.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="events", db_index=False
    )
    seq = models.PositiveIntegerField()  # 1-based; equals the match version after this entry
    kind = models.CharField(max_length=6, choices=Kind.choices, default=Kind.EVENT)
    payload = models.JSONField(default=dict)
    undone = models.BooleanField(default=False)  # set when a later undo entry cancels this one
    undoes = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    source = models.CharField(max_length=12, default="referee")  # referee, player, organiser, clock
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The log is the audit of balls (no audit entry per ball): who entered it is kept by name
    # if the user is deleted, and an entry brought in by import_tournament says so, as an
    # audit entry does (tournaments.selectors.audit.AuditLog reads both).
    actor_name = models.CharField(max_length=150, blank=True)
    imported = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="unique_event_seq")]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq} {self.kind}"


class IdempotencyRecord(models.Model):
    """The first answer to a write sent with an idempotency key, returned again on a retry."""

    # Indexed by unique_idempotency_key, which begins with it.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+", db_index=False)
    key = models.CharField(max_length=100)
    endpoint = models.CharField(max_length=20)
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    # sha256 of the request (method, path, body, login): the same key with another request
    # is refused (config.idempotency.request_fingerprint). Empty on records older than it.
    request_hash = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "key"], name="unique_idempotency_key")
        ]

    def __str__(self) -> str:
        return f"{self.match_id}:{self.key}"


class ApiWriteRecord(models.Model):
    """The first answer to any other write of the API sent with an ``Idempotency-Key``
    (config.idempotency), returned again on a retry; a login's keys are his own."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    key = models.CharField(max_length=100)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    content = models.TextField()
    content_type = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="unique_api_write_key")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"
