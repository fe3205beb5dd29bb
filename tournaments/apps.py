from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _

from config.changes import change_subscribe
from config.moments import tolerate_stored_dates
from config.push import push_publish
from matches import hooks


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # Imported here, not at the top: this module is loaded while Django builds its app
        # registry, before any models module may be imported (the services import them).
        from tournaments.services.match_listener import TournamentSide
        from tournaments.services.webhooks import webhooks_outbox
        from tournaments.web.stream import access_changed

        hooks.listener_register(TournamentSide())
        # Every committed change into the live pages' Redis streams (the push channel).
        change_subscribe(push_publish)
        # This process's memory of who may read a live stream, exact once the change commits.
        change_subscribe(access_changed)
        # The webhooks' outbox, written in the change's own transaction.
        change_subscribe(webhooks_outbox, when="transaction")
        # A date stored out of Python's range reads without failing its row's every query.
        connection_created.connect(tolerate_stored_dates, dispatch_uid="luza-tolerant-dates")
