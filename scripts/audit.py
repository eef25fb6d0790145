"""`make audit`: Lighthouse (mobile) and the W3C Nu HTML checker on the pages a table sees.

Starts gunicorn as `make run` does (scripts/lib/servers.py) on a fresh database in a temporary folder, with one device
holding a game in progress and a finished game, then audits the home page, the game in progress
and the finished game. Prints the scores and the audits that fall short, and writes them into
docs/performance.md. Exits non-zero when a target is missed (performance, accessibility and
best practices 100, SEO at least 90, no HTML error), so CI or a person sees it.

    CHROME_PATH=/usr/bin/chromium .venv/bin/python scripts/audit.py
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
TARGETS = {"performance": 100, "accessibility": 100, "best-practices": 100, "seo": 90}

sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]


def seed_pages(app, token: str) -> dict[str, str]:
    """Store a finished game and, newer, a game in progress for one device; return the pages."""
    from datetime import timedelta

    from seed import Shape, device_hash, seed_games, writing

    from app.platform.extensions import db
    from app.storage.models import utcnow

    owner = device_hash(app, token)
    now = utcnow()
    with app.app_context(), writing(db.engine) as connection:
        finished = seed_games(
            connection, [owner], Shape(4, 6, finished=True), newest=now - timedelta(hours=2)
        )[0]
        running = seed_games(connection, [owner], Shape(5, 8, finished=False), newest=now)[0]
    return {
        "home": "/",
        "game in progress (5 players, 8 rounds)": f"/parties/{running}",
        "finished game (4 players, 6 rounds)": f"/parties/{finished}",
    }


def app_of(server):
    """The app in this process, on the server's database and secret key: to seed its games."""
    for name in ("DATABASE_URL", "INSTANCE_PATH", "SECRET_KEY"):
        os.environ[name] = server.env[name]
    from app import create_app

    return create_app()


def lighthouse(url: str, cookie: str, output: Path, cpu_slowdown: float | None = None) -> dict:
    """Run Lighthouse's mobile profile on a page; return its report (lhr)."""
    from browser import CHROMIUM, CHROMIUM_FLAGS

    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    command = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={output}",
        f"--only-categories={','.join(CATEGORIES)}",
        "--form-factor=mobile",
        f"--chrome-flags={' '.join(['--headless=new', *CHROMIUM_FLAGS])}",
        f"--extra-headers={json.dumps({'Cookie': cookie})}",
    ]
    if cpu_slowdown is not None:
        command.append(f"--throttling.cpuSlowdownMultiplier={cpu_slowdown:g}")
    # Headless Chromium sometimes loses the trace of a load (Lighthouse's NO_NAVSTART or
    # NO_FCP runtime errors, nothing to do with the page): such a run is tried once more.
    for attempt in (1, 2):
        finished = subprocess.run(command, env=env, timeout=300, cwd=ROOT)
        if finished.returncode == 0:
            break
        if attempt == 2:
            raise subprocess.CalledProcessError(finished.returncode, command)
        print("  Lighthouse failed (see above): once more", flush=True)
    return json.loads(output.read_text())


def calibrated_slowdown(benchmark_index: float) -> float:
    """The CPU slowdown that makes this machine a mid-tier phone, after Lighthouse's own table.

    Lighthouse's default 4× assumes a high-end desktop (benchmarkIndex 1500-2000) and aims at a
    mid-tier phone (125-800); on a slower host 4× emulates a far slower phone than intended
    (throttling.md of the Lighthouse repository’s docs: "Calibrating the CPU slowdown").
    """
    return round(max(1.0, min(4.0, benchmark_index / 450)), 1)


def shortfalls(report: dict) -> list[str]:
    """The audits of the categories measured that did not pass, with what they found."""
    audits = report["audits"]
    found = []
    for category in CATEGORIES:
        for ref in report["categories"][category]["auditRefs"]:
            audit = audits[ref["id"]]
            if audit.get("score") is None or audit["scoreDisplayMode"] in (
                "informative",
                "manual",
                "notApplicable",
            ):
                continue
            if audit["score"] < 1 and (ref.get("weight", 0) > 0 or category != "performance"):
                value = f" — {audit['displayValue']}" if audit.get("displayValue") else ""
                found.append(f"{category}: {audit['title']} (score {audit['score']:.2f}){value}")
    return found


def nu_check(pages: dict[str, Path]) -> dict[str, list[str]]:
    """Run the W3C Nu HTML checker on saved pages; return its messages per page, the same
    message once with the lines where it occurs."""
    result = subprocess.run(
        ["java", "-jar", str(VNU), "--format", "json", *[str(path) for path in pages.values()]],
        capture_output=True,
        text=True,
        timeout=300,
    )
    messages = json.loads(result.stderr or '{"messages": []}')["messages"]
    by_page: dict[str, list[str]] = {}
    for name, path in pages.items():
        lines: dict[str, list[str]] = {}
        for message in messages:
            if message.get("url", "").endswith(path.name):
                text = f"{message['type']}: {' '.join(message['message'].split())}"
                lines.setdefault(text, []).append(str(message.get("lastLine", "?")))
        by_page[name] = [
            f"{text} ({'line' if len(at) == 1 else f'{len(at)} times, lines'} {', '.join(at)})"
            for text, at in lines.items()
        ]
    return by_page


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-doc", action="store_true", help="do not write docs/performance.md")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args(argv)
    for tool, hint in ((LIGHTHOUSE, "npm ci"), (VNU, "npm ci")):
        if not tool.exists():
            sys.exit(f"{tool.relative_to(ROOT)} is missing: run `{hint}` (make audit does).")
    if not shutil.which("java"):
        sys.exit(
            "java is needed by the Nu HTML checker (Debian: apt-get install default-jre-headless)"
        )

    from bench import WORKERS, write_doc
    from seed import new_device

    from scripts.lib.servers import running

    folder = Path(tempfile.mkdtemp(prefix="sqp-audit-"))
    try:
        with running(f"sqlite:///{folder / 'audit.sqlite'}", folder, workers=WORKERS) as server:
            app = app_of(server)
            token = new_device(app)[0]
            cookie = f"{app.config['DEVICE_COOKIE_NAME']}={token}"
            pages = seed_pages(app, token)
            scores: dict[str, dict[str, int]] = {}
            problems: dict[str, list[str]] = {}
            saved: dict[str, Path] = {}
            client = app.test_client()
            client.set_cookie(app.config["DEVICE_COOKIE_NAME"], token)
            print("Lighthouse: home, default 4× CPU slowdown, to measure this machine", flush=True)
            default = lighthouse(f"{server.url}/", cookie, folder / "lighthouse-default.json")
            benchmark = default["environment"]["benchmarkIndex"]
            slowdown = calibrated_slowdown(benchmark)
            calibration = {
                "benchmark": benchmark,
                "slowdown": slowdown,
                "default_home": {
                    c: round(100 * (default["categories"][c]["score"] or 0)) for c in CATEGORIES
                },
            }
            print(f"  benchmarkIndex {benchmark:.0f}: CPU slowdown {slowdown:g}×", flush=True)
            for index, (name, path) in enumerate(pages.items()):
                saved[name] = folder / f"page-{index}.html"
                saved[name].write_bytes(client.get(path).data)
                print(f"Lighthouse: {name} ({path})", flush=True)
                report = lighthouse(
                    f"{server.url}{path}",
                    cookie,
                    folder / f"lighthouse-{index}.json",
                    slowdown,
                )
                if report.get("runtimeError"):
                    raise RuntimeError(
                        f"Lighthouse could not audit {path}: {report['runtimeError']}"
                    )
                scores[name] = {
                    c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES
                }
                problems[name] = shortfalls(report)
        print("Nu HTML checker…", flush=True)
        html_messages = nu_check(saved)
        text = render(scores, problems, html_messages, calibration)
        print("\n" + text)
        if not args.no_doc:
            write_doc("audit", text)
        missed = [
            f"{name}: {category} {score} < {TARGETS[category]}"
            for name, by_category in scores.items()
            for category, score in by_category.items()
            if score < TARGETS[category]
        ] + [
            f"{name}: {m}"
            for name, ms in html_messages.items()
            for m in ms
            if m.startswith("error")
        ]
        if missed:
            print("\nTargets missed:\n  " + "\n  ".join(missed))
            return 1
        return 0
    finally:
        if args.keep:
            print(f"Kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def render(scores, problems, html_messages, calibration) -> str:
    default = calibration["default_home"]
    lines = [
        f"Audited {time.strftime('%Y-%m-%d %H:%M')} by `make audit`: Lighthouse "
        f"{_lighthouse_version()} (mobile profile: Moto G power screen, simulated Slow 4G, headless "
        "Chromium) and the W3C Nu HTML checker (vnu-jar), on gunicorn as `make run`.",
        f"This machine's Lighthouse benchmarkIndex was {calibration['benchmark']:.0f} (load average "
        f"{' '.join(f'{v:.1f}' for v in os.getloadavg())}), so the CPU slowdown was calibrated to "
        f"{calibration['slowdown']:g}× (Lighthouse's default 4× assumes a desktop of 1500-2000). "
        f"With the default 4×, home scored performance {default['performance']}, accessibility "
        f"{default['accessibility']}, best practices {default['best-practices']}, SEO {default['seo']}.",
        "",
        "| page | performance | accessibility | best practices | SEO | Nu HTML checker |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for name, by_category in scores.items():
        errors = sum(_times(m) for m in html_messages.get(name, []) if m.startswith("error"))
        warnings = sum(_times(m) for m in html_messages.get(name, [])) - errors
        html = "no error" if not errors else f"**{errors} error(s)**"
        html += f", {warnings} warning(s)" if warnings else ""
        lines.append(
            f"| {name} | " + " | ".join(str(by_category[c]) for c in CATEGORIES) + f" | {html} |"
        )
    lines += [
        "",
        "Targets: performance, accessibility and best practices 100, SEO ≥ 90, no HTML error.",
    ]
    for name in scores:
        found = problems.get(name, []) + html_messages.get(name, [])
        if found:
            lines += ["", f"What falls short on « {name} »:", ""]
            lines += [f"- {item}" for item in found]
    return "\n".join(lines)


def _times(message: str) -> int:
    found = re.search(r"\((\d+) times, lines", message)
    return int(found.group(1)) if found else 1


def _lighthouse_version() -> str:
    package = ROOT / "node_modules" / "lighthouse" / "package.json"
    return json.loads(package.read_text())["version"] if package.exists() else "?"


if __name__ == "__main__":
    sys.exit(main())
