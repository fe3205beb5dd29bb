"""Web pages of matches: scoreboard, table overlay, referee form, table board, match control."""

from django.urls import path

from matches.web import public
from matches.web.panel import views as panel
from matches.web.referee import pwa
from matches.web.referee import views as referee

urlpatterns = [
    path("m/<int:pk>/", public.scoreboard, name="public-match"),
    path("m/<int:pk>/score/", referee.RefereeView.as_view(), name="referee-match"),
    path("m/<int:pk>/late/", referee.RefereeLatenessView.as_view(), name="referee-lateness"),
    path("referee/", referee.RefereeHomeView.as_view(), name="referee-home"),
    path("t/<int:pk>/tables/<int:number>/", public.table_page, name="public-table"),
    path("m/referee-sw.js", pwa.referee_service_worker, name="referee-sw"),
    path("m/<int:pk>/score/manifest.webmanifest", pwa.referee_manifest, name="referee-manifest"),
    path(
        "t/<int:pk>/tables/<int:number>/overlay/",
        public.table_overlay,
        name="public-table-overlay",
    ),
    # Organiser panel
    path("panel/t/<int:pk>/tables/", panel.TableBoardView.as_view(), name="panel-tables"),
    path(
        "panel/t/<int:pk>/tables/count/", panel.TablesCountView.as_view(), name="panel-tables-count"
    ),
    path(
        "panel/t/<int:pk>/tables/assign-next/",
        panel.AssignNextView.as_view(),
        name="panel-tables-assign-next",
    ),
    path(
        "panel/t/<int:pk>/tables/<int:number>/free/",
        panel.TableFreeView.as_view(),
        name="panel-table-free",
    ),
    path("panel/m/<int:pk>/", panel.MatchControlView.as_view(), name="panel-match"),
    path("panel/m/<int:pk>/clock/", panel.MatchClockView.as_view(), name="panel-match-clock"),
    path(
        "panel/m/<int:pk>/clock/adjust/",
        panel.MatchClockAdjustView.as_view(),
        name="panel-match-clock-adjust",
    ),
    path(
        "panel/m/<int:pk>/walkover/", panel.MatchWalkoverView.as_view(), name="panel-match-walkover"
    ),
    path("panel/m/<int:pk>/correct/", panel.MatchCorrectView.as_view(), name="panel-match-correct"),
    path(
        "panel/m/<int:pk>/handicap/", panel.MatchHandicapView.as_view(), name="panel-match-handicap"
    ),
    path("panel/m/<int:pk>/assign/", panel.MatchAssignView.as_view(), name="panel-match-assign"),
    path("panel/m/<int:pk>/move/", panel.MatchMoveView.as_view(), name="panel-match-move"),
    path("panel/m/<int:pk>/hold/", panel.MatchHoldView.as_view(), name="panel-match-hold"),
    path(
        "panel/m/<int:pk>/judge/resolve/",
        panel.MatchJudgeResolveView.as_view(),
        name="panel-match-judge-resolve",
    ),
]
