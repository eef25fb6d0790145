"""The real server as `make run` starts it: gunicorn with ./gunicorn.conf.py on a database
migrated by `flask db upgrade`, in its own process group, on 127.0.0.1. The one way to start it
for the tests that need one (tests/e2e, tests/reliability) and for the scripts (bench, follow
bench, load, audit), which put the project's root on sys.path and import this module.

Every wait has a deadline; a server stopped here is stopped whole (master and workers).
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent  # the virtualenv running tests or scripts has flask and gunicorn
SECRET_KEY = "tests-secret"  # the same key across restarts, so cookies stay valid


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def clean_env() -> dict[str, str]:
    """Return this process's environment without the settings of the app and of gunicorn."""
    settings = (
        "DATABASE_URL",
        "SECRET_KEY",
        "PRODUCTION",
        "PROXY_FIX",
        "RATELIMIT_STORAGE_URI",
        "INSTANCE_PATH",
        "HOST",
        "PORT",
        "WEB_CONCURRENCY",
    )
    return {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("FLASK_", "GUNICORN_")) and key not in settings
    }


def server_env(database_url: str, instance_path: Path, **extra: str) -> dict[str, str]:
    """Return the environment of a server on that database, rate limits off (load is the point)."""
    env = clean_env()
    env.update(
        DATABASE_URL=database_url,
        INSTANCE_PATH=str(instance_path),
        SECRET_KEY=SECRET_KEY,
        FLASK_RATELIMIT_ENABLED="false",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def migrate(env: Mapping[str, str], log: Path) -> None:
    """Apply the migrations with the same command as `make run` and the container."""
    with log.open("ab") as out:
        subprocess.run(
            [str(BIN / "flask"), "--app", "app", "db", "upgrade"],
            cwd=ROOT,
            env=dict(env),
            stdout=out,
            stderr=subprocess.STDOUT,
            check=True,
            timeout=60,
        )


class Server:
    """A server command run in its own process group, so that it can be killed whole."""

    def __init__(self, command: Sequence[str], env: Mapping[str, str], log: Path, port: int):
        self.command = list(command)
        self.env = dict(env)
        self.log = log
        self.port = port
        self.process: subprocess.Popen | None = None
        self.returncode: int | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def launch(self) -> subprocess.Popen:
        """Start the command without waiting for it to serve."""
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: master and workers die together
            )
        return self.process

    def start(self, *, ready_within: float = 60.0) -> None:
        """Start the command and wait until /healthz answers 200."""
        process = self.launch()
        wait_until_healthy(self.url, within=ready_within, process=process, log=self.log)

    def kill(self) -> None:
        """SIGKILL the master and every worker at once, as a power cut or an OOM kill would."""
        assert self.process is not None
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.returncode = self.process.wait(timeout=10)
        _wait_for_group_to_end(self.process.pid, within=10)
        self.process = None

    def stop(self, *, graceful: bool = False) -> None:
        """Stop at once (SIGQUIT: gunicorn's quick shutdown), or gracefully (SIGTERM: workers
        finish their requests, and wait graceful_timeout, 5 s, while a client keeps an idle
        connection open: each test's server stop took 5 s); else kill."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM if graceful else signal.SIGQUIT)
            self.returncode = self.process.wait(timeout=30)
            _wait_for_group_to_end(self.process.pid, within=10)
            self.process = None
        except (ProcessLookupError, subprocess.TimeoutExpired):
            self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def cpu_seconds(self) -> float:
        """CPU time (user + system) spent so far by the master and its living workers."""
        assert self.process is not None
        return sum(_cpu_seconds(pid) for pid in _living_members(self.process.pid))


class Gunicorn(Server):
    """The real server as `make run` starts it: gunicorn with ./gunicorn.conf.py, an access log."""

    def __init__(
        self,
        env: Mapping[str, str],
        log: Path,
        *,
        workers: int,
        port: int | None = None,
        access_log: bool = True,
        options: Sequence[str] = (),
    ):
        port = port or free_port()
        command = [
            str(BIN / "gunicorn"),
            "--config",
            str(ROOT / "gunicorn.conf.py"),
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            *(["--access-logfile", "-"] if access_log else []),
            *options,
        ]
        if _gunicorn_has_control_socket():
            command.append("--no-control-socket")  # servers of parallel tests must not share one
        super().__init__([*command, "app:create_app(migrations=False)"], env, log, port)


@contextlib.contextmanager
def running(
    database_url: str,
    folder: Path,
    *,
    workers: int,
    access_log: bool = True,
    options: Sequence[str] = (),
    **env: str,
) -> Iterator[Gunicorn]:
    """Migrate the database, serve it for a `with` block (its log in `folder`), then stop it.

    `env` adds to server_env's settings (rate limits off); `options` to gunicorn's command line.
    """
    environment = server_env(database_url, folder / "instance", **env)
    log = folder / "gunicorn.log"
    migrate(environment, log)
    server = Gunicorn(environment, log, workers=workers, access_log=access_log, options=options)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@functools.cache
def _gunicorn_has_control_socket() -> bool:
    result = subprocess.run(
        [str(BIN / "gunicorn"), "--help"], capture_output=True, text=True, timeout=30
    )
    return "--no-control-socket" in result.stdout


def _wait_for_group_to_end(pgid: int, *, within: float) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not _living_members(pgid):
            return
        time.sleep(0.01)
    raise AssertionError(
        f"processes {_living_members(pgid)} still alive {within}s after being stopped"
    )


def _cpu_seconds(pid: int) -> float:
    """utime + stime of a process (every thread), from /proc/<pid>/stat; 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _living_members(pgid: int) -> list[int]:
    """Return the processes of a group that still run (zombies waiting for their reaper do not)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        state, group = fields[0], int(fields[2])
        if group == pgid and state not in ("Z", "X"):
            members.append(int(stat.parent.name))
    return members


def wait_until_healthy(
    url: str, *, within: float, process: subprocess.Popen | None = None, log: Path | None = None
) -> None:
    """Poll /healthz until it answers 200, failing early if the server process died."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise AssertionError(f"server exited with {process.returncode}:\n{_tail(log)}")
        try:
            if requests.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.05)
    raise AssertionError(f"{url}/healthz did not answer 200 within {within}s:\n{_tail(log)}")


def _tail(log: Path | None) -> str:
    if log is None or not log.exists():
        return ""
    return log.read_text(errors="replace")[-4000:]
