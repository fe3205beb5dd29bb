"""The HTTP side of deploy/smoke-test.sh: phases `live`, `restored`, `poll`, `marker`, `clocks`,
`logs`.

Talks to nginx over HTTPS as a browser and an integrator would (the host name resolved to the
loopback address here, the certificate the run's own), keeps what the later phases need in a
JSON state file, and exits non-zero with one line saying what is wrong."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import re
import signal
import socket
import ssl
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from rules.simulate import random_event

RETRYABLE = {502, 503, 504}
SCORED_EVENTS = 20
KILL_AFTER = 8


class Failed(Exception):
    pass


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise Failed(message)


def resolve_to_loopback(host: str) -> None:
    """The run's host name answers on 127.0.0.1, as DNS would point it at the machine."""
    original = socket.getaddrinfo

    def getaddrinfo(name: Any, *args: Any, **kwargs: Any) -> Any:
        return original("127.0.0.1" if name == host else name, *args, **kwargs)

    socket.getaddrinfo = getaddrinfo  # type: ignore[assignment]


class Site:
    def __init__(self, args: argparse.Namespace) -> None:
        self.base = f"https://{args.host}:{args.https}"
        self.cert = args.cert
        self.api = self.session(token=args.token)

    def session(self, token: str | None = None) -> requests.Session:
        s = requests.Session()
        s.trust_env = False  # REQUESTS_CA_BUNDLE would win over the run's certificate
        s.verify = self.cert
        if token:
            s.headers["Authorization"] = f"Token {token}"
        s.headers["Accept-Language"] = "en"
        return s

    def call(self, method: str, path: str, body: Any = None, ok: int = 200) -> Any:
        response = self.api.request(method, self.base + path, json=body, timeout=10)
        expect(
            response.status_code == ok,
            f"{method} {path}: {response.status_code} {response.text[:300]}",
        )
        return response.json() if response.content else None


# --- live ---------------------------------------------------------------------------------


def wait_for_workers(site: Site, instance: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    body: dict[str, Any] = {}
    last: object = None
    while time.monotonic() < deadline:
        try:
            response = site.api.get(site.base + "/healthz", timeout=5)
            last = f"{response.status_code} {response.text[:300]}"
            body = response.json()
            if response.status_code == 200 and body.get("workers") == 2:
                break
        except (requests.RequestException, ValueError) as exc:
            last = exc
        time.sleep(1)
    expect(body.get("workers") == 2, f"/healthz never counted 2 workers: {last}")
    expect(body.get("instance") == instance, f"/healthz of another installation: {body}")
    return body


def check_health(site: Site, args: argparse.Namespace) -> None:
    body = wait_for_workers(site, args.instance)
    age = body["workers_ping"]["age_seconds"]
    expect(age is not None and age < 10, f"the worker ping is old: {body}")
    took = []
    for _ in range(20):
        started = time.perf_counter()
        site.api.get(site.base + "/healthz", timeout=5).raise_for_status()
        took.append((time.perf_counter() - started) * 1000)
    print(f"/healthz over HTTPS: min {min(took):.1f} ms, median {statistics.median(took):.1f} ms")
    expect(min(took) < 20, f"/healthz takes {min(took):.0f} ms at best (a ping on the request?)")
    # A load balancer or `curl -I` probing with HEAD: the status of a GET.
    for path in ("/", "/healthz"):
        head = site.api.head(site.base + path, timeout=5)
        expect(head.status_code == 200, f"HEAD {path}: {head.status_code}")
    # A load balancer probing by address over plain HTTP: allowed from its addresses only.
    probe = requests.get(f"http://127.0.0.1:{args.http}/healthz", timeout=5)
    expect(probe.status_code == 200, f"/healthz by IP: {probe.status_code}")
    # Any other name: nginx closes the connection (444); TLS for another name is refused.
    try:
        other = requests.get(f"http://127.0.0.1:{args.http}/", timeout=5)
        raise Failed(f"a request by IP got an answer: {other.status_code}")
    except requests.ConnectionError:
        pass
    context = ssl.create_default_context(cafile=args.cert)
    try:
        with (
            socket.create_connection(("127.0.0.1", args.https), timeout=5) as raw,
            context.wrap_socket(raw, server_hostname="other.test"),
        ):
            raise Failed("TLS for an unknown name was accepted")
    except ssl.SSLError:
        pass


def login(site: Site, username: str, password: str) -> requests.Response:
    browser = site.session()
    page = site.base + "/accounts/login/"
    browser.get(page, timeout=10).raise_for_status()
    return browser.post(
        page,
        data={
            "csrfmiddlewaretoken": browser.cookies["csrftoken"],
            "username": username,
            "password": password,
        },
        headers={"Referer": page},
        allow_redirects=False,
        timeout=10,
    )


def check_login(site: Site, args: argparse.Namespace) -> None:
    ok = login(site, args.username, args.password)
    expect(ok.status_code == 302, f"login: {ok.status_code}")
    wrong = login(site, args.username, "not-the-password")
    expect(wrong.status_code == 200, f"a wrong password: {wrong.status_code}")
    # nginx's limit on login forms: a burst of POSTs ends in 429.
    statuses = [
        requests.post(site.base + "/accounts/login/", verify=site.cert, timeout=10).status_code
        for _ in range(10)
    ]
    expect(429 in statuses, f"no 429 from the login limit: {statuses}")


def set_up_tournament(site: Site) -> dict[str, Any]:
    today = dt.date.today().isoformat()
    name = f"Smoke cup {uuid.uuid4().hex[:6]}"
    t = site.call(
        "POST",
        "/api/v1/tournaments/",
        {"name": name, "date": today, "preset": "free_pyramid_30", "time_limit_minutes": 1},
        ok=201,
    )
    tid = t["id"]
    site.call("POST", f"/api/v1/tournaments/{tid}/open-registration/")
    for i in range(4):
        site.call(
            "POST",
            f"/api/v1/tournaments/{tid}/registrations/",
            {"player": {"name": f"Smoke Player {i + 1} {tid}", "rating": 1200 - i * 50}},
            ok=201,
        )
    site.call(
        "POST", f"/api/v1/tournaments/{tid}/draw/", {"method": "seeded", "allow_unpaid": True}
    )
    site.call("POST", f"/api/v1/tournaments/{tid}/tables/", {"count": 2})
    assigned = site.call("POST", f"/api/v1/tournaments/{tid}/tables/assign/")["assigned"]
    ids = [a["id"] if isinstance(a, dict) else a for a in assigned]
    expect(len(ids) == 2, f"two matches sent to two tables, got {assigned}")
    for mid in ids:
        match = site.call("POST", f"/api/v1/matches/{mid}/clock/", {"action": "start"})
        expect(match["clock"].get("limit_seconds") == 60, f"a 1-minute clock: {match['clock']}")
    return {"tournament": tid, "name": name, "matches": ids, "clock_started": time.time()}


def score_with_a_gunicorn_killed(site: Site, match_id: int, kill_group: int) -> list[Any]:
    """Events sent one by one with idempotency keys; one gunicorn instance is killed midway.
    A failed request is sent again with the same key, as a tablet does."""
    rng = random.Random(7)
    match = site.call("GET", f"/api/v1/matches/{match_id}/")
    accepted: list[Any] = []
    while len(accepted) < SCORED_EVENTS and not match["state"].get("finished"):
        if len(accepted) == KILL_AFTER:
            os.killpg(kill_group, signal.SIGKILL)
            print(f"killed gunicorn (process group {kill_group}) after {KILL_AFTER} events")
        event = random_event(match["state"], rng)
        if event["type"] == "time_expired":
            continue
        body = {
            "event": event,
            "expected_version": match["version"],
            "idempotency_key": uuid.uuid4().hex,
        }
        for _attempt in range(30):
            try:
                response = site.api.post(
                    f"{site.base}/api/v1/matches/{match_id}/events/", json=body, timeout=10
                )
            except requests.ConnectionError:
                time.sleep(0.2)
                continue
            if response.status_code in RETRYABLE:
                time.sleep(0.2)
                continue
            break
        expect(response.status_code == 201, f"event: {response.status_code} {response.text[:300]}")
        match = response.json()
        accepted.append(event)
    return accepted


def live(args: argparse.Namespace) -> None:
    site = Site(args)
    check_health(site, args)
    check_login(site, args)
    state = set_up_tournament(site)
    accepted = score_with_a_gunicorn_killed(site, state["matches"][0], args.kill_group)
    log = site.call("GET", f"/api/v1/matches/{state['matches'][0]}/events/")
    stored = [e["event"] for e in log["events"] if e["event"].get("type") != "time_expired"]
    expect(stored == accepted, f"{len(accepted)} events sent, the log holds {len(stored)}")
    seqs = [e["seq"] for e in log["events"]]
    expect(seqs == list(range(1, len(seqs) + 1)), f"gaps or duplicates in the log: {seqs}")
    state["events"] = len(accepted)
    Path(args.state).write_text(json.dumps(state))
    print(f"tournament {state['tournament']}: {len(accepted)} events scored, none lost")


# --- restored -----------------------------------------------------------------------------


def restored(args: argparse.Namespace) -> None:
    state = json.loads(Path(args.state).read_text())
    base = f"http://127.0.0.1:{args.restored_port}"
    headers = {"Host": args.host, "X-Forwarded-Proto": "https", "Accept-Language": "en"}
    deadline = time.monotonic() + 60
    while True:
        try:
            health = requests.get(base + "/healthz", headers=headers, timeout=5)
            break
        except (requests.ConnectionError, requests.Timeout):
            expect(time.monotonic() < deadline, "the restored copy's gunicorn did not start")
            time.sleep(0.5)
    body = health.json()
    expect(body["instance"] == f"{args.instance}-restored", f"restored /healthz: {body}")
    # Same Redis, another namespace: production's two workers are not counted.
    expect(body["workers"] == 0, f"the restored copy counts another installation's workers: {body}")
    # A probe by address straight to gunicorn: 400, one log line (checked in `logs`).
    bad_host = requests.get(base + "/healthz", headers={"Host": "10.0.0.7"}, timeout=5)
    expect(bad_host.status_code == 400, f"a bad Host header: {bad_host.status_code}")
    t = requests.get(
        f"{base}/api/v1/tournaments/{state['tournament']}/", headers=headers, timeout=5
    )
    expect(t.status_code == 200 and t.json()["name"] == state["name"], f"restored: {t.text[:200]}")
    log = requests.get(
        f"{base}/api/v1/matches/{state['matches'][0]}/events/", headers=headers, timeout=5
    ).json()
    expect(len(log["events"]) >= state["events"], "the restored copy lost events")
    print(f"restored copy serves “{state['name']}” with its {state['events']} events")


# --- poll, marker: an upgrade and a rollback as clients see them ----------------------------


def poll(args: argparse.Namespace) -> None:
    """What a load balancer, an integrator and the phones do during a release: /healthz (HEAD)
    and the API (the token's: no anonymous limit) again and again, the home page once a second
    (within the anonymous readers' limit), until the stop file appears. Any answer but 200 is
    a failure."""
    site = Site(args)
    stop = Path(args.until)
    done, failed, round_ = 0, [], 0
    while not stop.exists():
        probes = [("HEAD", "/healthz"), ("GET", "/api/v1/tournaments/")]
        if round_ % 10 == 0:
            probes.append(("GET", "/"))
        for method, path in probes:
            try:
                status: object = site.api.request(method, site.base + path, timeout=10).status_code
            except requests.RequestException as exc:
                status = exc.__class__.__name__
            done += 1
            if status != 200:
                failed.append(f"{method} {path}: {status}")
        round_ += 1
        time.sleep(0.1)
    print(f"{done} requests during the release and the rollback, {len(failed)} failed")
    expect(not failed, f"failed requests: {failed[:5]}")


def marker(args: argparse.Namespace) -> None:
    """The home page of the release now served carries the marker (or not)."""
    site = Site(args)
    page = site.api.get(site.base + "/", timeout=10)
    expect(page.status_code == 200, f"GET /: {page.status_code}")
    shown = args.marker in page.text
    expect(shown == (args.expect == "present"), f"the marker is not {args.expect} on /")
    print(f"the marker is {args.expect}: the release served is the one switched to")


# --- clocks -------------------------------------------------------------------------------


def clocks(args: argparse.Namespace) -> None:
    state = json.loads(Path(args.state).read_text())
    site = Site(args)
    wait = state["clock_started"] + 60 + 20 - time.time()
    for mid in state["matches"]:
        while True:
            match = site.call("GET", f"/api/v1/matches/{mid}/")
            if match["clock"].get("expired") or match["status"] != "running":
                break
            expect(time.time() < state["clock_started"] + 90, f"match {mid}: clock not expired")
            time.sleep(1)
    time.sleep(max(0.0, min(wait, 6)))  # a second expiry, if any, would come with the sweep
    for mid in state["matches"]:
        audit = site.call("GET", f"/api/v1/matches/{mid}/audit/")
        entries = audit["results"] if isinstance(audit, dict) and "results" in audit else audit
        expired = [a for a in entries if a["action"] == "match.clock_expired"]
        log = site.call("GET", f"/api/v1/matches/{mid}/events/")["events"]
        events = [e for e in log if e["event"].get("type") == "time_expired"]
        expect(len(expired) == 1, f"match {mid}: clock expired {len(expired)} times")
        expect(len(events) <= 1, f"match {mid}: {len(events)} time_expired events")
    print("both 1-minute clocks expired exactly once")


# --- logs ---------------------------------------------------------------------------------

RECORD = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARNING|ERROR|CRITICAL) ")
LOOKS_LIKE_RECORD = re.compile(r"^(\[?\d{4}-\d\d-\d\d|\[\d)")
# Celery's start-up banners (worker and beat, in local time): --quiet keeps them out.
BANNER = re.compile(r"LocalTime -> |\[config\]|\.> app: |-------------- ")


def logs(args: argparse.Namespace) -> None:
    for path in args.logs:
        lines = Path(path).read_text(errors="replace").splitlines()
        records = [line for line in lines if RECORD.match(line)]
        strays = [
            line for line in lines if LOOKS_LIKE_RECORD.match(line) and not RECORD.match(line)
        ]
        expect(not strays, f"{path}: a line in another format: {strays[:1]}")
        banner = [line for line in lines if BANNER.search(line)]
        expect(not banner, f"{path}: a Celery banner: {banner[:1]}")
        expect(not any("Traceback" in line for line in lines), f"{path}: a traceback")
        errors = [line for line in records if " ERROR " in line or " CRITICAL " in line]
        expect(not errors, f"{path}: {errors[:1]}")
        print(f"{Path(path).name}: {len(records)} records, UTC, one format")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("phase", choices=["live", "restored", "poll", "marker", "clocks", "logs"])
    parser.add_argument("--state")
    parser.add_argument("--host")
    parser.add_argument("--https", type=int)
    parser.add_argument("--http", type=int)
    parser.add_argument("--cert")
    parser.add_argument("--instance")
    parser.add_argument("--token")
    parser.add_argument("--username")
    parser.add_argument("--password")
    parser.add_argument("--kill-group", type=int)
    parser.add_argument("--restored-port", type=int)
    parser.add_argument("--logs", nargs="*", default=[])
    parser.add_argument("--until", help="poll: stop when this file exists")
    parser.add_argument("--marker")
    parser.add_argument("--expect", choices=["present", "absent"])
    args = parser.parse_args()
    if args.host:
        resolve_to_loopback(args.host)
    try:
        phases = {"live": live, "restored": restored, "poll": poll, "marker": marker}
        {**phases, "clocks": clocks, "logs": logs}[args.phase](args)
    except Failed as exc:
        print(f"SMOKE TEST FAILED: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
