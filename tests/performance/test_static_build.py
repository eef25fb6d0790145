"""The hashed, precompressed copy of static/ made at start: right, and safe when workers start at once."""

from __future__ import annotations

import gzip
import shutil
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import brotli

from app.platform import static_files as assets

STATIC = Path(assets.__file__).resolve().parents[2] / "static"


def test_workers_starting_together_build_the_same_complete_files(tmp_path):
    source, target = tmp_path / "static", tmp_path / "build"
    shutil.copytree(STATIC, source)

    with ProcessPoolExecutor(max_workers=4) as workers:
        manifests = list(workers.map(assets.build, [source] * 4, [target] * 4))

    assert all(manifest == manifests[0] for manifest in manifests)
    for name, hashed in manifests[0].items():
        original = assets.sent_form(name, (source / name).read_bytes())
        built = target / hashed
        assert built.read_bytes() == original
        if built.with_name(built.name + ".br").exists():
            assert brotli.decompress(built.with_name(built.name + ".br").read_bytes()) == original
        if built.with_name(built.name + ".gz").exists():
            assert gzip.decompress(built.with_name(built.name + ".gz").read_bytes()) == original
    assert not [path for path in target.rglob(".tmp-*")], "a temporary file was left behind"


def test_a_changed_file_gets_a_new_name(tmp_path):
    source, target = tmp_path / "static", tmp_path / "build"
    source.mkdir()
    (source / "app.css").write_text("body { color: black; }")
    before = assets.build(source, target)["app.css"]

    (source / "app.css").write_text("body { color: navy; }")
    after = assets.build(source, target)["app.css"]

    assert before != after
    assert (target / before).exists() and (target / after).read_text() == "body{color:navy}"


def test_our_css_and_javascript_are_sent_minified_and_vendored_files_as_they_are():
    css = b"/* why */\n.a, .b {\n  color: red; /* inline */\n}\n"
    js = b"// why\nconst a = `http://x ${b}`;\n  // indented why\n  f(a); // at the end\n"

    assert assets.sent_form("app.css", css) == b".a,.b{color:red}"
    assert assets.sent_form("app.js", js) == b"const a=`http://x ${b}`;f(a);"
    assert assets.sent_form("vendor/htmx-4.0.1.min.js", js) == js
    assert assets.sent_form("icon.svg", css) == css
