"""The referee form as a small offline app: its service worker and its web app manifest.

The service worker is a template so it lists the form's static files by their deployed
(hashed) names and is served from /m/, whose scope covers every form (/m/<pk>/score/)
without a Service-Worker-Allowed header. Both are public: they carry no match data.
"""

from __future__ import annotations

import functools
import json
import os

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from matches.access import can_view_match
from matches.models import Match

# Everything the form loads; a reload offline needs all of it from the cache.
FORM_STATIC = (
    "css/luza.css",
    "css/referee.css",
    "js/clock.js",
    "js/confirm.js",
    "js/referee/main.js",
    "js/referee/api.js",
    "js/referee/queue.js",
    "js/referee/dom.js",
    "js/referee/entry.js",
    "img/trophy.svg",
    "img/favicon.svg",
)
MODULES = "js/referee/"
RENDERERS = "js/referee/disciplines"


@functools.cache
def form_renderers() -> tuple[str, ...]:
    """The form's renderers, one per discipline that has its own (disciplines/<name>.js, and
    generic.js for any other), found among the static files: a new discipline's renderer is
    picked up by its file alone, no list names it."""
    folder = finders.find(RENDERERS)
    if not isinstance(folder, str) or not os.path.isdir(folder):
        return ("generic",)
    return tuple(sorted(name[:-3] for name in os.listdir(folder) if name.endswith(".js")))


def form_static() -> tuple[str, ...]:
    return FORM_STATIC + tuple(f"{RENDERERS}/{name}.js" for name in form_renderers())


CACHE_VERSION = "3"


@require_safe
def referee_service_worker(request: HttpRequest) -> HttpResponse:
    files = form_static()
    urls = [static(path) for path in files]
    # main.js imports its modules by their plain names (no build step rewrites them), and
    # the deployed storage keeps the plain copies next to the hashed ones.
    urls += [settings.STATIC_URL + path for path in files if path.startswith(MODULES)]
    urls = list(dict.fromkeys(urls))
    body = render_to_string(
        "matches/referee_sw.js",
        {"urls_json": json.dumps(urls), "cache": f"luza-referee-{CACHE_VERSION}"},
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # A new deploy's worker (new hashed names) is picked up at the next visit.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def referee_manifest(request: HttpRequest, pk: int) -> HttpResponse:
    # A match of a private tournament is unknown to whoever may not see it, here too.
    match = Match.objects.select_related("tournament").filter(pk=pk).first()
    if match is None or not can_view_match(request.user, match):
        raise Http404
    form = reverse("referee-match", args=[pk])
    data = {
        "name": _("Luza — scoring form"),
        "short_name": _("Luza"),
        "start_url": form,
        "scope": form,
        "display": "standalone",
        "background_color": "#0f2a1d",
        "theme_color": "#0b1f15",
        "icons": [{"src": static("img/favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    return HttpResponse(
        json.dumps(data, ensure_ascii=False), content_type="application/manifest+json"
    )
