"""Webhooks: an organiser's URLs hear of his tournaments' events.

The outbox is filled from the change feed inside the change's own transaction
(``change_subscribe(webhooks_outbox, when="transaction")``): a delivery exists exactly when the
change committed. After the commit a thin Celery task (tournaments.tasks.webhook_deliver) sends
a hook's waiting deliveries in order, one hook at a time (its row locked), each signed:

    Luza-Delivery: <uuid, the same on every retry: receivers drop what they have seen>
    Luza-Event: match.finished
    Luza-Timestamp: <unix seconds>
    Luza-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" with the hook's secret>

A 2xx answer delivers it; anything else is retried with growing delays (RETRY_DELAYS), then
marked failed; the last answer is kept, and the owner may send a delivery again. Delivery is
at least once. Only a tournament's organisers' hooks hear of it (a private tournament's events
go nowhere else), and never to loopback, private or link-local addresses unless
LUZA_WEBHOOK_ALLOW_PRIVATE is set (tests, a closed network).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import logging
import secrets
import socket
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterable
from datetime import UTC, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import audit_record
from config.celery import app
from config.changes import Change
from tournaments.errors import BAD_REQUEST, FORBIDDEN, TournamentError
from tournaments.models import Tournament, Webhook, WebhookDelivery

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from config.types import Actor

log = logging.getLogger(__name__)

EVENTS = tuple(Webhook.Event.values)
# A finished or corrected result changes the standings: one more event for those who want it.
STANDINGS_FROM = ("match.finished", "match.corrected")
RETRY_DELAYS = (10, 30, 120, 600, 1800, 3600, 3600, 3600)  # seconds, then failed
TIMEOUT_SECONDS = 5
KEPT_RESPONSE = 2000  # characters of an answer kept in the log
MAX_HOOKS_PER_OWNER = 20
# Whether any hook is active: the outbox runs on every scored ball, and most installations
# have none; a cache read, not a query (bumped by every change of a hook).
ANY_HOOK_KEY = "webhooks:any-active"
DELIVER_TASK = "tournaments.tasks.webhook_deliver"


def _refused(code: str, message: str, status: int = BAD_REQUEST, **params: Any) -> TournamentError:
    return TournamentError(code, message, status=status, params=params)


# --- addresses ---------------------------------------------------------------------------------


def _forbidden_address(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return bool(
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
    )


def url_refusal(url: str) -> str | None:
    """Why a hook may not be sent to `url` (None: it may): http(s) only, and not to a
    loopback or private address unless the deployment allows it."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return _("Give an http:// or https:// URL.")
    if settings.LUZA_WEBHOOK_ALLOW_PRIVATE:
        return None
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or 443, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return _("The URL's host name does not resolve.")
    if any(_forbidden_address(str(info[4][0]).split("%")[0]) for info in infos):
        return _("Webhooks are not sent to loopback or private network addresses.")
    return None


# --- the organiser's hooks -----------------------------------------------------------------------


def _changed() -> None:
    presence_forget()

    def committed() -> None:
        cache.delete(ANY_HOOK_KEY)
        presence_forget()

    transaction.on_commit(committed)


def _check(*, owner: User, url: str, events: Iterable[str], tournament: Tournament | None) -> None:
    refusal = url_refusal(url)
    if refusal is not None:
        raise _refused("webhook_url", refusal, field="url")
    unknown = sorted(set(events) - set(EVENTS))
    if unknown:
        raise _refused("webhook_events", _("Unknown event."), field="events", unknown=unknown)
    if tournament is not None and not tournament.organisers.filter(pk=owner.pk).exists():
        raise _refused(
            "not_organiser",
            _("Only the tournament's organisers hear of its events."),
            status=FORBIDDEN,
        )


def _audit_data(hook: Webhook) -> dict[str, Any]:
    return {
        "webhook": hook.pk,
        "url": hook.url,
        "events": list(hook.events),
        "tournament": hook.tournament_id,
        "active": hook.is_active,
    }


@transaction.atomic
def webhook_create(
    *,
    owner: User,
    url: str,
    events: list[str],
    tournament: Tournament | None = None,
    actor: Actor | None,
) -> Webhook:
    """A new hook of `owner` (for every tournament he organises, or `tournament`); its secret
    is made here and shown to him."""
    _check(owner=owner, url=url, events=events, tournament=tournament)
    if Webhook.objects.filter(owner=owner).count() >= MAX_HOOKS_PER_OWNER:
        raise _refused("too_many_webhooks", _("Too many webhooks."), max=MAX_HOOKS_PER_OWNER)
    hook = Webhook.objects.create(
        owner=owner,
        url=url,
        events=sorted(set(events)),
        tournament=tournament,
        secret=secrets.token_hex(32),
    )
    audit_record(
        actor=actor, action="webhook_create", tournament=tournament, data=_audit_data(hook)
    )
    _changed()
    return hook


@transaction.atomic
def webhook_update(
    *,
    hook: Webhook,
    url: str | None = None,
    events: list[str] | None = None,
    is_active: bool | None = None,
    actor: Actor | None,
) -> Webhook:
    locked = Webhook.objects.select_for_update().get(pk=hook.pk)
    new_url = locked.url if url is None else url
    new_events = list(locked.events) if events is None else sorted(set(events))
    _check(owner=locked.owner, url=new_url, events=new_events, tournament=None)
    locked.url, locked.events = new_url, new_events
    if is_active is not None:
        locked.is_active = is_active
    locked.save(update_fields=["url", "events", "is_active"])
    audit_record(
        actor=actor, action="webhook_update", tournament=locked.tournament, data=_audit_data(locked)
    )
    _changed()
    return locked


@transaction.atomic
def webhook_delete(*, hook: Webhook, actor: Actor | None) -> None:
    audit_record(
        actor=actor, action="webhook_delete", tournament=hook.tournament, data=_audit_data(hook)
    )
    hook.delete()
    _changed()


@transaction.atomic
def webhook_delivery_replay(*, delivery: WebhookDelivery, actor: Actor | None) -> WebhookDelivery:
    """Send a delivery again (same delivery id: a receiver that has it may drop it)."""
    locked = WebhookDelivery.objects.select_for_update().get(pk=delivery.pk)
    locked.status = WebhookDelivery.Status.PENDING
    locked.next_attempt_at = None
    locked.save(update_fields=["status", "next_attempt_at"])
    audit_record(
        actor=actor,
        action="webhook_replay",
        data={"webhook": locked.hook_id, "delivery": str(locked.delivery_id)},
    )
    _enqueue_on_commit([locked.hook_id])
    return locked


# --- the outbox ------------------------------------------------------------------------------------


# "No hook anywhere", as this process last read it, and until when (time.monotonic): every
# ball asks, and a Redis round trip per ball was a tenth of an event POST's CPU on this
# machine's virtual network. A hook saved in another process is heard by this one from at
# most PRESENCE_SECONDS later; this process forgets at once (_changed).
PRESENCE_SECONDS = 1.0
_none_until = 0.0


def presence_forget() -> None:
    global _none_until
    _none_until = 0.0


def _any_active() -> bool:
    global _none_until
    if time.monotonic() < _none_until:
        return False
    found = cache.get(ANY_HOOK_KEY)
    if found is None:
        found = Webhook.objects.filter(is_active=True).exists()
        cache.set(ANY_HOOK_KEY, found, 3600)
    if not found:
        _none_until = time.monotonic() + PRESENCE_SECONDS
    return bool(found)


def _send_later(hook_id: int, countdown: int | None = None) -> None:
    """tournaments.tasks.webhook_deliver, by name: the task module imports this one."""
    app.send_task(DELIVER_TASK, args=(hook_id,), countdown=countdown)


def _enqueue_on_commit(hook_ids: Iterable[int]) -> None:
    ids = sorted(set(hook_ids))

    def enqueue() -> None:
        for hook_id in ids:
            _send_later(hook_id)

    transaction.on_commit(enqueue)


def webhooks_outbox(change: Change) -> None:
    """Change-feed subscriber, inside the change's transaction: one delivery per hook that
    wants the event, committed (or rolled back) with the change."""
    kinds = [change.kind] + (["standings.changed"] if change.kind in STANDINGS_FROM else [])
    kinds = [kind for kind in kinds if kind in EVENTS]
    if not kinds or not _any_active():
        return
    hooks = list(
        Webhook.objects.filter(
            is_active=True, owner__organised_tournaments=change.tournament_id
        ).filter(Q(tournament__isnull=True) | Q(tournament_id=change.tournament_id))
    )
    rows = []
    now = timezone.now()
    for hook in hooks:
        for kind in kinds:
            if hook.events and kind not in hook.events:
                continue
            delivery_id = uuid.uuid4()
            payload = {
                "id": str(delivery_id),
                "event": kind,
                "created_at": now.astimezone(UTC).isoformat().replace("+00:00", "Z"),
                "tournament": change.tournament_id,
                "match": change.match_id,
                "data": json.loads(json.dumps(dict(change.data), default=str)),
            }
            rows.append(
                WebhookDelivery(hook=hook, delivery_id=delivery_id, event=kind, payload=payload)
            )
    if rows:
        WebhookDelivery.objects.bulk_create(rows)
        _enqueue_on_commit(row.hook_id for row in rows)


# --- sending ---------------------------------------------------------------------------------------


def signature(secret: str, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer, not a place to go (it could point inside the network)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def _post(hook: Webhook, delivery: WebhookDelivery) -> tuple[int | None, str, str]:
    """(status, body, error) of one attempt."""
    body = json.dumps(delivery.payload, ensure_ascii=False, separators=(",", ":")).encode()
    stamp = str(int(time.time()))
    request = urllib.request.Request(  # noqa: S310 - http(s) only: url_refusal
        hook.url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "Luza-Webhooks/1",
            "Luza-Delivery": str(delivery.delivery_id),
            "Luza-Event": delivery.event,
            "Luza-Timestamp": stamp,
            "Luza-Signature": signature(hook.secret, stamp, body),
        },
    )
    try:
        with _OPENER.open(request, timeout=TIMEOUT_SECONDS) as answer:
            return answer.status, answer.read(KEPT_RESPONSE).decode("utf-8", "replace"), ""
    except urllib.error.HTTPError as err:
        return err.code, err.read(KEPT_RESPONSE).decode("utf-8", "replace"), ""
    except (OSError, ValueError) as err:
        return None, "", str(err)[:300]


def webhook_send_pending(*, hook_id: int) -> int:
    """Send the hook's due deliveries in order; returns how many were delivered. One worker
    per hook at a time (its row locked; another finds it busy and leaves). The first that
    fails stops the queue until its retry, so that order holds."""
    delivered = 0
    retry_in: float | None = None
    with transaction.atomic():
        hook = Webhook.objects.select_for_update(skip_locked=True).filter(pk=hook_id).first()
        if hook is None or not hook.is_active:
            return 0
        now = timezone.now()
        while True:
            delivery = (
                WebhookDelivery.objects.filter(hook=hook, status=WebhookDelivery.Status.PENDING)
                .order_by("pk")
                .first()
            )
            if delivery is None:
                break
            if delivery.next_attempt_at is not None and delivery.next_attempt_at > now:
                retry_in = (delivery.next_attempt_at - now).total_seconds()
                break
            refusal = url_refusal(hook.url)  # again: the name may resolve elsewhere now
            code, text, error = (None, "", refusal) if refusal else _post(hook, delivery)
            delivery.attempts += 1
            delivery.response_status, delivery.response_body, delivery.error = code, text, error
            if code is not None and 200 <= code < 300:
                delivery.status = WebhookDelivery.Status.DELIVERED
                delivery.delivered_at = timezone.now()
                delivered += 1
            elif delivery.attempts >= len(RETRY_DELAYS) or refusal:
                delivery.status = WebhookDelivery.Status.FAILED
            else:
                delay = RETRY_DELAYS[delivery.attempts - 1]
                delivery.next_attempt_at = now + timedelta(seconds=delay)
                retry_in = delay
            delivery.save()
            if retry_in is not None:
                break
    if retry_in is not None:
        _send_later(hook_id, countdown=max(1, int(retry_in)))
    return delivered


def webhook_deliveries(*, hook: Webhook, limit: int = 100) -> list[WebhookDelivery]:
    """The hook's newest deliveries, newest first (its log)."""
    return list(WebhookDelivery.objects.filter(hook=hook).order_by("-pk")[:limit])


def webhooks_of(*, owner: User) -> list[Webhook]:
    return list(Webhook.objects.filter(owner=owner).order_by("pk"))
