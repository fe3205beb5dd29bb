"""Gunicorn in production: `gunicorn -c config/gunicorn.conf.py config.wsgi`.

Threads because a request spends much of its time waiting for PostgreSQL (a scored ball is
several statements and a commit): while one thread waits, another runs. Processes because the
Python work is CPU-bound and each process has its own GIL. The defaults are what measured best
on a 2-core machine (docs/performance.md, "Gunicorn"); each thread holds one persistent
database connection, so workers x threads x web servers must stay below PostgreSQL's
max_connections (docs/deployment.md).
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from config.logs import gunicorn_logging, level

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread"
# Phones and tablets keep their connection between polls; nginx keeps its upstream ones too.
keepalive = 30
backlog = 2048
timeout = 60
graceful_timeout = 30
# A worker is replaced after this many requests (with jitter, so not all at once): a safety
# net, not a cure; the load benchmark shows flat memory without it.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "20000"))
max_requests_jitter = max_requests // 10
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
# One format and UTC for every process (config/logs.py); the level follows LUZA_LOG_LEVEL
# unless GUNICORN_LOG_LEVEL says otherwise.
loglevel = (os.environ.get("GUNICORN_LOG_LEVEL") or level()).lower()
logconfig_dict = gunicorn_logging(loglevel.upper(), access=bool(accesslog))
# The time is the log record's own (UTC), not gunicorn's local-time %(t)s; %(M)s: milliseconds.
access_log_format = '%(h)s "%(r)s" %(s)s %(B)s %(M)sms "%(a)s"'
# gunicorn's control socket (for gunicornc) is off unless a path is given: its default lives
# in the user's home (/nonexistent for a service user) and is one per user, so two instances
# on one machine would fight over it. To use gunicornc, give each instance its own path.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET")
control_socket_disable = not os.environ.get("GUNICORN_CONTROL_SOCKET")
# Trust X-Forwarded-* from the reverse proxy on this machine only.
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
