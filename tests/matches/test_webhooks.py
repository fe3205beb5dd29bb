"""Webhooks: a local receiver hears a tournament's events, signed, in order, at least once."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone

from audit.models import AuditEntry
from tests.factories import OrganiserFactory, UserFactory
from tests.matches.conftest import post_event
from tournaments.models import Webhook, WebhookDelivery
from tournaments.services import webhooks

BREAK_A = {"type": "break", "player": "a", "legal": True, "pocketed": 0}
SHOT_B = {"type": "shot", "player": "b", "pocketed": 1}


class Receiver:
    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []
        self.fail_next = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.got.append({"headers": dict(self.headers), "body": body})
                failing = receiver.fail_next > 0
                receiver.fail_next -= 1
                self.send_response(500 if failing else 200)
                self.end_headers()
                self.wfile.write(b"boom" if failing else b"ok")

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def receiver(settings, monkeypatch) -> Iterator[Receiver]:
    settings.LUZA_WEBHOOK_ALLOW_PRIVATE = True
    cache.delete(webhooks.ANY_HOOK_KEY)
    webhooks.presence_forget()
    monkeypatch.setattr(webhooks, "_send_later", lambda *a, **k: None)  # the worker is the test
    r = Receiver()
    yield r
    r.server.shutdown()
    cache.delete(webhooks.ANY_HOOK_KEY)
    webhooks.presence_forget()


def register(client, url: str, **extra: Any) -> dict[str, Any]:
    response = client.post("/api/v1/webhooks/", {"url": url, **extra}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def verify(secret: str, item: dict[str, Any]) -> bool:
    headers = item["headers"]
    signed = headers["Luza-Timestamp"].encode() + b"." + item["body"]
    expected = "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, headers["Luza-Signature"])


def test_a_receiver_gets_signed_events_in_order_at_least_once(
    receiver, organiser_api, scorer, match, login
) -> None:
    hook = register(organiser_api, receiver.url)
    assert AuditEntry.objects.filter(action="webhook_create").count() == 1
    # Someone who does not organise the tournament hears nothing of it.
    stranger = register(login(OrganiserFactory()), receiver.url + "/stranger")
    assert post_event(scorer, match, BREAK_A).status_code == 201
    assert post_event(scorer, match, SHOT_B).status_code == 201
    queued = list(WebhookDelivery.objects.filter(hook_id=hook["id"]).order_by("pk"))
    assert sorted(d.event for d in queued) == ["match.event", "match.event", "match.started"]
    assert not WebhookDelivery.objects.filter(hook_id=stranger["id"]).exists()

    receiver.fail_next = 1  # the first attempt fails: nothing after it goes before it
    assert webhooks.webhook_send_pending(hook_id=hook["id"]) == 0
    first = WebhookDelivery.objects.get(pk=queued[0].pk)
    assert first.status == "pending" and first.response_status == 500
    assert first.response_body == "boom" and first.next_attempt_at is not None
    assert webhooks.webhook_send_pending(hook_id=hook["id"]) == 0  # not due yet
    WebhookDelivery.objects.filter(pk=first.pk).update(next_attempt_at=timezone.now())
    assert webhooks.webhook_send_pending(hook_id=hook["id"]) == len(queued)

    ids = [item["headers"]["Luza-Delivery"] for item in receiver.got]
    # At least once: the failed one again, with its delivery id; then the rest in order.
    assert ids == [str(queued[0].delivery_id)] + [str(d.delivery_id) for d in queued]
    assert all(verify(hook["secret"], item) for item in receiver.got)
    bodies = [json.loads(item["body"]) for item in receiver.got[1:]]
    assert [b["event"] for b in bodies] == [d.event for d in queued]
    assert all(b["tournament"] == match.tournament_id for b in bodies)
    assert all(b["created_at"].endswith("Z") for b in bodies)

    # Sent again from the log, with the same delivery id.
    last = queued[-1]
    replay = organiser_api.post(
        f"/api/v1/webhooks/{hook['id']}/deliveries/{last.delivery_id}/replay/"
    )
    assert replay.status_code == 200 and replay.json()["status"] == "pending"
    assert webhooks.webhook_send_pending(hook_id=hook["id"]) == 1
    assert receiver.got[-1]["headers"]["Luza-Delivery"] == str(last.delivery_id)
    log = organiser_api.get(f"/api/v1/webhooks/{hook['id']}/deliveries/").json()
    assert log[0]["response_status"] == 200 and log[0]["attempts"] == 2


def test_only_the_events_asked_for_and_the_hooks_of_one_tournament(
    receiver, organiser_api, scorer, match, tournament
) -> None:
    hook = register(organiser_api, receiver.url, events=["match.started"], tournament=tournament.pk)
    post_event(scorer, match, BREAK_A)
    post_event(scorer, match, SHOT_B)
    assert [d.event for d in WebhookDelivery.objects.filter(hook_id=hook["id"])] == [
        "match.started"
    ]


def test_loopback_and_private_addresses_are_refused(settings, organiser_api) -> None:
    settings.LUZA_WEBHOOK_ALLOW_PRIVATE = False
    for url in ("http://127.0.0.1:8000/x", "http://10.0.0.5/x", "http://[::1]/x", "ftp://a.b/"):
        response = organiser_api.post("/api/v1/webhooks/", {"url": url}, format="json")
        assert response.status_code == 400, url
        assert response.json()["code"] in ("webhook_url", "invalid")


def test_hooks_are_their_owners_and_every_change_is_audited(receiver, organiser_api, login) -> None:
    hook = register(organiser_api, receiver.url)
    other = login(OrganiserFactory())
    assert other.get(f"/api/v1/webhooks/{hook['id']}/").status_code == 404
    changed = organiser_api.patch(
        f"/api/v1/webhooks/{hook['id']}/", {"is_active": False}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["is_active"] is False
    assert organiser_api.delete(f"/api/v1/webhooks/{hook['id']}/").status_code == 204
    actions = list(
        AuditEntry.objects.filter(action__startswith="webhook_")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == ["webhook_create", "webhook_update", "webhook_delete"]


def test_the_panel_adds_a_hook_and_sends_a_delivery_again(
    receiver, organiser, scorer, match
) -> None:
    from django.test import Client

    panel = Client()
    panel.force_login(organiser)
    assert panel.post("/panel/webhooks/", {"action": "add", "url": receiver.url}).status_code == 302
    post_event(scorer, match, BREAK_A)
    delivery = WebhookDelivery.objects.order_by("pk").first()
    assert delivery is not None
    page = panel.get("/panel/webhooks/").content.decode()
    assert receiver.url in page and delivery.event in page
    WebhookDelivery.objects.filter(pk=delivery.pk).update(status="failed")
    panel.post("/panel/webhooks/", {"action": "replay", "delivery": delivery.pk})
    delivery.refresh_from_db()
    assert delivery.status == "pending"
    assert AuditEntry.objects.filter(action="webhook_replay").exists()


def test_a_finished_and_a_corrected_result_deliver_standings_changed(
    receiver, organiser_api, scorer, match
) -> None:
    hook = register(organiser_api, receiver.url, events=["standings.changed"])
    post_event(scorer, match, BREAK_A)
    assert post_event(scorer, match, {"type": "forfeit", "player": "b"}).status_code == 201
    # Only the event asked for: the balls and the start are not sent to this hook.
    (finished,) = WebhookDelivery.objects.filter(hook_id=hook["id"])
    assert finished.event == "standings.changed"
    assert webhooks.webhook_send_pending(hook_id=hook["id"]) == 1
    (sent,) = receiver.got
    assert verify(hook["secret"], sent) and sent["headers"]["Luza-Event"] == "standings.changed"
    body = json.loads(sent["body"])
    assert body["created_at"].endswith("Z")
    # The data of the result that changed the standings; the winner as the REST answers give
    # it: his slot, and the player in winner_id.
    assert {k: v for k, v in body.items() if k != "created_at"} == {
        "id": str(finished.delivery_id),
        "event": "standings.changed",
        "tournament": match.tournament_id,
        "match": match.pk,
        "data": {"status": "finished", "winner": "a", "winner_id": match.player_a_id},
    }

    corrected = organiser_api.post(
        f"/api/v1/tournaments/{match.tournament_id}/matches/{match.pk}/correct/",
        {"winner": "b", "score_a": 3, "score_b": 8, "reason": "протокол"},
        format="json",
    )
    assert corrected.status_code == 200, corrected.json()
    assert webhooks.webhook_send_pending(hook_id=hook["id"]) == 1
    assert len(receiver.got) == 2 and verify(hook["secret"], receiver.got[1])
    body = json.loads(receiver.got[1]["body"])
    assert body["event"] == "standings.changed" and body["match"] == match.pk
    assert body["data"] == {
        "winner": "b",
        "winner_id": match.player_b_id,
        "score_a": 3,
        "score_b": 8,
    }
    answer = corrected.json()
    assert (answer["winner"], answer["winner_id"]) == ("b", body["data"]["winner_id"])


def test_a_result_is_delivered_as_match_finished_with_the_winners_slot(
    receiver, organiser_api, scorer, match
) -> None:
    hook = register(organiser_api, receiver.url, events=["match.finished"])
    post_event(scorer, match, BREAK_A)
    post_event(scorer, match, {"type": "forfeit", "player": "a"})
    assert webhooks.webhook_send_pending(hook_id=hook["id"]) == 1
    body = json.loads(receiver.got[0]["body"])
    assert body["event"] == "match.finished"
    assert body["data"] == {"status": "finished", "winner": "b", "winner_id": match.player_b_id}


@pytest.mark.django_db
def test_no_hook_is_remembered_for_a_second_and_a_hook_saved_here_is_heard_at_once(
    monkeypatch,
) -> None:
    """Every ball asks whether any hook exists; "none" is remembered for PRESENCE_SECONDS per
    process (no Redis round trip per ball), a hook saved elsewhere is heard after it at the
    latest, and one saved through this process at once."""
    cache.delete(webhooks.ANY_HOOK_KEY)
    webhooks.presence_forget()
    now = [1000.0]
    monkeypatch.setattr(webhooks.time, "monotonic", lambda: now[0])
    assert webhooks._any_active() is False
    # Another process saves a hook and clears the shared flag when it commits.
    Webhook.objects.create(owner=UserFactory(), url="https://93.184.216.34/h", secret="s" * 32)
    cache.delete(webhooks.ANY_HOOK_KEY)
    assert webhooks._any_active() is False  # within the second
    now[0] += webhooks.PRESENCE_SECONDS
    assert webhooks._any_active() is True
    # A change made through this process forgets at once.
    Webhook.objects.all().delete()
    cache.delete(webhooks.ANY_HOOK_KEY)
    assert webhooks._any_active() is False
    Webhook.objects.create(owner=UserFactory(), url="https://93.184.216.34/h", secret="s" * 32)
    webhooks._changed()
    cache.delete(webhooks.ANY_HOOK_KEY)
    assert webhooks._any_active() is True
