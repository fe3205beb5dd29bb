"""The audit log, taken over from the tournaments app (tournaments 0009) with its table,
indexes and constraints as they are: no statement reaches the database's schema.

Its content type follows it (tournaments.auditentry becomes audit.auditentry), so the
permissions the organiser group holds on the log, and the admin's history of it, stay attached
to the same rows."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def content_type_to_audit(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _rename_content_type(apps, "tournaments", "audit")


def content_type_to_tournaments(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _rename_content_type(apps, "audit", "tournaments")


def _rename_content_type(apps: StateApps, old: str, new: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label=new, model="auditentry").exists():
        ContentType.objects.filter(app_label=old, model="auditentry").update(app_label=new)


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("matches", "0006_match_result_correction"),
        ("tournaments", "0009_auditentry_moves_to_audit"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="AuditEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("actor_name", models.CharField(blank=True, max_length=150)),
                        ("action", models.CharField(max_length=60)),
                        ("data", models.JSONField(blank=True, default=dict)),
                        ("imported", models.BooleanField(default=False)),
                        ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                        (
                            "actor",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "match",
                            models.ForeignKey(
                                blank=True,
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="audit",
                                to="matches.match",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                blank=True,
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="tournaments.player",
                            ),
                        ),
                        (
                            "tournament",
                            models.ForeignKey(
                                blank=True,
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="audit",
                                to="tournaments.tournament",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "audit entry",
                        "verbose_name_plural": "audit log",
                        "db_table": "tournaments_auditentry",
                        "ordering": ["-created_at", "-id"],
                        "indexes": [
                            models.Index(
                                fields=["tournament", "-created_at"],
                                name="tournaments_tournam_d9b600_idx",
                            ),
                            models.Index(
                                fields=["match", "-created_at"],
                                name="tournaments_match_i_4c4cbd_idx",
                            ),
                            models.Index(
                                condition=models.Q(("player__isnull", False)),
                                fields=["player", "-created_at"],
                                name="audit_player_created",
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_to_audit, content_type_to_tournaments),
    ]
