from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from config import accounts
from config.health import healthz


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever the page links: answer, not 404 in every log.
    Resolved per request: the hashed static name exists only after collectstatic."""
    return HttpResponsePermanentRedirect(static("img/favicon.ico"))


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
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
