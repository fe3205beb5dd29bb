"""Production settings plus the ceiling endpoint and a query counter, for the load benchmarks."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
MIDDLEWARE = ["bench.middleware.QueryCountMiddleware", *MIDDLEWARE]  # noqa: F405
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
