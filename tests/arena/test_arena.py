"""The arena: seat rotation, duplicate deals, determinism, records, ratings and the command."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from kartentisch.arena import parse_lineup, play_game, run_arena, schedule, wilson_interval
from kartentisch.arena.runner import GameTask, read_jsonl
from kartentisch.arena.stats import outcome_flags
from kartentisch.bots.registry import register_bot
from kartentisch.cli.arena import arena_command
from kartentisch.core.errors import KartentischError
from kartentisch.core.records import GameRecord


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_entrant_sits_in_every_seat_equally(players: int) -> None:
    games = schedule(9, players, 5 * players)
    assert len(games) == 5 * players
    seats = Counter((g.entrants[seat], seat) for g in games for seat in range(players))
    assert set(seats.values()) == {5}
    assert len(seats) == players * players
    for g in games:
        assert sorted(g.entrants) == list(range(players))


def test_duplicate_deals_share_seeds_within_a_group_only() -> None:
    games = schedule(3, 4, 12)
    by_group: dict[int, set[int]] = {}
    for g in games:
        by_group.setdefault(g.group, set()).add(g.deal_seed)
    assert all(len(seeds) == 1 for seeds in by_group.values())
    assert len({next(iter(s)) for s in by_group.values()}) == 3
    plain = schedule(3, 4, 12, duplicate=False)
    assert len({g.deal_seed for g in plain}) == 12
    assert len({s for g in games for s in g.bot_seeds}) == 48
    assert schedule(4, 4, 12) != games


def test_games_round_up_to_whole_rotations() -> None:
    assert len(schedule(0, 3, 7)) == 9


def test_lineup_parsing() -> None:
    assert parse_lineup("ismcts:iterations=5,heuristic*2") == [
        "ismcts:iterations=5", "heuristic", "heuristic"]
    with pytest.raises(ValueError):
        parse_lineup(" , ")


def _summary(**kwargs: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    result = run_arena("krass-kariert", "heuristic,random*2", 6, seed=5, **kwargs)
    return result.summary(timings=False), result.records


def test_results_do_not_depend_on_workers() -> None:
    one = _summary(workers=1)
    assert one == _summary(workers=1)
    assert one == _summary(workers=2)


def test_duplicate_games_replay_the_same_deal_with_bots_rotated() -> None:
    result = run_arena("krass-kariert", "heuristic,random,random", 6, seed=2)
    records = result.records
    assert records[0]["seed"] == records[1]["seed"] == records[2]["seed"] != records[3]["seed"]
    assert records[0]["seats"] == ["heuristic", "random", "random#2"]
    assert records[1]["seats"] == ["random#2", "heuristic", "random"]
    assert [r["index"] for r in records] == list(range(6))


def test_records_round_trip_through_jsonl_and_replay(tmp_path: Path) -> None:
    result = run_arena("krass-kariert", "heuristic*3", 3, seed=8)
    path = tmp_path / "games.jsonl"
    result.write_jsonl(path)
    lines = path.read_text().splitlines()
    assert len(lines) == 3
    records = read_jsonl(path)
    for record, original in zip(records, result.records, strict=True):
        assert record.to_json() == original
        state = record.replay()  # raises if the actions or the returns do not replay
        assert state.is_terminal()
        assert state.returns() == pytest.approx(record.returns)
    assert GameRecord.load(path).seed == records[0].seed


def test_ratings_and_shares_are_computed() -> None:
    result = run_arena("krass-kariert", "heuristic,random*3", 8, seed=1)
    h, r = result.stats["heuristic"], result.stats["random"]
    assert h.games == r.games == 8
    assert h.sigma < 25 / 3 and r.sigma < 25 / 3
    assert h.mu > r.mu and h.ordinal == pytest.approx(h.mu - 3 * h.sigma)
    assert h.loss_share < r.loss_share
    lo, hi = h.loss_interval
    assert 0.0 <= lo <= h.loss_share <= hi <= 1.0
    assert len(h.move_seconds) > 0


def test_share_helpers() -> None:
    assert outcome_flags([1.0, -1.0, 1.0]) == ([True, False, True], [False, True, False])
    assert outcome_flags([0.0, 0.0]) == ([False, False], [False, False])
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(10, 10)
    assert hi == pytest.approx(1.0) and 0.69 < lo < 0.73


class IllegalBot:
    name = "illegal"

    def __init__(self, game: Any = None, seed: int = 0):
        pass

    def act(self, observation: Any, legal_actions: Any) -> Any:
        from kartentisch.games.krass_kariert.actions import TakeReserve

        return TakeReserve(0, 17)


def test_an_illegal_action_names_the_bot() -> None:
    with contextlib.suppress(KartentischError):  # registered by an earlier run
        register_bot("test-illegal", f"{__name__}:IllegalBot", game="krass-kariert")
    task = GameTask(0, "krass-kariert", 3, {}, 1, ("test-illegal", "random", "random"),
                    ("test-illegal", "random", "random#2"), (1, 2, 3))
    with pytest.raises(KartentischError, match="test-illegal"):
        play_game(task)


def test_wrong_number_of_bots_is_explained() -> None:
    with pytest.raises(KartentischError, match="needs 4 bots"):
        run_arena("krass-kariert", "random*3", 3, players=4)


def test_command_prints_a_table_and_writes_files(tmp_path: Path) -> None:
    app = typer.Typer()
    app.command("arena")(arena_command)
    app.command("other")(lambda: None)  # keep typer from collapsing to a single command
    out, plot, summary = tmp_path / "g.jsonl", tmp_path / "r.png", tmp_path / "s.json"
    result = CliRunner().invoke(app, [
        "arena", "krass-kariert", "--bots", "heuristic,random*2", "--games", "3",
        "--seed", "4", "--out", str(out), "--plot", str(plot), "--summary", str(summary),
        "--no-progress"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.output and "ordinal" in result.output
    assert len(out.read_text().splitlines()) == 3
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads(summary.read_text())["games"] == 3
    bad = CliRunner().invoke(app, ["arena", "krass-kariert", "--bots", "nobody*3",
                                   "--no-progress"])
    assert bad.exit_code == 2 and "Unknown bot 'nobody'" in bad.output


def _app() -> typer.Typer:
    app = typer.Typer()
    app.command("arena")(arena_command)
    app.command("other")(lambda: None)
    return app


@pytest.mark.parametrize("flag", ["--out", "--plot", "--summary"])
def test_output_paths_are_checked_before_any_game(flag: str, tmp_path: Path) -> None:
    played: list[int] = []
    for path, words in ((tmp_path, "it is a directory"),
                        (tmp_path / "missing" / "x.out", "does not exist")):
        result = CliRunner().invoke(_app(), [
            "arena", "krass-kariert", "--bots", "random*3", "--games", "3", "--no-progress",
            flag, str(path), "--lang", "en"], env={"COLUMNS": "200"})
        assert result.exit_code == 2, result.output
        said = " ".join(result.output.split())  # the console may wrap long paths
        assert words in said and "Traceback" not in said
        assert "wall time" not in said  # refused before playing
        played.append(result.exit_code)
    assert played == [2, 2]


def test_a_failed_write_is_reported(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    result = CliRunner().invoke(_app(), [
        "arena", "krass-kariert", "--bots", "random*3", "--games", "3", "--no-progress",
        "--plot", "/dev/full", "--lang", "en"], env={"COLUMNS": "200"})
    assert result.exit_code == 1
    assert "Cannot write /dev/full" in result.output and "Plot:" not in result.output
    full = CliRunner().invoke(_app(), [
        "arena", "krass-kariert", "--bots", "random*3", "--games", "3", "--no-progress",
        "--out", "/dev/full", "--lang", "en"], env={"COLUMNS": "200"})
    assert full.exit_code == 1 and "Cannot write" in full.output


def test_one_bot_fills_the_game_s_usual_seats(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    result = CliRunner().invoke(_app(), [
        "arena", "casino", "--bots", "random", "--games", "2", "--no-progress",
        "--out", str(out)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    records = read_jsonl(out)
    assert [r.players for r in records] == [2, 2]
    assert [r.index for r in records] == [0, 1]


def test_help_names_the_values() -> None:
    result = CliRunner().invoke(_app(), ["arena", "--help"],
                                env={"COLUMNS": "200", "LANG": "C"})
    assert result.exit_code == 0
    assert "-o" in result.output and "KEY=VALUE" in result.output
    assert "time left" in result.output and "--lang" in result.output


def test_records_stream_in_index_order_and_memory_is_not_kept() -> None:
    import io

    buffer = io.StringIO()
    result = run_arena("krass-kariert", "random*3", 9, seed=3, workers=2, out=buffer,
                       keep=False)
    assert result.outcomes == [] and result.games == 9
    lines = [json.loads(line) for line in buffer.getvalue().splitlines()]
    assert [r["index"] for r in lines] == list(range(9))
    kept = run_arena("krass-kariert", "random*3", 9, seed=3)
    assert lines == kept.records
    assert result.summary(timings=False) == kept.summary(timings=False)


def test_ratings_in_place_equal_openskill_rate() -> None:
    import random as _random

    from kartentisch.arena.stats import Ratings

    labels = ["a", "b", "c", "d"]
    fast, slow = Ratings(labels), Ratings(labels)
    assert fast._fast
    slow._fast = False  # openskill's own rate()
    rng = _random.Random(4)
    for _ in range(300):
        seats = rng.sample(labels, rng.choice([2, 3, 4]))
        returns = [float(rng.choice([-1, 0, 0.5, 1, 2])) for _ in seats]
        fast.update(seats, returns)
        slow.update(seats, returns)
        for label in labels:
            assert fast.mu_sigma(label) == slow.mu_sigma(label)
