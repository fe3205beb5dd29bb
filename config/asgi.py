"""The ASGI entry point: the live stream endpoints (tournaments.web.stream) and, for anything
else, Django. Production runs it under uvicorn beside gunicorn, and nginx sends only the
stream paths here (deploy/nginx/luza.conf); `make run` serves everything from it."""

import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()
# whitenoise hands `make run`'s static files over as a synchronous iterator: fine for them.
warnings.filterwarnings(
    "ignore", message="StreamingHttpResponse must consume synchronous"
)  # sets Django up before the stream module loads

from tournaments.web import stream  # noqa: E402


async def application(scope, receive, send):  # type: ignore[no-untyped-def]
    if scope["type"] == "lifespan":
        return await stream.application(scope, receive, send)
    if scope["type"] == "http" and stream.route(scope["path"]) is not None:
        return await stream.application(scope, receive, send)
    return await django_application(scope, receive, send)
