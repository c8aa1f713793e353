"""The Krumme20 heuristic: sensible single decisions, and it beats random play."""

from __future__ import annotations

from kartentisch.bots import make_bot
from kartentisch.games.krumme20 import K20State, Krumme20
from kartentisch.games.krumme20.heuristic import HeuristicBot


def choose(state: K20State) -> str:
    bot = HeuristicBot(state.game, 0)
    seat = state.current_player
    action = bot.act(state.observation(seat), state.legal_actions())
    return state.game.format_action(action)


def test_plays_the_known_card_that_makes_twenty(build) -> None:
    known = {"up_known": [0, 1, 2], "down_known": [0, 1, 2]}
    state = build(hands=[[{"card": "1/2", **known}, {"card": "1/5", **known}, "0/0"], ["4/1"],
                         ["5/5"]], ablage=["5/5", "5/0", "5/3"])
    assert choose(state) == "p2"  # 15 + 5


def test_avoids_a_likely_foul_and_uses_the_four(build) -> None:
    safe = {"card": "3/0", "up_known": [0, 1, 2], "down_known": [0, 1, 2]}
    state = build(hands=[["5/1", safe], ["4/1"], ["5/5"]], ablage=["5/5", "5/4", "2/2"])
    assert choose(state) == "p2"  # 17: the known 0 rather than a gamble on an unknown side
    four = build(hands=[["2/4", "0/0"], ["4/1"], ["5/5"]])
    four.apply(four.game.parse_action("p1", four))
    assert choose(four) == "sitout"


def test_takes_compensations_and_claims_only_certain_sets(build) -> None:
    state = build(hands=[["0/5", "1/1", "2/2"], ["3/3", "1/2"], ["2/2", "1/0"]],
                  ablage=["5/4", "5/1", "4/3", "2/3"])
    state.apply(state.game.parse_action("p1", state))  # 16 + 5: a foul
    assert choose(state) == "low 2"
    sure = build(hands=[["5/1", "5/0", "4/2", "4/4", "2/3"], ["4/1"], ["5/5"]])
    assert choose(sure) == "sum up"
    unsure = build(hands=[["1/5", "0/5", "2/5", "3/5"], ["4/1"], ["5/5"]])
    assert not choose(unsure).startswith("sum")


def test_beats_random_bots() -> None:
    game = Krumme20(3)
    share = 0.0
    games = 60
    for index in range(games):
        subject = index % 3
        bots = [make_bot("heuristic" if s == subject else "random", game, index * 8 + s)
                for s in range(3)]
        state = game.new_initial_state(index)
        while not state.is_terminal():
            seat = state.current_player
            state.apply(bots[seat].act(state.observation(seat), state.legal_actions()))
        share += state.returns()[subject]
    assert share / games > 0.55  # random's share is 1/3; measured about 0.8
