from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuditConfig(AppConfig):
    """The audit log: written by both domain apps, so it sits below both (docs/architecture.md)."""

    name = "audit"
    verbose_name = _("Audit log")
