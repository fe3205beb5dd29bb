"""The audit log: who changed what, and when."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AuditEntry(models.Model):
    """Who did what, when: every state change an organiser, referee or player makes."""

    # No index of their own: the two indexes below begin with them (one index less to write
    # with every scored ball).
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="audit",
        db_index=False,
    )
    match = models.ForeignKey(
        "matches.Match",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="audit",
        db_index=False,
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_name = models.CharField(max_length=150, blank=True)  # kept if the user is deleted
    # The player a change is about (his history); a merge moves it to the kept record. Its
    # index is partial: a scored ball's entry (no player) writes nothing to it.
    player = models.ForeignKey(
        "tournaments.Player",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
    )
    action = models.CharField(max_length=60)
    data = models.JSONField(default=dict, blank=True)
    # Brought in by import_tournament: what the actor name claims was not witnessed here.
    imported = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        # The table, its indexes and constraints keep the names they had in the tournaments
        # app, where the model was born (audit/migrations/0001_initial.py).
        db_table = "tournaments_auditentry"
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        indexes = [
            models.Index(
                fields=["tournament", "-created_at"], name="tournaments_tournam_d9b600_idx"
            ),
            models.Index(fields=["match", "-created_at"], name="tournaments_match_i_4c4cbd_idx"),
            models.Index(
                fields=["player", "-created_at"],
                name="audit_player_created",
                condition=models.Q(player__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.actor_name} {self.action}"
