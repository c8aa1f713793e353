"""Teams in the arena, with Krumme20's team game: which bots form a team, rotations that keep
partners together, team results with Wilson intervals, the JSON summary and the command."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from kartentisch.arena import run_arena, schedule
from kartentisch.arena.stats import outcome_flags, wilson_interval
from kartentisch.arena.teams import (
    team_lineup,
    team_of_seats,
    team_returns,
    team_rotations,
)
from kartentisch.cli.arena import make_arena_command

PAIRS = {"teams": "pairs", "turn_limit": 6}
"""Krumme20's teams of two, with a short draw pile (quick games)."""


def test_team_rotations_move_whole_teams() -> None:
    assert team_rotations((), 3) == [0, 1, 2]
    assert team_rotations(((0, 2), (1, 3)), 4) == [0, 1, 2, 3]
    assert team_rotations(((0, 3), (1, 4), (2, 5)), 6) == list(range(6))
    assert team_rotations(((0, 2, 4), (1, 3, 5)), 6) == list(range(6))
    assert team_rotations(((0, 1), (2, 3)), 4) == [0, 2]  # neighbours: only half turns
    with pytest.raises(ValueError):
        team_of_seats(((0, 1), (1, 2)), 3)
    with pytest.raises(ValueError):
        team_of_seats(((0,), (1,)), 3)


def test_a_schedule_of_team_rotations_never_splits_partners() -> None:
    teams = ((0, 1), (2, 3))
    games = schedule(7, 4, 8, rotations=team_rotations(teams, 4))
    assert len(games) == 8 and [g.rotation for g in games[:2]] == [0, 2]
    assert len({g.deal_seed for g in games}) == 4  # groups of two games share a deal
    for g in games:
        for seats in teams:  # entrants 0+1 and 2+3 always sit together
            assert {g.entrants[s] // 2 for s in seats} in ({0}, {1})
    with pytest.raises(ValueError):
        schedule(7, 4, 8, rotations=[1, 2])


def test_one_bot_per_team_plays_all_of_its_seats() -> None:
    assert team_lineup(["a", "b"], ((0, 2), (1, 3)), 4) == ["a", "b", "a", "b"]
    assert team_lineup(["a", "b", "c"], ((0, 3), (1, 4), (2, 5)), 6) == [
        "a", "b", "c", "a", "b", "c"]
    assert team_lineup(["a", "b", "c", "d"], ((0, 2), (1, 3)), 4) == ["a", "b", "c", "d"]
    assert team_lineup(["a", "b"], (), 2) == ["a", "b"]
    assert team_returns([1.0, 0.0, 0.5, 0.0], ((0, 2), (1, 3))) == [0.75, 0.0]


def _team_games(result: Any) -> list[tuple[list[str], list[float]]]:
    return [(record["seats"], record["returns"]) for record in result.records]


def test_krumme20_teams_are_reported_as_teams() -> None:
    result = run_arena("krumme20", "heuristic,random", 8, options=PAIRS, seed=3)
    assert result.players == 4 and result.teams == ((0, 2), (1, 3))
    assert result.lineup == ["heuristic", "random", "heuristic", "random"]
    summary = result.summary(timings=False)
    teams = summary["teams"]
    assert [(t["team"], t["bots"], t["seats"]) for t in teams] == [
        ("A", ["heuristic", "heuristic#2"], [0, 2]), ("B", ["random", "random#2"], [1, 3])]
    wins: Counter[str] = Counter()
    losses: Counter[str] = Counter()
    for seats, returns in _team_games(result):
        # partners sit in each other's team seats in every game, whatever the rotation
        formed = [{seats[s].partition("#")[0] for s in team} for team in result.teams]
        assert sorted(len(f) for f in formed) == [1, 1]
        assert returns[0] == returns[2] and returns[1] == returns[3]
        won, lost = outcome_flags(team_returns(returns, result.teams))
        for slot, team in enumerate(formed):
            wins[next(iter(team))] += won[slot]
            losses[next(iter(team))] += lost[slot]
    for team, name in zip(teams, ("heuristic", "random"), strict=True):
        assert team["games"] == 8
        assert (team["wins"], team["losses"]) == (wins[name], losses[name])
        assert team["win_share"] == team["wins"] / 8
        assert team["win_interval"] == list(wilson_interval(team["wins"], 8))
        assert team["loss_interval"] == list(wilson_interval(team["losses"], 8))
    assert teams[0]["wins"] == teams[1]["losses"] and teams[0]["losses"] == teams[1]["wins"]
    assert teams[0]["wins"] > teams[1]["wins"]  # the heuristic pair beats the random one
    # every bot played every seat once per deal: the rotations moved whole teams
    sat = Counter((seats.index(label), label) for seats, _ in _team_games(result)
                  for label in seats)
    assert set(sat.values()) == {2} and len(sat) == 16


def test_one_bot_per_seat_forms_teams_by_seat_and_six_players_make_three_pairs() -> None:
    result = run_arena("krumme20", "heuristic,random,random,heuristic", 4, options=PAIRS)
    assert [t.bots for t in result.team_stats] == [("heuristic", "random#2"),
                                                    ("random", "heuristic#2")]
    three = run_arena("krumme20", "heuristic,random,random", 6, options=PAIRS, seed=1)
    assert three.players == 6 and three.teams == ((0, 3), (1, 4), (2, 5))
    assert [t.bots for t in three.team_stats] == [
        ("heuristic", "heuristic#2"), ("random", "random#3"), ("random#2", "random#4")]
    assert sum(t.games for t in three.team_stats) == 18
    plain = run_arena("krumme20", "heuristic,random", 2, options={"turn_limit": 6})
    assert plain.teams == () and "teams" not in plain.summary()


def test_casino_partnerships_are_teams_too() -> None:
    result = run_arena("casino", "heuristic,random", 4, options={"partnerships": True})
    assert result.players == 4 and result.teams == ((0, 2), (1, 3))
    assert [t.bots for t in result.team_stats] == [("heuristic", "heuristic#2"),
                                                    ("random", "random#2")]
    assert sum(t.wins + t.losses for t in result.team_stats) == 8  # no draws in Casino
    alone = run_arena("casino", "heuristic,random,random,random", 4)
    assert alone.teams == () and alone.team_stats == []


def _arena(*args: str) -> Any:
    app = typer.Typer()
    app.command()(make_arena_command())
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "160"})


def test_the_command_prints_and_writes_the_teams(tmp_path: Path) -> None:
    summary = tmp_path / "summary.json"
    run = _arena("krumme20", "--bots", "heuristic,random", "-o", "teams=pairs",
                 "-o", "turn_limit=6", "-n", "4", "--no-progress", "--summary", str(summary))
    assert run.exit_code == 0, run.output
    assert "Team A" in run.output and "Team B" in run.output
    assert "heuristic, heuristic#2" in run.output and "random, random#2" in run.output
    data = json.loads(summary.read_text())
    assert data["players"] == 4 and [t["team"] for t in data["teams"]] == ["A", "B"]
    assert data["teams"][0]["bots"] == ["heuristic", "heuristic#2"]
    wrong = _arena("krumme20", "--bots", "heuristic,random,random", "-o", "teams=pairs",
                   "--players", "4", "-n", "4", "--no-progress", "--lang", "de")
    assert wrong.exit_code == 2
    assert "einen Bot je Team (2) oder einen je Platz (4), nicht 3" in wrong.output
    five = _arena("krumme20", "--bots", "heuristic*5", "-o", "teams=pairs", "-n", "5",
                  "--no-progress")
    assert five.exit_code == 2 and "5" in five.output and "Traceback" not in five.output
