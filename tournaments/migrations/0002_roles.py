"""The "organiser" and "referee" groups with their model permissions."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

ROLES = {
    "organiser": {
        "tournaments": ["tournament", "registration", "player", "ratingchange", "auditentry"],
        "matches": ["match", "matchevent", "table"],
    },
    "referee": {
        "tournaments": [],
        "matches": ["matchevent"],
    },
}
ORGANISER_ACTIONS = ("add", "change", "view", "delete")
REFEREE_PERMISSIONS = [
    ("matches", "view_match"),
    ("matches", "change_match"),
    ("matches", "add_matchevent"),
    ("matches", "view_matchevent"),
    ("tournaments", "view_tournament"),
    ("tournaments", "view_player"),
]


def create_roles(apps, schema_editor):
    # Permissions are normally made after all migrations; make them now so the groups can hold them.
    for app_label in ("tournaments", "matches"):
        app_config = apps.get_app_config(app_label)
        saved = getattr(app_config, "models_module", None)
        app_config.models_module = saved or True
        try:
            create_permissions(app_config, apps=apps, verbosity=0)
        finally:
            app_config.models_module = saved
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")

    organiser, _ = Group.objects.get_or_create(name="organiser")
    codenames = []
    for app_label, models in ROLES["organiser"].items():
        for model in models:
            for action in ORGANISER_ACTIONS:
                if model == "auditentry" and action != "view":
                    continue  # the audit log is append-only, even for organisers
                codenames.append((app_label, f"{action}_{model}"))
    organiser.permissions.set(_lookup(Permission, codenames))

    referee, _ = Group.objects.get_or_create(name="referee")
    referee.permissions.set(_lookup(Permission, REFEREE_PERMISSIONS))


def _lookup(Permission, pairs):
    found = []
    for app_label, codename in pairs:
        found.append(Permission.objects.get(content_type__app_label=app_label, codename=codename))
    return found


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=["organiser", "referee"]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
        ("matches", "0002_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
