"""The "organiser" and "referee" groups with their model permissions."""

from typing import Any

from django.contrib.auth.management import create_permissions
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

# The organiser's models, by model name: the audit log (auditentry) was a model of the
# tournaments app when this migration was written and is the audit app's now (audit 0001);
# tournaments.roles.roles_ensure runs this against the current models too.
ORGANISER_MODELS = [
    "tournament",
    "registration",
    "player",
    "ratingchange",
    "auditentry",
    "match",
    "matchevent",
    "table",
]
APP_LABELS = ("tournaments", "matches", "audit")
ORGANISER_ACTIONS = ("add", "change", "view", "delete")
REFEREE_PERMISSIONS = [
    ("matches", "view_match"),
    ("matches", "change_match"),
    ("matches", "add_matchevent"),
    ("matches", "view_matchevent"),
    ("tournaments", "view_tournament"),
    ("tournaments", "view_player"),
]


def create_roles(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    # Permissions are normally made after all migrations; make them now so the groups can hold them.
    for app_config in apps.get_app_configs():
        if app_config.label not in APP_LABELS:
            continue
        saved = getattr(app_config, "models_module", None)
        # create_permissions skips an app without a models module; any true value will do.
        app_config.models_module = saved or True  # type: ignore[assignment]
        try:
            create_permissions(app_config, apps=apps, verbosity=0)
        finally:
            app_config.models_module = saved
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")

    organiser, _ = Group.objects.get_or_create(name="organiser")
    codenames = []
    for model in ORGANISER_MODELS:
        for action in ORGANISER_ACTIONS:
            if model == "auditentry" and action != "view":
                continue  # the audit log is append-only, even for organisers
            codenames.append((model, f"{action}_{model}"))
    organiser.permissions.set(
        [
            Permission.objects.get(content_type__model=model, codename=codename)
            for model, codename in codenames
        ]
    )

    referee, _ = Group.objects.get_or_create(name="referee")
    referee.permissions.set(_lookup(Permission, REFEREE_PERMISSIONS))


# A historical model, built from the migration state: there is no class to name its fields by.
def _lookup(Permission: type[Any], pairs: list[tuple[str, str]]) -> list[Any]:
    found = []
    for app_label, codename in pairs:
        found.append(Permission.objects.get(content_type__app_label=app_label, codename=codename))
    return found


def remove_roles(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("auth", "Group").objects.filter(name__in=["organiser", "referee"]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
        ("matches", "0002_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
