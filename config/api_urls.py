from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerSplitView

from config.schema import SchemaView
from tournaments.web import stream

urlpatterns = [
    path("schema/", SchemaView.as_view(), name="api-schema"),
    path(
        "docs/",
        # Our template: the package's has an inline <style> that the CSP blocks.
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="api/swagger_ui.html"
        ),
        name="api-docs",
    ),
    # Matches first: every scored ball and every tablet's poll resolves through here, and
    # Django tries the patterns in order.
    # The live streams are the stream server's (config.asgi); reached here, they say so.
    path("tournaments/<int:pk>/stream/", stream.wsgi_tournament, name="tournament-stream"),
    path("matches/<int:pk>/stream/", stream.wsgi_match, name="match-stream"),
    path("", include("matches.api_urls")),
    path("", include("tournaments.api_urls")),
]
