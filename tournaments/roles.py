"""The organiser and referee groups, at run time.

The data migration creates them; a database flushed by a transactional test (or restored from a
dump without them) gets them back from the same definitions through `roles_ensure`.
"""

from __future__ import annotations

import importlib

from django.apps import apps


def roles_ensure() -> None:
    """Create the "organiser" and "referee" groups with their permissions if they are missing."""
    from django.contrib.auth.models import Group

    if Group.objects.filter(name__in=["organiser", "referee"]).count() == 2:
        return
    migration = importlib.import_module("tournaments.migrations.0002_roles")
    migration.create_roles(apps, None)
