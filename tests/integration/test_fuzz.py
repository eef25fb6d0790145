"""Bad input never breaks the counter: no generated request gets a 5xx; a refusal changes nothing.

Hypothesis sends form bodies to every POST (missing, repeated and extra fields; negative, huge and
decimal numbers; unicode; very long strings; wrong game ids) and query strings to every GET. The
database is compared before and after each request. The examples of one test share one database
(the fixtures are per test), which is fine: each request is checked on its own.
"""

from __future__ import annotations

from urllib.parse import quote

from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from .actions import HTMX, dump, game_page, game_url, new_device, play_rounds, start_game
from .html import round_lines, totals

FUZZ = settings.get_profile("fuzz")  # tests/conftest.py

# SQLite only (not marked storage), as test_stateful.py says why.


numbers = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.integers(min_value=0, max_value=120).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(
        [
            "",
            " ",
            "0",
            "1",
            "66",
            "67",
            "-0",
            "+5",
            "1e3",
            "0x10",
            "١٢",
            "１２",
            "²",
            "NaN",
            "inf",
            "1_000",
            " 7 ",
            "7\n",
            "9" * 400,
        ]
    ),
)
text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
    st.sampled_from(["<script>alert(1)</script>", "' OR 1=1 --", "\x00", "..", "%00", "\u202e"]),
)
long_text = st.builds(
    lambda char, count: char * count,
    st.characters(codec="utf-8"),
    st.integers(min_value=31, max_value=20_000),
)
values = st.one_of(numbers, text, long_text)

field_names = st.one_of(
    st.sampled_from(
        [
            "number",
            "version",
            "ajouter",
            "end",
            "limit",
            "round_count",
            "pro",
            "csrf_token",
            "score-",
            "score--1",
            "score-x",
            "score-99",
            "heads-0",  # a round typed before the fields were renamed: read as score-0
            "heads-99",
            "players-",
            "players-99",
            "players--1",
            "fichier",
            "key",
        ]
    ),
    st.integers(min_value=0, max_value=12).map(lambda n: f"score-{n}"),
    st.integers(min_value=0, max_value=16).map(lambda n: f"players-{n}"),
    st.text(max_size=12),
)
bodies = st.lists(st.tuples(field_names, values), max_size=30).map(MultiDict)

OTHER_ID = "other device's game"


def game_ids(own: str):
    return st.one_of(
        st.just(own),
        st.just(OTHER_ID),
        st.text(min_size=1, max_size=40),
        st.sampled_from(
            [
                "nouvelle",
                "AAAAAAAAAAAAAAAAAAAAAA",
                own.upper(),
                own + "x",
                own[:-1],
                "0",
                "-1",
                "%00",
                "\x00",
                "A" * 5000,
            ]
        ),
    )


POST_ROUTES = [
    "/parties",
    "{game}/manches",
    "{game}/manches/annuler",
    "{game}/revanche",
    "{game}/manches/{n}",
    "/historique/import",
]
GET_ROUTES = [
    "/",
    "/parties/nouvelle",
    "{game}",
    "/historique",
    "/healthz",
    "/statistiques",
    "{game}/manches/{n}",
]
query_names = st.one_of(
    st.sampled_from(["page", "tri", "ordre", "number", "HX-Request"]), st.text(max_size=10)
)


def _url(template: str, public_id: str, number: int) -> str:
    return template.format(game="/parties/" + quote(public_id, safe=""), n=number)


def _setup(app, client) -> tuple[str, str, str]:
    """Return this device's game with two rounds, and the id of another device's game."""
    public_id = start_game(client, ["Alice", "Bob", "Carla"])
    play_rounds(client, public_id, [5, 0, 12], [3, 3, 1])
    other = new_device(app)
    other_id = start_game(other, ["Eve", "Mallory"])
    return public_id, other_id


def _check_sheet(client, public_id: str) -> None:
    """The game's sheet still makes sense: rounds numbered 1..n, totals the sums of the lines."""
    page = game_page(client, public_id)
    lines = round_lines(page)
    assert all(len(line) == 3 for line in lines)
    assert list(totals(page).values()) == [sum(column) for column in zip(*lines)] or (
        not lines and set(totals(page).values()) == {0}
    )


def test_generated_posts_never_break_anything(app, client):
    public_id, other_id = _setup(app, client)

    @FUZZ
    @given(
        route=st.sampled_from(POST_ROUTES),
        target=game_ids(public_id),
        number=st.integers(min_value=-2, max_value=5),
        body=bodies,
        htmx=st.booleans(),
    )
    def check(route, target, number, body, htmx):
        target = other_id if target == OTHER_ID else target
        before = dump(app)

        response = client.post(_url(route, target, number), data=body, headers=HTMX if htmx else {})

        assert response.status_code < 500, response.get_data(as_text=True)[:2000]
        if 400 <= response.status_code < 500:
            assert dump(app) == before, response.status_code
        if target == other_id and "{game}" in route:
            # A body over MAX_CONTENT_LENGTH is refused before the game is even looked up.
            assert response.status_code in (404, 413)
        _check_sheet(client, public_id)

    check()


def test_generated_round_submissions_never_break_anything(app, client):
    """The round form, field by field: the values people could type or tamper with."""
    public_id, _ = _setup(app, client)
    url = f"{game_url(public_id)}/manches"

    @FUZZ
    @given(
        number=numbers,
        heads=st.lists(values, max_size=5),
        extra=st.lists(st.tuples(field_names, values), max_size=3),
        htmx=st.booleans(),
    )
    def check(number, heads, extra, htmx):
        body = MultiDict(
            [("number", number), *((f"score-{i}", v) for i, v in enumerate(heads)), *extra]
        )
        before = dump(app)

        response = client.post(url, data=body, headers=HTMX if htmx else {})

        assert response.status_code < 500, response.get_data(as_text=True)[:2000]
        if 400 <= response.status_code < 500:
            assert dump(app) == before
        _check_sheet(client, public_id)

    check()


def test_generated_names_never_break_anything(app, client):
    @FUZZ
    @given(
        names=st.lists(st.one_of(text, long_text, st.just("")), max_size=12),
        extra=st.lists(st.tuples(field_names, values), max_size=3),
        htmx=st.booleans(),
    )
    def check(names, extra, htmx):
        body = MultiDict([*((f"players-{i}", v) for i, v in enumerate(names)), *extra])
        before = dump(app)

        response = client.post("/parties", data=body, headers=HTMX if htmx else {})

        assert response.status_code < 500, response.get_data(as_text=True)[:2000]
        if 400 <= response.status_code < 500:
            assert dump(app) == before
        if response.status_code == 303:
            assert game_page(client, response.headers["Location"].removeprefix("/parties/"))

    check()


def test_generated_get_requests_never_break_anything_nor_change_anything(app, client):
    public_id, other_id = _setup(app, client)

    @FUZZ
    @given(
        route=st.sampled_from(GET_ROUTES),
        target=game_ids(public_id),
        number=st.integers(min_value=-2, max_value=5),
        query=st.lists(st.tuples(query_names, values), max_size=5),
        htmx=st.booleans(),
    )
    def check(route, target, number, query, htmx):
        target = other_id if target == OTHER_ID else target
        before = dump(app)

        response = client.get(
            _url(route, target, number), query_string=MultiDict(query), headers=HTMX if htmx else {}
        )

        assert response.status_code < 500, response.get_data(as_text=True)[:2000]
        assert dump(app) == before
        if target == other_id and route.startswith("{game}"):
            assert response.status_code == 404

    check()
