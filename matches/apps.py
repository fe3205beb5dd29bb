from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from config.changes import Change
from config.push import push_enrich_register
from matches import checks, hooks


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        # Imported here, not at the top: this module is loaded while Django builds its app
        # registry, before any models module may be imported (the tasks import the services).
        from matches import tasks

        # Celery takes the list of arguments and eta=None the hook passes; its stubs ask for a
        # tuple and a datetime.
        hooks.expiry_task_register(tasks.clock_expire)  # type: ignore[arg-type]
        checks.register()
        push_enrich_register(_live_figures)


def _live_figures(change: Change) -> dict[str, Any]:
    if change.match_id is None or not change.kind.startswith("match."):
        return {}
    from matches.selectors import live_figures

    return live_figures(match_id=change.match_id)
