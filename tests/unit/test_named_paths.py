"""Comments and docs say what is: every project path they name exists (issue 31, point 8)."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("app", "static", "templates", "scripts", "tests", "docs", "migrations", "deploy")
# A path named in prose: starts with a top folder, not inside a longer path or a URL.
NAMED = re.compile(rf"(?<![\w/.:-])((?:{'|'.join(FOLDERS)})/[\w./-]*\w)")
TEXTS = (".py", ".md", ".html", ".js", ".css", ".toml", ".cfg", ".sh", ".yaml")
SKIPPED = {".venv", "node_modules", ".git", "instance", ".pytest_cache", ".hypothesis"}


def _texts() -> list[Path]:
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders if name not in SKIPPED]
        found += [Path(folder, name) for name in files if name.endswith(TEXTS)]
    return found


def test_every_path_named_in_comments_and_docs_exists() -> None:
    missing = sorted(
        f"{path.relative_to(ROOT)}: {named}"
        for path in _texts()
        for named in set(NAMED.findall(path.read_text(encoding="utf-8", errors="replace")))
        if not (ROOT / named.rstrip(".")).exists()
    )
    assert missing == []
