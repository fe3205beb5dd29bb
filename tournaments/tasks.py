"""Celery tasks of the tournaments: thin, idempotent, enqueued after commit."""

from __future__ import annotations

from config.celery import app
from tournaments.services.webhooks import webhook_send_pending


@app.task(name="tournaments.tasks.webhook_deliver", ignore_result=True)
def webhook_deliver(hook_id: int) -> int:
    """Send a hook's waiting deliveries in order (again after a failure's delay): sending
    twice is harmless, the deliveries already made are not sent again."""
    return webhook_send_pending(hook_id=hook_id)
