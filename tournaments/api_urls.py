from django.urls import path
from rest_framework.routers import SimpleRouter

from tournaments.web.api import people as api_people
from tournaments.web.api import players as api_players
from tournaments.web.api import tokens as views_tokens
from tournaments.web.api import views as api
from tournaments.web.api import webhooks as api_webhooks

router = SimpleRouter()
router.register("players", api.PlayerViewSet, basename="player")
router.register("tournaments", api.TournamentViewSet, basename="tournament")

# The players' side (tournaments.web.api.players): "players/ratings/" is not a player's id either.
players_urls = [
    path("players/ratings/", api_players.RatingListView.as_view(), name="player-ratings"),
    path("players/<int:pk>/profile/", api_players.ProfileView.as_view(), name="player-profile"),
    path(
        "players/<int:pk>/vs/<int:other>/",
        api_players.HeadToHeadView.as_view(),
        name="player-head-to-head",
    ),
    path("me/", api_players.MeView.as_view(), name="me-api"),
    path("series/", api_players.SeriesListView.as_view(), name="series-list"),
    path("series/<int:pk>/", api_players.SeriesDetailView.as_view(), name="series-detail"),
    path(
        "series/<int:pk>/standings/",
        api_players.SeriesStandingsView.as_view(),
        name="series-standings",
    ),
    path(
        "tournaments/<int:tournament_pk>/entry/",
        api_players.EntryView.as_view(),
        name="tournament-entry",
    ),
    path(
        "tournaments/<int:tournament_pk>/entry/withdraw/",
        api_players.EntryWithdrawView.as_view(),
        name="tournament-entry-withdraw",
    ),
    path(
        "tournaments/<int:tournament_pk>/entry-settings/",
        api_players.EntrySettingsView.as_view(),
        name="tournament-entry-settings",
    ),
    path(
        "tournaments/<int:tournament_pk>/reserves/",
        api_players.ReserveListView.as_view(),
        name="tournament-reserves",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/remove-absent/",
        api_players.RemoveAbsentView.as_view(),
        name="registration-remove-absent",
    ),
    path(
        "tournaments/<int:tournament_pk>/registrations/<int:registration_pk>/check-in/",
        api_players.CheckInView.as_view(),
        name="registration-check-in",
    ),
    path(
        "tournaments/<int:tournament_pk>/player-requests/",
        api_players.PlayerRequestListView.as_view(),
        name="tournament-player-requests",
    ),
    path(
        "tournaments/<int:tournament_pk>/player-requests/<int:request_pk>/decide/",
        api_players.PlayerRequestDecideView.as_view(),
        name="tournament-player-request-decide",
    ),
]

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
    *players_urls,
    *people_urls,
    *router.urls,
    path("presets/", api.PresetListView.as_view(), name="preset-list"),
    path("auth/token/", views_tokens.ApiTokenView.as_view(), name="api-token"),
    path("webhooks/", api_webhooks.WebhookListView.as_view(), name="webhook-list"),
    path("webhooks/<int:pk>/", api_webhooks.WebhookDetailView.as_view(), name="webhook-detail"),
    path(
        "webhooks/<int:pk>/deliveries/",
        api_webhooks.WebhookDeliveryListView.as_view(),
        name="webhook-deliveries",
    ),
    path(
        "webhooks/<int:pk>/deliveries/<uuid:delivery_id>/replay/",
        api_webhooks.WebhookReplayView.as_view(),
        name="webhook-replay",
    ),
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
        "tournaments/<int:tournament_pk>/registrations/<int:registration_pk>/refund/",
        api.RegistrationRefundView.as_view(),
        name="registration-refund",
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
