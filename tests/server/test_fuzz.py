"""Generated messages (hypothesis) against a live server on both databases: no server error,
tables consistent.

Each example opens a table (a human seat against a heuristic bot), sends a stream of
generated frames from the seat, a watcher and a connection that never joined (well-formed
moves, stale and out-of-range ones, wrong types, unknown fields, other versions, broken and
oversized JSON, binary frames), then checks that every connection is still served, the seat
and the watcher agree on the table, the server counted no error of its own, and the table as
stored replays to exactly the views the seat and the watcher were last sent. ``make test``
sends a few hundred messages; with ``KARTENTISCH_SOAK=1`` at least 10,000.
"""

from __future__ import annotations

import asyncio
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from kartentisch.core.registry import load_game
from kartentisch.server.client import TableClient
from kartentisch.server.protocol import MAX_MESSAGE_BYTES, MESSAGE_TYPES
from kartentisch.server.storage import Storage

SOAK = os.environ.get("KARTENTISCH_SOAK") == "1"
EXAMPLES = 200 if SOAK else 5
PER_EXAMPLE = 50

VALID, CURRENT = "<a legal action>", "<the current move>"

values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=8)
numbers = st.sampled_from([CURRENT, VALID]) | st.integers(-3, 300) | st.integers(
    -(2**64), 2**64) | values
message = st.fixed_dictionaries(
    {"v": st.sampled_from([1, 1, 1, 1, 0, 2, "1", 1.0, True, None]),
     "type": st.sampled_from([*MESSAGE_TYPES, "move", "move", "MOVE", "", "quit"])},
    optional={"move": numbers, "action": numbers, "ref": numbers,
              "token": st.text(max_size=60) | values, "extra": values})
frame = (message.map(lambda m: ("json", m)) | st.text(max_size=80).map(lambda t: ("raw", t))
         | st.binary(max_size=40).map(lambda b: ("raw", b))
         | st.integers(MAX_MESSAGE_BYTES - 40, MAX_MESSAGE_BYTES + 40).map(
             lambda n: ("raw", '{"v":1,"type":"ping","ref":"' + "x" * n + '"}')))
senders = st.sampled_from(["seat", "seat", "seat", "watcher", "stranger"])


@pytest.fixture
def live(db_server: Any) -> Any:
    """The session's shared server, on SQLite, then on PostgreSQL (its error count covers
    every test using it)."""
    return db_server


def concrete(data: dict[str, Any], latest: dict[str, Any] | None, rng: random.Random
             ) -> dict[str, Any]:
    """Fill in the markers: the table's current move number, a legal action."""
    out = dict(data)
    for key in ("move", "action", "ref"):
        if out.get(key) == CURRENT:
            out[key] = (latest or {}).get("move", 0)
        elif out.get(key) == VALID:
            legal = (latest or {}).get("legal") or [{"id": 0}]
            out[key] = rng.choice(legal)["id"]
    return out


@settings(max_examples=EXAMPLES, deadline=None, database=None,
          phases=[Phase.explicit, Phase.generate],  # no shrinking: every step is a server run
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(frames=st.lists(st.tuples(senders, frame), min_size=PER_EXAMPLE,
                       max_size=PER_EXAMPLE))
def test_generated_messages_never_break_the_server(live: Any, frames: list[Any]) -> None:
    made = live.create(game="krumme20", players=2, options={"turn_limit": 12},
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}])

    async def scenario() -> tuple[Any, Any]:
        rng = random.Random(len(frames))
        seat = await TableClient.join(live.ws, made["seats"][0]["token"])
        watcher = await TableClient.join(live.ws, made["watch"]["token"])
        stranger = await TableClient.open(live.ws)
        clients = {"seat": seat, "watcher": watcher, "stranger": stranger}
        for who, (kind, data) in frames:
            client = clients[who]
            if kind == "json":
                await client.send_raw(_dump(concrete(data, client.latest, rng)))
            else:
                await client.send_raw(data)
        for client in clients.values():  # everyone is still served
            await client.send({"type": "ping", "ref": 424242})
            await client.until(lambda m: m.get("type") == "pong" and m.get("ref") == 424242,
                               start=0)
            assert not client.closed
        await seat.send({"type": "sync"})
        await watcher.send({"type": "sync"})
        await seat.until(lambda m: m["type"] == "update" and m["full"], start=0)
        await watcher.until(lambda m: m["type"] == "update" and m["full"], start=0)
        for _ in range(600):  # until the table rests: the seat to move, or the game over
            if seat.latest and watcher.latest and seat.latest["move"] == watcher.latest["move"] \
                    and (seat.latest["legal"] or seat.latest["status"] == "finished"):
                break
            await asyncio.sleep(0.05)
        assert seat.latest and watcher.latest
        assert seat.latest["move"] == watcher.latest["move"]
        views = (seat.latest, watcher.latest)
        for client in clients.values():
            await client.close()
        return views

    mine, seen = asyncio.run(scenario())
    with live.http() as http:
        assert http.get("/health").json()["errors"] == 0
    # The table as stored replays to exactly what the seat and the watcher were last shown.
    store = Storage(live.db)
    loaded = store.load_table(made["table"])
    store.close()
    assert loaded is not None
    row, moves = loaded
    assert len(moves) == mine["move"] == seen["move"]
    state = load_game(row.game, row.players, row.options).new_initial_state(row.seed)
    for move in moves:
        state.apply_id(move.action, seat=move.seat)
    assert mine["observation"] == _plain(state.observation(0).to_json())
    assert seen["observation"] == _plain(state.observation(None).to_json())
    assert mine["status"] == ("finished" if state.is_terminal() else "playing")


def _plain(document: Any) -> Any:
    """``document`` as it travels: through JSON and back."""
    import msgspec

    return msgspec.json.decode(msgspec.json.encode(document))


def _dump(data: dict[str, Any]) -> str:
    import json

    try:
        return json.dumps(data)
    except ValueError:  # NaN and friends: JSON text Python writes but the standard forbids
        return json.dumps(data, allow_nan=True)
