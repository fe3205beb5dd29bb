from django.urls import path
from rest_framework.routers import SimpleRouter

from tournaments import api

router = SimpleRouter()
router.register("players", api.PlayerViewSet, basename="player")
router.register("tournaments", api.TournamentViewSet, basename="tournament")

urlpatterns = [
    *router.urls,
    path("presets/", api.PresetListView.as_view(), name="preset-list"),
    path(
        "tournaments/<int:tournament_pk>/registrations/",
        api.RegistrationListView.as_view(),
        name="registration-list",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/totals/",
        api.RegistrationTotalsView.as_view(),
        name="registration-totals",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/<int:registration_pk>/",
        api.RegistrationDetailView.as_view(),
        name="registration-detail",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/<int:registration_pk>/withdraw/",
        api.RegistrationWithdrawView.as_view(),
        name="registration-withdraw",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/<int:registration_pk>/disqualify/",
        api.RegistrationDisqualifyView.as_view(),
        name="registration-disqualify",
    ),
    path(
        "tournaments/<int:tournament_pk>/matches/<int:match_pk>/no-show/",
        api.MatchNoShowView.as_view(),
        name="match-no-show",
    ),
    path(
        "tournaments/<int:tournament_pk>/audit/",
        api.TournamentAuditView.as_view(),
        name="tournament-audit",
    ),
    path(
        "tournaments/<int:tournament_pk>/matches/<int:match_pk>/handicap/",
        api.MatchHandicapView.as_view(),
        name="match-handicap",
    ),
    path(
        "tournaments/<int:tournament_pk>/matches/<int:match_pk>/correct/",
        api.MatchCorrectView.as_view(),
        name="match-correct",
    ),
    path(
        "tournaments/<int:tournament_pk>/matches/<int:match_pk>/rating-changes/",
        api.MatchRatingView.as_view(),
        name="match-rating-changes",
    ),
]
