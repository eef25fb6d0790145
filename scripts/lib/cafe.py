"""A busy café on plain sockets, for the reliability tests and scripts/cafe.py: requests that stop
half-way (the head's last header never ends) and many phones holding a follow page's live stream,
all read by one thread (a selector), so that hundreds cost the client nothing.

Everything talks to 127.0.0.1 (or another loopback address, for « another client »), and every
wait has a deadline.
"""

from __future__ import annotations

import contextlib
import http.client
import re
import selectors
import socket
import time
from collections.abc import Iterator, Sequence

HALF_SENT = b"GET / HTTP/1.1\r\nHost: x\r\nX-a: "  # and nothing more, ever


@contextlib.contextmanager
def half_sent(port: int, count: int, *, settle: float = 1.0) -> Iterator[list[socket.socket]]:
    """Hold `count` connections that each sent half a request head, for a `with` block."""
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(HALF_SENT)
            sockets.append(sock)
        time.sleep(settle)  # the server accepts them and starts reading their heads
        yield sockets
    finally:
        for sock in sockets:
            sock.close()


def still_open(sockets: Sequence[socket.socket]) -> int:
    """How many of these connections the server has not closed (no end of file to read)."""
    selector = selectors.DefaultSelector()
    for sock in sockets:
        selector.register(sock, selectors.EVENT_READ)
    closed = {key.fileobj for key, _ in selector.select(timeout=0)}
    selector.close()
    return len(sockets) - len(closed)


class Stream:
    """One phone's live stream: its socket and everything it has read so far."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.data = b""
        self.closed = False

    @property
    def status(self) -> int | None:
        found = re.match(rb"HTTP/1\.[01] (\d{3}) ", self.data)
        return int(found.group(1)) if found else None

    @property
    def opened(self) -> bool:
        """The stream answered 200 and sent its first line (« retry: »)."""
        return self.status == 200 and b"retry: " in self.data

    def events(self, name: str) -> int:
        return self.data.count(f"event: {name}\n".encode())


class Followers:
    """Phones holding live streams, all read by one selector."""

    def __init__(self, port: int):
        self.port = port
        self.streams: list[Stream] = []
        self.selector = selectors.DefaultSelector()

    def open(self, path: str, *, source: str = "127.0.0.1") -> Stream:
        """Open one stream from that client address (any of 127.0.0.0/8 on Linux)."""
        sock = socket.create_connection(
            ("127.0.0.1", self.port), timeout=10, source_address=(source, 0)
        )
        sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        sock.setblocking(False)
        stream = Stream(sock)
        self.streams.append(stream)
        self.selector.register(sock, selectors.EVENT_READ, stream)
        return stream

    def read(self, seconds: float) -> None:
        """Read whatever arrives on every stream for that long."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            for key, _ in self.selector.select(timeout=left):
                self._receive(key.data)

    def read_until(self, done, *, within: float) -> bool:
        """Read until done() holds (True) or the deadline passes (False)."""
        deadline = time.monotonic() + within
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            for key, _ in self.selector.select(timeout=min(left, 0.2)):
                self._receive(key.data)
        return True

    def _receive(self, stream: Stream) -> None:
        try:
            chunk = stream.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            chunk = b""
        if chunk:
            stream.data += chunk
        else:
            self._forget(stream)

    def close(self, stream: Stream) -> None:
        """The phone leaves: its connection closes."""
        self._forget(stream)

    def _forget(self, stream: Stream) -> None:
        if not stream.closed:
            stream.closed = True
            self.selector.unregister(stream.sock)
            stream.sock.close()

    def close_all(self) -> None:
        for stream in self.streams:
            self._forget(stream)
        self.selector.close()


def get(port: int, path: str, *, source: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    """One GET from that client address, on its own connection: status, headers, body."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=10, source_address=(source, 0)
    )
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()
