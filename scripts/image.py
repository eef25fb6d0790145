"""`make image`: build the Dockerfile with the container tool this machine has, then run the image
and check what a host relies on: it serves a game through its form, /healthz answers, it runs as
uid 10001, it keeps its HEALTHCHECK, and it stops cleanly on SIGTERM.

The tool: $CONTAINER when set (a command with its options, e.g. "podman --runtime runc"), else the
first that answers of Docker (its daemon running), Podman, Buildah (which builds but cannot run:
the image is then built and not checked). None: says so and exits 2, nothing built.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.lib.phones import Phone, round_form
from scripts.lib.servers import ROOT, free_port, wait_until_healthy

IMAGE = os.environ.get("IMAGE", "six-qui-prend")
NAME = "six-qui-prend-check"
NO_TOOL = 2


def container_tool() -> list[str] | None:
    """Return the command of the first container tool that works here, or None."""
    if os.environ.get("CONTAINER"):
        return shlex.split(os.environ["CONTAINER"])
    for tool in ("docker", "podman", "buildah"):
        if shutil.which(tool) and _answers([tool, "info"]):
            return [tool]
    return None


def _answers(command: list[str]) -> bool:
    try:
        return subprocess.run(command, capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def build(tool: list[str]) -> None:
    name = Path(tool[0]).name
    # Docker's format, not OCI: OCI images have no HEALTHCHECK (Docker builds in its own).
    if name == "buildah":
        command = [*tool, "bud", "--format", "docker", "-t", IMAGE, str(ROOT)]
    elif name == "podman":
        command = [*tool, "build", "--format", "docker", "-t", IMAGE, str(ROOT)]
    else:
        command = [*tool, "build", "-t", IMAGE, str(ROOT)]
    print("$", shlex.join(command), flush=True)
    subprocess.run(command, check=True)


def check(tool: list[str]) -> list[str]:
    """Run the image and return what is wrong with it (nothing: an empty list)."""
    problems = []
    image = json.loads(_output([*tool, "image", "inspect", IMAGE]))[0]
    config = image["Config"]
    if config.get("User") != "10001:10001":
        problems.append(f"USER is {config.get('User')!r}, not 10001:10001 (a number)")
    # Docker keeps it in the image's config, Podman beside it.
    healthcheck = config.get("Healthcheck") or image.get("Healthcheck")
    if not healthcheck:
        problems.append("no HEALTHCHECK in the image (built in the OCI format?)")

    port = free_port()
    subprocess.run([*tool, "rm", "-f", NAME], capture_output=True)
    # The host's network: nothing to set up, and the port is free on loopback. The limits
    # are lowered for machines where the runtime may not raise them (no CAP_SYS_RESOURCE).
    run = [*tool, "run", "-d", "--name", NAME, "--network", "host"]
    run += ["--ulimit", "nofile=16384:16384", "--ulimit", "nproc=16384:16384"]
    run += ["-e", "SECRET_KEY=image-check", "-e", "HOST=127.0.0.1", "-e", f"PORT={port}", IMAGE]
    print("$", shlex.join(run), flush=True)
    subprocess.run(run, check=True, stdout=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_healthy(url, within=90)
        phone = Phone(url)
        game = phone.start_game(["Ana", "Bob"])
        token, number = phone.open_game(game)
        answer = phone.post(f"/parties/{game}/manches", round_form(token, number, [3, 1]))
        if answer.status_code != 303:
            problems.append(f"a round was answered {answer.status_code}, not 303")
        uid = _output([*tool, "exec", NAME, "id", "-u"]).strip()
        if uid != "10001":
            problems.append(f"the server runs as uid {uid}, not 10001")
        if healthcheck:
            # Its command as the runtime runs it, inside the container (["CMD", program, …]).
            health = [*tool, "exec", NAME, *healthcheck["Test"][1:]]
            if not _answers(health):
                problems.append("the HEALTHCHECK's command fails on a healthy server")
        # SIGTERM, as `docker stop` sends: gunicorn ends its workers and exits 0.
        started = time.monotonic()
        subprocess.run([*tool, "stop", "-t", "20", NAME], check=True, stdout=subprocess.DEVNULL)
        code = _output([*tool, "inspect", "--format", "{{.State.ExitCode}}", NAME]).strip()
        if code != "0":
            problems.append(
                f"stopped by SIGTERM, it exited {code} after {time.monotonic() - started:.0f} s"
            )
    finally:
        logs = subprocess.run([*tool, "logs", NAME], capture_output=True, text=True)
        subprocess.run([*tool, "rm", "-f", NAME], capture_output=True)
    if problems:
        print(logs.stdout[-4000:], logs.stderr[-4000:], sep="\n")
    return problems


def _output(command: list[str]) -> str:
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def main() -> int:
    tool = container_tool()
    if tool is None:
        print(
            "make image: no container tool here (Docker with its daemon running, Podman or "
            "Buildah): nothing was built. Install one (Debian: apt install podman), or set "
            'CONTAINER="podman --runtime runc …" when it needs options.'
        )
        return NO_TOOL
    try:
        build(tool)
    except subprocess.CalledProcessError:
        print(f"make image: the build failed ({shlex.join(tool)}, above).")
        return 1
    if Path(tool[0]).name == "buildah":
        print(f"make image: {IMAGE} built by Buildah, which cannot run it: not checked.")
        return 0
    problems = check(tool)
    for problem in problems:
        print("make image:", problem)
    if not problems:
        print(
            f"make image: {IMAGE} built and checked (a game and a round, uid 10001, HEALTHCHECK, SIGTERM)"
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
