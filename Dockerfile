# The counter in production: a slim image, a non-root user, migrations then gunicorn.
#
#   make image                       (builds it with Docker, Podman or Buildah, and checks it)
#   docker run -p 8000:8000 -e SECRET_KEY=... -v sqp-data:/data six-qui-prend
#
# How to host it, every setting, backups: docs/hosting.md. Build it in Docker's format (Docker
# does; `buildah bud --format docker`, `podman build --format docker`): the OCI format has no
# HEALTHCHECK and drops it.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/srv/six-qui-prend/.venv/bin:$PATH

# FriBiDi: Pillow's wheel brings HarfBuzz and libraqm but loads FriBiDi from the system; without it
# the result image's Arabic and Hebrew names are drawn unjoined and left to right, Thai marks
# misplaced (app/web/result/fonts.py). 170 kB. Not pinned (DL3008): the base image's Debian release
# fixes it, and a pinned version is withdrawn from the mirror at its next security update, which
# would break the build; the image takes the release's current one, as the base image's own do.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install --yes --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 --user-group counter \
    && mkdir /data \
    && chown 10001:10001 /data

WORKDIR /srv/six-qui-prend
# The dependencies first, from the lock alone: an edit of the app reuses this layer. At uv.lock's
# exact versions, `--locked` as in the Makefile (a lock that no longer matches pyproject.toml
# fails the build); the app's dependencies and the redis extra (rate limits shared by replicas),
# not the test group; by uv (pinned as in the Makefile, removed once done) into .venv, first on
# PATH. The app itself is not installed: it runs from here, as `make run` runs it (gunicorn and
# flask import app/ from the working directory, which holds templates/, static/, migrations/).
COPY pyproject.toml uv.lock ./
RUN pip install uv==0.13.9 \
    && uv sync --locked --no-default-groups --extra redis --no-install-project \
        --no-cache --link-mode=copy --compile-bytecode \
    && pip uninstall --yes uv

COPY . .
RUN pybabel compile -d app/translations \
    && python -m compileall -q app \
    && chmod 0755 docker-entrypoint.sh

# By number: platforms that require a non-root user (Kubernetes' runAsNonRoot) cannot check a name.
USER 10001:10001
ENV PRODUCTION=1 \
    INSTANCE_PATH=/data \
    PORT=8000 \
    WEB_CONCURRENCY=2
VOLUME ["/data"]
EXPOSE 8000

# /healthz answers 200 only when the database answers. Python, since the slim image has no curl;
# on the address gunicorn listens on (HOST, PORT: docker-entrypoint.sh), loopback for « all ».
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; host = os.environ.get('HOST') or '0.0.0.0'; host = '127.0.0.1' if host == '0.0.0.0' else host; urllib.request.urlopen('http://%s:%s/healthz' % (host, os.environ.get('PORT') or '8000'), timeout=4)"]

ENTRYPOINT ["./docker-entrypoint.sh"]
