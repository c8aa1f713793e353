"""The server's limits in one process: token buckets, fair turns, the byte-bounded outbox with
coalesced updates, origins and links (issue 28; the live-server tests are in test_hostile)."""

from __future__ import annotations

import asyncio
import functools
import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from kartentisch.server.bots import BotPool
from kartentisch.server.health import BACKOFF_MAX, backoff
from kartentisch.server.limits import AddressCount, KeyedBuckets, Limits, TokenBucket
from kartentisch.server.outbox import QueueConn, pump
from kartentisch.server.site import Site, origin_of
from kartentisch.server.storage import Storage
from kartentisch.server.tables import CreateTable, Hub
from kartentisch.server.work import FairQueue, QueueFull


# ---------------------------------------------------------------- buckets and limits
def test_a_token_bucket_gives_its_burst_then_its_rate() -> None:
    now = [0.0]
    bucket = TokenBucket(3, 2.0, clock=lambda: now[0])
    assert [bucket.take() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take() == pytest.approx(0.5)  # one token comes every half second
    now[0] += 0.5
    assert bucket.take() == 0.0
    now[0] += 100
    assert [bucket.take() for _ in range(4)][-1] > 0  # never more than the burst


def test_keyed_buckets_are_per_key_and_bounded_in_keys() -> None:
    now = [0.0]
    buckets = KeyedBuckets(2, 1.0, keys=10, clock=lambda: now[0])
    assert buckets.take("a") == buckets.take("a") == 0.0
    assert buckets.take("a") > 0
    assert buckets.take("b") == 0.0  # another address has its own
    for n in range(1000):
        buckets.take(f"flood-{n}")
    assert len(buckets) <= 10


def test_connections_per_address_are_counted() -> None:
    count = AddressCount()
    assert all(count.open("1.2.3.4", 3) for _ in range(3))
    assert not count.open("1.2.3.4", 3)
    assert count.open("5.6.7.8", 3)
    count.close("1.2.3.4")
    assert count.open("1.2.3.4", 3) and count["1.2.3.4"] == 3


def test_limits_are_configurable_by_name_and_checked() -> None:
    limits = Limits.parse("outbox_bytes=1000, send-timeout=2.5,tables_rate=0.5")
    assert (limits.outbox_bytes, limits.send_timeout, limits.tables_rate) == (1000, 2.5, 0.5)
    assert Limits().watchers_per_table == 200  # the default, documented in security.md
    for bad in ("nonsense=1", "outbox_bytes=0", "send_timeout=-1", "outbox_bytes=x"):
        with pytest.raises(ValueError):
            Limits.parse(bad)
    documented = Path(__file__).resolve().parents[2].joinpath(
        "docs", "security.md").read_text(encoding="utf-8")
    for name, value in Limits().as_json().items():
        assert f"`{name}`" in documented, f"limit {name} is not in docs/security.md"
        del value


def test_backoff_doubles_up_to_its_ceiling() -> None:
    waits = [backoff(n) for n in range(30)]
    assert waits[0] <= 0.1 and waits[3] > waits[0]
    assert max(waits) <= BACKOFF_MAX


# ---------------------------------------------------------------- fair turns
def test_fair_queue_takes_tables_in_turn_and_caps_what_waits() -> None:
    async def run() -> list[str]:
        queue = FairQueue(1, waiting=50, per_key=100)
        started: list[str] = []
        gate = asyncio.Event()

        async def job(key: str) -> str:
            started.append(key)
            await gate.wait()
            return key

        greedy = [asyncio.create_task(queue.run("greedy", lambda: job("greedy")))
                  for _ in range(20)]
        await asyncio.sleep(0)
        others = [asyncio.create_task(queue.run(k, functools.partial(job, k)))
                  for k in ("a", "b", "c")]
        await asyncio.sleep(0)
        gate.set()
        await asyncio.gather(*greedy, *others)
        return started

    order = asyncio.run(run())
    # one job of the greedy table ran, one of its waited first in line; then every other
    # table had its turn before the greedy one's third
    assert order[:6] == ["greedy", "greedy", "a", "b", "c", "greedy"]
    assert len(order) == 23

    async def overflow() -> None:
        queue = FairQueue(1, waiting=2)
        gate = asyncio.Event()
        tasks = [asyncio.create_task(queue.run(str(n), gate.wait)) for n in range(3)]
        await asyncio.sleep(0)
        with pytest.raises(QueueFull):
            await queue.run("late", gate.wait)
        gate.set()
        await asyncio.gather(*tasks)
        assert queue.running == 0 and queue.waiting == 0

    asyncio.run(overflow())


def test_a_seat_has_one_hint_in_flight() -> None:
    """A second hint for the same seat is refused while the first thinks; the first one's
    answer still arrives, and the seat may ask again afterwards."""
    from kartentisch.server.bots import HintBusy

    async def run() -> None:
        pool = BotPool(0, hints_waiting=4)
        gate = asyncio.Event()

        async def slow() -> str:
            await gate.wait()
            return "hint"

        def call() -> str:  # runs in a thread (no workers): waits for the gate's loop
            return asyncio.run_coroutine_threadsafe(slow(), loop).result()

        loop = asyncio.get_running_loop()
        first = asyncio.create_task(pool.hint("t", 0, call))
        await asyncio.sleep(0.01)
        with pytest.raises(HintBusy) as busy:
            await pool.hint("t", 0, call)
        assert busy.value.seat
        other = asyncio.create_task(pool.hint("t", 1, call))  # another seat waits its turn
        gate.set()
        assert await first == "hint" and await other == "hint"
        assert await pool.hint("t", 0, lambda: "again") == "again"
        pool.close()

    asyncio.run(run())


# ---------------------------------------------------------------- the outbox
def test_the_outbox_is_bounded_in_bytes_and_a_slow_reader_gets_one_fresh_view(
        tmp_path: Path) -> None:
    """A seat that reads nothing while a whole game is played holds at most ``limit`` bytes;
    when it reads, the updates it missed come as one whole view of the newest position
    (with its own move's ref), and nothing else it was sent is lost."""

    async def play() -> tuple[QueueConn, list[dict[str, Any]], int, Any]:
        hub = Hub(Storage(f"sqlite:///{tmp_path / 'o.sqlite3'}"), BotPool(0),
                  stand_in_pace=0)
        await hub.start()
        try:
            made = await hub.create(CreateTable(game="krumme20", players=2,
                                                options={"turn_limit": 12}), "http://test/")
            tokens = [s["token"] for s in made["seats"]]
            slow, fast = QueueConn(limit=6000), QueueConn()
            for conn, token in ((slow, tokens[0]), (fast, tokens[1])):
                await hub.handle(conn, json.dumps({"v": 1, "type": "hello", "token": token}))
            table = hub.tables[made["table"]]
            rng = random.Random(5)
            most = 0
            while not table.finished:
                mover = slow if table.state.current_player == 0 else fast
                aid = rng.choice(table.state.legal_action_ids())
                await hub.handle(mover, json.dumps({"v": 1, "type": "move", "ref": table.moves,
                                                    "move": table.moves, "action": aid}))
                await hub.handle(slow, json.dumps({"v": 1, "type": "sync"}))
                most = max(most, slow.outbox.bytes)
                while not fast.outbox.empty():
                    fast.outbox.get_nowait()
            assert slow.stale and not slow.overflowed
            sent: list[bytes] = []

            async def send(text: str) -> None:
                sent.append(text.encode())
                if slow.outbox.empty() and not slow.stale:
                    slow.close_outbox()

            await pump(slow, send, 5)
            return slow, [msgspec.json.decode(f) for f in sent], most, table
        finally:
            await hub.stop()

    slow, received, most, table = asyncio.run(play())
    assert most <= 6000
    assert slow.coalesced > 0
    updates = [m for m in received if m["type"] == "update"]
    last = updates[-1]
    assert last["full"] and last["status"] == "finished" and last["move"] == table.moves
    assert last["events_from"] == 0 and len(last["events"]) == len(table.state.events)
    assert "ref" in last  # the seat's own last move is acknowledged by the fresh view


def test_other_messages_that_do_not_fit_end_the_connection() -> None:
    conn = QueueConn(limit=300)
    for n in range(20):
        conn.push({"v": 1, "type": "pong", "ref": n, "pad": "x" * 20})
    assert conn.overflowed and conn.outbox.bytes <= 300


# ---------------------------------------------------------------- origins and links
def test_links_come_from_the_public_url_and_origins_are_checked() -> None:
    site = Site.make("https://cards.example.org", ["https://friends.example.net:8443"])
    assert site.link("seat", "abc") == "https://cards.example.org/#seat=abc"
    assert site.allows({})  # no browser page (curl, the Python client)
    assert site.allows({"origin": "https://cards.example.org"})
    assert site.allows({"origin": "https://CARDS.example.org:443"})
    assert site.allows({"origin": "https://friends.example.net:8443"})
    for evil in ("http://cards.example.org", "https://evil.example", "null",
                 "https://cards.example.org.evil.example"):
        assert not site.allows({"origin": evil}), evil
    assert not site.allows({"sec-fetch-site": "cross-site"})
    local = Site.for_address("0.0.0.0", 8000)
    assert local.base_url == "http://localhost:8000/"
    assert local.allows({"origin": "http://127.0.0.1:8000"})
    assert not local.allows({"origin": "http://127.0.0.1:9000"})
    assert Site.make("http://x.example", ["*"]).allows({"origin": "https://any.example"})
    assert origin_of("HTTP://[::1]:80/path") == "http://[::1]"
    with pytest.raises(ValueError):
        Site.make("ftp://x.example")
