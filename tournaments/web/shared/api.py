"""What the API faces share: the list parameters and the audit log's page."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.drf import LimitOffsetPagination
from tournaments.web.shared.serializers import AuditEntrySerializer

PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, description="Entries per page (default 100, at most 1000)."),
    OpenApiParameter("offset", int, description="Entries to skip."),
]


AUDIT_PAGE_PARAMETERS = PAGE_PARAMETERS


def api_paginator() -> LimitOffsetPagination:
    """The API's paginator (settings' DEFAULT_PAGINATION_CLASS names the same class for DRF's
    generic views; the stubs type that setting as its dotted path, not the class)."""
    return LimitOffsetPagination()


def audit_page(request: Request, view: APIView, entries: Any) -> Response:
    """One page of audit entries as ``{"count", "next", "previous", "results"}``: a queryset
    of them, or a tournaments.selectors.audit.AuditLog (entries and balls merged, which loads each
    page's matches itself)."""
    pages = api_paginator()
    if isinstance(entries, QuerySet):
        entries = entries.select_related("match")
    page: list[Any] | None = pages.paginate_queryset(entries, request, view=view)
    return pages.get_paginated_response(AuditEntrySerializer(page, many=True).data)
