"""The panel's page of one's webhooks: add, switch off, delete, the deliveries' log, a
delivery sent again (tournaments.services.webhooks)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import View

from tournaments.errors import TournamentError
from tournaments.models import Webhook, WebhookDelivery
from tournaments.services import webhooks as service
from tournaments.web.shared import permissions
from tournaments.web.shared.permissions import signed_in


class WebhooksPanelView(permissions.OrganiserRoleRequiredMixin, View):
    template = "panel/webhooks.html"

    def get(self, request: HttpRequest) -> HttpResponse:
        user = signed_in(request)
        hooks = service.webhooks_of(owner=user)
        rows: list[dict[str, Any]] = [
            {"hook": hook, "deliveries": service.webhook_deliveries(hook=hook, limit=20)}
            for hook in hooks
        ]
        context = {"rows": rows, "events": Webhook.Event.choices}
        return render(request, self.template, context)

    def post(self, request: HttpRequest) -> HttpResponse:
        user = signed_in(request)
        action = request.POST.get("action")
        try:
            if action == "add":
                events = [e for e in request.POST.getlist("events") if e in service.EVENTS]
                hook = service.webhook_create(
                    owner=user, url=request.POST.get("url", "")[:500], events=events, actor=user
                )
                messages.success(
                    request,
                    _("Webhook added. Its signing secret: %(secret)s") % {"secret": hook.secret},
                )
            elif action in ("delete", "toggle"):
                hook = get_object_or_404(Webhook, pk=request.POST.get("hook") or 0, owner=user)
                if action == "delete":
                    service.webhook_delete(hook=hook, actor=user)
                else:
                    service.webhook_update(hook=hook, is_active=not hook.is_active, actor=user)
            elif action == "replay":
                delivery = get_object_or_404(
                    WebhookDelivery, pk=request.POST.get("delivery") or 0, hook__owner=user
                )
                service.webhook_delivery_replay(delivery=delivery, actor=user)
                messages.success(request, _("The delivery will be sent again."))
        except TournamentError as err:
            messages.error(request, str(err))
        except ValueError:
            pass
        return redirect("panel-webhooks")
