#!/bin/sh
# Start the counter as the container does: apply the migrations, then become gunicorn (so that it
# gets the container's signals). Replicas started together take turns at the migrations, the
# later ones finding nothing to do (app/storage/migrating.py). HOST, PORT and WEB_CONCURRENCY
# come from the environment; the worker class (gevent), connections and keep-alive from
# gunicorn.conf.py, as for `make run`.
set -eu

flask --app app db upgrade

exec gunicorn \
    --config gunicorn.conf.py \
    --bind "${HOST:-0.0.0.0}:${PORT:-8000}" \
    --workers "${WEB_CONCURRENCY:-2}" \
    --access-logfile - \
    "app:create_app(migrations=False)"
