"""Web pages of matches: scoreboard, table overlay, referee form, table board, match control."""

from django.urls import path

from matches import pwa, views, views_referee_home

urlpatterns = [
    path("m/<int:pk>/", views.scoreboard, name="public-match"),
    path("m/<int:pk>/score/", views.RefereeView.as_view(), name="referee-match"),
    path("referee/", views_referee_home.RefereeHomeView.as_view(), name="referee-home"),
    path("t/<int:pk>/tables/<int:number>/", views_referee_home.table_page, name="public-table"),
    path("m/referee-sw.js", pwa.referee_service_worker, name="referee-sw"),
    path("m/<int:pk>/score/manifest.webmanifest", pwa.referee_manifest, name="referee-manifest"),
    path(
        "t/<int:pk>/tables/<int:number>/overlay/",
        views.table_overlay,
        name="public-table-overlay",
    ),
    # Organiser panel
    path("panel/t/<int:pk>/tables/", views.TableBoardView.as_view(), name="panel-tables"),
    path(
        "panel/t/<int:pk>/tables/count/", views.TablesCountView.as_view(), name="panel-tables-count"
    ),
    path(
        "panel/t/<int:pk>/tables/assign-next/",
        views.AssignNextView.as_view(),
        name="panel-tables-assign-next",
    ),
    path(
        "panel/t/<int:pk>/tables/<int:number>/free/",
        views.TableFreeView.as_view(),
        name="panel-table-free",
    ),
    path("panel/m/<int:pk>/", views.MatchControlView.as_view(), name="panel-match"),
    path("panel/m/<int:pk>/clock/", views.MatchClockView.as_view(), name="panel-match-clock"),
    path(
        "panel/m/<int:pk>/clock/adjust/",
        views.MatchClockAdjustView.as_view(),
        name="panel-match-clock-adjust",
    ),
    path(
        "panel/m/<int:pk>/walkover/", views.MatchWalkoverView.as_view(), name="panel-match-walkover"
    ),
    path("panel/m/<int:pk>/correct/", views.MatchCorrectView.as_view(), name="panel-match-correct"),
    path(
        "panel/m/<int:pk>/handicap/", views.MatchHandicapView.as_view(), name="panel-match-handicap"
    ),
    path("panel/m/<int:pk>/assign/", views.MatchAssignView.as_view(), name="panel-match-assign"),
    path("panel/m/<int:pk>/move/", views.MatchMoveView.as_view(), name="panel-match-move"),
    path("panel/m/<int:pk>/hold/", views.MatchHoldView.as_view(), name="panel-match-hold"),
    path(
        "panel/m/<int:pk>/judge/resolve/",
        views.MatchJudgeResolveView.as_view(),
        name="panel-match-judge-resolve",
    ),
]
