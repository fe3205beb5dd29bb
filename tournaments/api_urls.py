from django.urls import path
from rest_framework.routers import SimpleRouter

from tournaments import api, api_people, views_tokens

router = SimpleRouter()
router.register("players", api.PlayerViewSet, basename="player")
router.register("tournaments", api.TournamentViewSet, basename="tournament")

# The people endpoints come first: "players/claim/" is not a player's id.
people_urls = [
    path("players/claim/", api_people.PlayerClaimRedeemView.as_view(), name="player-claim-redeem"),
    path(
        "players/<int:pk>/claim-code/",
        api_people.PlayerClaimIssueView.as_view(),
        name="player-claim-issue",
    ),
    path(
        "players/<int:pk>/history/", api_people.PlayerHistoryView.as_view(), name="player-history"
    ),
    path("players/<int:pk>/merge/", api_people.PlayerMergeView.as_view(), name="player-merge"),
    path(
        "tournaments/<int:tournament_pk>/referees/",
        api_people.RefereeListView.as_view(),
        name="tournament-referees",
    ),
    path(
        "tournaments/<int:tournament_pk>/referees/logins/",
        api_people.RefereeLoginCreateView.as_view(),
        name="tournament-referee-login-create",
    ),
    path(
        "tournaments/<int:tournament_pk>/referees/<int:user_id>/",
        api_people.RefereeDetailView.as_view(),
        name="tournament-referee-detail",
    ),
    path(
        "tournaments/<int:tournament_pk>/referees/<int:user_id>/password/",
        api_people.RefereePasswordView.as_view(),
        name="tournament-referee-password",
    ),
]

urlpatterns = [
    *people_urls,
    *router.urls,
    path("presets/", api.PresetListView.as_view(), name="preset-list"),
    path("auth/token/", views_tokens.ApiTokenView.as_view(), name="api-token"),
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
