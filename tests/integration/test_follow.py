"""Sharing a game: a follow address for the other phones, read-only, revocable, and cheap to poll."""

from __future__ import annotations

import queue
import re
import threading

import pytest

from app.platform import live
from app.platform.extensions import limiter

from .actions import (
    HTMX,
    cancel_round,
    dump,
    game_page,
    game_url,
    new_device,
    play_rounds,
    start_game,
    tap,
)
from .html import button, form_of, link, parse, round_lines, status_text, totals
from .test_table import invite, join

NAMES = ["Alice", "Bruno", "Chloé"]
REMATCH = "Rejouer avec les mêmes joueurs"
ADDRESS = re.compile(r"^http://localhost/suivre/([A-Za-z0-9_-]{22,})$")


def share(client, public_id: str) -> str:
    """Tap « Partager la partie » and return the follow address the share page shows."""
    page = parse(client.get(game_url(public_id)).data)
    form = form_of(page, "Partager la partie")
    assert form is not None, "no « Partager la partie » on the game page"
    response = client.post(form.get("action"))
    assert response.status_code == 303
    return shown_address(client, response.headers["Location"])


def shown_address(client, share_page_url: str) -> str:
    page = parse(client.get(share_page_url).data)
    links = [a for a in page.find_all("a") if ADDRESS.match(a.get("href") or "")]
    assert len(links) == 1, page.text
    assert links[0].text == links[0].get("href"), "the address is also written out as text"
    return links[0].get("href")


def stop(client, public_id: str):
    page = parse(client.get(f"{game_url(public_id)}/partage").data)
    return client.post(form_of(page, "Arrêter le partage").get("action"))


@pytest.fixture
def game(client) -> str:
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [5, 6, 7], [10, 3, 2])
    return public_id


def test_the_share_page_shows_the_address_as_text_link_and_qr_code(client, game):
    address = share(client, game)
    token = ADDRESS.match(address).group(1)
    page = parse(client.get(f"{game_url(game)}/partage").data)
    assert token != game and token not in client.get_cookie("appareil").value
    qr = [img for img in page.find_all("img") if "QR" in (img.get("alt") or "")]
    assert len(qr) == 1 and qr[0].get("src").startswith("data:image/svg+xml")
    assert button(page, "Arrêter le partage") is not None


def test_sharing_twice_keeps_the_address_the_others_opened(client, game):
    assert share(client, game) == share(client, game)


def test_another_phone_follows_without_a_cookie_read_only(app, client, game):
    address = share(client, game)
    response = new_device(app).get(address)
    assert response.status_code == 200
    page = parse(response.data)
    assert totals(page) == {"Alice": 15, "Bruno": 9, "Chloé": 9}
    assert round_lines(page) == [[5, 6, 7], [10, 3, 2]]
    assert page.find_all("form") == [] and page.find_all("button") == []
    assert "Modifier la manche" not in page.text
    assert link(page, "Recharger").get("href") == address.removeprefix("http://localhost")
    assert game not in response.get_data(as_text=True), "the game's own id stays private"
    assert response.headers.getlist("Set-Cookie") == [], "no identifier for watching"


def test_a_follower_gets_no_cookie_from_the_installed_app_nor_an_unknown_address(app, client, game):
    address = share(client, game)
    follower = new_device(app)
    answers = [
        follower.get(address),
        follower.get("/manifest.webmanifest"),
        follower.get("/sw.js"),
        follower.get("/suivre/inconnu"),
    ]
    assert [answer.headers.getlist("Set-Cookie") for answer in answers] == [[], [], [], []]


def test_the_scoring_phones_notice_waits_for_its_own_page_not_the_follow_page(client, game):
    address = share(client, game)
    cancel_round(client, game, 2)  # « Manche 2 annulée … », for the next page of this phone

    assert "annulée" not in client.get(address).get_data(as_text=True)
    assert "annulée" in client.get(game_url(game)).get_data(as_text=True)


def test_a_finished_game_shows_its_result_to_followers_without_the_rematch(app, client, game):
    play_rounds(client, game, [60, 2, 1])
    page = parse(new_device(app).get(share(client, game)).data)
    assert "Chloé" in status_text(page) and "gagne" in status_text(page)
    assert page.find_all("form") == []


def test_writes_through_the_follow_address_are_refused(app, client, game):
    address = share(client, game)
    before = dump(app)
    follower = new_device(app)
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        for suffix in ("", "/manches", "/manches/annuler", "/manches/1", "/revanche"):
            response = follower.open(
                address + suffix, method=method, data={"number": "3", "score-0": "1"}
            )
            assert response.status_code in (404, 405), (method, suffix)
    assert dump(app) == before


def test_the_follow_page_tells_no_one_where_it_came_from_and_is_not_indexed(app, client, game):
    response = new_device(app).get(share(client, game))
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Robots-Tag"] == "noindex"
    assert parse(response.data).find("meta", name="robots").get("content") == "noindex"


def test_back_to_the_follow_page_asks_the_server_as_the_game_page_does(app, client, game):
    # A page without JavaScript cannot catch up: a copy kept for Back would show old totals.
    follow_page = new_device(app).get(share(client, game))
    game_page = client.get(game_url(game))
    assert "no-store" in follow_page.headers["Cache-Control"]
    assert "no-store" in game_page.headers["Cache-Control"]


@pytest.mark.storage
def test_stopping_the_share_makes_the_address_a_404_and_sharing_again_a_new_one(app, client, game):
    address = share(client, game)
    assert stop(client, game).status_code == 303
    follower = new_device(app)
    assert follower.get(address).status_code == 404
    again = share(client, game)
    assert again != address
    assert follower.get(again).status_code == 200
    assert follower.get(address).status_code == 404


def test_an_unknown_or_malformed_address_is_a_404(app):
    follower = new_device(app)
    assert follower.get("/suivre/" + "A" * 22).status_code == 404
    assert follower.get("/suivre/pas%20un%20jeton").status_code == 404


def test_an_unchanged_game_answers_304_and_every_change_a_new_live_part(app, client, game):
    address = share(client, game)
    follower = new_device(app)
    first = follower.get(address, headers=HTMX)
    tag = first.headers["ETag"]
    assert follower.get(address, headers={**HTMX, "If-None-Match": tag}).status_code == 304

    cancel_round(client, game, 2)
    changed = follower.get(address, headers={**HTMX, "If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert round_lines(parse(changed.data)) == [[5, 6, 7]]

    tag = changed.headers["ETag"]
    client.post(f"{game_url(game)}/manches/1", data=edit_of(client, game, 1, [1, 2, 3]))
    edited = follower.get(address, headers={**HTMX, "If-None-Match": tag})
    assert edited.status_code == 200 and round_lines(parse(edited.data)) == [[1, 2, 3]]


def edit_of(client, public_id: str, number: int, heads: list[int]) -> dict[str, str]:
    page = parse(client.get(f"{game_url(public_id)}/manches/{number}").data)
    form = form_of(page, "Enregistrer la manche")
    data = {field.get("name"): field.get("value") or "" for field in form.find_all("input")}
    data.update({f"score-{seat}": str(value) for seat, value in enumerate(heads)})
    return data


def test_the_live_part_and_the_whole_page_carry_different_tags(app, client, game):
    address = share(client, game)
    follower = new_device(app)
    page = follower.get(address)
    part = follower.get(address, headers=HTMX)
    assert page.headers["ETag"] != part.headers["ETag"]
    assert "HX-Request" in page.headers["Vary"]
    assert follower.get(address, headers={"If-None-Match": page.headers["ETag"]}).status_code == 304


class TestRateLimit:
    @pytest.fixture
    def app_settings(self):
        return {"RATELIMIT_ENABLED": True, "RATELIMIT_FOLLOW": "3 per minute"}

    @pytest.fixture(autouse=True)
    def fresh_counters(self, app):
        with app.app_context():
            limiter.reset()
        yield
        with app.app_context():
            limiter.reset()

    def test_each_follow_address_is_limited_on_its_own(self, app, client):
        first, second = (start_game(client, NAMES) for _ in range(2))
        follower = new_device(app)
        address = share(client, first)
        for _ in range(3):
            assert follower.get(address).status_code == 200
        assert follower.get(address).status_code == 429
        assert follower.get(share(client, second)).status_code == 200


@pytest.mark.storage  # on PostgreSQL the change travels by NOTIFY: the database's own part
class TestLiveStream:
    """The follow page's Server-Sent Events: each change pushed, the end of the share too."""

    @pytest.fixture
    def app_settings(self):
        return {"FOLLOW_HEARTBEAT_SECONDS": 0.05}

    def events(self, follower, address: str, **headers: str) -> queue.Queue:
        """Open the stream the follow page names; return a queue of its events (name, id, data).

        The stream is read in a thread of its own, as a server would serve it: in the test
        client's thread its request context would also be the one of the next requests.
        """
        url = parse(follower.get(address).data).by_id("follow").get("data-follow-stream")
        return self.stream(follower, url, **headers)

    def stream(self, phone, url: str, **headers: str) -> queue.Queue:
        """Open a live stream as that phone; return the queue of its events, as `events`."""
        events: queue.Queue = queue.Queue()
        opened = threading.Event()

        def read() -> None:
            response = phone.get(url, headers=headers, buffered=False)
            try:
                assert response.mimetype == "text/event-stream"
                for chunk in response.response:
                    text = chunk.decode()
                    opened.set()
                    if text.startswith("event: "):
                        lines = text.strip().split("\n")
                        fields = dict(line.split(": ", 1) for line in lines if ": " in line)
                        data = "\n".join(
                            line.removeprefix("data: ")
                            for line in lines
                            if line.startswith("data: ")
                        )
                        events.put((fields["event"], fields.get("id"), data))
                events.put(("(fermé)", None, ""))
            finally:
                response.close()

        threading.Thread(target=read, daemon=True).start()
        assert opened.wait(10), "the stream did not open"
        return events

    def test_each_change_is_pushed_and_a_stop_ends_the_stream(self, app, client, game):
        address = share(client, game)
        stream = self.events(new_device(app), address)
        cancel_round(client, game, 2)
        event, version, part = stream.get(timeout=10)
        assert event == "partie" and round_lines(parse(part)) == [[5, 6, 7]]
        play_rounds(client, game, [1, 1, 1])
        event, newer, part = stream.get(timeout=10)
        # An event is named « game.version »: the same game, a later version.
        (game_id, before), (same_game, after) = version.split("."), newer.split(".")
        assert same_game == game_id and int(after) > int(before)
        assert round_lines(parse(part)) == [[5, 6, 7], [1, 1, 1]]
        stop(client, game)
        assert stream.get(timeout=10)[0] == "fin"
        assert stream.get(timeout=10)[0] == "(fermé)"

    def test_a_share_stopped_twice_ends_its_second_followers_stream_too(
        self, app, client, game, monkeypatch
    ):
        # Between a share and its stop the game reads (on SQLite's look) as it did before it was
        # shared: a look that remembered the first stop missed the second (a follower told
        # nothing). Looks a second apart: the second stop comes before the next one.
        stream = self.events(new_device(app), share(client, game))
        stop(client, game)
        assert [stream.get(timeout=10)[0] for _ in range(2)] == ["fin", "(fermé)"]
        monkeypatch.setattr(live, "SQLITE_EVERY", 1.0)
        stream = self.events(new_device(app), share(client, game))
        stop(client, game)
        assert stream.get(timeout=10)[0] == "fin"

    def test_a_rematch_takes_the_tables_other_phones_to_the_new_game(self, app, client, game):
        other = new_device(app)
        join(other, invite(client, game))
        page = parse(other.get(game_url(game)).data)
        stream = self.stream(other, page.by_id("game").get("data-live"))
        assert stream.get(timeout=10)[0] == "version"  # what the page had
        play_rounds(client, game, [70, 1, 2])
        assert stream.get(timeout=10)[0] == "version"
        new_game = tap(client, game_page(client, game), REMATCH).headers["Location"]

        event, _id, address = stream.get(timeout=10)
        assert (event, address) == ("suite", new_game)
        assert stream.get(timeout=10)[0] == "(fermé)"

    def test_a_rematch_made_while_a_phone_was_away_takes_it_there_on_reconnecting(
        self, app, client, game
    ):
        """The review: a stream connecting again took a rematch made meanwhile for the one its
        page was drawn with (one an older game corrected on purpose keeps), and stayed."""
        other = new_device(app)
        join(other, invite(client, game))
        url = parse(other.get(game_url(game)).data).by_id("game").get("data-live")
        event, first_id, _ = self.stream(other, url).get(timeout=10)
        assert event == "version"
        play_rounds(client, game, [70, 1, 2])
        new_game = tap(client, game_page(client, game), REMATCH).headers["Location"]

        again = self.stream(other, url, **{"Last-Event-ID": first_id})  # what the browser sends

        event, _id, address = again.get(timeout=10)
        assert (event, address) == ("suite", new_game)

    def test_a_reconnect_gets_what_it_missed_at_once(self, app, client, game):
        address = share(client, game)
        play_rounds(client, game, [1, 1, 1])  # while the follower was away
        stream = self.events(new_device(app), address, **{"Last-Event-ID": "1"})
        event, _version, part = stream.get(timeout=10)
        assert event == "partie" and len(round_lines(parse(part))) == 3

    def test_streams_beyond_the_cap_are_sent_to_polling(self, app, client, game):
        app.config["FOLLOW_MAX_STREAMS"] = 0
        address = share(client, game)
        page = parse(new_device(app).get(address).data)
        response = new_device(app).get(page.by_id("follow").get("data-follow-stream"))
        assert response.status_code == 503 and response.headers["Retry-After"] == "30"
