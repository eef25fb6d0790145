"""`make bench`: what players feel on a phone's network, and what the server spends for it.

The real server is started as `make run` starts it (gunicorn.conf.py, the same workers) on a
temporary instance folder and SQLite database of its own, rate limits off. Chromium, driven by
Playwright, reaches it through DevTools' network throttling set to a slow phone's network
(150 ms round trip, 1.6 Mbps down, 750 kbps up) and measures:

- tap_to_totals: a 5-player game played as at a table, a round every 40 s (the last 10 s of
  each pause spent typing the heads), from the tap on « Valider la manche » to the frame that
  shows the new totals; per round the requests, the new connections they opened and their bytes;
  against the limit (one round trip + the bytes over the bandwidth + the same tap unthrottled);
- first_paint: the first contentful paint of a game page from an empty cache;
- visit_bytes: what a first and a repeat visit to a game page download.

Then, for scale: server_cpu (CPU per round played and per game page, in process, Flask's test
client and time.process_time) and requests_per_second (wrk against the real server).
Prints the figures and writes them into docs/performance.md. Everything stays on 127.0.0.1.

    .venv/bin/python scripts/bench.py [--quick | --pause 40 --typing 10] [--rounds 6]
                                      [--only tap,paint,cpu,rps] [--no-doc]
"""

from __future__ import annotations

import argparse
import html.parser
import http.server
import os
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DOC = ROOT / "docs" / "performance.md"
WORKERS = os.environ.get("WORKERS", "2")  # the Makefile's default for `make run`
HOST = "127.0.0.1"
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# A slow phone's network, as DevTools throttles it: the latency is added to each request.
RTT_MS = 150
DOWN_BYTES_PER_S = 1_600_000 / 8
UP_BYTES_PER_S = 750_000 / 8

# The table: 5 players, rounds as they come (a few heads, now and then a whole row).
PLAYERS = ["Alice", "Bruno", "Chloé", "Damien", "Élodie"]
ROUNDS = [
    [3, 1, 5, 0, 2],
    [1, 8, 0, 2, 1],
    [0, 2, 3, 1, 5],
    [2, 0, 1, 7, 1],
    [5, 1, 0, 2, 3],
    [1, 3, 2, 0, 1],
    [2, 2, 1, 5, 0],
    [0, 1, 8, 1, 2],
    [3, 0, 2, 1, 1],
    [1, 5, 0, 3, 2],
]
PAUSE_S, TYPING_S = 40, 10  # from one round's answer to the next tap; the last 10 s typing
QUICK_PAUSE_S, QUICK_TYPING_S = 3, 1
PAINT_SAMPLES = 7

TARGET_TAP_RATIO = 1.15
TARGET_PAINT_MS = 2 * RTT_MS + 100
TARGET_FIRST_VISIT = 25 * 1024
TARGET_REPEAT_VISIT = 6 * 1024


# --- the real server -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(target: str, env: dict[str, str], log: Path) -> Iterator[int]:
    """Run gunicorn as `make run` does (gunicorn.conf.py, same workers) and yield its port."""
    port = free_port()
    command = [
        str(BIN / "gunicorn"),
        "--config",
        str(ROOT / "gunicorn.conf.py"),
        "--workers",
        WORKERS,
        "--bind",
        f"{HOST}:{port}",
        "--access-logfile",
        "-",
        "--no-control-socket",
        target,
    ]
    with open(log, "ab") as output:
        server = subprocess.Popen(
            command,
            env=env,
            cwd=ROOT,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: master and workers stop together
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"gunicorn stopped at start; see {log}")
            try:
                urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=2).read()
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


# --- a table's phone, in process --------------------------------------------------------------


class _TokenFinder(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.token: str | None = None

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "input" and found.get("name") == "csrf_token":
            self.token = found.get("value")


class Table:
    """A phone at a table, in process: the app's own forms through Flask's test client.

    Only what a browser sends is used (form fields, cookies), so the same code sets up and
    measures any version of the app.
    """

    def __init__(self, app) -> None:
        self.app = app
        self.client = app.test_client()
        finder = _TokenFinder()
        finder.feed(self.client.get("/parties/nouvelle").get_data(as_text=True))
        assert finder.token, "no CSRF token on the new-game form"
        self.csrf = finder.token

    def cookie(self, name: str) -> str:
        return self.client.get_cookie(name).value

    def cookie_header(self) -> str:
        """The Cookie header this phone sends: its device and its session."""
        names = (self.app.config["DEVICE_COOKIE_NAME"], "session")
        return "; ".join(f"{name}={self.cookie(name)}" for name in names)

    def start_game(self, names: Sequence[str] = PLAYERS) -> str:
        form = {"csrf_token": self.csrf, "end": "above"}
        form.update({f"players-{seat}": name for seat, name in enumerate(names)})
        answer = self.client.post("/parties", data=form)
        assert answer.status_code == 303, answer.status_code
        return answer.headers["Location"].rstrip("/").rsplit("/", 1)[-1]

    def play_round(self, public_id: str, number: int, heads: Sequence[int], *, htmx: bool):
        form = {"csrf_token": self.csrf, "number": str(number)}
        form.update({f"heads-{seat}": str(value) for seat, value in enumerate(heads)})
        headers = {"Accept-Encoding": "br", **({"HX-Request": "true"} if htmx else {})}
        answer = self.client.post(f"/parties/{public_id}/manches", data=form, headers=headers)
        assert answer.status_code == (200 if htmx else 303), answer.status_code
        return answer

    def open_game(self, public_id: str):
        page = self.client.get(f"/parties/{public_id}", headers={"Accept-Encoding": "br"})
        assert page.status_code == 200, page.status_code
        return page


def light_round(number: int, players: int = len(PLAYERS)) -> list[int]:
    """One head for one player, in turn: a game can take sixty such rounds and go on."""
    return [1 if seat == number % players else 0 for seat in range(players)]


# --- what DevTools sees of each request ------------------------------------------------------


@dataclass
class Request:
    id: str
    method: str = ""
    url: str = ""
    kind: str = ""
    line_up: int = 0  # the request line
    headers_up: int = 0  # the headers really sent (cookies, Host, Connection included)
    body_up: int = 0
    down: int = 0  # all bytes received for it, headers included (0 when served from the cache)
    headers_down: int = 0
    connection: int | None = None
    new_connection: bool = False
    cached: bool = False
    # The server's time, from the request sent to the answer's headers, on the real socket:
    # DevTools' latency is a minimum that such time hides in, where a real network adds to it.
    server_ms: float = 0.0

    @property
    def up(self) -> int:
        return self.line_up + self.headers_up + self.body_up

    @property
    def path(self) -> str:
        return "/" + self.url.split("/", 3)[-1]


class Network:
    """The requests of one page as Chromium's DevTools report them: connection, bytes."""

    def __init__(self, page) -> None:
        self.cdp = page.context.new_cdp_session(page)
        self.requests: dict[str, Request] = {}
        self.order: list[str] = []
        self.connections: set[int] = set()
        for event, handler in (
            ("Network.requestWillBeSent", self._sent),
            ("Network.requestWillBeSentExtraInfo", self._sent_headers),
            ("Network.responseReceived", self._response),
            ("Network.responseReceivedExtraInfo", self._response_headers),
            ("Network.requestServedFromCache", self._from_cache),
            ("Network.loadingFinished", self._finished),
        ):
            self.cdp.on(event, handler)
        self.cdp.send("Network.enable")

    def throttle(self, on: bool = True) -> None:
        self.cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": RTT_MS if on else 0,
                "downloadThroughput": DOWN_BYTES_PER_S if on else -1,
                "uploadThroughput": UP_BYTES_PER_S if on else -1,
            },
        )

    def mark(self) -> int:
        return len(self.order)

    def since(self, mark: int) -> list[Request]:
        return [self.requests[key] for key in self.order[mark:]]

    def _request(self, key: str) -> Request:
        if key not in self.requests:  # an extra-info event may come first
            self.requests[key] = Request(key)
            self.order.append(key)
        return self.requests[key]

    def _sent(self, event) -> None:
        request = self._request(event["requestId"])
        sent = event["request"]
        request.method, request.url, request.kind = (
            sent["method"],
            sent["url"],
            event.get("type", ""),
        )
        request.line_up = len(f"{request.method} {request.path} HTTP/1.1\r\n".encode())
        request.body_up = len(sent.get("postData", "").encode())
        if not request.headers_up:  # those really sent come in the extra info, maybe first
            request.headers_up = _header_bytes(sent.get("headers", {}))

    def _sent_headers(self, event) -> None:
        self._request(event["requestId"]).headers_up = _header_bytes(event.get("headers", {}))

    def _response(self, event) -> None:
        request = self._request(event["requestId"])
        response = event["response"]
        if response.get("fromDiskCache") or response.get("fromPrefetchCache") or request.cached:
            request.cached = True
            return
        request.connection = response.get("connectionId")
        # A new connection: not reused, or one this page never used before (a socket Chromium
        # opened ahead of the request reports "reused" although its handshake was just made).
        request.new_connection = (
            not response.get("connectionReused") or request.connection not in self.connections
        )
        self.connections.add(request.connection)
        timing = response.get("timing") or {}
        headers = timing.get("receiveHeadersStart", timing.get("receiveHeadersEnd", 0))
        request.server_ms = max(0.0, headers - timing.get("sendEnd", headers))

    def _response_headers(self, event) -> None:
        self._request(event["requestId"]).headers_down = len(event.get("headersText", ""))

    def _from_cache(self, event) -> None:
        self._request(event["requestId"]).cached = True

    def _finished(self, event) -> None:
        self._request(event["requestId"]).down = int(event.get("encodedDataLength", 0))


def _header_bytes(headers: dict[str, str]) -> int:
    return sum(len(f"{name}: {value}\r\n".encode()) for name, value in headers.items()) + 2


# --- in Chromium, on a phone's network --------------------------------------------------------

# Installed before each tap: the time of the tap, and of the first frame showing the totals.
WATCH_TAP = """(expected) => {
  const tap = (window.benchTap = {});
  const shown = () => {
    const board = [...document.querySelectorAll("table")].find(
      (table) => table.caption && table.caption.textContent.trim() === "Scores");
    if (!board) return false;
    const rows = [...board.tBodies[0].rows];
    return rows.length === expected.length && rows.every((row, seat) =>
      [...row.cells].slice(1).some((cell) => cell.textContent.trim() === String(expected[seat])));
  };
  document.addEventListener("click", (event) => { tap.start = event.timeStamp; },
                            { capture: true, once: true });
  const observer = new MutationObserver(() => {
    if (tap.start === undefined || !shown()) return;
    observer.disconnect();
    tap.shown = performance.now();
    requestAnimationFrame(() => { tap.frame = performance.now(); });
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
}"""


@dataclass
class Tap:
    number: int
    ms: float  # from the tap to the frame that shows the new totals, as Chromium times it
    requests: list[Request] = field(default_factory=list)
    before: list[Request] = field(default_factory=list)  # sent while the round was typed

    @property
    def up(self) -> int:
        return sum(r.up for r in self.requests)

    @property
    def down(self) -> int:
        return sum(r.down for r in self.requests)

    @property
    def new_connections(self) -> int:
        return sum(r.new_connection for r in self.requests)

    @property
    def hidden_server_ms(self) -> float:
        """The server's time that DevTools' latency hid (a real network adds it to the trip)."""
        return sum(min(r.server_ms, RTT_MS) for r in self.requests)

    @property
    def felt_ms(self) -> float:
        return self.ms + RTT_MS * self.new_connections + self.hidden_server_ms


def play_rounds(
    page, network: Network | None, rounds: int, pause: float, typing: float
) -> list[Tap]:
    """Play `rounds` rounds on the open game page as a table does; time each tap."""
    taps, totals = [], [0] * len(PLAYERS)
    for number, heads in enumerate(ROUNDS[:rounds], start=1):
        page.wait_for_timeout((pause - typing) * 1000)
        typed_from = network.mark() if network else 0
        for name, value in zip(PLAYERS, heads, strict=True):
            entry = page.get_by_role("spinbutton", name=name, exact=True)
            entry.click()
            entry.press_sequentially(str(value))
            page.wait_for_timeout(typing * 1000 / len(PLAYERS))
        totals = [total + value for total, value in zip(totals, heads, strict=True)]
        page.evaluate(WATCH_TAP, totals)
        tapped_from = network.mark() if network else 0
        page.get_by_role("button", name="Valider la manche").click()
        page.wait_for_function("() => window.benchTap.frame !== undefined", timeout=30_000)
        seen = page.evaluate("window.benchTap")
        page.wait_for_timeout(100)  # the last DevTools events of the answer
        tap = Tap(number, seen["frame"] - seen["start"])
        if network:
            tap.before = network.since(typed_from)[: tapped_from - typed_from]
            tap.requests = network.since(tapped_from)
        taps.append(tap)
        traffic = (
            f", {len(tap.requests)} request(s), {tap.new_connections} new connection(s), "
            f"server {tap.hidden_server_ms:.0f} ms, {tap.up} B up, {tap.down} B down"
        )
        print(f"  round {number}: {tap.ms:6.0f} ms{traffic if network else ''}", flush=True)
    return taps


@contextmanager
def chromium() -> Iterator:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def _chromium_version() -> str:
    found = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout
    return next(iter(re.findall(r"\d+\.[\d.]+", found)), "")


def phone(browser, base_url: str, device_cookie: dict | None, *, service_worker: bool = True):
    """A new browser context (empty cache) holding the table's device cookie, in French."""
    context = browser.new_context(
        base_url=base_url,
        locale="fr-FR",
        viewport={"width": 390, "height": 844},
        service_workers="allow" if service_worker else "block",
    )
    if device_cookie:
        context.add_cookies([{**device_cookie, "url": base_url}])
    return context


@dataclass
class TapFigures:
    throttled: list[Tap]
    unthrottled: list[Tap]

    @property
    def unthrottled_ms(self) -> float:
        # The median: on a shared machine one unthrottled tap can take 20 ms or 130 ms.
        return statistics.median(tap.ms for tap in self.unthrottled)

    def limit(self, tap: Tap) -> float:
        """One round trip, the bytes over the bandwidth, and the same tap without throttling."""
        return (
            RTT_MS
            + 1000 * tap.up / UP_BYTES_PER_S
            + 1000 * tap.down / DOWN_BYTES_PER_S
            + self.unthrottled_ms
        )

    def rows(self) -> list[dict]:
        rows = []
        for tap, fast in zip(self.throttled, self.unthrottled, strict=True):
            limit = self.limit(tap)
            felt = tap.felt_ms
            rows.append(
                {
                    "tap": tap,
                    "unthrottled": fast.ms,
                    "limit": limit,
                    "felt": felt,
                    "ratio": felt / limit,
                }
            )
        return rows


def tap_to_totals(browser, base_url: str, cookie: dict, table: Table, args) -> TapFigures:
    """Tap → new totals on a 5-player game, throttled, and the same rounds unthrottled."""
    print("Tap → totals, unthrottled (the same rounds, quickly, for the limit):", flush=True)
    with phone(browser, base_url, cookie) as context:
        page = context.new_page()
        page.goto(f"/parties/{table.start_game()}")
        unthrottled = play_rounds(page, None, args.rounds, QUICK_PAUSE_S, QUICK_TYPING_S)
    print(
        f"Tap → totals on {RTT_MS} ms RTT, {DOWN_BYTES_PER_S * 8 / 1e6:g} Mbps down, "
        f"{UP_BYTES_PER_S * 8 / 1e3:g} kbps up, a round every {args.pause:g} s "
        f"(the last {args.typing:g} s typing):",
        flush=True,
    )
    with phone(browser, base_url, cookie) as context:
        page = context.new_page()
        network = Network(page)
        network.throttle()
        page.goto(f"/parties/{table.start_game()}")
        throttled = play_rounds(page, network, args.rounds, args.pause, args.typing)
    return TapFigures(throttled, unthrottled)


@dataclass
class Visit:
    first_paint: float  # first contentful paint, from the navigation's start
    paint_connections: int  # new connections of the document and its stylesheets
    first: list[Request]
    repeat: list[Request]
    unthrottled_paint: float  # the same in a context without throttling: the machine's own part
    server_ms: float = 0.0  # the document's server time, hidden in DevTools' latency

    @property
    def felt_paint(self) -> float:
        return self.first_paint + RTT_MS * self.paint_connections + min(self.server_ms, RTT_MS)


def first_visits(browser, base_url: str, cookie: dict, path: str, samples: int) -> list[Visit]:
    """Open a game page from an empty cache (a new context each time), then once more; and
    from an empty cache without throttling, for what rendering alone costs on this machine.

    Without the service worker: its downloads (itself, its copy of every static file) and the
    pages it fetches happen outside the page, where the page's DevTools events do not see them;
    the bytes counted are then those of tests/performance/test_bytes.py (a first visit paints
    before the worker is even installed)."""
    visits = []
    for _ in range(samples):
        with phone(browser, base_url, cookie, service_worker=False) as context:
            page = context.new_page()
            Network(page).throttle(False)
            page.goto(path, wait_until="load")
            unthrottled = page.evaluate(FIRST_PAINT)
        with phone(browser, base_url, cookie, service_worker=False) as context:
            page = context.new_page()
            network = Network(page)
            network.throttle()
            page.goto(path, wait_until="load")
            page.wait_for_timeout(300)  # late requests (the icon) and the last DevTools events
            paint = page.evaluate(FIRST_PAINT)
            first = network.since(0)
            again = network.mark()
            page.goto(path, wait_until="load")
            page.wait_for_timeout(300)
            blocking = [r for r in first if r.kind in ("Document", "Stylesheet")]
            visits.append(
                Visit(
                    paint,
                    sum(r.new_connection for r in blocking),
                    first,
                    network.since(again),
                    unthrottled,
                    sum(r.server_ms for r in blocking if r.kind == "Document"),
                )
            )
    return visits


# The least a page can be: what this browser and machine spend on any page, the game's aside.
FLOOR_PAGE = (
    '<!doctype html><html lang="fr"><meta charset="utf-8"><meta name="viewport" '
    'content="width=device-width, initial-scale=1"><title>6 qui prend</title>'
    "<p>Compteur « 6 qui prend ! »</p>"
).encode()


@contextmanager
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

    server = http.server.ThreadingHTTPServer((HOST, 0), OneLine)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://{HOST}:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def floor_paints(browser, samples: int) -> list[float]:
    """First contentful paints of FLOOR_PAGE, throttled, each from a new context."""
    paints = []
    with floor_server() as url:
        for _ in range(samples):
            with phone(browser, url, None, service_worker=False) as context:
                page = context.new_page()
                Network(page).throttle()
                page.goto(url, wait_until="load")
                paints.append(page.evaluate(FIRST_PAINT))
    return paints


FIRST_PAINT = """new Promise((resolve) => {
  const found = () => performance.getEntriesByName("first-contentful-paint")[0];
  if (found()) return resolve(found().startTime);
  new PerformanceObserver(() => found() && resolve(found().startTime)).observe({ type: "paint" });
})"""


# --- the server's work, in process and under wrk -----------------------------------------------


def server_cpu(app, games: int, passes: int) -> dict[str, float]:
    """CPU per round played and per game page, in process (the best of a few passes, in ms)."""
    rounds = len(ROUNDS)
    best: dict[str, float] = {}
    for _ in range(passes):
        table = Table(app)
        spent = {"round": 0.0, "round_plain": 0.0, "page": 0.0}
        with_js, without_js = (
            [table.start_game() for _ in range(games)],
            [table.start_game() for _ in range(games)],
        )
        for number, heads in enumerate(ROUNDS, start=1):
            for public_id in with_js:
                started = time.process_time()
                table.play_round(public_id, number, heads, htmx=True)
                spent["round"] += time.process_time() - started
            for public_id in without_js:
                started = time.process_time()
                table.play_round(public_id, number, heads, htmx=False)
                table.open_game(public_id)
                spent["round_plain"] += time.process_time() - started
                started = time.process_time()
                table.open_game(public_id)
                spent["page"] += time.process_time() - started
        for name, seconds in spent.items():
            per_request = 1000 * seconds / (games * rounds)
            best[name] = min(best.get(name, per_request), per_request)
    return best


RPS_GAMES = 1000  # fresh games per slice of submissions: more than 5 s of them at ~150/s

SUBMIT_LUA = r"""
-- Each request records the next round of one of the games, in turn: never two at once on a game.
local ids, next_round, turn = {}, {}, 0
function init(args)
  for id in io.lines(args[1]) do table.insert(ids, id); table.insert(next_round, 1) end
  cookie, csrf = args[2], args[3]
end
function request()
  turn = turn % #ids + 1
  local number = next_round[turn]
  next_round[turn] = number + 1
  local body = "csrf_token=" .. csrf .. "&number=" .. number
  for seat = 0, 4 do body = body .. "&heads-" .. seat .. "=" .. (seat == number % 5 and 1 or 0) end
  return wrk.format("POST", "/parties/" .. ids[turn] .. "/manches", {
    ["Cookie"] = cookie, ["HX-Request"] = "true", ["Accept-Encoding"] = "gzip, deflate, br",
    ["Content-Type"] = "application/x-www-form-urlencoded"}, body)
end
"""

GET_LUA = r"""
function init(args) cookie = args[1] end
function request()
  return wrk.format("GET", nil, {["Cookie"] = cookie, ["Accept-Encoding"] = "gzip, deflate, br"}, nil)
end
"""


@dataclass
class Rate:
    per_second: float
    requests: int
    errors: int
    p50: str


def wrk(url: str, script: Path, script_args: Sequence[str], seconds: int, log: Path) -> Rate:
    command = [
        "wrk", "--threads", "1", "--connections", "8", "--duration", f"{seconds}s",
        "--latency", "--timeout", "10s", "--script", str(script), url, "--", *script_args,
    ]  # fmt: skip
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    with open(log, "a") as out:
        out.write(f"$ {' '.join(command)}\n{output}\n")
    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    count = re.search(r"(\d+) requests in", output)
    if not rate or not count:
        raise RuntimeError(f"wrk gave no rate:\n{output}")
    errors = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", output))
    sockets = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output
    )
    errors += sum(int(n) for n in sockets.groups()) if sockets else 0
    p50 = re.search(r"^\s+50%\s+(\S+)\s*$", output, re.MULTILINE)
    return Rate(float(rate.group(1)), int(count.group(1)), errors, p50.group(1) if p50 else "?")


def requests_per_second(
    port: int, table: Table, database: Path, folder: Path, seconds: int, slices: int
) -> dict[str, Rate]:
    """wrk, 8 connections on loopback: a game page, and rounds recorded on fresh games."""
    cookie = table.cookie_header()
    page = table.start_game()
    for number, heads in enumerate(ROUNDS[:6], start=1):
        table.play_round(page, number, heads, htmx=True)
    (folder / "get.lua").write_text(GET_LUA)
    (folder / "submit.lua").write_text(SUBMIT_LUA)
    log = folder / "wrk.log"
    measured: dict[str, list[Rate]] = {"page": [], "round": []}
    for _ in range(slices):
        measured["page"].append(
            wrk(f"http://{HOST}:{port}/parties/{page}", folder / "get.lua", [cookie], seconds, log)
        )
        games = folder / "games.txt"
        # More games than a slice records rounds, so a game's next round never leaves while
        # its last is still in flight (a slow write answered after 2 s would make it a 409).
        games.write_text("".join(f"{table.start_game()}\n" for _ in range(RPS_GAMES)))
        before = _rounds_stored(database)
        rate = wrk(
            f"http://{HOST}:{port}/",
            folder / "submit.lua",
            [str(games), cookie, table.csrf],
            seconds,
            log,
        )
        recorded = _rounds_stored(database) - before
        # wrk does not count the rounds still in flight when it stops (recorded, not answered),
        # and after a connection error it may send a request again (answered "already recorded",
        # recorded once): a few either way, never more than the connections.
        if abs(recorded - rate.requests) > 8:
            print(f"  !! {rate.requests} rounds answered, {recorded} recorded", flush=True)
            rate.errors += abs(rate.requests - recorded)
        measured["round"].append(rate)
    return {
        name: sorted(rates, key=lambda r: r.per_second)[len(rates) // 2]
        for name, rates in measured.items()
    }


def warm_up(port: int, table: Table, cookie: str, requests: int = 12) -> None:
    """Have every worker compile its templates before anything is timed (each request comes on
    a new connection, so both workers get some): a running server has long done so."""
    game = table.start_game()
    for number in range(1, requests + 1):
        form = {"csrf_token": table.csrf, "number": str(number)}
        form.update({f"heads-{seat}": str(h) for seat, h in enumerate(light_round(number))})
        for request in (
            urllib.request.Request(
                f"http://{HOST}:{port}/parties/{game}/manches",
                data=urllib.parse.urlencode(form).encode(),
                headers={"Cookie": cookie, "HX-Request": "true"},
            ),
            urllib.request.Request(
                f"http://{HOST}:{port}/parties/{game}", headers={"Cookie": cookie}
            ),
        ):
            with urllib.request.urlopen(request, timeout=10) as answer:
                answer.read()


def _rounds_stored(database: Path) -> int:
    with closing(sqlite3.connect(database)) as connection:
        return connection.execute("SELECT count(*) FROM round").fetchone()[0]


# --- the report -------------------------------------------------------------------------------


def _kb(size: float) -> str:
    return f"{size / 1024:.1f} KB"


def _met(ok: bool) -> str:
    return "yes" if ok else "**no**"


def report_taps(figures: TapFigures, args) -> list[str]:
    rows = figures.rows()
    ratio = statistics.median(row["ratio"] for row in rows)
    felt = statistics.median(row["felt"] for row in rows)
    limit = statistics.median(row["limit"] for row in rows)
    lines = [
        f"**Tap on « Valider la manche » → new totals**, a 5-player game, {len(rows)} rounds "
        f"{args.pause:g} s apart (the last {args.typing:g} s typing): median felt "
        f"**{felt:.0f} ms** against a limit of {limit:.0f} ms (150 ms + the bytes + "
        f"{figures.unthrottled_ms:.0f} ms, the median tap unthrottled), **{ratio:.2f} ×** "
        f"(target ≤ {TARGET_TAP_RATIO}: {_met(ratio <= TARGET_TAP_RATIO)}).",
        "",
        "| round | Chromium: tap → totals | requests | new connections | server time "
        "| bytes up / down | this tap unthrottled | limit | felt on a real network | felt / limit |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        tap = row["tap"]
        requests = ", ".join(f"{r.method} {r.path.split('?')[0]}" for r in tap.requests) or "none"
        if tap.before:
            typed = ", ".join(
                f"{r.method} {r.path}{' on a new connection' if r.new_connection else ''}"
                for r in tap.before
            )
            requests += f" (while typing: {typed})"
        lines.append(
            f"| {tap.number} | {tap.ms:.0f} ms | {requests} | {tap.new_connections} "
            f"| {tap.hidden_server_ms:.0f} ms | {tap.up} / {tap.down} B | {row['unthrottled']:.0f} ms | {row['limit']:.0f} ms "
            f"| {row['felt']:.0f} ms | {row['ratio']:.2f} |"
        )
    return lines


def report_visits(visits: list[Visit], floor: list[float]) -> list[str]:
    paint = statistics.median(v.first_paint for v in visits)
    felt = statistics.median(v.felt_paint for v in visits)
    connections = statistics.median(v.paint_connections for v in visits)
    first = statistics.median(sum(r.down for r in v.first) for v in visits)
    repeat = statistics.median(sum(r.down for r in v.repeat) for v in visits)
    first_bodies = statistics.median(sum(r.down - r.headers_down for r in v.first) for v in visits)
    repeat_bodies = statistics.median(
        sum(r.down - r.headers_down for r in v.repeat) for v in visits
    )
    sample = visits[len(visits) // 2]
    unthrottled = statistics.median(v.unthrottled_paint for v in visits)
    return [
        f"**First contentful paint of a game page from an empty cache** (median of "
        f"{len(visits)} new contexts): {paint:.0f} ms in Chromium, + {connections:.0f} × "
        f"{RTT_MS} ms for the new connections of the document and its stylesheets, + the "
        f"document's server time ({statistics.median(v.server_ms for v in visits):.0f} ms) = felt "
        f"**{felt:.0f} ms** (target ≤ {TARGET_PAINT_MS} ms: {_met(felt <= TARGET_PAINT_MS)}). "
        f"Samples: {', '.join(f'{v.first_paint:.0f}' for v in visits)} ms. The same page "
        f"unthrottled paints in {unthrottled:.0f} ms (samples "
        f"{', '.join(f'{v.unthrottled_paint:.0f}' for v in visits)} ms): what this machine's "
        f"Chromium spends, the network aside. A page of one line (`FLOOR_PAGE`, from Python's "
        f"own server, throttled the same, new contexts) paints at "
        f"{statistics.median(floor):.0f} ms (samples {', '.join(f'{p:.0f}' for p in floor)} ms), "
        f"felt {statistics.median(floor) + RTT_MS:.0f} ms with its connection: the least any "
        f"page costs with this browser on this machine; the game page costs "
        f"{paint - statistics.median(floor):.0f} ms more (its bytes, parsing, style and layout).",
        "",
        f"**Bytes of a visit to that page** (over plain HTTP, so gzip: Chromium asks for brotli "
        f"only over HTTPS; the service worker's own downloads not counted): first visit {_kb(first)} with headers, {_kb(first_bodies)} of bodies "
        f"(target ≤ {_kb(TARGET_FIRST_VISIT)}: {_met(first_bodies <= TARGET_FIRST_VISIT)}); "
        f"repeat visit {_kb(repeat)} with headers, {_kb(repeat_bodies)} of bodies (target ≤ "
        f"{_kb(TARGET_REPEAT_VISIT)}: {_met(repeat_bodies <= TARGET_REPEAT_VISIT)}). "
        f"First visit: "
        + ", ".join(f"{r.path.split('/')[-1] or r.path} {r.down} B" for r in sample.first)
        + "; repeat: "
        + ", ".join(
            f"{r.path.split('/')[-1] or r.path} {'cached' if r.cached else f'{r.down} B'}"
            for r in sample.repeat
        )
        + ".",
    ]


def report_server(cpu: dict[str, float] | None, rates: dict[str, Rate] | None, args) -> list[str]:
    lines = [
        "**The server, for scale** (no target): CPU in process (Flask's test client, "
        "`time.process_time`, the best of "
        f"{args.cpu_passes} passes of {args.cpu_games} games × {len(ROUNDS)} rounds); "
        f"requests per second of the real server (wrk, 8 connections, median of "
        f"{args.rps_slices} slices of {args.rps_seconds} s).",
        "",
        "| request | CPU in process | real server: req/s | p50 |",
        "|---|---:|---:|---:|",
    ]
    labels = {
        "round": "a round played: the submission (htmx), answered with the game's part",
        "round_plain": "a round played without JavaScript: the submission (303) and the page",
        "page": "a game page (5 players)",
    }
    for key, label in labels.items():
        spent = f"{cpu[key]:.1f} ms" if cpu else "–"
        rate = (rates or {}).get({"round": "round", "page": "page"}.get(key, ""))
        served = f"{rate.per_second:.0f}" if rate else "–"
        lines.append(f"| {label} | {spent} | {served} | {rate.p50 if rate else '–'} |")
    return lines


# --- the run ----------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"rounds {QUICK_PAUSE_S} s apart")
    parser.add_argument("--rounds", type=int, default=6, help="rounds timed (median)")
    parser.add_argument("--pause", type=float, help=f"seconds between rounds ({PAUSE_S})")
    parser.add_argument("--typing", type=float, help=f"of which typing ({TYPING_S})")
    parser.add_argument("--only", default="tap,paint,cpu,rps", help="what to measure")
    parser.add_argument("--cpu-games", type=int, default=10)
    parser.add_argument("--cpu-passes", type=int, default=3)
    parser.add_argument("--rps-seconds", type=int, default=5)
    parser.add_argument("--rps-slices", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--no-doc", action="store_true", help="do not write docs/performance.md")
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser.parse_args(argv)
    pause, typing = (QUICK_PAUSE_S, QUICK_TYPING_S) if args.quick else (PAUSE_S, TYPING_S)
    args.pause = pause if args.pause is None else args.pause
    args.typing = min(args.pause, typing if args.typing is None else args.typing)
    only = set(args.only.split(","))
    if "rps" in only and not shutil.which("wrk"):
        sys.exit("wrk is not installed (Debian: apt-get install -y wrk); `make bench` installs it.")
    load_before = " ".join(f"{value:.1f}" for value in os.getloadavg())

    folder = Path(tempfile.mkdtemp(prefix="sqp-bench-"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "FLASK_DATABASE_URL")}
    env.update(FLASK_RATELIMIT_ENABLED="false", PYTHONDONTWRITEBYTECODE="1")
    os.environ.pop("DATABASE_URL", None)
    os.environ["FLASK_RATELIMIT_ENABLED"] = "false"
    sys.path.insert(0, str(ROOT))
    log = folder / "gunicorn.log"
    print(f"Working in {folder} (server log: {log})", flush=True)
    started = time.monotonic()
    taps = visits = cpu = rates = None
    floor: list[float] = []
    try:
        app, app_env = make_app(folder / "instance", env)
        database = Path(app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///"))
        table = Table(app)
        name = app.config["DEVICE_COOKIE_NAME"]
        device_cookie = {"name": name, "value": table.cookie(name)}
        if "cpu" in only:
            print("Server CPU per request, in process…", flush=True)
            cpu = server_cpu(app, args.cpu_games, args.cpu_passes)
            print("  " + ", ".join(f"{key} {ms:.1f} ms" for key, ms in cpu.items()), flush=True)
        with gunicorn("app:create_app()", app_env, log) as port:
            base_url = f"http://{HOST}:{port}"
            warm_up(port, table, table.cookie_header())
            if only & {"tap", "paint"}:
                with chromium() as browser:
                    if "tap" in only:
                        taps = tap_to_totals(browser, base_url, device_cookie, table, args)
                    if "paint" in only:
                        game = table.start_game()
                        for number, heads in enumerate(ROUNDS[: args.rounds], start=1):
                            table.play_round(game, number, heads, htmx=True)
                        print("First paint and bytes of a game page, empty cache…", flush=True)
                        visits = first_visits(
                            browser, base_url, device_cookie, f"/parties/{game}", PAINT_SAMPLES
                        )
                        floor = floor_paints(browser, PAINT_SAMPLES)
            if "rps" in only:
                print("Requests per second of the real server (wrk)…", flush=True)
                rates = requests_per_second(
                    port, table, database, folder, args.rps_seconds, args.rps_slices
                )

        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        make_args = f' ARGS="{" ".join(argv)}"' if argv else ""
        lines = [
            f"Measured {time.strftime('%Y-%m-%d %H:%M %Z')} by `make bench"
            f"{make_args}` on commit {commit} in "
            f"{(time.monotonic() - started) / 60:.1f} min: gunicorn as `make run` (gunicorn.conf.py, "
            f"--workers {WORKERS}), SQLite, rate limits off; Chromium {_chromium_version()} "
            f"throttled by DevTools to {RTT_MS} ms RTT, 1.6 Mbps down, 750 kbps up. "
            f"This machine has {os.cpu_count()} cores shared with other work (load average before "
            f"the run: {load_before}): figures move from run to run.",
            "",
        ]
        if taps:
            lines += report_taps(taps, args) + [""]
        if visits:
            lines += report_visits(visits, floor) + [""]
        if cpu or rates:
            lines += report_server(cpu, rates, args)
        text = "\n".join(lines)
        print("\n" + text, flush=True)
        if not args.no_doc:
            write_doc("bench", text)
            print(f"\nWritten to {DOC.relative_to(ROOT)}")
        errors = sum(rate.errors for rate in (rates or {}).values())
        if errors:
            print(f"{errors} failed requests under wrk: those figures are not valid")
            return 1
        return 0
    finally:
        if args.keep:
            print(f"Kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
