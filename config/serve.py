"""The ASGI server (uvicorn) of config.asgi: the live streams beside gunicorn in production
(deploy/bin/stream, nginx sends it only the stream paths), everything in `make run`.

    python -m config.serve --port 8100 [--host 127.0.0.1] [--access-log]

One process holds thousands of idle SSE connections (an asyncio loop, uvloop and httptools
when installed); its file-descriptor limit must be above the connections it is to hold
(deploy/systemd/luza-stream@.service sets it)."""

from __future__ import annotations

import argparse
import os

import uvicorn

from config.logs import uvicorn_logging


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m config.serve")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--access-log", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    uvicorn.run(
        "config.asgi:application",
        host=args.host,
        port=args.port,
        log_config=uvicorn_logging(access=args.access_log),
        access_log=args.access_log,
        lifespan="off",
        # A hall reconnecting after a Wi-Fi drop: thousands of connections in seconds.
        backlog=4096,
        timeout_keep_alive=30,
        proxy_headers=False,
    )


if __name__ == "__main__":
    main()
