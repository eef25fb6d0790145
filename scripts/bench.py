"""`make bench`: requests per second of the real server, against a bare Flask app served the same way.

Starts gunicorn exactly as `make run` does (same workers, same app factory, same settings:
CSRF, rate limits, SQLite under an instance folder), on a fresh seeded database in a temporary
folder, and measures each page with wrk on loopback. Then adds 100,000 games to the same device
and measures again. Prints the table and writes it into docs/performance.md. No assertion: the
targets are read from the table (and the docs say what stands in the way when one is missed).

    .venv/bin/python scripts/bench.py [--duration 8] [--connections 8]
"""

from __future__ import annotations

import argparse
import html.parser
import http.client
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DOC = ROOT / "docs" / "performance.md"
WORKERS = os.environ.get("WORKERS", "2")  # the Makefile's default for `make run`
HOST = "127.0.0.1"

# One of the 10 games of the table benchmarked: 10 players, 20 rounds, still going.
BIG = {"players": 10, "rounds": 20}
HISTORY_GAMES = 10
MANY_GAMES = 100_000


def hello_app():
    """The floor: the smallest Flask app there is, served by the same gunicorn."""
    from flask import Flask

    app = Flask(__name__)

    @app.get("/")
    def hello():
        return "Hello, World!"

    return app


@dataclass
class Measure:
    name: str
    rps: float
    requests: int
    errors: int
    latency_p50: str
    latency_p99: str


@dataclass(frozen=True)
class Target:
    """One thing measured, and what it is compared with."""

    key: str
    label: str
    floor_ratio: float | None = None  # the target, as a multiple of the floor
    versus: str | None = None  # the key of the same page with 10 games


# --- the server -------------------------------------------------------------------------------


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(
    target: str, env: dict[str, str], log: Path, *, pythonpath: str | None = None
) -> Iterator[int]:
    """Run gunicorn the way `make run` does and yield its port once it answers."""
    port = free_port()
    command = [
        str(BIN / "gunicorn"),
        "--workers",
        WORKERS,
        "--bind",
        f"{HOST}:{port}",
        "--access-logfile",
        "-",
    ]
    if pythonpath:
        command += ["--pythonpath", pythonpath]
    with open(log, "ab") as output:
        server = subprocess.Popen(
            [*command, target],
            env=env,
            cwd=ROOT,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"gunicorn stopped at start; see {log}")
            try:
                connection = http.client.HTTPConnection(HOST, port, timeout=2)
                connection.request("GET", "/")
                connection.getresponse().read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"gunicorn did not answer within 60 s; see {log}") from None
                time.sleep(0.2)
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def fetch(port: int, path: str, cookies: dict[str, str]) -> tuple[int, str, dict[str, str]]:
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    connection.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    response = connection.getresponse()
    body = response.read().decode()
    set_cookies = {}
    for header, value in response.getheaders():
        if header.lower() == "set-cookie":
            name, _, rest = value.partition("=")
            set_cookies[name] = rest.split(";", 1)[0]
    return response.status, body, set_cookies


class _TokenFinder(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.token: str | None = None

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "input" and found.get("name") == "csrf_token":
            self.token = found.get("value")


def csrf_session(port: int, path: str, cookies: dict[str, str]) -> tuple[str, str]:
    """Open a game as a browser would: return the session cookie and the forms' CSRF token."""
    status, body, set_cookies = fetch(port, path, cookies)
    finder = _TokenFinder()
    finder.feed(body)
    if status != 200 or not finder.token or "session" not in set_cookies:
        raise RuntimeError(f"could not get a CSRF token from {path} ({status})")
    return set_cookies["session"], finder.token


# --- the load tool ----------------------------------------------------------------------------

SUBMIT_LUA = r"""
-- Each request records the next round of a game no other request touches (one device each).
local lines, next_line, counter, threads = {}, 1, 1, {}
function setup(thread)
  thread:set("id", counter); counter = counter + 1; table.insert(threads, thread)
end
function init(args)
  local me, count = tonumber(wrk.thread:get("id")), tonumber(args[2])
  local i = 0
  for line in io.lines(args[1]) do
    if i % count == me - 1 then table.insert(lines, line) end
    i = i + 1
  end
  session, csrf, htmx = args[3], args[4], args[5] == "1"
end
function request()
  local line = lines[next_line]
  if line == nil then wrk.thread:stop(); line = lines[#lines] end
  next_line = next_line + 1
  local token, path, body = line:match("^(%S+) (%S+) (.+)$")
  local headers = {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Cookie"] = "session=" .. session .. "; appareil=" .. token,
  }
  if htmx then headers["HX-Request"] = "true" end
  return wrk.format("POST", path, headers, "csrf_token=" .. csrf .. "&" .. body)
end
"""

GET_LUA = r"""
function init(args) cookie = args[1]; if args[2] == "1" then htmx = true end end
function request()
  local headers = {["Cookie"] = cookie, ["Accept-Encoding"] = "gzip, deflate, br"}
  if htmx then headers["HX-Request"] = "true" end
  return wrk.format("GET", nil, headers, nil)
end
"""


def wrk(
    name: str,
    url: str,
    args: argparse.Namespace,
    script: Path | None = None,
    script_args: Sequence[str] = (),
) -> Measure:
    command = [
        "wrk",
        "--threads",
        str(args.threads),
        "--connections",
        str(args.connections),
        "--duration",
        f"{args.slice}s",
        "--latency",
        "--timeout",
        "10s",
    ]
    if script:
        command += ["--script", str(script)]
    command.append(url)
    if script_args:
        command += ["--", *script_args]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    with open(args.wrk_log, "a") as log:
        log.write(f"$ {' '.join(command)}\n{output}\n")
    found = re.search(r"Requests/sec:[ \t]+([\d.]+)", output)
    if not found:
        raise RuntimeError(f"wrk gave no rate for {name}:\n{output}")
    rps = float(found.group(1))
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    errors = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", output))
    socket_errors = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output
    )
    errors += sum(int(n) for n in socket_errors.groups()) if socket_errors else 0

    def percentile(level: int) -> str:
        # The distribution's own lines ("+/- Stdev" columns also end in %).
        found = re.search(rf"^[ \t]+{level}%[ \t]+(\S+)[ \t]*$", output, re.MULTILINE)
        return found.group(1) if found else "?"

    p50, p99 = percentile(50), percentile(99)
    measure = Measure(name, rps, requests, errors, p50, p99)
    print(
        f"  {name:<44} {rps:>7.0f} req/s  p50 {p50:>8}  p99 {p99:>8}  ({requests} requests"
        f"{f', {errors} ERRORS' if errors else ''})",
        flush=True,
    )
    return measure


# --- the data ---------------------------------------------------------------------------------


def seed_table(app, token: str, *, extra: int = 0) -> str:
    """Store the bench device's games: the big game newest, 9 finished ones, then `extra` older
    finished games (a long history behind them). Return the big game's id."""
    from seed import Shape, device_hash, seed_games, writing  # scripts/ is on sys.path

    from app.extensions import db
    from app.models import utcnow

    owner = device_hash(app, token)
    now = utcnow()
    with app.app_context(), writing(db.engine) as connection:
        connection.exec_driver_sql("PRAGMA cache_size=-262144")
        big = seed_games(
            connection, [owner], Shape(BIG["players"], BIG["rounds"], finished=False), newest=now
        )[0]
        seed_games(
            connection,
            [owner] * (HISTORY_GAMES - 1),
            Shape(4, 6, finished=True),
            newest=now - timedelta(minutes=1),
        )
        if extra:
            seed_games(
                connection,
                [owner] * extra,
                Shape(3, 5, finished=True),
                newest=now - timedelta(days=1),
            )
    _checkpoint(app)
    return big


def seed_submissions(app, count: int, lines: Path) -> list[str]:
    """Store `count` 10-player games with 19 rounds, each on its own device (many tables play at
    once, and one device's rate limit is never reached), and write one wrk line per game:
    device token, form path, form body recording round 20."""
    from seed import Shape, new_device, seed_games, writing

    from app.extensions import db

    tokens, hashes = zip(*(new_device(app) for _ in range(count)), strict=True)
    with app.app_context(), writing(db.engine) as connection:
        ids = seed_games(
            connection, hashes, Shape(BIG["players"], BIG["rounds"] - 1, finished=False)
        )
    _checkpoint(app)
    body = "number=20&" + "&".join(f"heads-{seat}={seat % 3}" for seat in range(BIG["players"]))
    lines.write_text(
        "".join(
            f"{token} /parties/{public_id}/manches {body}\n"
            for token, public_id in zip(tokens, ids, strict=True)
        )
    )
    return ids


def _checkpoint(app) -> None:
    """Fold the seeded rows into the database file and empty the WAL: a server never sees one
    transaction of thousands of games, and readers pay for every frame left in the WAL."""
    from app.extensions import db

    with app.app_context(), db.engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")


def recorded_rounds(app, public_ids: Sequence[str], number: int) -> int:
    import sqlalchemy as sa

    from app.extensions import db
    from app.models import Game, Round

    with app.app_context():
        count = db.session.scalar(
            sa.select(sa.func.count())
            .select_from(Round)
            .join(Game)
            .where(Game.public_id.in_(public_ids), Round.number == number)
        )
        db.session.remove()
        return count


def make_app(instance: Path, env: dict[str, str]):
    """Migrate a database in its own instance folder as `make run` does; return an app on it."""
    env = {**env, "INSTANCE_PATH": str(instance)}
    subprocess.run(
        [str(BIN / "flask"), "--app", "app", "db", "upgrade"],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    os.environ["INSTANCE_PATH"] = str(instance)
    from app import create_app

    return create_app(), env


# --- profile ----------------------------------------------------------------------------------


def profile(app, token: str, big: str, folder: Path, requests: int) -> dict[str, str]:
    """Profile each route in-process (pyinstrument) on the same database; return text reports."""
    try:
        from pyinstrument import Profiler
    except ImportError:
        return {"(not run)": "pyinstrument is not installed: pip install -e '.[bench]'"}
    client = app.test_client()
    cookie_name = app.config["DEVICE_COOKIE_NAME"]
    client.set_cookie(cookie_name, token)
    finder = _TokenFinder()
    finder.feed(client.get(f"/parties/{big}").get_data(as_text=True))
    lines = folder / "profile-submissions.txt"
    seed_submissions(app, requests, lines)
    submissions = [line.split(" ", 2) for line in lines.read_text().splitlines()]

    def submit(i: int):
        device, path, body = submissions[i]
        client.set_cookie(cookie_name, device)
        return client.post(
            path,
            data=f"csrf_token={finder.token}&{body}",
            content_type="application/x-www-form-urlencoded",
            headers={"HX-Request": "true", "Accept-Encoding": "br"},
        )

    def page(path: str):
        def send(_i: int):
            client.set_cookie(cookie_name, token)
            return client.get(path, headers={"Accept-Encoding": "br"})

        return send

    routes = {
        "game page (10 players, 20 rounds)": page(f"/parties/{big}"),
        f"history page ({MANY_GAMES:,} games)": page("/historique"),
        "round submission (htmx)": submit,
    }
    reports = {}
    for name, send in routes.items():
        profiler = Profiler(interval=0.0005)
        profiler.start()
        for i in range(requests):
            response = send(i)
            assert response.status_code == 200, (name, response.status_code)
        profiler.stop()
        reports[name] = profiler.output_text(unicode=False, color=False, show_all=False)
    return reports


# --- report -----------------------------------------------------------------------------------


def write_doc(section: str, text: str) -> None:
    """Replace the text between <!-- NAME:begin --> and <!-- NAME:end --> in docs/performance.md."""
    begin, end = f"<!-- {section}:begin -->", f"<!-- {section}:end -->"
    doc = DOC.read_text() if DOC.exists() else f"# Performance\n\n{begin}\n{end}\n"
    if begin not in doc:
        doc += f"\n{begin}\n{end}\n"
    head, _, rest = doc.partition(begin)
    _, _, tail = rest.partition(end)
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(f"{head}{begin}\n{text.rstrip()}\n{end}{tail}")


TARGETS = [
    # Each page with 100,000 games right after the same page with 10, so that the two slices
    # compared see the same load on the machine.
    Target("game", "game page, 10 players, 20 rounds", floor_ratio=0.5),
    Target("game_many", f"game page, {MANY_GAMES:,} games stored", versus="game"),
    Target("history", f"history page, {HISTORY_GAMES} games"),
    Target("history_many", f"history page, {MANY_GAMES:,} games", versus="history"),
    Target("submit", "round submission (htmx, records a round)", floor_ratio=0.3),
    Target("submit_plain", "round submission (plain form, 303)"),
    # Not a target: what any request that reads the database costs in this app, for scale.
    Target("healthz", "/healthz: one SELECT 1 through the app (for scale)"),
]


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def report(
    results: dict[str, list[Measure]],
    floors_before: dict[str, list[Measure]],
    args: argparse.Namespace,
) -> str:
    floor = median([m.rps for m in results["floor"]])
    rps = {key: median([m.rps for m in measures]) for key, measures in results.items()}
    # Each slice against the floor slice measured just before it: the machine's load drifts
    # during a run (other work shares its cores), far less within a few seconds.
    ratios = {
        key: median([m.rps / f.rps for m, f in zip(measures, floors_before[key], strict=True)])
        for key, measures in results.items()
        if key != "floor"
    }
    lines = [
        f"Measured {time.strftime('%Y-%m-%d %H:%M')} by `make bench`: gunicorn --workers {WORKERS} "
        f"(as `make run`), SQLite; wrk {args.threads} thread × {args.connections} connections on "
        f"loopback, {args.repeats} slices of {args.slice} s per request, each right after a slice "
        f"of the floor; req/s are medians, ratios the median of each slice over the floor slice "
        f"before it. {os.cpu_count()} CPUs, load average before the run: {args.load_before}.",
        f"Floor slices (req/s): {', '.join(f'{m.rps:.0f}' for m in results['floor'])}.",
        "",
        "| request | req/s | × floor | target | met |",
        "|---|---:|---:|---|---|",
        f"| floor: bare Flask « hello », same gunicorn | {floor:.0f} | 1.00 | | |",
    ]
    for target in TARGETS:
        ratio = ratios[target.key]
        goal, met = "", ""
        if target.floor_ratio is not None:
            goal = f"≥ {target.floor_ratio} × floor"
            met = "yes" if ratio >= target.floor_ratio else "**no**"
        if target.versus:
            # Slice against slice of the same round, measured one after the other.
            versus = median(
                [
                    m.rps / f.rps
                    for m, f in zip(results[target.key], results[target.versus], strict=True)
                ]
            )
            goal = f"≥ 0.9 × with {HISTORY_GAMES} games: {versus:.2f}"
            met = "yes" if versus >= 0.9 else "**no**"
        lines.append(f"| {target.label} | {rps[target.key]:.0f} | {ratio:.3f} | {goal} | {met} |")
    lines += ["", "Latency of the median slice (p50 / p99):", ""]
    for measures in results.values():
        middle = sorted(measures, key=lambda m: m.rps)[len(measures) // 2]
        lines.append(f"- {middle.name}: {middle.latency_p50} / {middle.latency_p99}")
    return "\n".join(lines)


def _trim(text: str, lines: int = 40) -> str:
    kept = [line.rstrip() for line in text.splitlines() if line.strip()]
    start = next((i for i, line in enumerate(kept) if line.lstrip().startswith("Profile at")), 0)
    return "\n".join(kept[start + 1 : start + 1 + lines])


# --- the run ----------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Benchmark the counter against a bare Flask app.")
    parser.add_argument("--slice", type=int, default=4, help="seconds per measure")
    parser.add_argument("--repeats", type=int, default=5, help="slices per request (medians)")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument(
        "--threads", type=int, default=1, help="wrk threads (the server needs the cores)"
    )
    parser.add_argument("--profile-requests", type=int, default=100)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--no-doc", action="store_true", help="do not write docs/performance.md")
    args = parser.parse_args(argv)
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed (Debian: apt-get install -y wrk); `make bench` installs it.")
    args.load_before = " ".join(f"{value:.1f}" for value in os.getloadavg())

    folder = Path(tempfile.mkdtemp(prefix="sqp-bench-"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "FLASK_DATABASE_URL")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    os.environ.pop("DATABASE_URL", None)
    sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]
    log = folder / "gunicorn.log"
    args.wrk_log = folder / "wrk.log"
    print(f"Working in {folder} (server logs: {log}; wrk's output: {args.wrk_log})", flush=True)
    try:
        from seed import new_device

        # Two databases side by side, measured in turns: 10 games, and 100,000 for the same device.
        few_app, few_env = make_app(folder / "instance-10", env)
        token = new_device(few_app)[0]
        started = time.perf_counter()
        few_big = seed_table(few_app, token)
        print(f"Seeded {HISTORY_GAMES} games in {time.perf_counter() - started:.1f} s", flush=True)
        many_app, many_env = make_app(folder / "instance-100k", env)
        started = time.perf_counter()
        many_big = seed_table(many_app, token, extra=MANY_GAMES - HISTORY_GAMES)
        print(f"Seeded {MANY_GAMES:,} games in {time.perf_counter() - started:.1f} s", flush=True)
        # Submissions get a third database: each of their slices first stores thousands of fresh
        # games, which must not weigh on the pages compared above.
        submit_app, submit_env = make_app(folder / "instance-submissions", env)
        submit_big = seed_table(submit_app, token)
        cookie = f"{few_app.config['DEVICE_COOKIE_NAME']}={token}"
        (folder / "get.lua").write_text(GET_LUA)
        (folder / "submit.lua").write_text(SUBMIT_LUA)

        results: dict[str, list[Measure]] = {"floor": []}
        floors_before: dict[str, list[Measure]] = {}
        with (
            gunicorn("bench:hello_app()", env, log, pythonpath=str(ROOT / "scripts")) as hello,
            gunicorn("app:create_app()", few_env, log) as few,
            gunicorn("app:create_app()", submit_env, log) as submitter,
            gunicorn("app:create_app()", many_env, log) as many,
        ):
            device_cookie = {few_app.config["DEVICE_COOKIE_NAME"]: token}
            session, _ = csrf_session(few, f"/parties/{few_big}", device_cookie)
            # Pages are fetched with the cookies a phone sends back: its device and its session
            # (signed by each server's own key). Without the session, every page would have to
            # make and sign a new CSRF token and send a new session cookie.
            many_session, _ = csrf_session(many, f"/parties/{many_big}", device_cookie)
            cookies = {
                few: f"{cookie}; session={session}",
                many: f"{cookie}; session={many_session}",
            }
            submit_session, submit_csrf = csrf_session(
                submitter, f"/parties/{submit_big}", device_cookie
            )
            pages = {
                "healthz": (few, "/healthz"),
                "game": (few, f"/parties/{few_big}"),
                "history": (few, "/historique"),
                "game_many": (many, f"/parties/{many_big}"),
                "history_many": (many, "/historique"),
            }
            print(
                f"\nwrk, {args.connections} connections, {args.repeats} × {args.slice} s each, "
                f"gunicorn --workers {WORKERS}:",
                flush=True,
            )
            for repeat in range(args.repeats):
                print(f"Round {repeat + 1} of {args.repeats}", flush=True)
                for target in TARGETS:
                    results["floor"].append(
                        wrk("floor: bare Flask « hello »", f"http://{HOST}:{hello}/", args)
                    )
                    if target.key in pages:
                        port, path = pages[target.key]
                        measure = wrk(
                            target.label,
                            f"http://{HOST}:{port}{path}",
                            args,
                            folder / "get.lua",
                            [cookies[port]],
                        )
                    else:
                        measure = submissions(
                            submit_app,
                            submitter,
                            target,
                            folder,
                            args,
                            submit_session,
                            submit_csrf,
                            results["floor"][-1].rps,
                        )
                    results.setdefault(target.key, []).append(measure)
                    floors_before.setdefault(target.key, []).append(results["floor"][-1])

        table = report(results, floors_before, args)
        print("\n" + table, flush=True)
        print(f"\nProfiling {args.profile_requests} requests per route in-process…", flush=True)
        reports = profile(many_app, token, many_big, folder, args.profile_requests)
        if not args.no_doc:
            write_doc("bench", table)
            write_doc(
                "profile",
                "\n".join(
                    f"#### {name} — {args.profile_requests} requests, in-process, 100,000 games stored"
                    f"\n\n```text\n{_trim(text)}\n```\n"
                    for name, text in reports.items()
                ),
            )
            print(f"Written to {DOC.relative_to(ROOT)}")
        errors = sum(m.errors for measures in results.values() for m in measures)
        if errors:
            sys.exit(f"{errors} failed requests: the figures above are not valid")
    finally:
        if args.keep:
            print(f"Kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def submissions(
    app, port: int, target: Target, folder: Path, args, session: str, csrf: str, floor_rps: float
) -> Measure:
    """Measure round submissions on fresh games, then check that each request recorded a round."""
    htmx = target.key == "submit"
    lines = folder / f"{target.key}.txt"
    # More fresh games than requests can possibly be sent: never the floor's rate, plus margin.
    ids = seed_submissions(app, int(floor_rps * args.slice * 1.2) + 200, lines)
    measure = wrk(
        target.label,
        f"http://{HOST}:{port}/",
        args,
        folder / "submit.lua",
        [str(lines), str(args.threads), session, csrf, "1" if htmx else "0"],
    )
    recorded = recorded_rounds(app, ids, 20)
    if recorded != measure.requests:
        # wrk counts only answered requests; one in flight at the end may still be recorded.
        gap = measure.requests - recorded
        if not -args.connections <= gap <= 0:
            print(f"    !! {measure.requests} requests but {recorded} rounds recorded", flush=True)
            measure.errors += abs(gap)
    return measure


if __name__ == "__main__":
    main()
