"""Django's Redis cache, with one client per connection pool instead of one per call.

Django's RedisCacheClient builds a new redis.Redis around the shared pool on every get and
set (its constructor is a fifth of what a cached bracket poll costs). A redis.Redis holds no
connection of its own and is safe to share between threads, so one per pool is kept.

`clear()` deletes this installation's cache keys only: Django's would FLUSHDB, taking the
Celery broker's queues (and any other installation's keys on that database) with it."""

from __future__ import annotations

import re
from typing import Any

from django.core.cache.backends import redis as django_redis


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's private members, which the stubs leave out.
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(  # type: ignore[attr-defined]
                connection_pool=self._get_connection_pool(write)  # type: ignore[attr-defined]
            )
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

    def clear(self) -> None:
        if not self.key_prefix:
            raise ValueError("A cache without KEY_PREFIX cannot tell its keys from others'.")
        client = self._cache.get_client(write=True)
        batch: list[bytes] = []
        pattern = re.sub(r"([\\*?\[\]])", r"\\\1", self.key_prefix) + ":*"
        for key in client.scan_iter(match=pattern, count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                client.delete(*batch)
                batch.clear()
        if batch:
            client.delete(*batch)
