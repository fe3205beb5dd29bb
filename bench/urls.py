"""The product's URLs plus /bench/ceiling/: a minimal DRF endpoint that inserts one row."""

from django.urls import path
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.models import AuditEntry
from bench import without
from config.urls import urlpatterns as product_urlpatterns

without.apply()  # BENCH_WITHOUT: the event path without those pieces of matches.querycache


class CeilingView(APIView):
    """What one authenticated JSON POST costs with nothing but a single INSERT behind it."""

    permission_classes = [permissions.IsAuthenticated]

    def post(self, request: Request) -> Response:
        entry = AuditEntry.objects.create(
            actor=request.user, action="bench.ceiling", data=request.data
        )
        return Response({"id": entry.pk}, status=status.HTTP_201_CREATED)


urlpatterns = [path("bench/ceiling/", CeilingView.as_view()), *product_urlpatterns]
