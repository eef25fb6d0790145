"""Comments and docs say what is: every project path they name exists (issue 31, point 8)."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("app", "static", "templates", "scripts", "tests", "docs", "migrations", "deploy")
# A path named in prose: starts with a top folder, not inside a longer path or a URL. A path that
# goes on with « * » or « <…> » is a pattern (`docs/screenshots/result-image-*.png`, a version or
# a language code): some file must start with what comes before.
NAMED = re.compile(rf"(?<![\w/.:-])((?:{'|'.join(FOLDERS)})/[\w./-]*\w)([-.]?[*<])?")
TEXTS = (".py", ".md", ".html", ".js", ".css", ".toml", ".cfg", ".sh", ".yaml")
SKIPPED = {".venv", "node_modules", ".git", "instance", ".pytest_cache", ".hypothesis"}


def _texts() -> list[Path]:
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [name for name in subfolders if name not in SKIPPED]
        found += [Path(folder, name) for name in files if name.endswith(TEXTS)]
    return found


def _exists(named: str, pattern: str) -> bool:
    if pattern:
        return any(ROOT.glob(named + "*"))
    return (ROOT / named.rstrip(".")).exists()


def test_every_path_named_in_comments_and_docs_exists() -> None:
    missing = sorted(
        f"{path.relative_to(ROOT)}: {named}"
        for path in _texts()
        for named, pattern in set(NAMED.findall(path.read_text(encoding="utf-8", errors="replace")))
        if not _exists(named, pattern)
    )
    assert missing == []
