"""Pages of the players' side and the organiser's pages of online entry and club cups."""

from django.urls import path

from tournaments.web.panel import players as views_players_panel
from tournaments.web.public import players as views_players

urlpatterns = [
    path("players/", views_players.rating_list, name="players-list"),
    path("players/<int:pk>/", views_players.player_page, name="players-detail"),
    path("players/<int:pk>/vs/<int:other>/", views_players.head_to_head, name="players-vs"),
    path("t/<int:pk>/entry/", views_players.EntryView.as_view(), name="players-entry"),
    path("me/", views_players.MeView.as_view(), name="me"),
    path("me/t/<int:pk>/diploma.pdf", views_players.MyDiplomaView.as_view(), name="me-diploma"),
    path("series/<int:pk>/", views_players.series_page, name="series"),
    path("accounts/signup/", views_players.SignupView.as_view(), name="signup"),
    path(
        "accounts/password/reset/",
        views_players.PasswordResetView.as_view(),
        name="password-reset",
    ),
    path(
        "accounts/password/reset/sent/",
        views_players.PasswordResetDoneView.as_view(),
        name="password-reset-done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        views_players.PasswordResetConfirmView.as_view(),
        name="password-reset-confirm",
    ),
    # Organiser panel
    path(
        "panel/t/<int:pk>/registrations/<int:reg>/check-in/",
        views_players_panel.CheckInView.as_view(),
        name="panel-registration-check-in",
    ),
    path(
        "panel/t/<int:pk>/registrations/remove-absent/",
        views_players_panel.RemoveAbsentView.as_view(),
        name="panel-remove-absent",
    ),
    path(
        "panel/t/<int:pk>/requests/<int:req>/",
        views_players_panel.PlayerRequestDecideView.as_view(),
        name="panel-player-request",
    ),
    path(
        "panel/t/<int:pk>/entry-settings/",
        views_players_panel.EntrySettingsView.as_view(),
        name="panel-entry-settings",
    ),
    path("panel/series/new/", views_players_panel.SeriesCreateView.as_view(), name="series-create"),
    path(
        "panel/series/<int:pk>/",
        views_players_panel.SeriesEditView.as_view(),
        name="series-edit",
    ),
]
