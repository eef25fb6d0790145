"""gunicorn's settings, the same for `make run`, the container, `make bench` and the tests that
start the real server (gunicorn reads ./gunicorn.conf.py when started from the project's root;
the workers' count, the address and the logs come from each command line)."""

import contextlib
import gc
import io
import os
import socket

# gevent workers: each connection is a greenlet of its worker, not a thread. A follow page's live
# stream (Server-Sent Events, open for the whole evening) and a client that sends half a request
# and stops (a phone on a bad Wi-Fi, or someone on the café's network doing it on purpose) each
# hold a few kilobytes, while the worker goes on answering every other request: with threaded
# workers, 70 half-sent requests took every thread of `make run` and froze every table
# (docs/performance.md, « Slow clients »). psycopg 3 waits cooperatively once gevent has patched
# the standard library (gunicorn does it before loading the app); SQLite's calls do not yield,
# but each takes microseconds to a few milliseconds and no transaction waits on the network.
# Connections stay open between two rounds (keep-alive), so a tap pays no new connection.
worker_class = "gevent"
# Connections one worker holds at once: follow streams (FLASK_FOLLOW_MAX_STREAMS, 1,000 a worker),
# idle phones between two taps, slow clients. A connection over this waits in the listen queue.
worker_connections = 2000
# Seconds an idle connection is kept: longer than a table's pause between two taps (the bench
# plays rounds 40 s apart). Chromium itself keeps an idle connection up to 5 minutes. The gevent
# worker also gives each request's head this long to arrive whole: a half-sent one is then closed.
keepalive = 75
# A stopping worker waits this long for its requests to end. Follow streams never end by
# themselves (their phones reconnect to another worker); a round is done in milliseconds, and an
# idle kept-alive connection (a phone between two taps) would otherwise hold the stop this long.
graceful_timeout = 5

# Seconds a request's body has to arrive whole once its head has (a round is a few hundred bytes,
# the largest import 2 MB: on a slow phone, seconds). The gevent worker only times the head: a
# client announcing 60 kB and sending a byte every 10 s held its connection forever (2,000 of
# them made /healthz time out). Such a body is answered 408 and its connection closed.
body_timeout = float(os.environ.get("GUNICORN_BODY_TIMEOUT", "30"))
_LARGEST_BODY = 4 * 1024 * 1024  # past Flask's own caps (MAX_IMPORT_LENGTH): Flask answers 413


def post_worker_init(worker):
    """Read each request's body within body_timeout before the app sees it (gevent workers);
    then set the app's own objects aside from the garbage collector."""
    if "ggevent" in type(worker).__module__:  # other workers give no greenlet to time out
        worker.wsgi = _BodyDeadline(worker.wsgi, body_timeout)
    # Every object of the loaded app (modules, templates, translations) lives as long as the
    # worker: frozen, the collector no longer walks them at each full pass. A phone's statistics
    # of 3,000 games spent a third of their CPU in those passes (docs/reliability.md).
    gc.freeze()


class _BodyDeadline:
    """WSGI middleware: the body is read whole within the deadline, then handed on in memory."""

    def __init__(self, app, seconds):
        self.app = app
        self.seconds = seconds

    def __call__(self, environ, start_response):
        import gevent

        length = environ.get("CONTENT_LENGTH") or ""
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if not chunked and (not length.isdigit() or not 0 < int(length) <= _LARGEST_BODY):
            return self.app(environ, start_response)
        try:
            with gevent.Timeout(self.seconds):
                body = environ["wsgi.input"].read(_LARGEST_BODY + 1)
        except gevent.Timeout:
            said = "Envoi trop lent\u202f: la demande n’est pas arrivée à temps. Réessayez.\n"
            body = said.encode()
            start_response(
                "408 Request Timeout",
                [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))],
            )
            return _Closing(body, environ.get("gunicorn.socket"))
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        return self.app(environ, start_response)


class _Closing(list):
    """An answer after which its connection ends: gunicorn drops a `Connection: close` given by
    the app, and would wait for the rest of the body before reading the next request."""

    def __init__(self, body, sock):
        super().__init__([body])
        self.sock = sock

    def close(self):
        # Called once the answer is written: the next read of this connection finds its end.
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RD)
