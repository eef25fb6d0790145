"""gunicorn's settings, the same for `make run`, the container, `make bench` and the tests that
start the real server (gunicorn reads ./gunicorn.conf.py when started from the project's root;
the workers' count, the address and the logs come from each command line)."""

import os

# Threaded workers keep a phone's connection open between two rounds, where sync workers close
# it after every answer: then each tap on « Valider la manche » paid one more round trip for a
# new connection (≈ 150 ms on a phone's network, docs/performance.md). An idle connection waits
# in the worker's poller, not in a thread, so many tables can each keep one. A worker runs
# `threads` requests at once, each in its own application context, hence its own database
# session (Flask-SQLAlchemy) and its own pooled connection.
worker_class = "gthread"
# A follow page's live stream (Server-Sent Events) holds a thread for as long as it is open
# (it waits on a condition and touches the database only when its game changes): a sync worker
# would be taken whole by one follower. FLASK_FOLLOW_MAX_STREAMS (24) keeps the other threads
# for the scoring phones; `make bench-follow` raises both for its 2,000 followers.
threads = int(os.environ.get("GUNICORN_THREADS", "32"))
worker_connections = threads + 1000
# Seconds an idle connection is kept: longer than a table's pause between two taps (the bench
# plays rounds 40 s apart). Chromium itself keeps an idle connection up to 5 minutes.
keepalive = 75
# A stopping worker waits this long for its requests to end. Follow streams never end by
# themselves (their phones reconnect to another worker); a round is done in milliseconds.
graceful_timeout = 10
