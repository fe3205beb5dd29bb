"""The panel's page of one's own API token: issue (shown once) or revoke it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from tournaments.services.logins import api_token_info, api_token_issue, api_token_revoke
from tournaments.web.shared import permissions
from tournaments.web.shared.permissions import signed_in


class ApiTokenPanelView(permissions.OrganiserRoleRequiredMixin, View):
    template = "panel/api_token.html"

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, self.template, {"info": api_token_info(user=signed_in(request))})

    def post(self, request: HttpRequest) -> HttpResponse:
        user = signed_in(request)
        if request.POST.get("action") == "revoke":
            if api_token_revoke(user=user, actor=user):
                messages.success(request, _("The API token is revoked: it no longer works."))
            return redirect("panel-api-token")
        key = api_token_issue(user=user, actor=user)
        # Rendered, not redirected: the key is in this answer only and never shown again.
        context: dict[str, Any] = {"info": api_token_info(user=user), "key": key}
        response = render(request, self.template, context)
        response["Cache-Control"] = "no-store"
        return response
