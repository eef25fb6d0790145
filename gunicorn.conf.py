"""gunicorn's settings, the same for `make run`, the container, `make bench` and the tests that
start the real server (gunicorn reads ./gunicorn.conf.py when started from the project's root;
the workers' count, the address and the logs come from each command line)."""

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
