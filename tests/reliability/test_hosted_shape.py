"""The hosted shape of compose.yaml, natively: Debian's nginx with deploy/nginx.conf in front of
two app servers on one PostgreSQL and one Redis (no container registry here, so no Docker).

Through nginx only, on a port that is not 80: rounds, a follower's live stream whichever server
holds it, the follow and scorer addresses (and their QR codes) with the port, rate limits counted
once for both servers.
"""

from __future__ import annotations

import contextlib
import html
import importlib.util
import re
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from app.web.filters import qr_code
from scripts.lib.cafe import Followers, get
from scripts.lib.phones import Database, Phone, csrf_token, round_form
from scripts.lib.servers import ROOT, free_port, migrate, server_env

from .conftest import empty_database, running_server
from .test_busy_cafe import stream_path

pytestmark = pytest.mark.slow

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
REDIS = shutil.which("redis-server")


@contextlib.contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        [REDIS, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        import redis

        connection = redis.Redis(port=port, socket_connect_timeout=1)
        for _ in range(200):
            try:
                connection.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextlib.contextmanager
def nginx(folder: Path, upstreams: list[int]) -> Iterator[int]:
    """Serve deploy/nginx.conf (its replicas' name replaced by these ports) on a port of its own,
    not 80: the addresses the app writes must keep it."""
    port = free_port()
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    servers = "".join(f"    server 127.0.0.1:{upstream};\n" for upstream in upstreams)
    site = site.replace("    server web:8000;\n", servers)
    site = site.replace("listen 80;", f"listen 127.0.0.1:{port};")
    assert f"127.0.0.1:{upstreams[0]}" in site and f"127.0.0.1:{port}" in site
    temp = folder / "temp"
    temp.mkdir()
    (folder / "nginx.conf").write_text(
        f"""worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 4096; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
{site}
}}
"""
    )
    command = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"]
    if subprocess.run(["id", "-u"], capture_output=True, text=True).stdout.strip() == "0":
        command[-1] = "daemon off; user root;"  # its workers read the temporary folder here
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while True:
            assert process.poll() is None, (folder / "error.log").read_text(errors="replace")
            try:
                if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2).ok:
                    break
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, "nginx did not answer"
            time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


@dataclass
class Hosted:
    port: int  # nginx's
    logs: list[Path]  # the two servers' access logs
    database: Database


@pytest.fixture(scope="module")
def hosted(tmp_path_factory) -> Iterator[Hosted]:
    if not Path(NGINX).exists() or REDIS is None or importlib.util.find_spec("redis") is None:
        pytest.skip("the hosted shape needs nginx, redis-server and the redis client (.ci/run)")
    folder = tmp_path_factory.mktemp("hosted")
    with empty_database("postgresql", folder) as database, redis_server(folder) as redis_url:
        migrate(server_env(database.url, folder / "instance"), folder / "migrate.log")
        settings = {
            "PROXY_FIX": "1",  # behind nginx, as compose.yaml sets it
            "RATELIMIT_STORAGE_URI": redis_url,
            "FLASK_RATELIMIT_ENABLED": "true",
            "FLASK_RATELIMIT_GUESSES": "20 per minute",
            "FLASK_RATELIMIT_WRITES": "10000 per minute",
            "FLASK_RATELIMIT_WRITES_PER_ADDRESS": "10000 per minute",
        }
        (folder / "a").mkdir()
        (folder / "b").mkdir()
        with (
            running_server(database, folder / "a", workers=2, **settings) as a,
            running_server(database, folder / "b", workers=2, **settings) as b,
            nginx(folder, [a.port, b.port]) as port,
        ):
            logs = [folder / "a" / "gunicorn.log", folder / "b" / "gunicorn.log"]
            yield Hosted(port, logs, database)


def served_by_both(logs: list[Path], needle: str) -> bool:
    return all(needle in log.read_text(errors="replace") for log in logs)


def test_rounds_and_live_follow_go_through_nginx_to_either_server(hosted):
    port, logs = hosted.port, hosted.logs
    url = f"http://127.0.0.1:{port}"
    phone = Phone(url, timeout=10)
    game = phone.start_game(["Ana", "Bob", "Chloé"])
    path = stream_path(phone, game)
    followers = Followers(port)
    try:
        streams = [followers.open(path) for _ in range(6)]  # nginx spreads them on both servers
        assert followers.read_until(lambda: all(s.opened for s in streams), within=15)
        token, number = phone.open_game(game)
        answers = []
        for n in range(4):  # nginx sends the rounds to both servers in turn
            answer = phone.post(
                f"/parties/{game}/manches", round_form(token, number + n, (n, 1, 2)), htmx=True
            )
            answers.append(answer.status_code)
        # The game's version now: every stream must get there (two quick rounds may arrive as
        # one event, the later).
        page = requests.get(url + path.split("/direct")[0], timeout=10).text
        version = re.search(
            r"data-follow-etag=\"W/&#34;v(\d+)-|data-follow-etag=\"W/&quot;v(\d+)-", page
        )
        assert version, page[:2000]
        # An event is named « game.version » (app/web/follow.py).
        last = re.compile(rb"id: \d+\.%s\n" % (version.group(1) or version.group(2)).encode())
        arrived = followers.read_until(lambda: all(last.search(s.data) for s in streams), within=10)
    finally:
        followers.close_all()
    assert answers == [200] * 4
    assert arrived, [s.events("partie") for s in streams]
    assert served_by_both(logs, f"/parties/{game}/manches")
    # A stream's access-log line is written when it ends: once its phone has left.
    deadline = time.monotonic() + 10
    while not served_by_both(logs, "/direct") and time.monotonic() < deadline:
        time.sleep(0.2)
    assert served_by_both(logs, "/direct")  # the followers were on both servers


def test_rate_limits_count_once_for_both_servers_behind_nginx(hosted):
    port, logs = hosted.port, hosted.logs
    statuses = [get(port, f"/suivre/{secrets.token_urlsafe(16)}")[0] for _ in range(30)]
    assert statuses == [404] * 20 + [429] * 10  # one count in Redis, whichever server answered
    assert served_by_both(logs, "/suivre/")


def address_and_qr(page: str, path: str) -> tuple[str, str]:
    """Return the address an address page shows under `path` (/suivre/, /rejoindre/), and the
    address its QR code was drawn from."""
    shown = re.search(rf'<a href="(https?://[^"]+{path}[A-Za-z0-9_-]+)"', page)
    assert shown, page[:3000]
    address = html.unescape(shown.group(1))
    drawn = re.search(r'<figure class="follow-qr">\s*<img src="([^"]+)"', page)
    assert drawn, page[:3000]
    return address, html.unescape(drawn.group(1))


def test_follow_and_scorer_addresses_keep_nginx_port_and_open_the_game(hosted):
    origin = f"http://127.0.0.1:{hosted.port}"
    owner = Phone(origin, timeout=10)
    game = owner.start_game(["Ana", "Bob"])
    page = owner.get(f"/parties/{game}/partage")
    assert owner.post(f"/parties/{game}/partage", {"csrf_token": csrf_token(page.text)}).ok
    follow, follow_qr = address_and_qr(owner.get(f"/parties/{game}/partage").text, "/suivre/")
    page = owner.get(f"/parties/{game}/inviter")
    assert owner.post(f"/parties/{game}/inviter", {"csrf_token": csrf_token(page.text)}).ok
    scorer, scorer_qr = address_and_qr(owner.get(f"/parties/{game}/inviter").text, "/rejoindre/")

    # What a phone does with the address it scanned: open it as it is, port and all.
    follower = requests.get(follow, timeout=10)
    guest = requests.Session()
    invitation = guest.get(scorer, timeout=10)
    joined = guest.post(
        scorer, {"csrf_token": csrf_token(invitation.text)}, timeout=10, allow_redirects=False
    )
    seated = guest.get(origin + joined.headers["Location"], timeout=10, allow_redirects=False)

    assert follow.startswith(origin + "/suivre/")
    assert scorer.startswith(origin + "/rejoindre/")
    assert follow_qr == qr_code(follow)
    assert scorer_qr == qr_code(scorer)
    assert follower.status_code == 200 and "Ana" in follower.text
    assert joined.status_code == 303
    assert joined.headers["Location"].endswith(f"/parties/{game}")
    assert seated.status_code == 200 and "Bob" in seated.text
