from django.urls import include, path
from drf_spectacular.views import SpectacularSwaggerSplitView

from config.schema import SchemaView

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
    path("", include("matches.api_urls")),
    path("", include("tournaments.api_urls")),
]
