"""Krumme20's team variant, a reconstruction: the sheet 2/3 recommends it ("Spielt bei 4 bis
6 Spielern in der Team-Variante") and leaves it to sheet 3/3, which is not among our texts.
Every rule here is the project's reading (docs/rules/krumme20.md, "Team variant")."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.krumme20.conftest import Build
from tests.krumme20.test_properties import check_invariants, examples

from kartentisch.bots import make_bot
from kartentisch.core.errors import InvalidOptionsError
from kartentisch.core.registry import descriptor, load_game
from kartentisch.games.krumme20 import K20State
from kartentisch.games.krumme20.actions import ACTIONS, Flip, Take, action_id
from kartentisch.games.krumme20.rollout import rollout_action
from kartentisch.games.krumme20.search import evaluate
from kartentisch.games.krumme20.teams import team_of, team_points, team_seats
from kartentisch.testing import QUICK, check_game


def after(state: K20State, *moves: str) -> K20State:
    for move in moves:
        state.apply(state.game.parse_action(move, state))
    return state


def pass_to_the_end(state: K20State) -> K20State:
    """Decline every further step until the game is over."""
    while not state.is_terminal():
        after(state, "pass")
    return state


def play_out(state: K20State, seed: int) -> K20State:
    rng = random.Random(seed)
    while not state.is_terminal():
        check_invariants(state)
        check_team_invariants(state)
        ids = state.legal_action_ids()
        state.apply_id(ids[rng.randrange(len(ids))])
    check_invariants(state)
    check_team_invariants(state)
    return state


def check_team_invariants(state: K20State) -> None:
    """Team scores are the members' sums; observations say the teams; the end is by team."""
    teams = team_seats(state.game.options.teams, state.game.players)
    points = state.final_scores()
    assert state.team_scores() == [sum(points[s] for s in t) for t in teams]
    for seat in (None, *range(state.game.players)):
        obs = state.observation(seat)
        assert obs.teams == teams
        assert list(obs.team_points) == state.team_scores()
    if state.is_terminal():
        totals = state.team_scores()
        best = max(totals)
        won_teams = [t for t, v in enumerate(totals) if v == best]
        returns = state.returns()
        for t, seats in enumerate(teams):
            for s in seats:  # every member of a winning team gets the team's share
                assert returns[s] == (1.0 / len(won_teams) if t in won_teams else 0.0)
        assert sorted(state.winners()) == sorted(s for t in won_teams for s in teams[t])


# ---------------------------------------------------------------- seating and options

@pytest.mark.parametrize(("mode", "players", "teams"), [
    ("pairs", 4, ((0, 2), (1, 3))),
    ("pairs", 6, ((0, 3), (1, 4), (2, 5))),
    ("trios", 6, ((0, 2, 4), (1, 3, 5))),
    ("none", 3, ()),
])
def test_teammates_sit_alternately(mode: str, players: int, teams: Any) -> None:
    # reconstruction: teams sit alternately, so turns pass from team to team
    game = load_game("krumme20", players, {"teams": mode})
    assert descriptor("krumme20").teams(game) == teams == game.teams()  # type: ignore[attr-defined]
    team = team_of(mode, players)
    if teams:
        assert all(team[s] != team[(s + 1) % players] for s in range(players))


@pytest.mark.parametrize(("mode", "players", "allowed"), [
    ("pairs", 2, "4, 6"), ("pairs", 3, "4, 6"), ("pairs", 5, "4, 6"),
    ("trios", 4, "6"), ("trios", 5, "6"),
])
def test_team_play_refuses_other_player_counts(mode: str, players: int, allowed: str) -> None:
    # "Spielt bei 4 bis 6 Spielern in der Team-Variante": five cannot sit in equal
    # alternating teams, so 4 and 6 only (reconstruction)
    with pytest.raises(InvalidOptionsError) as caught:
        load_game("krumme20", players, {"teams": mode})
    assert caught.value.code == "k20.team_players"
    assert caught.value.params == {"value": mode, "allowed": allowed, "players": players}
    assert f"player counts only: {allowed}; not {players}" in str(caught.value)


@pytest.mark.parametrize("option", [{"team_targets": False}, {"team_foul_reward": True}])
def test_team_options_need_teams(option: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptionsError) as caught:
        load_game("krumme20", 4, option)
    assert caught.value.code == "k20.team_option_alone"
    assert caught.value.params == {"name": next(iter(option))}


def test_without_teams_nothing_changes() -> None:
    # team=none is the base game: no team fields in an observation, every seat its own team
    game = load_game("krumme20", 4)
    state = game.new_initial_state(5)
    assert "teams" not in state.observation(0).to_json()
    assert descriptor("krumme20").teams(game) == ()
    assert state.team == [0, 1, 2, 3] and not state.teamed


def test_team_points_sum_members() -> None:
    assert team_points([3, 4, 5, 6], team_of("pairs", 4)) == [8, 10]
    assert team_points([1, 2, 3, 4, 5, 6], team_of("pairs", 6)) == [5, 7, 9]
    assert team_points([1, 2, 3, 4, 5, 6], team_of("trios", 6)) == [9, 12]


# ---------------------------------------------------------------- scoring and the end

def test_the_team_with_the_most_points_wins_though_a_rival_seat_has_more(build: Build) -> None:
    # reconstruction: a team's score is the sum of its members' Punktestapel; seat 1 has the
    # most points alone, but seats 0+2 together have more
    state = build(players=4, hands=[["1/1"], [], [], []],
                  scores=[["5/5", "4/4"], ["5/5", "5/0", "3/3"], ["4/4", "2/2"], ["0/0"]],
                  options={"teams": "pairs", "end": "immediate"}, rest="abwurf",
                  ablage=["2/2"], final_turns=0)
    pass_to_the_end(after(state, "p1"))
    assert state.final_scores() == [9, 13, 6, 0]
    assert state.team_scores() == [15, 13]
    assert state.winners() == [0, 2]
    assert state.returns() == [1.0, 0.0, 1.0, 0.0]
    assert state.events[-1].data == {"scores": [9, 13, 6, 0], "team_scores": [15, 13],
                                     "teams": [[0, 2], [1, 3]], "winners": [0, 2]}


def test_tied_teams_share_the_win(build: Build) -> None:
    # as in the base game, equal totals share the win; every member gets the team's share
    state = build(players=6, hands=[["1/1"], [], [], [], [], []],
                  scores=[["5/5"], ["4/4"], ["0/0"], [], ["1/1"], ["2/2"]],
                  options={"teams": "pairs", "end": "immediate"}, rest="abwurf",
                  ablage=["2/2"], final_turns=0)
    pass_to_the_end(after(state, "p1"))
    assert state.team_scores() == [5, 5, 2]
    assert state.returns() == [0.5, 0.5, 0.0, 0.5, 0.5, 0.0]


# ---------------------------------------------------------------- fouls and targets

def _foul(build: Build, **options: Any) -> K20State:
    """Seat 0 goes over 20 in a 4-player team game (teams 0+2 and 1+3)."""
    return after(build(players=4, hands=[["0/5", "1/1"], ["3/3", "1/2"], ["2/2", "1/0"],
                                         ["4/4", "0/1"]],
                       ablage=["5/4", "5/1", "4/3", "2/3"],
                       options={"teams": "pairs", **options}), "p1")


def test_a_foul_rewards_only_the_opponents(build: Build) -> None:
    # the sheet: "alle anderen Spieler" may bank their lowest card; reconstruction: in the
    # team game only the fouler's opponents, so a team never gains by its own foul
    state = _foul(build)
    assert state.fouls[0] == 1
    assert state.phase == "foul" and state.current_player == 1
    assert [q for q in state.queue if q[0] == "foul"] == [("foul", 3)]


def test_the_option_keeps_the_literal_all_other_players(build: Build) -> None:
    # option team_foul_reward: the sheet's literal "alle anderen Spieler", teammates too
    state = _foul(build, team_foul_reward=True)
    assert state.current_player == 1
    assert [q for q in state.queue if q[0] == "foul"] == [("foul", 2), ("foul", 3)]


def _take(build: Build, **options: Any) -> K20State:
    """Seat 0 has played a 1 in a 4-player team game and may take a card."""
    return after(build(players=4, hands=[["2/1", "2/3"], ["4/1"], ["3/0", "1/1"], ["5/5"]],
                       options={"teams": "pairs", **options}), "p1")


def test_a_teammate_is_a_target_by_default(build: Build) -> None:
    # "eine persönliche Karte eines Mitspielers": the sheet names no exception, so teammates
    # are targets unless the option team_targets says no (reconstruction)
    state = _take(build)
    assert action_id(Take(2, 0)) in state.legal_action_ids()
    assert action_id(Take(1, 0)) in state.legal_action_ids()


def test_the_option_spares_teammates_from_the_one_and_the_zero(build: Build) -> None:
    state = _take(build, team_targets=False)
    legal = {ACTIONS[i] for i in state.legal_action_ids()}
    assert Take(2, 0) not in legal and Take(2, 1) not in legal
    assert Take(1, 0) in legal and Take(3, 0) in legal
    flip = after(build(players=4, hands=[["1/0", "2/3"], ["4/1"], ["3/0", "1/1"], ["5/5"]],
                       options={"teams": "pairs", "team_targets": False}), "p1")
    legal = {ACTIONS[i] for i in flip.legal_action_ids()}
    assert Flip(0, 0) in legal and Flip(1, 0) in legal  # own and opponents' cards
    assert Flip(2, 0) not in legal and Flip(2, 1) not in legal


def test_a_four_always_hits_an_opponent(build: Build) -> None:
    # "den nächsten Spieler in Spielreihenfolge": in every seating the next seat is an
    # opponent, so the 4 needs no team rule
    for mode, players in (("pairs", 4), ("pairs", 6), ("trios", 6)):
        team = team_of(mode, players)
        assert all(team[(s + 1) % players] != team[s] for s in range(players))


# ---------------------------------------------------------------- search and knowledge

def test_the_evaluation_gives_teammates_the_same_chance() -> None:
    # a search's estimate never sets a seat against its own teammate
    for mode, players in (("pairs", 4), ("pairs", 6), ("trios", 6)):
        game = load_game("krumme20", players, {"teams": mode})
        state = game.new_initial_state(3)
        rng = random.Random(3)
        for _ in range(60):
            if state.is_terminal():
                break
            ids = state.legal_action_ids()
            state.apply_id(ids[rng.randrange(len(ids))])
        values = evaluate(state)
        for seats in team_seats(mode, players):
            assert len({values[s] for s in seats}) == 1
        teams = len(team_seats(mode, players))
        assert sum(values[t[0]] for t in team_seats(mode, players)) == pytest.approx(1.0)
        assert teams >= 2


def test_teammates_see_nothing_more_of_each_other() -> None:
    # reconstruction: no rule lets teammates look at each other's cards; an observation of a
    # team game shows exactly what the same game without teams shows (with the fouls'
    # literal reward, the team game's moves are the base game's, so both can play on)
    solo = load_game("krumme20", 4, {"peek_own": True})
    team = load_game("krumme20", 4, {"peek_own": True, "teams": "pairs",
                                     "team_foul_reward": True})
    a, b = solo.new_initial_state(9), team.new_initial_state(9)
    rng = random.Random(9)
    for _ in range(80):
        if a.is_terminal():
            break
        for seat in range(4):
            left = a.observation(seat).to_json()
            right = b.observation(seat).to_json()
            right.pop("teams"), right.pop("team_points")
            assert left == right
        ids = a.legal_action_ids()
        assert ids == b.legal_action_ids()
        aid = ids[rng.randrange(len(ids))]
        a.apply_id(aid)
        b.apply_id(aid)


# ---------------------------------------------------------------- invariants

@settings(max_examples=examples(12, 200), deadline=None)
@given(seed=st.integers(0, 2**31), layout=st.sampled_from(
    [("pairs", 4), ("pairs", 6), ("trios", 6)]),
    targets=st.booleans(), reward=st.booleans(), peek=st.booleans())
def test_team_games_keep_every_invariant(seed: int, layout: tuple[str, int], targets: bool,
                                         reward: bool, peek: bool) -> None:
    # cards conserved, team scores = sums of members' piles, the end by team
    mode, players = layout
    game = load_game("krumme20", players, {"teams": mode, "team_targets": targets,
                                           "team_foul_reward": reward, "peek_own": peek})
    play_out(game.new_initial_state(seed), seed)


@pytest.mark.parametrize("options", [
    {"teams": "pairs"}, {"teams": "trios"},
    {"teams": "pairs", "team_targets": False, "team_foul_reward": True},
], ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_six_player_team_games_pass_the_conformance_checks(options: dict[str, Any]) -> None:
    # the generic suite covers each team option at its first allowed count (four players);
    # six players (three pairs, two trios) here
    report = check_game("krumme20", 6, options, games=1, seed=60, depth=QUICK)
    assert report.games == 1 and report.actions > 0


def test_the_heuristic_and_its_playouts_never_work_against_a_teammate() -> None:
    # a bot that takes or turns its teammate's cards, or whose playouts do, would play
    # against its own team: in team games neither ever targets a teammate
    for mode, players in (("pairs", 4), ("trios", 6)):
        game = load_game("krumme20", players, {"teams": mode})
        team = team_of(mode, players)
        checked = 0
        for seed in range(3):
            state = game.new_initial_state(seed)
            bots = [make_bot("heuristic", game, seat) for seat in range(players)]
            while not state.is_terminal():
                seat = state.current_player
                legal = state.legal_actions()
                chosen = bots[seat].act(state.observation(seat), legal)
                fast = rollout_action(state, state.legal_action_ids(), random.Random(0))
                assert fast == action_id(chosen)
                if isinstance(chosen, Take | Flip) and chosen.seat != seat:
                    assert team[chosen.seat] != team[seat], (seed, chosen)
                checked += any(isinstance(a, Take | Flip) and a.seat != seat
                               and team[a.seat] == team[seat] for a in legal)
                state.apply(chosen)
        assert checked > 0  # the bots had the chance and did not take it


def test_a_search_bot_plays_a_team_game_to_the_end() -> None:
    game = load_game("krumme20", 4, {"teams": "pairs", "turn_limit": 12})
    state = game.new_initial_state(7)
    bots = [make_bot("ismcts", game, seat, iterations=8) if seat == 0
            else make_bot("heuristic", game, seat) for seat in range(4)]
    while not state.is_terminal():
        seat = state.current_player
        state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
    check_team_invariants(state)
