from django.apps import AppConfig


class RulesConfig(AppConfig):
    """Django's view of the rules engine; the engine itself never imports Django."""

    name = "rules"
    verbose_name = "Rules engine"
