"""Every message the server sends during whole games is the viewer's own redacted view.

Whole games are played through the server's real message path (a :class:`Hub` on an SQLite
file, messages in and out as JSON) and every message each seat and a watcher received is
kept. Then, move by move, the hidden cards are dealt anew consistently with what the viewer
knows: a world is sampled from the viewer's observation before the move, the same move is
applied to it, and the world counts when the viewer's observation afterwards is the same as
in the real game (so it agrees with everything the viewer knows, including what the move
revealed). The message built from such a world must be exactly the message that was sent.
Watchers know less than any seat, so a world consistent with any seat's knowledge must give
the watcher the same message too. Only the final update's ``reveal`` (the whole deal, shown
to everyone once the game is over) is left out of the comparison, and the first view's events
when a sampled world carries no events of its own (the deal's events are then not compared).
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from kartentisch.core.protocol import State
from kartentisch.core.registry import load_game
from kartentisch.server.bots import BotPool
from kartentisch.server.outbox import QueueConn
from kartentisch.server.storage import Storage
from kartentisch.server.tables import (
    Conn,
    CreateTable,
    Hub,
    last_move,
    update_message,
)

TRIES = 16
"""Re-deals tried per message until one agrees with the viewer's knowledge."""


class Recorder(Conn):
    """A connection that keeps every message as the client would decode it."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[dict[str, Any]] = []

    def push(self, message: dict[str, Any]) -> None:
        self.messages.append(msgspec.json.decode(msgspec.json.encode(message)))


async def play_whole_game(db: Path, name: str, players: int, seed: int
                          ) -> tuple[dict[str, Any], list[Recorder], Recorder, list[int]]:
    """Play one game of humans choosing at random; returns the table's row facts, the seats'
    and the watcher's recorders and the action ids in order."""
    hub = Hub(Storage(f"sqlite:///{db}"), BotPool(0))
    await hub.start()
    try:
        options = {"turn_limit": 20} if name == "krumme20" else {}
        made = await hub.create(CreateTable(game=name, players=players, options=options),
                                "http://test/")
        seats = [Recorder() for _ in range(players)]
        watcher = Recorder()
        for conn, token in [*zip(seats, [s["token"] for s in made["seats"]], strict=True),
                            (watcher, made["watch"]["token"])]:
            await hub.handle(conn, json.dumps({"v": 1, "type": "hello", "token": token}))
        # The table started when its last player joined; the views before the start showed
        # no legal moves. From here on each connection is checked: its whole view, then
        # every move's update.
        for conn in [*seats, watcher]:
            waiting = [m for m in conn.messages if m["type"] == "update" and not m["started"]]
            assert all(m["legal"] == [] and m["move"] == 0 for m in waiting)
            conn.messages.clear()
            await hub.handle(conn, json.dumps({"v": 1, "type": "sync"}))
        rng = random.Random(seed)
        table = hub.tables[made["table"]]
        while not table.finished:
            mover = seats[table.state.current_player]
            latest = [m for m in mover.messages if m["type"] == "update"][-1]
            choice = rng.choice(latest["legal"])
            await hub.handle(mover, json.dumps({"v": 1, "type": "move", "move": latest["move"],
                                                "action": choice["id"]}))
        assert not [m for c in [*seats, watcher] for m in c.messages if m["type"] == "error"]
        facts = {"id": table.id, "seed": table.row.seed, "options": table.row.options}
        actions = [m.action for m in hub.storage.moves_since(table.id, 0)]
        return facts, seats, watcher, actions
    finally:
        await hub.stop()


def comparable(message: dict[str, Any], keys: Any) -> dict[str, Any]:
    return {k: v for k, v in message.items() if k != "reveal" and k in keys}


@pytest.mark.parametrize(("name", "players"), [
    ("krumme20", 3), ("casino", 2), ("krass-kariert", 4)])
def test_no_message_changes_when_hidden_cards_are_dealt_anew(
        name: str, players: int, tmp_path: Path) -> None:
    facts, seats, watcher, actions = asyncio.run(
        play_whole_game(tmp_path / "views.sqlite3", name, players, seed=len(name)))
    game = load_game(name, players, facts["options"])
    states: list[State[Any, Any]] = [game.new_initial_state(facts["seed"])]
    movers = []
    for aid in actions:
        state = states[-1].clone()
        movers.append(state.current_player)
        state.apply_id(aid)
        states.append(state)
    rng = random.Random(1)
    checked = total = 0
    viewers: list[tuple[int | None, Recorder]] = [*enumerate(seats), (None, watcher)]
    for viewer, conn in viewers:
        updates = [m for m in conn.messages if m["type"] == "update"]
        assert [u["move"] for u in updates] == list(range(len(actions) + 1))
        for update in updates:
            n = update["move"]
            total += 1
            for attempt in range(TRIES):
                knower = viewer if viewer is not None else (n + attempt) % players
                expected = redealt(game, states, movers, actions, n, viewer, knower, update,
                                   facts["id"], rng)
                if expected is not None:
                    assert comparable(expected, expected) == comparable(update, expected), (
                        f"{name}: the message to viewer {viewer} after move {n} depends on"
                        " cards it cannot know")
                    checked += 1
                    break
    # Most messages found a consistent re-deal (moves that reveal a random card rarely do).
    assert checked >= 0.5 * total, f"only {checked} of {total} messages could be checked"


def redealt(game: Any, states: list[State[Any, Any]], movers: list[int], actions: list[int],
            n: int, viewer: int | None, knower: int, sent: dict[str, Any], table_id: str,
            rng: random.Random) -> dict[str, Any] | None:
    """The message ``viewer`` would have got after move ``n`` in a world re-dealt
    consistently with ``knower``'s knowledge, or None if this re-deal does not agree."""
    real = states[n]
    if n == 0:  # the first view: a world re-dealt from the start
        world = game.sample_world(real.observation(knower), rng)
        if world.observation(knower).to_json() != real.observation(knower).to_json():
            return None
        message = update_message(
            table_id, game, world, moves=0, viewer=viewer, cursor=0, last=None,
            acting=viewer is not None and viewer == world.current_player,
            deadline=None, full=True)
        if not world.events:  # a sampled world starts without the deal's events
            del message["events"]
        return msgspec.json.decode(msgspec.json.encode(message))
    before = states[n - 1]
    world = game.sample_world(before.observation(knower), rng)
    seat, aid = movers[n - 1], actions[n - 1]
    if world.current_player != seat or not world.is_legal_id(aid):
        return None
    last = last_move(game, world, n - 1, seat, aid, "human")
    start = len(world.events)
    world.apply_id(aid, seat=seat)
    if world.observation(knower).to_json() != real.observation(knower).to_json():
        return None
    message = update_message(
        table_id, game, world, moves=n, viewer=viewer, cursor=start, last=last,
        acting=viewer is not None and not world.is_terminal()
        and viewer == world.current_player, deadline=None)
    message["events_from"] = sent["events_from"]
    return msgspec.json.decode(msgspec.json.encode(message))


def test_connections_with_the_same_view_share_one_encoded_message(tmp_path: Path) -> None:
    """Two watchers get byte-identical messages, the same as a connection of their own would
    get; a second device of one seat gets the seat's view without legal moves (it only
    watches while the first one plays); the mover's echo stays its own."""

    async def play() -> tuple[list[list[bytes]], list[dict[str, Any]]]:
        hub = Hub(Storage(f"sqlite:///{tmp_path / 'share.sqlite3'}"), BotPool(0))
        await hub.start()
        try:
            made = await hub.create(CreateTable(game="krumme20", players=2,
                                                options={"turn_limit": 12}), "http://test/")
            tokens = [s["token"] for s in made["seats"]]
            watch = made["watch"]["token"]
            conns = [QueueConn() for _ in range(5)]
            recorder = Recorder()
            for conn, token in [(conns[0], tokens[0]), (conns[1], tokens[0]),
                                (conns[2], tokens[1]), (conns[3], watch), (conns[4], watch),
                                (recorder, watch)]:
                await hub.handle(conn, json.dumps({"v": 1, "type": "hello", "token": token}))
            table = hub.tables[made["table"]]
            rng = random.Random(3)
            while not table.finished:
                mover = conns[0] if table.state.current_player == 0 else conns[2]
                aid = rng.choice(table.state.legal_action_ids())
                await hub.handle(mover, json.dumps({"v": 1, "type": "move", "ref": 7,
                                                    "move": table.moves, "action": aid}))
            out = []
            for conn in conns:
                frames = []
                while not conn.outbox.empty():
                    frame = conn.outbox.get_nowait()
                    assert frame is not None
                    frames.append(frame)
                out.append(frames)
            return out, recorder.messages
        finally:
            await hub.stop()

    everything, recorded = asyncio.run(play())
    # The moves' updates (the welcomes and seat lists differ by when each one joined).
    frames = [[f for f in conn if b'"type":"update"' in f and b'"full":false' in f]
              for conn in everything]
    decoded = [[msgspec.json.decode(f) for f in conn] for conn in frames]
    assert frames[3] == frames[4]  # both watchers: the very same bytes
    assert decoded[3] == [m for m in recorded if m["type"] == "update" and not m["full"]]
    assert not any("ref" in m for m in decoded[3])
    seat0, twin = decoded[0], decoded[1]
    assert len(seat0) == len(twin)
    echoed = 0
    for mine, other in zip(seat0, twin, strict=True):
        # the second device of seat 0 only watches the seat (one connection plays it): the
        # same view without legal moves; the mover's own update echoes ref, the twin's not
        assert other["legal"] == []
        echoed += "ref" in mine
        assert {k: v for k, v in mine.items() if k not in ("ref", "legal")} == \
            {k: v for k, v in other.items() if k != "legal"}
    assert echoed > 5 and any(m["legal"] for m in seat0)
    assert [m["move"] for m in decoded[2] if m["type"] == "update"][-1] == \
        [m["move"] for m in seat0 if m["type"] == "update"][-1]
