from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

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
