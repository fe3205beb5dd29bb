"""A task only the test worker loads (`--include`), to prove the Celery wiring end to end."""

from celery import shared_task
from django.contrib.auth.models import Group


@shared_task(name="tests.probe_create_group")
def probe_create_group(name: str) -> None:
    Group.objects.get_or_create(name=name)
