"""Game night storage and links: migration 0003, the new columns and journal writes on SQLite
and PostgreSQL, and the links derived from the server secret."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import sqlalchemy as sa
from tests.server.conftest import migrate_to

from kartentisch.server import links
from kartentisch.server.storage import ChatRow, SeatRow, Storage, TableRow, token_hash


def night_row(table_id: str) -> TableRow:
    return TableRow(id=table_id, game="krumme20", players=3, options={}, seed=7, clock=None,
                    listed=False, stand_in="heuristic", host_hash=token_hash("host"),
                    key_id="0123456789abcdef", watcher_chat=True, series="first",
                    series_no=2, seats=[SeatRow(0, "human", name="Anna", joined=True),
                                        SeatRow(1, "human", generation=3),
                                        SeatRow(2, "bot", "heuristic")])


def test_migration_0003_upgrades_a_0002_database(database: str) -> None:
    """A database at 0002 with a table in it upgrades: the old table counts as started and
    active when it was made, has no host, and its seats have no names and generation 0."""
    store = Storage(database)
    with migrate_to(store, "0002") as conn, conn.begin():
        conn.execute(sa.text(
            "INSERT INTO kt_tables (id, game, players, options, seed, clock, listed, stand_in,"
            " watch, status, returns, created_at, finished_at, hints) VALUES ('old', 'casino',"
            " 2, '{}', 5, NULL, TRUE, 'heuristic', NULL, 'playing', NULL, 42.0, NULL, TRUE)"))
        conn.execute(sa.text(
            "INSERT INTO kt_seats (table_id, seat, kind, bot, strength, \"left\", open) VALUES"
            " ('old', 0, 'human', NULL, NULL, FALSE, FALSE),"
            " ('old', 1, 'human', NULL, NULL, FALSE, TRUE)"))
    store.migrate()
    store.start()
    try:
        loaded = store.load_table("old")
        assert loaded is not None
        row, _moves = loaded
        assert (row.host_hash, row.key_id, row.watcher_chat) == (None, None, False)
        assert (row.started_at, row.last_active) == (42.0, 42.0)
        assert (row.series, row.series_no, row.rematch) == (None, 0, None)
        assert [(s.name, s.joined, s.generation, s.rematch, s.open) for s in row.seats] == [
            (None, False, 0, False, False), (None, False, 0, False, True)]
        assert store.chat("old") == [] and store.chat_count("old") == 0
        store.submit("chat", "old", ChatRow(0, 50.0, 0, None, "chat", "hallo")).result(10)
        assert [e.text for e in store.chat("old")] == ["hallo"]
    finally:
        store.close()


def test_the_night_columns_round_trip(storage: Storage) -> None:
    storage.submit("create", night_row("n1"), {"seat-token": 0}).result(10)
    row = storage.table_row("n1")
    assert row is not None
    assert (row.host_hash, row.key_id, row.watcher_chat, row.listed) == (
        token_hash("host"), "0123456789abcdef", True, False)
    assert (row.series, row.series_no, row.started_at) == ("first", 2, None)
    assert row.last_active == row.created_at
    assert [(s.name, s.joined, s.generation) for s in row.seats] == [
        ("Anna", True, 0), (None, False, 3), (None, False, 0)]
    assert storage.host_table("host") == "n1" and storage.host_table("nobody") is None


def test_seat_table_chat_and_relink_writes(storage: Storage) -> None:
    storage.submit("create", night_row("n2"), {"old-link": 1, "watch": None}).result(10)
    storage.submit("seat", "n2", 1, {"name": "Bo", "joined": True, "rematch": True}).result(10)
    storage.submit("table", "n2", {"started_at": 9.5, "rematch": "n3",
                                   "status": "closed"}).result(10)
    storage.submit("relink", "n2", 1, {"new-link": 1}).result(10)
    for n, (kind, text) in enumerate([("chat", "<b>x</b>"), ("react", "gg"),
                                      ("notice", "host.closed")]):
        entry = ChatRow(n, 100.0 + n, None if kind == "notice" else 0, "Anna", kind, text,
                        {"seat": 1} if kind == "notice" else None)
        storage.submit("chat", "n2", entry).result(10)
    with pytest.raises(ValueError, match="seat fields"):
        storage.submit("seat", "n2", 0, {"seed": 1}).result(10)
    with pytest.raises(RuntimeError):  # entry numbers are unique per table
        storage.submit("chat", "n2", ChatRow(0, 1.0, 0, None, "chat", "again")).result(10)
    row = storage.table_row("n2")
    assert row is not None
    assert (row.started_at, row.rematch, row.status) == (9.5, "n3", "closed")
    assert row.last_active == 102.0  # the latest log entry
    assert (row.seats[1].name, row.seats[1].joined, row.seats[1].rematch) == ("Bo", True, True)
    assert storage.resolve_link("old-link") is None
    assert storage.resolve_link("new-link") == ("n2", 1)
    assert storage.resolve_link("watch") == ("n2", None)
    assert set(storage.link_hashes("n2").values()) == {1, None}
    log = storage.chat("n2")
    assert [(e.n, e.kind, e.text) for e in log] == [
        (0, "chat", "<b>x</b>"), (1, "react", "gg"), (2, "notice", "host.closed")]
    assert log[2].params == {"seat": 1} and log[0].to_json()["at"] == 100000
    assert [e.n for e in storage.chat("n2", last=2)] == [1, 2]
    assert [e.n for e in storage.chat("n2", since=2)] == [2]
    assert storage.chat_count("n2") == 3


def test_a_move_makes_the_table_active(storage: Storage) -> None:
    storage.submit("create", night_row("n4"), {}).result(10)
    before = storage.table_row("n4")
    storage.submit("move", "n4", 0, 1, 0, "human").result(10)
    after = storage.table_row("n4")
    assert before is not None and after is not None
    assert after.last_active is not None and before.last_active is not None
    assert after.last_active >= before.last_active
    listed = storage.table_ids(active_since=after.last_active)
    assert "n4" in listed
    assert "n4" not in storage.table_ids(active_since=after.last_active + 60)


def test_links_are_derived_from_the_secret() -> None:
    secret = bytes(range(32))
    other = bytes(range(1, 33))
    token = links.seat_token(secret, "t", 1, 0)
    assert token == links.seat_token(secret, "t", 1, 0) and len(token) == 43
    assert len({token, links.seat_token(secret, "t", 1, 1), links.seat_token(secret, "t", 0),
                links.seat_token(other, "t", 1, 0), links.host_token(secret, "t"),
                links.watch_token(secret, "t")}) == 6
    assert links.key_id(secret) == links.key_id(bytes(range(32))) != links.key_id(other)
    assert len(links.key_id(secret)) == 16


def test_the_secret_file_is_made_once_and_private(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(links.SECRET_ENV, raising=False)
    path = links.default_secret_file(str(tmp_path / "tables.sqlite3"))
    assert path == tmp_path / "server-secret"
    first = links.load_secret(path)
    assert len(first) == 32 and links.load_secret(path) == first
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["server-secret"]  # no scratch file left
    monkeypatch.setenv(links.SECRET_ENV, "ab" * 32)
    assert links.load_secret(path) == bytes([0xAB] * 32)
    for bad in ("ab" * 31, "not hex"):
        monkeypatch.setenv(links.SECRET_ENV, bad)
        with pytest.raises(links.SecretError):
            links.load_secret(path)
