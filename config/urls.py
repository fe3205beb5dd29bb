from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from config import accounts
from config.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", accounts.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("config.api_urls")),
    path("", include("matches.urls")),
    path("", include("tournaments.urls_players")),
    path("", include("tournaments.urls")),
]

# Under /api/ a path no route takes answers the API's JSON 404, not a page.
handler404 = "config.api.not_found"
