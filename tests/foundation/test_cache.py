"""The Redis cache backend (config.cache): Django's, sharing one client per connection pool."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.core.cache import caches

from config.cache import RedisCache


@pytest.fixture
def redis_cache(require_redis):
    backend = caches["default"]
    assert isinstance(backend, RedisCache)
    return backend


def test_it_stores_reads_and_forgets_across_threads(redis_cache) -> None:
    prefix = uuid.uuid4().hex
    errors: list[str] = []

    def work(n: int) -> None:
        key = f"{prefix}:{n}"
        for i in range(50):
            redis_cache.set(key, {"n": n, "i": i, "text": "Пирамида"}, timeout=30)
            if redis_cache.get(key) != {"n": n, "i": i, "text": "Пирамида"}:
                errors.append(key)
        redis_cache.delete(key)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert redis_cache.get_many([f"{prefix}:{n}" for n in range(4)]) == {}


def test_one_client_per_pool(redis_cache) -> None:
    client = redis_cache._cache
    assert client.get_client() is client.get_client()
    assert client.get_client(write=True) is client.get_client(write=True)
