"""The address of the client, the key of the login limit and of the anonymous readers' limit.

Behind a reverse proxy every request comes from the proxy's address: keyed on REMOTE_ADDR, ten
wrong passwords anywhere in the club would lock everyone out, and one busy phone would throttle
all the others. The proxy's header is believed only when the deployment says there is a proxy
(LUZA_TRUSTED_PROXY_HEADER), and then only the entry that proxy added (LUZA_TRUSTED_PROXY_COUNT
proxies from the right): the entries to its left are whatever the client wrote.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or with a trusted proxy configured, the address that
    proxy saw. A header missing or mangled falls back to REMOTE_ADDR (the proxy itself)."""
    remote = request.META.get("REMOTE_ADDR") or "0.0.0.0"  # noqa: S104 - a test client sends none
    header = settings.LUZA_TRUSTED_PROXY_HEADER
    if not header:
        return remote
    value = request.headers.get(header, "")
    hops = [hop for hop in (part.strip() for part in value.split(",")) if hop]
    count = max(1, settings.LUZA_TRUSTED_PROXY_COUNT)
    if len(hops) < count:
        return remote
    return _address(hops[-count]) or remote
