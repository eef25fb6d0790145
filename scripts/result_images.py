"""Draw the shared result's image of three finished games, as a phone gets it, into docs/screenshots/:
three players, ten with long names (the layout's hardest case), names in several scripts.

Plays each game through the app's own forms and asks for its image (/parties/<id>/resultat.png),
on a temporary SQLite database:
    .venv/bin/python scripts/result_images.py   # writes docs/screenshots/result-image-*.png
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flask_migrate import upgrade

from app import create_app

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
GAMES = {
    "result-image-3-players.png": (
        "fr",
        ["Marie-Christine", "Bartholomé", "Maximilien"],
        [[5, 9, 30], [10, 10, 40]],
    ),
    "result-image-10-players.png": (
        "de",
        [
            "Marie-Christine",
            "Bartholomé",
            "Maximilien",
            "Jean-Baptiste de La Tour-Dupin",
            "Wolfgang Großmüller-Schäfer",
            "Hildegard von Bingen-Äbtissin",
            "Zoé",
            "Łukasz Żółkiewski",
            "Ève-Marie Dœuf",
            "Anne-Sophie",
        ],
        [[3, 7, 12, 9, 4, 5, 8, 10, 2, 6], [10, 9, 8, 7, 6, 5, 4, 3, 2, 61]],
    ),
    # Each character in the first font that has it (app/web/result/fonts.py): CJK, Thai, Arabic's
    # U+FDFD, emoji.
    "result-image-any-script.png": (
        "en",
        ["王小明", "山田さくら", "김민준", "สมชาย ใจดี", "Zoé 🎲🦄", "\ufdfd", "Ana 李 ไทย 😀"],
        [[3, 7, 12, 9, 4, 5, 70]],
    ),
}


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/images.sqlite",
                "SECRET_KEY": "images",
                "WTF_CSRF_ENABLED": False,
                "RATELIMIT_ENABLED": False,
                "RATELIMIT_STORAGE_URI": "memory://",
            }
        )
        with app.app_context():
            upgrade()
        for file_name, (language, names, rounds) in GAMES.items():
            client = app.test_client()
            started = client.post(
                "/parties", data={f"players-{seat}": name for seat, name in enumerate(names)}
            )
            game = started.headers["Location"]
            for number, heads in enumerate(rounds, start=1):
                data = {"number": str(number), "version": str(number)}  # played forward
                data.update({f"score-{seat}": str(value) for seat, value in enumerate(heads)})
                assert client.post(f"{game}/manches", data=data).status_code == 303
            image = client.get(f"{game}/resultat.png", headers={"Accept-Language": language})
            assert image.mimetype == "image/png", image.status
            (OUT / file_name).write_bytes(image.data)
            print(OUT / file_name, len(image.data), "bytes")


if __name__ == "__main__":
    main()
