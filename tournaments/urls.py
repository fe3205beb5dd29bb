"""Web pages of tournaments: public pages (no login) and the organiser panel (/panel/).

Names are prefixed (public-, panel-) because the API's router already owns names such as
"tournament-bracket"."""

from django.urls import path

from tournaments.web.panel import diplomas
from tournaments.web.panel import people as views_people
from tournaments.web.panel import printouts as prints
from tournaments.web.panel import settings as views_settings
from tournaments.web.panel import tokens as views_tokens
from tournaments.web.panel import views as views_panel
from tournaments.web.panel import webhooks as views_webhooks
from tournaments.web.public import views

urlpatterns = [
    path("", views.home, name="home"),
    path("t/<int:pk>/", views.tournament_detail, name="public-tournament"),
    path("t/<int:pk>/bracket/", views.tournament_bracket, name="public-bracket"),
    path("t/<int:pk>/standings/", views.tournament_standings, name="public-standings"),
    path("t/<int:pk>/prizes/", views.tournament_prizes, name="public-prizes"),
    # Organiser panel
    path("panel/", views_panel.PanelHomeView.as_view(), name="panel-home"),
    path("panel/new/", views_panel.TournamentCreateView.as_view(), name="panel-create"),
    path("panel/api-token/", views_tokens.ApiTokenPanelView.as_view(), name="panel-api-token"),
    path("panel/webhooks/", views_webhooks.WebhooksPanelView.as_view(), name="panel-webhooks"),
    path("panel/t/<int:pk>/", views_panel.TournamentPanelView.as_view(), name="panel-tournament"),
    path(
        "panel/t/<int:pk>/open-registration/",
        views_panel.OpenRegistrationView.as_view(),
        name="panel-open-registration",
    ),
    path(
        "panel/t/<int:pk>/close-registration/",
        views_panel.CloseRegistrationView.as_view(),
        name="panel-close-registration",
    ),
    path(
        "panel/t/<int:pk>/reopen-registration/",
        views_panel.ReopenRegistrationView.as_view(),
        name="panel-reopen-registration",
    ),
    path("panel/t/<int:pk>/start/", views_panel.StartView.as_view(), name="panel-start"),
    path(
        "panel/t/<int:pk>/referees/",
        views_panel.RefereeAddView.as_view(),
        name="panel-referee-add",
    ),
    path(
        "panel/t/<int:pk>/referees/<int:user_id>/remove/",
        views_panel.RefereeRemoveView.as_view(),
        name="panel-referee-remove",
    ),
    path(
        "panel/t/<int:pk>/registrations/",
        views_panel.RegistrationDeskView.as_view(),
        name="panel-registrations",
    ),
    path(
        "panel/t/<int:pk>/registrations/add/",
        views_panel.RegistrationAddView.as_view(),
        name="panel-registration-add",
    ),
    path(
        "panel/t/<int:pk>/registrations/new/",
        views_panel.RegistrationNewPlayerView.as_view(),
        name="panel-registration-new",
    ),
    path(
        "panel/t/<int:pk>/registrations/<int:reg>/paid/",
        views_panel.RegistrationPaidView.as_view(),
        name="panel-registration-paid",
    ),
    path(
        "panel/t/<int:pk>/registrations/<int:reg>/withdraw/",
        views_panel.RegistrationWithdrawView.as_view(),
        name="panel-registration-withdraw",
    ),
    path(
        "panel/t/<int:pk>/matches/<int:match>/lateness/",
        views_panel.MatchLatenessView.as_view(),
        name="panel-match-lateness",
    ),
    path(
        "panel/t/<int:pk>/table-time/<int:match>/paid/",
        views_panel.TableTimePaidView.as_view(),
        name="panel-table-time-paid",
    ),
    path(
        "panel/t/<int:pk>/registrations/<int:reg>/refund/",
        views_panel.RegistrationRefundView.as_view(),
        name="panel-registration-refund",
    ),
    path(
        "panel/t/<int:pk>/registrations/<int:reg>/disqualify/",
        views_panel.RegistrationDisqualifyView.as_view(),
        name="panel-registration-disqualify",
    ),
    path(
        "panel/t/<int:pk>/matches/<int:match>/no-show/",
        views_panel.MatchNoShowView.as_view(),
        name="panel-match-no-show",
    ),
    path("panel/t/<int:pk>/draw/", views_panel.DrawView.as_view(), name="panel-draw"),
    path("panel/t/<int:pk>/prizes/", views_panel.PrizesPanelView.as_view(), name="panel-prizes"),
    path(
        "panel/t/<int:pk>/settings/", views_settings.SettingsView.as_view(), name="panel-settings"
    ),
    path("panel/t/<int:pk>/archive/", views_settings.ArchiveView.as_view(), name="panel-archive"),
    path("panel/t/<int:pk>/delete/", views_settings.DeleteView.as_view(), name="panel-delete"),
    path("panel/t/<int:pk>/audit/", views_panel.AuditView.as_view(), name="panel-audit"),
    path("panel/t/<int:pk>/diplomas/", diplomas.DiplomasHtmlView.as_view(), name="panel-diplomas"),
    path(
        "panel/t/<int:pk>/diplomas.pdf",
        diplomas.DiplomasPdfView.as_view(),
        name="panel-diplomas-pdf",
    ),
    path(
        "panel/t/<int:pk>/diplomas/<int:player>.pdf",
        diplomas.DiplomaPdfView.as_view(),
        name="panel-diploma-pdf",
    ),
    # Printouts: each a printable page and a PDF
    *[
        path(f"panel/{scope}/<int:pk>/print/{name}{suffix}", view.as_view(pdf=pdf), name=url_name)
        for scope, name, view in (
            ("t", "bracket", prints.BracketPrintView),
            ("t", "sheets", prints.SheetsPrintView),
            ("t", "tables", prints.TablesPrintView),
            ("t", "protocol", prints.ProtocolPrintView),
            ("t", "regulation", prints.RegulationPrintView),
            ("m", "sheet", prints.MatchSheetPrintView),
        )
        for suffix, pdf, url_name in (
            ("/", False, f"panel-print-{name}"),
            (".pdf", True, f"panel-print-{name}-pdf"),
        )
    ],
    # People: referees' logins, players' slips and cards, claims, one's own password
    path("panel/t/<int:pk>/people/", views_people.PeopleView.as_view(), name="panel-people"),
    path(
        "panel/t/<int:pk>/people/referees/new/",
        views_people.RefereeLoginCreateView.as_view(),
        name="panel-referee-login-create",
    ),
    path(
        "panel/t/<int:pk>/people/referees/<int:user_id>/password/",
        views_people.RefereePasswordResetView.as_view(),
        name="panel-referee-password",
    ),
    path(
        "panel/t/<int:pk>/people/players/<int:player_id>/slip/",
        views_people.PlayerSlipView.as_view(),
        name="panel-player-slip",
    ),
    path(
        "panel/t/<int:pk>/people/slip.pdf",
        views_people.SlipPdfView.as_view(),
        name="panel-slip-pdf",
    ),
    path(
        "panel/players/<int:player_id>/", views_people.PlayerCardView.as_view(), name="panel-player"
    ),
    path(
        "panel/players/<int:player_id>/edit/",
        views_people.PlayerEditView.as_view(),
        name="panel-player-edit",
    ),
    path(
        "panel/players/<int:player_id>/change/",
        views_people.PlayerChangeProposeView.as_view(),
        name="panel-player-change",
    ),
    path("me/changes/", views_people.PlayerChangesView.as_view(), name="player-changes"),
    path(
        "me/changes/<int:pk>/",
        views_people.PlayerChangeDecideView.as_view(),
        name="player-change-decide",
    ),
    path(
        "panel/players/<int:player_id>/merge/",
        views_people.PlayerMergeView.as_view(),
        name="panel-player-merge",
    ),
    path(
        "panel/players/<int:player_id>/login/",
        views_people.PlayerLoginView.as_view(),
        name="panel-player-login",
    ),
    path("claim/", views_people.ClaimView.as_view(), name="people-claim"),
    path(
        "accounts/password/",
        views_people.PasswordChangeView.as_view(),
        name="password-change",
    ),
    path(
        "accounts/password/done/",
        views_people.PasswordChangeDoneView.as_view(),
        name="password-change-done",
    ),
]
