"""Hostile import files never break the counter: Hypothesis sends exports with their dates,
nesting, sizes, numbers, text and structure twisted; every answer is a page (303 or a 4xx
refusal, never a 5xx) and a refused file stores nothing. The examples of one test share one
database and device, so games imported by one example make later ones partly « already there »."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .actions import dump

FUZZ = settings.get_profile("fuzz")  # tests/conftest.py

pytestmark = pytest.mark.storage  # on SQLite and PostgreSQL


json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
offsets = st.integers(min_value=-23 * 60, max_value=23 * 60).map(
    lambda minutes: timezone(timedelta(minutes=minutes))
)
dates = st.one_of(
    st.datetimes(timezones=st.one_of(st.none(), offsets)).map(datetime.isoformat),
    st.datetimes(datetime(1999, 12, 30), datetime(2027, 1, 2), timezones=st.just(UTC)).map(
        lambda moment: moment.isoformat().replace("+00:00", "Z")
    ),
    st.sampled_from(["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:00-01:00", "hier", ""]),
    json_values,
)
# Text in every shape JSON can carry it: lone surrogates, controls, format characters, long.
names = st.one_of(
    st.text(max_size=40),
    st.text(st.characters(codec="utf-8"), max_size=12),
    st.sampled_from(["\ud800x", "\x00", "\u202eBob", "\u200b", "Al\u200bice", "A" * 31]),
)
numbers = st.one_of(
    st.integers(min_value=-5, max_value=120),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(),
    st.booleans(),
    st.text(max_size=5),
)


@st.composite
def games(draw, index: int = 0) -> dict:
    players = draw(st.lists(names, min_size=0, max_size=11))
    rounds = draw(st.lists(st.lists(numbers, min_size=0, max_size=len(players) + 1), max_size=8))
    game = {
        "id": draw(st.one_of(st.just(f"partie-{index}"), names, json_values)),
        "created_at": draw(dates),
        "rules": draw(
            st.one_of(
                st.fixed_dictionaries(
                    {
                        "end": st.sampled_from(["above", "at_or_above", "rounds", "x"]),
                        "limit": numbers,
                        "round_count": st.one_of(st.none(), numbers),
                        "pro": st.one_of(st.booleans(), numbers),
                    }
                ),
                json_values,
            )
        ),
        "players": players,
        "rounds": rounds,
    }
    for key in draw(st.lists(st.sampled_from(sorted(game)), max_size=2)):
        game[key] = draw(json_values)  # a field replaced by anything at all
    return game


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


documents = st.one_of(
    st.builds(
        lambda listed: {"format": "six-qui-prend", "version": 1, "games": listed},
        st.lists(games(), max_size=6),
    ),
    st.builds(
        lambda document, tweak: {**document, **tweak},
        st.fixed_dictionaries({"format": st.just("six-qui-prend"), "version": st.just(1)}),
        st.dictionaries(st.sampled_from(["format", "version", "games"]), json_values, max_size=2),
    ),
    json_values,
)


def _raw(document) -> bytes:
    return json.dumps(document).encode()


raw_files = st.one_of(
    documents.map(_raw),
    st.integers(min_value=1, max_value=3000).map(
        lambda depth: (
            '{"format": "six-qui-prend", "version": 1, "games": ' + nested(depth) + "}"
        ).encode()
    ),
    st.integers(min_value=1, max_value=6000).map(
        lambda digits: (
            '{"format": "six-qui-prend", "version": 1, "games": [' + "9" * digits + "]}"
        ).encode()
    ),
    st.binary(max_size=200),
)


def test_generated_import_files_never_break_anything(app, client):
    client.get("/")  # a device, as a phone that opened the history has

    @FUZZ
    @given(data=raw_files)
    def check(data):
        before = dump(app)

        response = client.post(
            "/historique/import",
            data={"fichier": (io.BytesIO(data), "parties.json")},
            content_type="multipart/form-data",
        )

        assert response.status_code in (303, 413, 422), response.get_data(as_text=True)[:2000]
        if response.status_code != 303:
            assert dump(app) == before
        assert client.get("/historique").status_code == 200

    check()
