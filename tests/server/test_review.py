"""The game review at a real server process: never while the game runs, only for its own
seat (or once shared), computed once at low priority, the same as the terminal's review;
and the pool's idle work waits for live bot moves."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from kartentisch.core.records import GameRecord
from kartentisch.review import FAST_BUDGET, review_record
from kartentisch.server.bots import BotPool
from kartentisch.server.client import TableClient
from kartentisch.server.review import REVIEW_SEED
from kartentisch.server.storage import Storage

HUMAN = {"kind": "human"}
QUICK = {"turn_limit": 12}


def ask(http: httpx.Client, token: str, seat: int | None = None) -> httpx.Response:
    body: dict[str, Any] = {"token": token}
    if seat is not None:
        body["seat"] = seat
    return http.post("/api/web/review", json=body)


def wait_done(http: httpx.Client, token: str) -> dict[str, Any]:
    """Ask until the review is stored (the page polls the same way)."""
    seen = set()
    for _ in range(600):
        answer = ask(http, token)
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        seen.add(data["status"])
        if data["status"] == "done":
            assert seen <= {"queued", "running", "done"}
            return data
        assert data["status"] in ("queued", "running")
        time.sleep(0.2)
    pytest.fail("the review was not stored")


def test_review_flow(start_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KARTENTISCH_REVIEW_BUDGET", "fast")
    db = tmp_path / "tables.sqlite3"
    server = start_server(f"sqlite:///{db}")
    made = server.create(game="krumme20", players=2, options=QUICK, seats=[HUMAN, HUMAN])
    tokens = [s["token"] for s in made["seats"]]
    watch = made["watch"]["token"]

    with server.http() as http:
        # Not while the game runs, not even to its own seat.
        early = ask(http, tokens[0])
        assert early.status_code == 409 and early.json()["code"] == "review.not_finished"

        async def play() -> None:
            players = [await TableClient.join(server.ws, t) for t in tokens]
            rng = random.Random(4)
            await asyncio.gather(*(p.play(lambda legal: rng.choice(legal)) for p in players))
            for p in players:
                await p.close()

        asyncio.run(play())

        # Only to its own seat: not to the other player, not to a watcher.
        other = ask(http, tokens[1], seat=0)
        assert other.status_code == 403 and other.json()["code"] == "review.not_your_seat"
        watcher = ask(http, watch)
        assert watcher.status_code == 403 and watcher.json()["code"] == "review.watcher"
        assert ask(http, watch, seat=0).json()["code"] == "review.not_your_seat"

        data = wait_done(http, tokens[0])
        review = data["review"]
        assert data["seat"] == 0 and data["shared"] is False
        assert review["seat"] == 0 and review["budget"]["name"] == "fast"
        # The same review as the terminal's of the table's record.
        record = GameRecord.from_json(http.get(f"/api/tables/{made['table']}/record").json())
        assert review == review_record(record, 0, seed=REVIEW_SEED, budget=FAST_BUDGET)

        # Computed once: asked again, the stored review comes back unchanged.
        engine = sa.create_engine(f"sqlite:///{db}")
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT seat, status, finished_at FROM kt_reviews")).all()
        again = ask(http, tokens[0]).json()
        with engine.connect() as conn:
            after = conn.execute(sa.text(
                "SELECT seat, status, finished_at FROM kt_reviews")).all()
        engine.dispose()
        assert len(rows) == 1 and rows[0][1] == "done" and rows == after
        assert again["status"] == "done" and again["review"] == review

        # Shared: now the other seat and the watcher may read it (and still not compute).
        shared = http.post("/api/web/review/share", json={"token": tokens[0], "shared": True})
        assert shared.status_code == 200 and shared.json()["shared"] is True
        for token in (tokens[1], watch):
            answer = ask(http, token, seat=0)
            assert answer.status_code == 200 and answer.json()["review"] == review
        unshare = http.post("/api/web/review/share", json={"token": tokens[0], "shared": False})
        assert unshare.json()["shared"] is False
        assert ask(http, watch, seat=0).status_code == 403
        share_watch = http.post("/api/web/review/share", json={"token": watch, "shared": True})
        assert share_watch.json()["code"] == "review.watcher"


def test_bad_review_requests_get_reason_codes(sqlite_server: Any) -> None:
    made = sqlite_server.create(game="krumme20", players=2, options=QUICK,
                                seats=[HUMAN, {"kind": "bot", "bot": "random"}])
    token = made["seats"][0]["token"]
    cases: list[tuple[Any, int, str]] = [
        ({"token": "nope"}, 403, "session.unknown_link"),
        ({"token": token, "seat": -1}, 400, "lobby.bad_request"),
        ({"token": token, "seat": "0"}, 400, "lobby.bad_request"),
        ({"token": token, "extra": 1}, 400, "lobby.bad_request"),
        ({"token": "x" * 300}, 400, "lobby.bad_request"),
        ({"seat": 0}, 400, "lobby.bad_request"),
        ([token], 400, "lobby.bad_request"),
        ({"token": token}, 409, "review.not_finished"),
    ]
    with sqlite_server.http() as http:
        for body, status, code in cases:
            answer = http.post("/api/web/review", json=body)
            assert (answer.status_code, answer.json()["code"]) == (status, code), body
        answer = http.post("/api/web/review", content=b"{not json")
        assert answer.status_code == 400 and answer.json()["code"] == "lobby.bad_request"
        answer = http.post("/api/web/review/share", json={"token": token, "shared": "yes"})
        assert answer.status_code == 400 and answer.json()["code"] == "lobby.bad_request"


def test_idle_work_waits_for_live_bot_moves() -> None:
    """A review's decision (``run_idle``) starts only once no bot move or hint is pending."""
    order: list[str] = []
    release = threading.Event()

    def live() -> None:
        release.wait(10)
        order.append("live")

    def idle() -> None:
        order.append("idle")

    async def run() -> None:
        pool = BotPool(0)
        first = asyncio.ensure_future(pool.run(live))
        await asyncio.sleep(0)
        waiting = asyncio.ensure_future(pool.run_idle(idle))
        for _ in range(5):
            await asyncio.sleep(0.01)
        assert order == [] and not waiting.done()
        release.set()
        await first
        await waiting
        assert pool.live == 0

    asyncio.run(run())
    assert order == ["live", "idle"]


def test_reviews_survive_in_the_database(tmp_path: Path) -> None:
    """The migration creates kt_reviews (chained after 0003)."""
    store = Storage(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    store.migrate()
    with store.engine.connect() as conn:
        names = sa.inspect(conn).get_table_names()
        version = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    store.close()
    assert "kt_reviews" in names and version == "0004"
