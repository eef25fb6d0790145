"""Chromium as a phone on a slow network, for `make bench` (and its flags for `make audit`):
DevTools' throttling, and what DevTools sees of each request (bytes, connection, server time).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]  # fmt: skip
RTT_MS, DOWN_BPS, UP_BPS = 150, 1_600_000 / 8, 750_000 / 8  # a slow phone's network (bytes/s)


@dataclass
class Request:
    """One request as DevTools reports it: bytes both ways, headers included, and its socket."""

    method: str = ""
    path: str = ""
    kind: str = ""
    line_and_body: int = 0
    headers_up: int = 0  # those really sent (cookies, Host…) once the extra info came
    down: int = 0  # 0 when served from the cache
    headers_down: int = 0
    new_connection: bool = False
    cached: bool = False
    server_ms: float = 0.0  # request sent → answer's headers, hidden in DevTools' latency

    @property
    def up(self) -> int:
        return self.line_and_body + self.headers_up


class Network:
    """The requests of one page, from Chromium's DevTools events; throttles it on demand."""

    def __init__(self, page, *, throttled: bool = True, rtt: int = RTT_MS) -> None:
        self.requests: dict[str, Request] = {}
        self.connections: set[int] = set()
        cdp = page.context.new_cdp_session(page)
        for event, handler in (
            ("requestWillBeSent", self._sent),
            ("requestWillBeSentExtraInfo", self._sent_headers),
            ("responseReceived", self._response),
            ("responseReceivedExtraInfo", self._response_headers),
            ("requestServedFromCache", lambda e: setattr(self._of(e), "cached", True)),
            ("loadingFinished", lambda e: setattr(self._of(e), "down", e["encodedDataLength"])),
        ):
            cdp.on(f"Network.{event}", handler)
        cdp.send("Network.enable")
        slow = {"latency": rtt, "downloadThroughput": DOWN_BPS, "uploadThroughput": UP_BPS}
        fast = {"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        conditions = {"offline": False, **(slow if throttled else fast)}
        cdp.send("Network.emulateNetworkConditions", conditions)

    def mark(self) -> int:
        return len(self.requests)

    def since(self, mark: int, until: int | None = None) -> list[Request]:
        # Not a data: URL (an image of the stylesheet, drawn with the page): no network.
        return [r for r in list(self.requests.values())[mark:until] if r.kind != "data"]

    def _of(self, event) -> Request:
        return self.requests.setdefault(event["requestId"], Request())  # extra info may be first

    def _sent(self, event) -> None:
        request, sent = self._of(event), event["request"]
        request.method, request.kind = sent["method"], event.get("type", "")
        if sent["url"].startswith("data:"):
            request.kind = "data"
        request.path = "/" + sent["url"].split("/", 3)[-1]
        line = f"{request.method} {request.path} HTTP/1.1\r\n{sent.get('postData', '')}"
        request.line_and_body = len(line.encode())
        request.headers_up = request.headers_up or _header_bytes(sent["headers"])

    def _sent_headers(self, event) -> None:
        self._of(event).headers_up = _header_bytes(event["headers"])

    def _response(self, event) -> None:
        request, response = self._of(event), event["response"]
        if request.cached or response.get("fromDiskCache") or response.get("fromPrefetchCache"):
            request.cached = True
            return
        # New: not reused, or a socket this page never used (Chromium may open one ahead of the
        # request and report it "reused" although its handshake was just made).
        socket = response.get("connectionId")
        request.new_connection = not response.get("connectionReused") or (
            socket not in self.connections
        )
        self.connections.add(socket)
        timing = response.get("timing") or {}
        headers = timing.get("receiveHeadersStart", timing.get("receiveHeadersEnd", 0))
        request.server_ms = max(0.0, headers - timing.get("sendEnd", headers))

    def _response_headers(self, event) -> None:
        self._of(event).headers_down = len(event.get("headersText", ""))


def _header_bytes(headers: dict[str, str]) -> int:
    return sum(len(f"{name}: {value}\r\n".encode()) for name, value in headers.items()) + 2


# Installed before each tap: the time of the tap, of the first frame showing the totals (drawn
# at the tap, static/waiting.js), and of the first showing them confirmed (« envoi… » gone: no
# `.waiting` left in the sheet); with `refused`, of the first showing the server's refusal.
WATCH_TAP = """([expected, refused]) => {
  const tap = (window.benchTap = {});
  const sending = () => document.querySelector("#game .waiting");
  const shown = () => {
    const board = [...document.querySelectorAll("table")].find(
      (table) => table.caption && table.caption.textContent.trim() === "Scores");
    const rows = board ? [...board.tBodies[0].rows] : [];
    return rows.length === expected.length && rows.every((row, seat) =>
      [...row.cells].slice(1).some((cell) => cell.textContent.trim() === String(expected[seat])));
  };
  document.addEventListener("click", (event) => { tap.start = event.timeStamp; },
                            { capture: true, once: true });
  const frame = (name) => requestAnimationFrame(() => { tap[name] = performance.now(); });
  const observer = new MutationObserver(() => {
    if (tap.start === undefined) return;
    if (refused) {
      if (!document.querySelector("[role=alert]") || sending()) return;
      observer.disconnect();
      return frame("frame");
    }
    if (!shown()) return;
    if (!tap.seen) {
      tap.seen = true;
      frame("drawn");
    }
    if (sending()) return;
    observer.disconnect();
    frame("frame");
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
}"""

FIRST_PAINT = """new Promise((resolve) => {
  const found = () => performance.getEntriesByName("first-contentful-paint")[0];
  if (found()) return resolve(found().startTime);
  new PerformanceObserver(() => found() && resolve(found().startTime)).observe({ type: "paint" });
})"""


@dataclass
class Tap:
    ms: float  # from the click to the frame that shows the new totals confirmed, as Chromium times it
    drawn_ms: float = 0.0  # … to the first frame that shows them, drawn at the tap
    rtt: int = RTT_MS  # the network's round trip
    requests: list[Request] = field(default_factory=list)
    typing: list[Request] = field(default_factory=list)  # sent while the heads were typed

    def bytes(self, way: str) -> int:
        return sum(getattr(r, way) for r in self.requests)

    @property
    def new_connections(self) -> int:
        return sum(r.new_connection for r in self.requests)

    @property
    def felt_ms(self) -> float:
        """On a real network: + a round trip per new connection, + the server's hidden time."""
        hidden = sum(min(r.server_ms, self.rtt) for r in self.requests)
        return self.ms + self.rtt * self.new_connections + hidden

    def limit_ms(self, unthrottled_ms: float) -> float:
        """What no server could beat: a round trip, the bytes, the same tap unthrottled."""
        up, down = self.bytes("up") / UP_BPS, self.bytes("down") / DOWN_BPS
        return self.rtt + 1000 * (up + down) + unthrottled_ms


def new_context(browser, url: str, cookie: dict | None, *, service_worker: bool = True):
    """A new phone (empty cache) holding the table's device cookie, in French."""
    context = browser.new_context(
        base_url=url,
        locale="fr-FR",
        viewport={"width": 390, "height": 844},
        service_workers="allow" if service_worker else "block",
    )
    context.add_cookies([cookie] if cookie else [])
    return context


@dataclass
class Visit:
    paint: float  # first contentful paint, from the navigation's start
    connections: int  # new connections of the document and its stylesheets
    server_ms: float  # the document's, hidden in DevTools' latency
    first: list[Request]
    repeat: list[Request]
    unthrottled: float  # the same first paint without throttling: this machine's own part
    evicted: Visit | None = None  # the same phone after its browser evicted the cache

    @property
    def felt(self) -> float:
        return self.paint + RTT_MS * self.connections + min(self.server_ms, RTT_MS)
