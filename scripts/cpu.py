"""CPU time per request, in-process (Flask's test client, no server), on make bench's data.

    .venv/bin/python scripts/cpu.py [route ...] [--cold]

A quicker, steadier look than `make bench` at what a change costs or saves: the test client
adds its own work (cookies, environ) but no network, no gunicorn, no other process. Each route
is measured 5 times × 150 requests (submissions 3 × 80), keeping the best (the least disturbed
by the machine's other work). --cold renders every part of a page each time (no kept parts).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "routes",
        nargs="*",
        help="hello, game, game-htmx, home, history, submit-htmx, submit-303 (default: all)",
    )
    parser.add_argument("--cold", action="store_true", help="keep no rendered part of a page")
    args = parser.parse_args()
    if args.cold:
        os.environ["FLASK_GAME_PARTS_CACHED"] = "0"

    import bench
    from seed import new_device

    folder = Path(tempfile.mkdtemp(prefix="sqp-cpu-"))
    try:
        app, _ = bench.make_app(folder / "instance", dict(os.environ))
        token = new_device(app)[0]
        big = bench.seed_table(app, token)
        client = app.test_client()
        cookie = app.config["DEVICE_COOKIE_NAME"]
        client.set_cookie(cookie, token)
        finder = bench._TokenFinder()
        finder.feed(client.get(f"/parties/{big}").get_data(as_text=True))
        lines = folder / "submissions.txt"
        bench.seed_submissions(app, 1200, lines)
        submissions = iter(line.split(" ", 2) for line in lines.read_text().splitlines())

        def submit(htmx: bool):
            def send():
                device, path, body = next(submissions)
                client.set_cookie(cookie, device)
                headers = {"Accept-Encoding": "br", **({"HX-Request": "true"} if htmx else {})}
                response = client.post(
                    path,
                    data=f"csrf_token={finder.token}&{body}",
                    content_type="application/x-www-form-urlencoded",
                    headers=headers,
                )
                assert response.status_code in (200, 303), response.status_code

            return send

        def get(path: str, **headers: str):
            def send():
                client.set_cookie(cookie, token)
                response = client.get(path, headers={"Accept-Encoding": "br", **headers})
                assert response.status_code == 200, response.status_code

            return send

        hello = bench.hello_app().test_client()
        routes = {
            "hello": lambda: hello.get("/"),
            "game": get(f"/parties/{big}"),
            "game-htmx": get(f"/parties/{big}", **{"HX-Request": "true"}),
            "home": get("/"),
            "history": get("/historique"),
            "submit-htmx": submit(htmx=True),
            "submit-303": submit(htmx=False),
        }
        for name in args.routes or routes:
            send = routes[name]
            writes = name.startswith("submit")
            for _ in range(20 if writes else 50):
                send()
            best = min(
                _cpu_per_request(send, 80 if writes else 150) for _ in range(3 if writes else 5)
            )
            print(f"{name:12} {best * 1e3:6.2f} ms CPU per request", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _cpu_per_request(send, count: int) -> float:
    started = time.process_time()
    for _ in range(count):
        send()
    return (time.process_time() - started) / count


if __name__ == "__main__":
    main()
