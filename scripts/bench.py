"""`make bench`: what players feel on a phone's network, and what the server spends for it.

The real server runs as `make run` starts it (scripts/lib/servers.py: gunicorn.conf.py, $WORKERS
workers) on a temporary SQLite database, rate limits off, on 127.0.0.1; games are set up through
its own forms over HTTP. Chromium (Playwright), throttled by DevTools to a slow phone's network,
times the tap on « Valider la manche » → new totals and a game page's first paint, and counts
the bytes of a visit; then wrk loads the server while its processes' CPU time is read from
/proc. Prints the figures and writes them into docs/performance.md (docs/performance.md says how
each is measured).

    .venv/bin/python scripts/bench.py [--quick] [--rounds 6] [--pause 40]
                                      [--only tap,paint,server,reads] [--no-doc]
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from browser import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    FIRST_PAINT,
    RTT_MS,
    WATCH_TAP,
    Network,
    Tap,
    Visit,
    new_context,
)

from scripts.lib.servers import (  # the real server, as `make run` starts it
    BIN,
    ROOT,
    Server,
    clean_env,
    free_port,
    running,
    server_env,
)

DOC = ROOT / "docs" / "performance.md"
WORKERS = int(os.environ.get("WORKERS", "2"))  # the Makefile's, as for `make run`
PLAYERS = ["Alice", "Bruno", "Chloé", "Damien", "Élodie"]
ROUNDS = [[3, 1, 5, 0, 2], [1, 8, 0, 2, 1], [0, 2, 3, 1, 5], [2, 0, 1, 7, 1], [5, 1, 0, 2, 3]]
ROUNDS += [[1, 3, 2, 0, 1], [2, 2, 1, 5, 0], [0, 1, 8, 1, 2], [3, 0, 2, 1, 1], [1, 5, 0, 3, 2]]
PAUSE_S, TYPING_S, QUICK_PAUSE_S, QUICK_TYPING_S = 40, 10, 3, 1  # between rounds; of it typing
PAINT_SAMPLES = 7
BIG_GAME = (10, 20)  # players, rounds: the game page the server's figures are taken on
CONNECTIONS, SECONDS = 16, 5  # wrk's, for each slice
# Rounds go to these games in turn: none gets two in a 5 s slice (with 1,000, a game's next round
# sometimes left before its last was answered, at p99 1 s, and came back 409).
SUBMISSION_GAMES = 2000
SLOW_RTTS_MS = (RTT_MS, 600)  # a slow phone's network, a café's Wi-Fi
TARGET_TAP_RATIO, TARGET_DRAWN_MS, TARGET_PAINT_MS = 1.0, 50, 2 * RTT_MS + 100
TARGET_FIRST_VISIT, TARGET_REPEAT_VISIT = 25 * 1024, 6 * 1024
TARGET_HELLO_RATIO = 0.08  # the game page's requests per second, of a bare hello's


def write_doc(section: str, text: str) -> None:
    """Replace the text between <!-- NAME:begin --> and <!-- NAME:end --> in docs/performance.md."""
    begin, end = f"<!-- {section}:begin -->", f"<!-- {section}:end -->"
    doc = DOC.read_text()
    if begin not in doc:
        doc += f"\n{begin}\n{end}\n"
    head, _, rest = doc.partition(begin)
    DOC.write_text(f"{head}{begin}\n{text.rstrip()}\n{end}{rest.partition(end)[2]}")


class Phone:
    """One device at a table, over HTTP: its cookies and CSRF token, the app's own forms."""

    def __init__(self, url: str) -> None:
        self.url, self.http = url, requests.Session()
        page = self.http.get(f"{url}/parties/nouvelle", timeout=30)
        self.csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)

    def start_game(self, names: Sequence[str] = PLAYERS) -> str:
        form = {"csrf_token": self.csrf, "end": "above"}
        form.update({f"players-{seat}": name for seat, name in enumerate(names)})
        answer = self.http.post(f"{self.url}/parties", data=form, allow_redirects=False, timeout=30)
        assert answer.status_code == 303, answer.status_code
        return answer.headers["Location"].rstrip("/").rsplit("/", 1)[-1]

    def play(self, game: str, rounds: Sequence[Sequence[int]], start: int = 1, **headers) -> None:
        """Record rounds as the page does (htmx), `headers` added."""
        url, headers = f"{self.url}/parties/{game}/manches", {"HX-Request": "true", **headers}
        for number, heads in enumerate(rounds, start=start):
            # A game played forward only: round N is drawn from version N.
            form = {"csrf_token": self.csrf, "number": str(number), "version": str(number)}
            form.update({f"score-{seat}": str(value) for seat, value in enumerate(heads)})
            answer = self.http.post(url, data=form, headers=headers, timeout=30)
            assert answer.status_code == 200, answer.status_code

    def cookie_header(self) -> str:
        """Its cookies: the device's and the session's."""
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())

    def device_cookie(self) -> dict:
        return {"name": "appareil", "value": self.http.cookies["appareil"], "url": self.url}


# --- Chromium, on a phone's network (scripts/browser.py) -------------------------------------


def tap_to_totals(browser, phone: Phone, rounds: int, pause: float, typing: float):
    """Play rounds on a new game page as a table does, timing each tap (totals drawn, then
    confirmed) and, last, a round the server refuses: quickly and unthrottled (for the limit),
    then throttled with the pauses of a table, at each round trip of SLOW_RTTS_MS. Return the
    lists of taps and of refusals, unthrottled first."""
    played, refusals = [], []
    for rtt in (0, *SLOW_RTTS_MS):
        throttled = rtt > 0
        print(f"Tap → totals, {f'{rtt} ms RTT' if throttled else 'unthrottled'}:", flush=True)
        apart, typed = (pause, typing) if throttled else (QUICK_PAUSE_S, QUICK_TYPING_S)
        with new_context(browser, phone.url, phone.device_cookie()) as context:
            page = context.new_page()
            network = Network(page, throttled=throttled, rtt=rtt)
            page.goto(f"/parties/{phone.start_game()}")
            page.wait_for_function("() => window.sqpWaiting")  # fetched once the page is loaded
            taps, totals = [], [0] * len(PLAYERS)
            for number, heads in enumerate(ROUNDS[:rounds], start=1):
                page.wait_for_timeout((apart - typed) * 1000)
                typed_from = network.mark()
                for name, value in zip(PLAYERS, heads, strict=True):
                    entry = page.get_by_role("spinbutton", name=name, exact=True)
                    entry.click()
                    entry.press_sequentially(str(value))
                    page.wait_for_timeout(typed * 1000 / len(PLAYERS))
                totals = [total + value for total, value in zip(totals, heads, strict=True)]
                tap = timed_tap(page, network, totals, rtt, typed_from)
                taps.append(tap)
                felt = f", felt on a real network {tap.felt_ms:.0f} ms" if throttled else ""
                print(
                    f"  round {number}: drawn {tap.drawn_ms:.0f} ms, confirmed {tap.ms:.0f} ms{felt}",
                    flush=True,
                )
            # A round each of whose scores is possible, their sum not (the deck's whole round):
            # only the server can tell.
            for name, value in zip(PLAYERS, [100, 100, 0, 0, 0], strict=True):
                page.get_by_role("spinbutton", name=name, exact=True).fill(str(value))
            refusal = timed_tap(page, network, None, rtt, network.mark())
            print(f"  refused: {refusal.ms:.0f} ms", flush=True)
        played.append(taps)
        refusals.append(refusal)
    return played, refusals


def timed_tap(page, network: Network, totals: list[int] | None, rtt: int, typed_from: int) -> Tap:
    """Tap « Valider la manche » and time it: to the totals drawn and confirmed, or (`totals`
    None) to the refusal shown."""
    page.evaluate(WATCH_TAP, [totals, totals is None])
    tapped_from = network.mark()
    page.get_by_role("button", name="Valider la manche").click()
    page.wait_for_function("() => window.benchTap.frame !== undefined")
    seen = page.evaluate("window.benchTap")
    page.wait_for_timeout(100)  # the answer's last DevTools events
    return Tap(
        seen["frame"] - seen["start"],
        drawn_ms=seen.get("drawn", seen["frame"]) - seen["start"],
        rtt=rtt,
        requests=network.since(tapped_from),
        typing=network.since(typed_from, tapped_from),
    )


def first_visits(browser, phone: Phone, path: str) -> list[Visit]:
    """Open a game page from an empty cache unthrottled (what rendering costs here), then
    throttled, then once more in that context (the repeat visit). Without the service worker,
    whose downloads DevTools' page events do not see (tests/performance/test_bytes.py counts
    what it adds)."""
    visits = []
    for _ in range(PAINT_SAMPLES):
        paints, networks = [], []
        for throttled in (False, True):
            with new_context(browser, phone.url, phone.device_cookie(), service_worker=False) as c:
                page = c.new_page()
                networks.append(Network(page, throttled=throttled))
                page.goto(path, wait_until="load")
                page.wait_for_timeout(300)  # late requests (the icon), the last DevTools events
                paints.append(page.evaluate(FIRST_PAINT))
                again = networks[-1].mark()
                page.goto(path, wait_until="load")
                page.wait_for_timeout(300)
                cookies = c.cookies()
        first = networks[1].since(0, again)
        repeat = networks[1].since(again)
        visit = Visit(paints[1], *_blocking(first), first, repeat, paints[0])
        # The same phone after its browser evicted the cache: every cookie kept, no file, no
        # service worker (evicted with its cache).
        with new_context(browser, phone.url, None, service_worker=False) as c:
            c.add_cookies(cookies)
            page = c.new_page()
            network = Network(page)
            page.goto(path, wait_until="load")
            page.wait_for_timeout(300)
            visit.evicted = Visit(
                page.evaluate(FIRST_PAINT), *_blocking(network.since(0)), [], [], 0
            )
        visits.append(visit)
    return visits


def _blocking(requests_: list) -> tuple[int, float]:
    """New connections of the document and its stylesheets, and the document's server time."""
    blocking = [r for r in requests_ if r.kind in ("Document", "Stylesheet")]
    document = sum(r.server_ms for r in blocking if r.kind == "Document")
    return sum(r.new_connection for r in blocking), document


# The least a page can be: what this browser and machine spend on any page, the game's aside.
FLOOR_PAGE = (
    '<!doctype html><html lang="fr"><meta charset="utf-8"><meta name="viewport" '
    'content="width=device-width, initial-scale=1"><title>6 qui prend</title>'
    "<p>Compteur « 6 qui prend ! »</p>"
).encode()


@contextlib.contextmanager
def floor_server() -> Iterator[str]:
    """Serve FLOOR_PAGE from Python's own HTTP server on loopback; yield its address."""

    class OneLine(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(FLOOR_PAGE)))
            self.end_headers()
            self.wfile.write(FLOOR_PAGE)

        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), OneLine)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def floor_paints(browser) -> list[Visit]:
    """First contentful paints of FLOOR_PAGE, unthrottled and throttled, each from a new context."""
    visits = []
    with floor_server() as url:
        for _ in range(PAINT_SAMPLES):
            paints = []
            for throttled in (False, True):
                with new_context(browser, url, None, service_worker=False) as context:
                    page = context.new_page()
                    network = Network(page, throttled=throttled)
                    page.goto("/", wait_until="load")
                    paints.append(page.evaluate(FIRST_PAINT))
            visits.append(Visit(paints[1], *_blocking(network.since(0)), [], [], paints[0]))
    return visits


# What Chromium's renderer does from the navigation to the first paint, by kind of work.
TRACE_CATEGORIES = ["devtools.timeline", "blink.user_timing", "loading", "v8"]
TRACE_KINDS = {
    "ParseHTML": "parsing HTML",
    "ParseAuthorStyleSheet": "parsing CSS",
    "UpdateLayoutTree": "style recalculation",
    "Layout": "layout",
    "PrePaint": "pre-paint",
    "Paint": "paint",
    "Layerize": "layerize",
    "EvaluateScript": "scripts",
    "v8.compile": "scripts",
    "FunctionCall": "scripts",
    "v8.run": "scripts",
}


def render_trace(browser, url: str, path: str, cookie: dict | None) -> dict[str, float]:
    """Record a performance trace of a cold page, unthrottled; return ms per kind of work on
    the renderer's main thread up to the first contentful paint (nested events counted once,
    in the outermost kind), and `first paint`: the navigation to that paint."""
    with new_context(browser, url, cookie, service_worker=False) as context:
        page = context.new_page()
        browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
        page.goto(path, wait_until="load")
        page.wait_for_timeout(300)
        events = json.loads(browser.stop_tracing())["traceEvents"]
    start = next(e["ts"] for e in events if e["name"] == "navigationStart")
    paint = next(e for e in events if e["name"] == "firstContentfulPaint")
    main = [e for e in events if e["pid"] == paint["pid"] and e["tid"] == paint["tid"]]
    spans = sorted(
        (e["ts"], e["ts"] + e.get("dur", 0), TRACE_KINDS[e["name"]])
        for e in main
        if e.get("ph") == "X" and e["name"] in TRACE_KINDS and start <= e["ts"] < paint["ts"]
    )
    figures: dict[str, float] = {"first paint": (paint["ts"] - start) / 1000}
    outer_end = 0
    for begin, end, kind in spans:
        if begin >= outer_end:  # not inside the previous outermost event
            figures[kind] = figures.get(kind, 0) + (end - begin) / 1000
            outer_end = end
    busy = sum(value for kind, value in figures.items() if kind != "first paint")
    figures["other main-thread work and waiting"] = figures["first paint"] - busy
    return figures


def render_traces(browser, phone: Phone, path: str) -> dict[str, dict[str, float]]:
    """Medians of PAINT_SAMPLES traces of the game page and of the floor page."""
    traced: dict[str, list[dict[str, float]]] = {"game": [], "floor": []}
    with floor_server() as floor:
        for _ in range(PAINT_SAMPLES):
            traced["game"].append(render_trace(browser, phone.url, path, phone.device_cookie()))
            traced["floor"].append(render_trace(browser, floor, "/", None))
    return {
        page: {
            kind: statistics.median(trace.get(kind, 0) for trace in traces)
            for kind in dict.fromkeys(k for trace in traces for k in trace)
        }
        for page, traces in traced.items()
    }


# --- the server under wrk ---------------------------------------------------------------------

# Each request records the next round of one of the games, in turn: never two at once on one.
SUBMIT_LUA = r"""
local ids, next_round, turn = {}, {}, 0
function init(args)
  for line in io.lines(args[1]) do
    local id, number = line:match("(%S+) (%d+)")
    table.insert(ids, id); table.insert(next_round, tonumber(number))
  end
  cookie, csrf = args[2], args[3]
end
function request()
  turn = turn % #ids + 1
  local number = next_round[turn]
  next_round[turn] = number + 1
  local body = "csrf_token=" .. csrf .. "&number=" .. number .. "&version=" .. number
  for seat = 0, 4 do body = body .. "&score-" .. seat .. "=" .. (seat == number % 5 and 1 or 0) end
  return wrk.format("POST", "/parties/" .. ids[turn] .. "/manches", {
    ["Cookie"] = cookie, ["HX-Request"] = "true", ["Accept-Encoding"] = "gzip, deflate, br",
    ["Content-Type"] = "application/x-www-form-urlencoded"}, body)
end
"""


@dataclass
class Load:
    per_second: float
    requests: int
    errors: int
    p50_ms: float
    cpu_ms: float  # the server's processes' CPU time (user + system) per request answered


def wrk(server, path: str, connections: int, seconds: float, *options: str) -> Load:
    """Run wrk against the server (`options` before the URL; after "--", the script's own
    arguments), reading the server's processes' CPU time before and after."""
    command = ["wrk", "--threads", "1", "--connections", str(connections), "--latency"]
    command += ["--duration", f"{seconds:g}s", "--timeout", "10s", *options]
    split = command.index("--") if "--" in command else len(command)
    command[split:split] = [server.url + path]
    cpu = server.cpu_seconds()
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    spent = server.cpu_seconds() - cpu
    with (server.log.parent / "wrk.log").open("a") as log:
        log.write(f"$ {' '.join(command)}\n{output}\n")
    count = int(re.search(r"(\d+) requests in", output).group(1))
    errors = sum(map(int, re.findall(r"Non-2xx or 3xx responses: (\d+)", output)))
    errors += sum(map(int, re.findall(r"(?:connect|read|write|timeout) (\d+)", output)))
    value, unit = re.search(r"^\s+50%\s+([\d.]+)(us|ms|s)\s*$", output, re.M).groups()
    p50 = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    return Load(rate, count, errors, p50, 1000 * spent / max(count, 1))


HELLO_APP = """from flask import Flask

app = Flask(__name__)


@app.get("/", defaults={"path": ""})
@app.get("/<path:path>")
def hello(path):
    return "Hello"
"""


@contextlib.contextmanager
def hello_server(folder: Path) -> Iterator[Server]:
    """A bare Flask hello on the same gunicorn, as `make run` starts it (gunicorn.conf.py, the
    same workers and access log): what any page costs this server, the app's work aside."""
    (folder / "hello_app.py").write_text(HELLO_APP)
    port = free_port()
    command = [str(BIN / "gunicorn"), "--config", str(ROOT / "gunicorn.conf.py")]
    command += ["--workers", str(WORKERS), "--bind", f"127.0.0.1:{port}", "--access-logfile", "-"]
    command += ["--chdir", str(folder), "hello_app:app"]
    server = Server(command, clean_env(), folder / "hello.log", port)
    try:
        server.start()
        yield server
    finally:
        server.stop()


def server_load(server, phone: Phone, folder: Path, slices: int) -> dict[str, Load]:
    """wrk on a 10-player game page of 20 rounds (one connection, then 16), on a bare Flask
    hello (16 connections, the same gunicorn) and on rounds recorded (htmx, 16 connections),
    slice after slice; the median slice of each."""
    players, rounds = BIG_GAME
    big = phone.start_game([f"Joueur {seat + 1}" for seat in range(players)])
    phone.play(big, [[(seat * 3 + n) % 5 for seat in range(players)] for n in range(rounds)])
    with ThreadPoolExecutor(8) as pool:
        games = list(pool.map(lambda _: phone.start_game(), range(SUBMISSION_GAMES)))
    lua, todo = folder / "submit.lua", folder / "games.txt"
    lua.write_text(SUBMIT_LUA)
    headers = ["-H", f"Cookie: {phone.cookie_header()}", "-H", "Accept-Encoding: gzip, deflate, br"]
    page = f"/parties/{big}"
    wrk(server, page, CONNECTIONS, 1, *headers)  # not counted: every worker's threads warm
    database = sqlite3.connect(folder / "bench.sqlite")
    measured: dict[str, list[Load]] = {"alone": [], "page": [], "hello": [], "round": []}
    hello = contextlib.ExitStack()
    hello_server_ = hello.enter_context(hello_server(folder))
    wrk(hello_server_, "/", CONNECTIONS, 1)  # not counted either
    for _ in range(slices):
        measured["alone"].append(wrk(server, page, 1, SECONDS, *headers))
        measured["page"].append(wrk(server, page, CONNECTIONS, SECONDS, *headers))
        measured["hello"].append(wrk(hello_server_, "/", CONNECTIONS, SECONDS, *headers))
        query = "SELECT public_id, (SELECT count(*) FROM round WHERE game_id = game.id) FROM game"
        stored = dict(database.execute(query).fetchall())
        todo.write_text("".join(f"{game} {stored[game] + 1}\n" for game in games))
        arguments = [str(todo), phone.cookie_header(), phone.csrf]
        load = wrk(server, "/", CONNECTIONS, SECONDS, "--script", str(lua), "--", *arguments)
        recorded = database.execute("SELECT count(*) FROM round").fetchone()[0]
        recorded -= sum(stored.values())
        # wrk does not count the rounds in flight when it stops, nor those it sent again after
        # a connection error: a few either way, never more than its connections.
        if abs(recorded - load.requests) > CONNECTIONS:
            print(f"  !! {load.requests} rounds answered, {recorded} recorded", flush=True)
            load.errors += abs(load.requests - recorded)
        measured["round"].append(load)
    database.close()
    hello.close()
    figures = {}
    for name, loads in measured.items():
        figures[name] = sorted(loads, key=lambda load: load.per_second)[len(loads) // 2]
        figures[name].errors = sum(load.errors for load in loads)
    return figures


# --- the report -------------------------------------------------------------------------------


HEAVY_GAMES, HEAVY_SAMPLES, TARGET_HEAVY_MS = 3000, 5, 200


def heavy_reads(server: Server, folder: Path) -> dict[str, list[float]]:
    """A new phone with 3,000 finished games (5 players, 10 rounds, `scripts/seed.py`) asks for
    its statistics and « Exporter toutes les parties », each time just after a round of its
    game in progress: a first reading of every game (the server keeps a result only while its
    games do not change, web/history.py). The server's CPU ms for each request, read from /proc
    (this machine's other work moves wall times more than CPU times)."""
    reader = Phone(server.url)
    game = reader.start_game()
    seed = [str(BIN / "python"), str(ROOT / "scripts" / "seed.py"), "--games", str(HEAVY_GAMES)]
    seed += ["--players", "5", "--rounds", "10", "--token", reader.http.cookies["appareil"]]
    environment = server_env(f"sqlite:///{folder / 'bench.sqlite'}", folder / "instance")
    subprocess.run(seed, env=environment, check=True, capture_output=True, timeout=120)
    paths = {
        "statistics": "/statistiques",
        "JSON export": "/historique/export.json",
        "CSV export": "/historique/export.csv",
    }
    times: dict[str, list[float]] = {label: [] for label in paths}
    number = 0
    for _ in range(HEAVY_SAMPLES):
        for label, path in paths.items():
            number += 1
            reader.play(game, [[0, 0, 0, 0, 1]], start=number)
            cpu = server.cpu_seconds()
            answer = reader.http.get(server.url + path, timeout=60)
            times[label].append((server.cpu_seconds() - cpu) * 1000)
            assert answer.status_code == 200, answer.status_code
    return times


def report_heavy(times: dict[str, list[float]]) -> list[str]:
    lines = [
        f"**Heavy reads** (issue 30: ≤ {TARGET_HEAVY_MS} ms for {HEAVY_GAMES:,} games): a phone's "
        f"{HEAVY_GAMES:,} finished games (5 players, 10 rounds), each request a first reading "
        f"(just after a round); the server's CPU ms for each of {HEAVY_SAMPLES} requests, "
        "min / median / max.",
        "",
        "| request | CPU ms | target met |",
        "|---|---|---|",
    ]
    for label, values in times.items():
        median = statistics.median(values)
        lines.append(
            f"| {label} | {min(values):.0f} / **{median:.0f}** / {max(values):.0f} | "
            f"{_met(median <= TARGET_HEAVY_MS)} |"
        )
    return lines


def _kb(size: float) -> str:
    return f"{size / 1024:.1f} KB"


def _met(ok: bool) -> str:
    return "yes" if ok else "**no**"


def _ms(values) -> str:
    return ", ".join(f"{value:.0f}" for value in values) + " ms"


def report_taps(played: list[list[Tap]], refusals: list[Tap], pause: float, typing: float):
    unthrottled, throttled, *slower = played
    drawn = [statistics.median(tap.drawn_ms for tap in taps) for taps in played[1:]]
    fast = statistics.median(tap.ms for tap in unthrottled)
    felt = statistics.median(tap.felt_ms for tap in throttled)
    limit = statistics.median(tap.limit_ms(fast) for tap in throttled)
    ratio = statistics.median(tap.felt_ms / tap.limit_ms(fast) for tap in throttled)
    typed = {f"{r.method} {r.path}" for tap in throttled for r in tap.typing}
    at = " and ".join(
        f"{drawn_ms:.0f} ms at {rtt} ms RTT" for drawn_ms, rtt in zip(drawn, SLOW_RTTS_MS)
    )
    lines = [
        f"**Tap on « Valider la manche » → new totals drawn** (static/waiting.js, before the "
        f"server answers): median **{at}** (target ≤ {TARGET_DRAWN_MS} ms: "
        f"{_met(max(drawn) <= TARGET_DRAWN_MS)}); per round "
        + "; ".join(f"{_ms(t.drawn_ms for t in taps)} at {taps[0].rtt} ms" for taps in played[1:])
        + f"; unthrottled {_ms(t.drawn_ms for t in unthrottled)}.",
        "",
        f"**Tap → new totals confirmed** (« envoi… » gone), a 5-player game, {len(throttled)} "
        f"rounds {pause:g} s apart (the last {typing:g} s typing): median felt **{felt:.0f} "
        f"ms** against a limit of {limit:.0f} ms ({RTT_MS} ms + the bytes + {fast:.0f} ms, the "
        f"median tap unthrottled), **{ratio:.2f} ×** (target ≤ {TARGET_TAP_RATIO}: "
        f"{_met(ratio <= TARGET_TAP_RATIO)}). Per round, Chromium's tap → confirmed "
        f"{_ms(t.ms for t in throttled)}; felt {_ms(t.felt_ms for t in throttled)}; limit "
        f"{_ms(t.limit_ms(fast) for t in throttled)}; unthrottled {_ms(t.ms for t in unthrottled)}. "
        f"Each tap sent {' / '.join(sorted({str(len(t.requests)) for t in throttled}))} "
        f"request(s), {sum(t.new_connections for t in throttled)} on a new connection in all, "
        f"{_kb(statistics.median(t.bytes('up') for t in throttled))} up and "
        f"{_kb(statistics.median(t.bytes('down') for t in throttled))} down (medians); sent "
        f"while typing: {', '.join(sorted(typed)) or 'nothing'}.",
    ]
    for taps in slower:
        limit_at = statistics.median(tap.limit_ms(fast) for tap in taps)
        felt_at = statistics.median(tap.felt_ms for tap in taps)
        lines[-1] += (
            f" At {taps[0].rtt} ms RTT: median felt {felt_at:.0f} ms against a limit of "
            f"{limit_at:.0f} ms, {felt_at / limit_at:.2f} × (per round {_ms(t.felt_ms for t in taps)})."
        )
    lines += [
        "",
        "**A refused round's round trip** (tap → the sheet back with the server's message): "
        + "; ".join(
            f"{refusal.felt_ms:.0f} ms felt at {refusal.rtt} ms RTT" for refusal in refusals[1:]
        )
        + f"; {refusals[0].ms:.0f} ms unthrottled.",
    ]
    return lines


def report_visits(visits: list[Visit], floor: list[Visit]) -> list[str]:
    def median(figure, of=visits) -> float:
        return statistics.median(figure(visit) for visit in of)

    def size(visit: str, bodies: bool = False) -> float:
        return median(lambda v: sum(r.down - bodies * r.headers_down for r in getattr(v, visit)))

    first, repeat = size("first", True), size("repeat", True)
    sample = visits[len(visits) // 2]
    files = ", ".join(f"{r.path.split('/')[-1]} {r.down} B" for r in sample.first)
    evicted = [visit.evicted for visit in visits if visit.evicted]
    floor_paint = median(lambda v: v.paint, floor)
    rows = [("a game page, first visit (the device's cookie only)", visits)]
    rows += [("the same phone after its browser evicted the cache (every cookie kept)", evicted)]
    rows += [("the floor: a page of one line from Python's http.server", floor)]
    paint, evicted_paint = median(lambda v: v.paint), median(lambda v: v.paint, evicted)
    return [
        f"**First contentful paint from an empty cache**, side by side in this run (medians of "
        f"{len(visits)} new contexts each; Chromium's figure, then + one RTT per new connection of "
        f"the document and its stylesheets, + the document's server time, hidden by DevTools = "
        f"felt on a real network):",
        "",
        "| page | throttled | felt | unthrottled | new connections (document, stylesheets) "
        "| samples (throttled) |",
        "|---|---:|---:|---:|---:|---|",
        *(
            f"| {label} | **{median(lambda v: v.paint, of):.0f} ms** | "
            f"{median(lambda v: v.felt, of):.0f} ms | "
            f"{f'{median(lambda v: v.unthrottled, of):.0f} ms' if of is not evicted else '—'} | "
            f"{median(lambda v: v.connections, of):.0f} | {_ms(v.paint for v in of)} |"
            for label, of in rows
        ),
        "",
        f"First visit − floor: **{paint - floor_paint:+.0f} ms** (target ≤ 50: "
        f"{_met(paint - floor_paint <= 50)}); evicted cache − floor: **{evicted_paint - floor_paint:+.0f}"
        f" ms** (target ≤ 50 + one RTT = {50 + RTT_MS}: "
        f"{_met(evicted_paint - floor_paint <= 50 + RTT_MS)}); first visit felt: "
        f"{median(lambda v: v.felt):.0f} ms (target ≤ {TARGET_PAINT_MS} ms: "
        f"{_met(median(lambda v: v.felt) <= TARGET_PAINT_MS)}).",
        "",
        f"**Bytes of a visit to that page** (plain HTTP, so gzip: Chromium asks for brotli only "
        f"over HTTPS; the service worker's downloads not counted): first visit "
        f"{_kb(size('first'))} with headers, **{_kb(first)}** of bodies (target ≤ "
        f"{_kb(TARGET_FIRST_VISIT)}: {_met(first <= TARGET_FIRST_VISIT)}; {files}); repeat "
        f"visit without a service worker {_kb(size('repeat'))} with headers, **{_kb(repeat)}** "
        f"of bodies ({sum(r.cached for r in sample.repeat)} files from the cache; the page holds "
        f"its stylesheet unless the service worker says it has it: "
        f"tests/performance/test_bytes.py holds the 6 KB budget with one).",
    ]


def report_trace(traces: dict[str, dict[str, float]]) -> list[str]:
    game, floor = traces["game"], traces["floor"]
    kinds = [k for k in dict.fromkeys([*game, *floor]) if k != "first paint"]
    return [
        f"**Where Chromium's time goes before the first paint**, unthrottled, from a performance "
        f"trace (Playwright's `browser.start_tracing`, categories {', '.join(TRACE_CATEGORIES)}): "
        f"the renderer's main thread from `navigationStart` to `firstContentfulPaint`, medians of "
        f"{PAINT_SAMPLES} cold loads each, ms.",
        "",
        "| work | game page | floor |",
        "|---|---:|---:|",
        f"| **navigation → first paint** | **{game['first paint']:.1f}** | "
        f"**{floor['first paint']:.1f}** |",
        *(f"| {kind} | {game.get(kind, 0):.1f} | {floor.get(kind, 0):.1f} |" for kind in kinds),
    ]


def report_server(figures: dict[str, Load], slices: int) -> list[str]:
    ratio = figures["page"].per_second / figures["hello"].per_second
    page = "a game page, {} players, {} rounds".format(*BIG_GAME)
    labels = {
        "alone": (f"**{page}**, one request at a time", 1),
        "page": (f"**{page}**", CONNECTIONS),
        "hello": ("a bare Flask hello, the same gunicorn", CONNECTIONS),
        "round": ("a round played (htmx submission, answered with the game's part)", CONNECTIONS),
    }
    return [
        f"**The server** (a target for the game page against the hello, below; the rest for scale): wrk on keep-alive connections, median of {slices} "
        f"slice(s) of {SECONDS} s; server CPU per request: the user + system time of gunicorn's "
        f"master and workers (/proc/<pid>/stat) over the requests answered.",
        "",
        "| request | connections | server CPU per request | req/s | p50 |",
        "|---|---:|---:|---:|---:|",
        *(
            f"| {labels[name][0]} | {labels[name][1]} | **{load.cpu_ms:.1f} ms** | "
            f"{load.per_second:.0f} | {load.p50_ms:.1f} ms |"
            for name, load in figures.items()
        ),
        "",
        f"Game page / hello: **{ratio:.1%}** of the requests per second (target ≥ "
        f"{TARGET_HELLO_RATIO:.0%}: {_met(ratio >= TARGET_HELLO_RATIO)}).",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"rounds {QUICK_PAUSE_S} s apart")
    parser.add_argument("--rounds", type=int, default=6, help="rounds timed (median)")
    parser.add_argument("--pause", type=float, help=f"seconds between rounds ({PAUSE_S})")
    parser.add_argument("--only", default="tap,paint,server,reads", help="what to measure")
    parser.add_argument("--no-doc", action="store_true", help="do not write docs/performance.md")
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(argv)
    pause, typing = (QUICK_PAUSE_S, QUICK_TYPING_S) if args.quick else (PAUSE_S, TYPING_S)
    pause = pause if args.pause is None else args.pause
    typing, slices, only = min(pause, typing), 1 if args.quick else 3, set(args.only.split(","))
    if "server" in only and not shutil.which("wrk"):
        sys.exit("wrk is not installed (Debian: apt-get install -y wrk); `make bench` installs it.")
    load_before = " ".join(f"{value:.1f}" for value in os.getloadavg())
    started, lines, figures = time.monotonic(), [], {}
    with tempfile.TemporaryDirectory(prefix="sqp-bench-") as temporary:
        folder = Path(temporary)
        with running(f"sqlite:///{folder / 'bench.sqlite'}", folder, workers=WORKERS) as server:
            print(f"Serving {server.url} (log: {server.log})", flush=True)
            phone = Phone(server.url)
            game = phone.start_game()  # every worker compiles its templates before any timing:
            for number, heads in enumerate(ROUNDS, start=1):  # a new connection each time
                phone.play(game, [heads], number, Connection="close")
                phone.http.get(f"{server.url}/parties/{game}", headers={"Connection": "close"})
            if only & {"tap", "paint"}:
                from playwright.sync_api import sync_playwright

                with sync_playwright() as playwright:
                    browser = playwright.chromium.launch(
                        executable_path=CHROMIUM, args=CHROMIUM_FLAGS
                    )
                    if "tap" in only:
                        taps = tap_to_totals(browser, phone, args.rounds, pause, typing)
                        lines += [*report_taps(*taps, pause, typing), ""]
                    if "paint" in only:
                        print("First paint and bytes of a game page, empty cache…", flush=True)
                        phone.play(game := phone.start_game(), ROUNDS[: args.rounds])
                        visits = first_visits(browser, phone, f"/parties/{game}")
                        floor = floor_paints(browser)
                        lines += [*report_visits(visits, floor), ""]
                        print("Performance traces of the cold page and the floor…", flush=True)
                        traces = render_traces(browser, phone, f"/parties/{game}")
                        lines += [*report_trace(traces), ""]
            if "reads" in only:
                print("Statistics and export of 3,000 games…", flush=True)
                lines += [*report_heavy(heavy_reads(server, folder)), ""]
            if "server" in only:
                print("The server under wrk…", flush=True)
                figures = server_load(server, phone, folder, slices)
                lines += report_server(figures, slices)
    git = ["git", "rev-parse", "--short", "HEAD"]
    commit = subprocess.run(git, cwd=ROOT, capture_output=True, text=True).stdout.strip()
    chromium = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout
    make_args = ' ARGS="' + " ".join(argv) + '"' if argv else ""
    text = "\n".join(
        [
            f"Measured {time.strftime('%Y-%m-%d %H:%M %Z')} by `make bench{make_args}` on commit "
            f"{commit} in {(time.monotonic() - started) / 60:.1f} min: gunicorn as `make run` "
            f"(gunicorn.conf.py, --workers {WORKERS}), SQLite, rate limits off; "
            f"{' '.join(chromium.split()[:2])} throttled by DevTools to {RTT_MS} ms RTT, 1.6 Mbps "
            f"down, 750 kbps up. This machine has {os.cpu_count()} cores shared with other work "
            f"(load average before the run: {load_before}): figures move from run to run.",
            "",
            *lines,
        ]
    )
    print("\n" + text, flush=True)
    if not args.no_doc:
        write_doc("bench", text)
        print(f"\nWritten to {DOC.relative_to(ROOT)}")
    errors = sum(load.errors for load in figures.values())
    if errors:
        print(f"{errors} failed requests under wrk: those figures are not valid")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
