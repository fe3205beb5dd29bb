"""The push channel, the serving side: Server-Sent Events of a tournament's or a match's changes.

A small ASGI application (served by uvicorn beside gunicorn: config/asgi.py, deploy/) with two
public endpoints, documented in docs/api.md:

    GET /api/v1/tournaments/{id}/stream/     every change of the tournament
    GET /api/v1/matches/{id}/stream/         every change of one match

Each event is ``id: <Redis stream id>``, ``event: <kind>`` (``match.event``, ``match.started``,
``match.finished``, ``match.corrected``, ``match.table``, ``tournament.draw``,
``tournament.visibility``) and ``data: <JSON>``
(config.push.change_payload). A client that reconnects sends the id it had (``Last-Event-ID``,
which browsers send by themselves, or ``?last_event_id=``) and receives what it missed first;
if that is no longer kept, a ``reset`` event tells it to reload its view once. Every
connection starts with ``ready`` (its ``id`` the stream's current position, so that a drop right
after it still resumes without a gap) and a ``retry:`` spread at random over a few seconds, so
that a hall whose Wi-Fi came back does not reconnect in one instant.

Who may read: exactly who may see the tournament's pages (tournaments.access) — a public
tournament anybody, a private one its organisers and referees (a session cookie or an API token,
``Authorization: Bearer``); a stranger gets the API's 404, as for the tournament itself. That a
tournament is public is remembered a few seconds per process (a reconnect storm costs no query
per connection) until its visibility changes: the ``tournament.visibility`` change (config.push's
control stream, which every process reads) drops the remembered decision, and when the
tournament became private closes the connections let in only because it was public; one that
carries a session or a token is asked again and kept if its reader may still read.

One reader per stream in each process: the first client of a tournament starts an ``XREAD
BLOCK`` loop on its Redis stream, every later client of it only joins the loop's list, and an
entry's SSE frame is built once, whatever the number of clients. A client too slow to take its
frames (a full buffer) is disconnected and resumes by itself from its last id. An idle
connection gets a heartbeat comment every HEARTBEAT_SECONDS, and the answer says
``X-Accel-Buffering: no``, so that a proxy neither buffers the frames nor drops the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import random
import re
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie
from typing import Any, NamedTuple
from urllib.parse import parse_qs

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _

from config.changes import Change
from config.errors import error_body
from config.push import VISIBILITY, control_key, stream_key

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

ROUTES = (
    (re.compile(r"^/api/v1/tournaments/([0-9]{1,12})/stream/?$"), "t"),
    (re.compile(r"^/api/v1/matches/([0-9]{1,12})/stream/?$"), "m"),
)
STREAM_ID = re.compile(r"^[0-9]{1,20}-[0-9]{1,20}$")
# A comment line on an idle connection this often: proxies and phones' networks drop a silent
# connection after 30-60 s (nginx's proxy_read_timeout, deploy/nginx/luza.conf, is longer).
HEARTBEAT_SECONDS = 15.0
READ_BLOCK_MS = 5_000
# Frames waiting for one client; past this it is too slow and is disconnected (it resumes).
CLIENT_BUFFER = 2_000
BACKLOG_LIMIT = 5_000
# A browser waits this long (ms, spread at random) before it reconnects by itself.
RETRY_MS = (1_000, 8_000)
# Who may see a tournament is asked of the database at most this often per process: a storm
# of reconnects to a public tournament costs no query per connection.
ACCESS_TTL_SECONDS = 5.0

StreamId = tuple[int, int]
# A stream entry's visibility change: (tournament, public now); None for any other change.
Visibility = tuple[int, bool] | None


def parse_id(text: str | None) -> StreamId | None:
    if not text or not STREAM_ID.match(text):
        return None
    ms, seq = text.split("-")
    return int(ms), int(seq)


def format_id(sid: StreamId) -> str:
    return f"{sid[0]}-{sid[1]}"


def frame(*, sid: StreamId | None, event: str, data: str) -> bytes:
    """One SSE frame; `data` is one line (compact JSON)."""
    head = f"id: {format_id(sid)}\n" if sid is not None else ""
    return f"{head}event: {event}\ndata: {data}\n\n".encode()


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _visibility(payload: Any) -> Visibility:
    """(tournament, public) of a visibility change's payload, else None."""
    if not isinstance(payload, dict) or payload.get("kind") != VISIBILITY:
        return None
    data = payload.get("data")
    tournament = payload.get("tournament")
    if not isinstance(data, dict) or not isinstance(tournament, int):
        return None
    return tournament, bool(data.get("public"))


def entry_frame(raw_id: Any, fields: dict[Any, Any]) -> tuple[StreamId, bytes, Visibility]:
    sid = parse_id(_text(raw_id))
    assert sid is not None
    body = _text(fields.get(b"d") or fields.get("d") or "{}")
    try:
        payload = json.loads(body)
        kind = str(payload.get("kind", "change"))
    except (ValueError, AttributeError):
        payload, kind = None, "change"
    return sid, frame(sid=sid, event=kind, data=body), _visibility(payload)


# --- who may read ------------------------------------------------------------------------------


class Refused(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("code"))
        self.status = status
        self.body = body


class Admission(NamedTuple):
    tournament: int
    public: bool  # let in because the tournament is public (not on who the reader is)


_match_tournament: dict[int, int] = {}  # a match never changes tournament
_public: dict[int, tuple[bool, float]] = {}
# How many changes of visibility this process has heard: a decision read from the database
# while one arrived may be stale, so it is neither remembered nor trusted (asked again).
_access_lock = threading.Lock()
_access_changes = 0


def access_changes() -> int:
    return _access_changes


def access_forget(tournament_id: int) -> None:
    """Who may read the tournament changed: what this process remembered of it goes."""
    global _access_changes
    with _access_lock:
        _access_changes += 1
        _public.pop(tournament_id, None)


def access_changed(change: Change) -> None:
    """The change feed's subscriber (after commit) in the process that made the change: its
    own memory is exact at once, before the control stream reaches every stream server."""
    if change.kind == VISIBILITY:
        access_forget(change.tournament_id)


def _not_found() -> Refused:
    return Refused(404, error_body("not_found", _("Not found.")))


def _user(headers: dict[str, str]) -> Any:
    from django.contrib.auth import get_user
    from django.contrib.auth.models import AnonymousUser
    from django.contrib.sessions.backends.base import SessionBase
    from rest_framework.exceptions import AuthenticationFailed

    from config.drf import TokenAuthentication

    authorization = headers.get("authorization", "").split()
    if len(authorization) == 2 and authorization[0].lower() in ("bearer", "token"):
        try:
            user, _token = TokenAuthentication().authenticate_credentials(authorization[1])
        except AuthenticationFailed as exc:
            raise Refused(401, error_body("authentication_failed", str(exc.detail))) from None
        return user
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get("cookie", ""))
    except Exception:  # a malformed cookie header: nobody in particular
        return AnonymousUser()
    morsel = cookie.get(settings.SESSION_COOKIE_NAME)
    if morsel is None:
        return AnonymousUser()
    from importlib import import_module

    store: SessionBase = import_module(settings.SESSION_ENGINE).SessionStore(morsel.value)

    class _Request:  # what get_user reads of a request
        session = store

    return get_user(_Request())  # type: ignore[arg-type]


def authorize(*, scope: str, object_id: int, headers: dict[str, str]) -> Admission:
    """The tournament whose stream the client may read and whether only because it is public,
    or Refused (as its pages refuse)."""
    from matches.models import Match
    from tournaments import access
    from tournaments.models import Tournament
    from tournaments.selectors.tournament import tournament_get

    if scope == "m":
        tournament_id = _match_tournament.get(object_id)
        if tournament_id is None:
            found = Match.objects.filter(pk=object_id).values_list("tournament_id", flat=True)
            if not found:
                raise _not_found()
            tournament_id = _match_tournament[object_id] = found[0]
    else:
        tournament_id = object_id
    known = _public.get(tournament_id)
    now = time.monotonic()
    if known is not None and known[1] > now and known[0]:
        return Admission(tournament_id, public=True)
    heard = _access_changes
    try:
        tournament = tournament_get(tournament_id=tournament_id)
    except Tournament.DoesNotExist:
        raise _not_found() from None
    with _access_lock:
        if _access_changes == heard:  # else the row may be older than the change heard
            _public[tournament_id] = (tournament.is_public, now + ACCESS_TTL_SECONDS)
    if tournament.is_public:
        return Admission(tournament_id, public=True)
    if not access.can_view_tournament(_user(headers), tournament):
        raise _not_found()  # a private tournament does not exist for strangers
    return Admission(tournament_id, public=False)


def _credentials(headers: dict[str, str]) -> dict[str, str]:
    """The headers that may name a reader (a token, the session cookie); empty: anonymous."""
    found = {}
    if headers.get("authorization"):
        found["authorization"] = headers["authorization"]
    if f"{settings.SESSION_COOKIE_NAME}=" in headers.get("cookie", ""):
        found["cookie"] = headers["cookie"]
    return found


def _authorize_translated(*, scope: str, object_id: int, headers: dict[str, str]) -> Admission:
    """authorize() in a thread of the stream server (a connection lost meanwhile is replaced)."""
    from django.db import close_old_connections

    close_old_connections()
    with translation.override(settings.LANGUAGE_CODE):
        return authorize(scope=scope, object_id=object_id, headers=headers)


# --- one reader per stream, fanning out ----------------------------------------------------


class Subscriber:
    __slots__ = ("closed", "credentials", "frames", "held", "tournament", "wake")

    def __init__(self, tournament: int = 0, credentials: dict[str, str] | None = None) -> None:
        self.frames: deque[tuple[StreamId, bytes]] = deque()
        self.wake = asyncio.Event()
        self.closed = False
        # Frames are kept back, not sent, while the reader is being asked again.
        self.held = False
        self.tournament = tournament
        # Of a reader let in because the tournament was public: what names him, if anything.
        self.credentials = credentials or {}

    def push(self, item: tuple[StreamId, bytes]) -> None:
        if len(self.frames) >= CLIENT_BUFFER:
            self.close()
            return
        self.frames.append(item)
        self.wake.set()

    def close(self) -> None:
        self.closed = True
        self.wake.set()

    def release_held(self) -> None:
        self.held = False
        self.wake.set()


class Channel:
    """One Redis stream read by one task for all the clients of this process."""

    def __init__(self, hub: Hub, key: str) -> None:
        self.hub = hub
        self.key = key
        self.subscribers: set[Subscriber] = set()
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        redis = self.hub.redis
        try:
            top = await redis.xrevrange(self.key, count=1)
            last = _text(top[0][0]) if top else "0-0"
            while self.subscribers:
                try:
                    answer = await redis.xread({self.key: last}, count=500, block=READ_BLOCK_MS)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.warning("reading %s failed; trying again", self.key, exc_info=True)
                    await asyncio.sleep(1 + random.random())
                    continue
                for _key, entries in answer or ():
                    for raw_id, fields in entries:
                        sid, data, visibility = self.hub.frame_of(raw_id, fields)
                        last = format_id(sid)
                        if visibility is not None:  # before its readers get what follows
                            self.hub.visibility(*visibility)
                        for subscriber in list(self.subscribers):
                            if not subscriber.closed:
                                subscriber.push((sid, data))
        finally:
            # No await between the last look at the subscribers and leaving the hub: a client
            # that joins later starts a new reader.
            if self.hub.channels.get(self.key) is self:
                del self.hub.channels[self.key]
            for subscriber in list(self.subscribers):
                subscriber.close()


class Hub:
    def __init__(self) -> None:
        self.channels: dict[str, Channel] = {}
        self.clients = 0
        # The access checks (the ORM is synchronous) in threads of their own, each with its
        # database connection kept between checks.
        self.executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="stream-access")
        self._redis: Any = None
        # Frames by stream id: a reconnect storm's backlogs are built once, not per client.
        self._frames: OrderedDict[str, tuple[StreamId, bytes, Visibility]] = OrderedDict()
        # The readers let in only because their tournament was public, by tournament.
        self.on_public: dict[int, set[Subscriber]] = {}
        self.control: asyncio.Task[None] | None = None
        self.control_ready = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def redis(self) -> Any:
        if self._redis is None:
            import redis.asyncio

            self._redis = redis.asyncio.Redis.from_url(
                settings.REDIS_URL, socket_connect_timeout=2, max_connections=None
            )
        return self._redis

    def frame_of(self, raw_id: Any, fields: dict[Any, Any]) -> tuple[StreamId, bytes, Visibility]:
        text = _text(raw_id)
        cached = self._frames.get(text)
        if cached is None:
            cached = self._frames[text] = entry_frame(raw_id, fields)
            if len(self._frames) > 4096:
                self._frames.popitem(last=False)
        return cached

    def subscribe(self, key: str, subscriber: Subscriber) -> None:
        channel = self.channels.get(key)
        if channel is None or channel.task is None or channel.task.done():
            channel = self.channels[key] = Channel(self, key)
            channel.subscribers.add(subscriber)
            channel.task = asyncio.get_running_loop().create_task(channel.run())
        else:
            channel.subscribers.add(subscriber)

    def unsubscribe(self, key: str, subscriber: Subscriber) -> None:
        channel = self.channels.get(key)
        if channel is not None:
            channel.subscribers.discard(subscriber)

    async def backlog(self, key: str, after: StreamId) -> list[tuple[StreamId, bytes]] | None:
        """The entries after `after`, or None when some of them may be gone (trimmed away, or
        the stream lost with a Redis restart): the client then reloads its view once."""
        redis = self.redis
        entries = await redis.xrange(key, min=f"({format_id(after)}", count=BACKLOG_LIMIT)
        if len(entries) >= BACKLOG_LIMIT:
            return None
        if after != (0, 0):
            oldest = await redis.xrange(key, count=1)
            if not oldest:
                return None
            first = parse_id(_text(oldest[0][0]))
            if first is not None and first > after:
                return None
        return [self.frame_of(i, f)[:2] for i, f in entries]

    # --- who may read, as it changes ------------------------------------------------------

    def admit(self, subscriber: Subscriber, *, public: bool) -> None:
        """A reader let in; one let in because the tournament is public is remembered, to be
        cut off if it turns private. Called with no await since the access check."""
        if public:
            self.on_public.setdefault(subscriber.tournament, set()).add(subscriber)

    def release(self, subscriber: Subscriber) -> None:
        readers = self.on_public.get(subscriber.tournament)
        if readers is not None:
            readers.discard(subscriber)
            if not readers:
                del self.on_public[subscriber.tournament]

    def visibility(self, tournament_id: int, public: bool) -> None:
        """The tournament became public or private (heard on a stream): forget the decision;
        when private, close the anonymous readers it had and ask again of the others."""
        access_forget(tournament_id)
        if public:
            return
        for subscriber in self.on_public.pop(tournament_id, set()):
            if subscriber.credentials:
                subscriber.held = True  # nothing more reaches him before the answer
                task = asyncio.get_running_loop().create_task(self._ask_again(subscriber))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            else:
                subscriber.close()

    async def _ask_again(self, subscriber: Subscriber) -> None:
        """A reader with a session or a token on a tournament turned private: kept if he may
        read it (then no longer on its public readers' list), closed otherwise."""
        loop = asyncio.get_running_loop()
        while not subscriber.closed:
            heard = access_changes()
            try:
                admission = await loop.run_in_executor(
                    self.executor,
                    functools.partial(
                        _authorize_translated,
                        scope="t",
                        object_id=subscriber.tournament,
                        headers=subscriber.credentials,
                    ),
                )
            except Exception:  # refused (or the check failed): he reconnects and is asked
                subscriber.close()
                return
            if access_changes() == heard:
                self.admit(subscriber, public=admission.public)
                subscriber.release_held()
                return

    async def started(self) -> None:
        """The control stream's reader runs and knows where that stream stood (the first
        client starts it): a change after that is heard, whatever was decided before."""
        if self.control is None or self.control.done():
            self.control_ready.clear()
            self.control = asyncio.get_running_loop().create_task(self.run_control())
        if not self.control_ready.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(2):  # Redis away: the stream itself will say so
                    await self.control_ready.wait()

    async def run_control(self) -> None:
        """Reads the control stream (config.push.CONTROL_KINDS) for this process's life."""
        key = control_key()
        last: str | None = None
        while True:
            try:
                if last is None:
                    top = await self.redis.xrevrange(key, count=1)
                    last = _text(top[0][0]) if top else "0-0"
                    self.control_ready.set()
                answer = await self.redis.xread({key: last}, count=100, block=READ_BLOCK_MS)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("reading %s failed; trying again", key, exc_info=True)
                self.control_ready.set()
                await asyncio.sleep(1 + random.random())
                continue
            for _key, entries in answer or ():
                for raw_id, fields in entries:
                    last = _text(raw_id)
                    _sid, _data, visibility = entry_frame(raw_id, fields)
                    if visibility is not None:
                        self.visibility(*visibility)


hub = Hub()


# --- the HTTP side ---------------------------------------------------------------------------


async def _json(send: Send, status: int, body: dict[str, Any], extra: list[Any] = ()) -> None:  # type: ignore[assignment]
    payload = json.dumps(body, ensure_ascii=False).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"cache-control", b"no-store"),
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


def route(path: str) -> tuple[str, int] | None:
    for pattern, scope in ROUTES:
        found = pattern.match(path)
        if found:
            return scope, int(found.group(1))
    return None


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    """The ASGI application of the stream endpoints (config.asgi routes them here)."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    target = route(scope["path"])
    if target is None:
        await _json(send, 404, error_body("not_found", "Not found."))
        return
    if scope["method"] not in ("GET", "HEAD"):
        await _json(
            send,
            405,
            error_body("method_not_allowed", f'Method "{scope["method"]}" not allowed.'),
            [(b"allow", b"GET, HEAD")],
        )
        return
    headers = {_text(k).lower(): _text(v) for k, v in scope.get("headers", ())}
    kind, object_id = target
    await hub.started()
    try:
        admission = await _admission(kind, object_id, headers)
    except Refused as refused:
        await _json(send, refused.status, refused.body)
        return
    # No await from the access check to hub.admit: a change of visibility heard meanwhile
    # would miss this reader.
    if hub.clients >= settings.LUZA_STREAM_MAX_CLIENTS:
        wait = random.randint(5, 15)
        await _json(
            send,
            503,
            error_body("busy", "Too many live connections here; try again.", {"wait": wait}),
            [(b"retry-after", str(wait).encode())],
        )
        return
    query = parse_qs(_text(scope.get("query_string", b"")))
    last = parse_id(headers.get("last-event-id") or (query.get("last_event_id") or [""])[0])
    credentials = _credentials(headers) if admission.public else None
    subscriber = Subscriber(admission.tournament, credentials)
    hub.admit(subscriber, public=admission.public)
    try:
        await _serve(
            scope, receive, send, stream_key(scope=kind, object_id=object_id), last, subscriber
        )
    finally:
        hub.release(subscriber)


async def _admission(kind: str, object_id: int, headers: dict[str, str]) -> Admission:
    """authorize() in a thread, asked again if a change of visibility was heard meanwhile
    (the answer may have been read before it)."""
    loop = asyncio.get_running_loop()
    for _attempt in range(5):
        heard = access_changes()
        admission = await loop.run_in_executor(
            hub.executor,
            functools.partial(
                _authorize_translated, scope=kind, object_id=object_id, headers=headers
            ),
        )
        if access_changes() == heard:
            break
    return admission


async def _head(key: str, last: StreamId | None) -> tuple[bytes, StreamId]:
    """The first frames of a stream and the id they reach: the retry delay, then what the
    client missed since `last` (or a reset when that is gone), then "ready"."""
    head = f"retry: {random.randint(*RETRY_MS)}\n\n".encode()
    sent: StreamId
    if last is not None:
        backlog = await hub.backlog(key, last)
        if backlog is not None:
            sent = last
            for sid, data in backlog:
                head += data
                sent = sid
            return head + frame(sid=None, event="ready", data="{}"), sent
        head += frame(sid=None, event="reset", data="{}")
    top = await hub.redis.xrevrange(key, count=1)
    sent = parse_id(_text(top[0][0])) if top else (0, 0)  # type: ignore[assignment]
    return head + frame(sid=sent, event="ready", data="{}"), sent


async def _serve(
    scope: Scope,
    receive: Receive,
    send: Send,
    key: str,
    last: StreamId | None,
    subscriber: Subscriber,
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-cache, no-store"),
                (b"x-accel-buffering", b"no"),  # nginx: pass each frame at once
            ],
        }
    )
    if scope["method"] == "HEAD":
        await send({"type": "http.response.body", "body": b""})
        return

    async def watch() -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                subscriber.close()
                return

    loop = asyncio.get_running_loop()
    watcher = loop.create_task(watch())
    hub.clients += 1
    hub.subscribe(key, subscriber)  # before the backlog: nothing falls between the two
    try:
        head, sent = await _head(key, last)
        await send({"type": "http.response.body", "body": head, "more_body": True})
        # Something is written at least every HEARTBEAT_SECONDS, whatever wakes the loop.
        beat_at = loop.time() + HEARTBEAT_SECONDS
        while True:
            if (subscriber.held or not subscriber.frames) and not subscriber.closed:
                try:
                    # asyncio.timeout, not wait_for: no task per wake-up (thousands a second).
                    async with asyncio.timeout_at(beat_at):
                        await subscriber.wake.wait()
                except TimeoutError:
                    await send({"type": "http.response.body", "body": b": \n\n", "more_body": True})
                    beat_at = loop.time() + HEARTBEAT_SECONDS
                    continue
            subscriber.wake.clear()
            if subscriber.closed:
                break
            if subscriber.held:
                continue
            chunk = []
            while subscriber.frames:
                sid, data = subscriber.frames.popleft()
                if sid > sent:
                    chunk.append(data)
                    sent = sid
            if chunk:
                await send(
                    {"type": "http.response.body", "body": b"".join(chunk), "more_body": True}
                )
                beat_at = loop.time() + HEARTBEAT_SECONDS
    except Exception:
        log.warning("stream %s failed", key, exc_info=True)
    finally:
        hub.clients -= 1
        hub.unsubscribe(key, subscriber)
        watcher.cancel()
    with contextlib.suppress(Exception):  # the client may be gone already
        await send({"type": "http.response.body", "body": b""})


# --- where no stream server is in front -------------------------------------------------------


def wsgi_answer(request: HttpRequest, pk: int, scope: str) -> HttpResponse:
    """The stream paths reached through gunicorn (no stream server routed in front, the test
    server): the same refusals as the stream server, and for whoever may read, 204 No Content,
    which tells a browser's EventSource not to retry by itself; the pages then poll."""
    if request.method not in ("GET", "HEAD"):
        body = error_body("method_not_allowed", f'Method "{request.method}" not allowed.')
        refusal = JsonResponse(body, status=405)
        refusal["Allow"] = "GET, HEAD"
        return refusal
    headers = {key.lower(): value for key, value in request.headers.items()}
    try:
        authorize(scope=scope, object_id=pk, headers=headers)
    except Refused as refused:
        return JsonResponse(refused.body, status=refused.status)
    response = HttpResponse(status=204)
    response["Cache-Control"] = "no-store"
    return response


def wsgi_tournament(request: HttpRequest, pk: int) -> HttpResponse:
    return wsgi_answer(request, pk, "t")


def wsgi_match(request: HttpRequest, pk: int) -> HttpResponse:
    return wsgi_answer(request, pk, "m")
