from django.urls import path
from rest_framework.routers import SimpleRouter

from matches.web.api import views as api

router = SimpleRouter()
router.register("matches", api.MatchViewSet, basename="match")

urlpatterns = [
    *router.urls,
    path(
        "tournaments/<int:tournament_pk>/tables/",
        api.TournamentTablesView.as_view(),
        name="tournament-tables",
    ),
    path(
        "tournaments/<int:tournament_pk>/tables/assign/",
        api.TournamentTablesAssignView.as_view(),
        name="tournament-tables-assign",
    ),
    path(
        "tournaments/<int:tournament_pk>/tables/<int:number>/free/",
        api.TournamentTableFreeView.as_view(),
        name="tournament-table-free",
    ),
]
