"""The production ASGI application (config.asgi: the stream endpoints and Django) served by a
real uvicorn in a thread of the test process, on the test database, for the push tests."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Event:
    event: str = "message"
    id: str | None = None
    data: Any = None
    retry: int | None = None
    fields: list[str] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def stream_server() -> Iterator[str]:
    """Yields the base URL (http://localhost:PORT) of a uvicorn serving config.asgi."""
    import uvicorn
    from django.conf import settings

    from config import asgi
    from config.push import redis_client
    from tournaments.web import stream

    # Streams of an earlier run would answer for this run's tournaments (the ids start again).
    client = redis_client()
    for key in client.scan_iter(f"{settings.INSTANCE}:live:*"):
        client.delete(key)
    stream.hub = stream.Hub()  # the previous server's Redis client belonged to its loop
    stream._public.clear()
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            asgi.application, host="127.0.0.1", port=port, log_level="warning", lifespan="off"
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://localhost:{port}"
    finally:
        from django.db import connections

        for _ in range(4):  # the access threads' database connections, before the test DB goes
            stream.hub.executor.submit(connections.close_all).result()
        stream.hub.executor.shutdown()
        server.should_exit = True
        server.force_exit = True
        thread.join(10)
        # Django's ASGI handler ran the pages in threads now gone, whose connections stay
        # open: closed here, so that the test database can be dropped.
        from django.db import connection

        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


def read_events(lines: Iterator[str], count: int) -> list[Event]:
    """The next `count` events of an SSE body (comments skipped)."""
    events: list[Event] = []
    current = Event()
    for line in lines:
        if line == "":
            if "data" in current.fields:
                events.append(current)
                if len(events) == count:
                    return events
            current = Event()
            continue
        if line.startswith(":"):
            continue
        name, _colon, value = line.partition(": ")
        current.fields.append(name)
        if name == "event":
            current.event = value
        elif name == "id":
            current.id = value
        elif name == "data":
            current.data = json.loads(value)
        elif name == "retry":
            current.retry = int(value)
    return events
