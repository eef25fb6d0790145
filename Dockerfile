# The counter in production: a slim image, a non-root user, migrations then gunicorn.
#
#   docker build -t six-qui-prend .
#   docker run -p 8000:8000 -e SECRET_KEY=... -v sqp-data:/data six-qui-prend
#
# With PostgreSQL: compose.yaml (docs/reliability.md). Settings are environment variables:
# DATABASE_URL (default: SQLite in /data), SECRET_KEY (required), PORT (8000),
# WEB_CONCURRENCY (gunicorn workers, 2; gevent, see gunicorn.conf.py), PROXY_FIX=1 behind a reverse proxy,
# TRUSTED_HOSTS, RATELIMIT_STORAGE_URI (default: a file in /data the workers share; redis://… for replicas).
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/srv/six-qui-prend/.venv/bin:$PATH

# FriBiDi: Pillow's wheel brings HarfBuzz and libraqm but loads FriBiDi from the system; without it
# the result image's Arabic and Hebrew names are drawn unjoined and left to right, Thai marks
# misplaced (app/web/result_type.py). 170 kB.
RUN apt-get update \
    && apt-get install --yes --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 --user-group counter \
    && mkdir /data \
    && chown counter:counter /data

WORKDIR /srv/six-qui-prend
COPY . .
# The app's dependencies at uv.lock's exact versions (not the test group), by uv (pinned as in the
# Makefile, removed once done) into .venv, first on PATH. The app is installed editable, so that
# app/ keeps finding templates/, static/ and migrations/ beside it (ROOT in app/__init__.py); a
# plain `pip install .` copies app/ alone into site-packages, without them.
RUN pip install uv==0.13.9 \
    && uv sync --frozen --no-default-groups --no-cache --link-mode=copy --compile-bytecode \
    && pip uninstall --yes uv \
    && pybabel compile -d app/translations \
    && python -m compileall -q app \
    && chmod 0755 docker-entrypoint.sh

USER counter
ENV PRODUCTION=1 \
    INSTANCE_PATH=/data \
    PORT=8000 \
    WEB_CONCURRENCY=2
VOLUME ["/data"]
EXPOSE 8000

# /healthz answers 200 only when the database answers. Python, since the slim image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=4)"]

ENTRYPOINT ["./docker-entrypoint.sh"]
