"""Krumme20's readings of the rule sheet that are rules options: one test per value.

Each test names in a comment the sheet's phrase it reads (``docs/rules/krumme20.md`` lists
every reading in its decision table). The default value of each option is today's rule.
"""

from __future__ import annotations

import pytest

from kartentisch.core.errors import IllegalActionError
from kartentisch.games.krumme20 import K20State, Krumme20
from kartentisch.games.krumme20.heuristic import HeuristicBot
from kartentisch.games.krumme20.rollout import situation


def act(state: K20State, text: str) -> None:
    state.apply(state.game.parse_action(text, state))


def legal(state: K20State) -> list[str]:
    return [state.game.format_action(a) for a in state.legal_actions()]


def texts(state: K20State, cards: list[int]) -> list[str]:
    return [state.card_text(c) for c in cards]


# ------------------------------------------------------------ three_zeros_action ("!")
# The sheet: the revealed sides' actions "können nicht zusätzlich zu jener der zuletzt
# gespielten 0 ausgelöst werden": not in addition to the third 0's action.
@pytest.mark.parametrize(("reading", "step"), [("zero", "flip"), ("revealed", "take")])
def test_three_zeros_action_zero_or_revealed_side(build, reading: str, step: str) -> None:
    state = build(hands=[["1/0", "2/2"], ["4/1"], ["5/5"]], ablage=["5/5", "0/3", "0/4"],
                  zeros=2, options={"three_zeros_action": reading})
    act(state, "p1")  # the third 0: all three turn over, 5 + 3 + 4 + 1 = 13
    assert state.total == 13 and texts(state, state.ablage)[-1] == "1/0"
    # zero: the 0's own action (turn a card over); revealed: the 1's (take a card) instead
    assert (state.phase, state.current_player) == (step, 0)
    assert state.value == (0 if reading == "zero" else 1)


def test_three_zeros_revealed_two_draws_up_to_two(build) -> None:
    state = build(hands=[["2/0", "1/1"], ["4/1"], ["5/5"]], ablage=["0/3", "0/4"], zeros=2,
                  options={"three_zeros_action": "revealed"})
    act(state, "p1")  # 3 + 4 + 2 = 9; the third card now shows 2: the 2's draws
    assert state.phase == "draw" and legal(state) == ["draw", "pass"]
    act(state, "draw")
    act(state, "draw")
    assert len(state.hands[0]) == 3


def test_three_zeros_revealed_foul_grants_no_action(build) -> None:
    # "Wer die dritte 0 gespielt hat, haftet für die neue Summe": over 20 is a foul, and a
    # foul play grants no action (foul_keeps_action=false) in either reading.
    state = build(hands=[["1/0", "2/2"], ["4/1"], ["5/5"]],
                  ablage=["4/4", "4/4", "0/5", "0/4"], zeros=2,
                  options={"three_zeros_action": "revealed"})
    act(state, "p1")  # 4 + 4 + 5 + 4 + 1 = 18: lawful, the new side's 1 acts
    assert state.fouls[0] == 0 and state.phase == "take"
    over = build(hands=[["4/0", "2/2"], ["4/1"], ["5/5"]],
                 ablage=["4/4", "4/4", "0/5", "0/4"], zeros=2,
                 options={"three_zeros_action": "revealed"})
    act(over, "p1")  # 4 + 4 + 5 + 4 + 4 = 21: the fouler's action is gone
    assert over.fouls[0] == 1 and over.phase == "foul"
    while over.phase == "foul":
        act(over, "pass")
    assert over.turn == 1  # the rewards done, the turn passed: no 4's action for seat 0


# ------------------------------------------------------------ last_card_crosswise
# The sheet doubles only where it says so: the 5 on 15 "(ggf. quer = verdoppelt)" and a
# 3/3 set that leaves "keine persönlichen Karten mehr".
@pytest.mark.parametrize(("reading", "crosswise"), [("any_card", True), ("five_only", False)])
def test_last_card_making_twenty_crosswise(build, reading: str, crosswise: bool) -> None:
    state = build(hands=[["4/4"], ["0/0"], ["0/0"]], ablage=["5/4", "5/1", "3/3", "3/3"],
                  options={"last_card_crosswise": reading})
    act(state, "p1")  # 16 + 4 = 20 with the last personal card, a 4
    assert state.cross[state.scores[0][0]] is crosswise
    assert state.score_of(0) == (8 if crosswise else 4)


@pytest.mark.parametrize("reading", ["any_card", "five_only"])
def test_last_card_counting_five_lies_crosswise_in_both(build, reading: str) -> None:
    state = build(hands=[["1/5"], ["0/0"], ["0/0"]], ablage=["5/4", "5/1", "5/3"],
                  options={"last_card_crosswise": reading})
    act(state, "p1")  # 15 + 5 = 20 with the last card, a 5: "ggf. quer = verdoppelt"
    assert state.cross[state.scores[0][0]] is True and state.score_of(0) == 10


def test_heuristic_values_a_last_four_by_the_option(build) -> None:
    worths = []
    for reading in ("any_card", "five_only"):
        known = {"card": "4/4", "up_known": [0, 1, 2], "down_known": [0, 1, 2]}
        state = build(hands=[[known], ["0/0"], ["0/0"]],
                      ablage=["5/4", "5/1", "3/3", "3/3"],
                      options={"last_card_crosswise": reading})
        worths.append(situation(state, 0).play_worth(0))
        bot = HeuristicBot(state.game)
        assert bot.situation(state.observation(0)).play_worth(0) == worths[-1]
    assert worths[0] - worths[1] == 4  # doubled 4 against plain 4


# ------------------------------------------------------------ compensation
# The sheet: "Der betroffene Spieler darf sofort eine Karte ziehen"; its example says
# "nachziehen" (draw pile), while the 1 "darf sofort eine Karte ziehen" from four targets.
def test_compensation_draw_from_draw_pile(build) -> None:
    state = build(hands=[["2/1", "2/3"], ["4/1", "3/0"], ["5/5"]], draw_top=["0/2"],
                  abwurf=["1/3"])
    act(state, "p1")
    act(state, "take 1:2")
    assert (state.phase, state.current_player) == ("loss", 1)
    assert legal(state) == ["draw", "pass"]


def test_compensation_take_like_the_one(build) -> None:
    state = build(hands=[["2/1", "2/3"], ["4/1", "3/0"], ["5/5"]], draw_top=["0/2"],
                  abwurf=["1/3"], scores=[[], ["2/4"], []],
                  options={"compensation": "take"})
    act(state, "p1")
    act(state, "take 1:2")
    assert (state.phase, state.current_player) == ("loss", 1)
    assert legal(state) == ["take 0:1", "take 0:2", "take 2:1", "take s1", "take draw",
                            "take discard", "pass"]
    with pytest.raises(IllegalActionError) as caught:
        act(state, "draw")
    assert caught.value.code == "k20.compensation_takes"
    act(state, "take 0:1")  # a card taken as compensation brings its owner none
    assert texts(state, state.hands[1]) == ["4/1", "2/3"]
    assert "loss" not in [kind for kind, _seat in state.queue]


def test_compensation_take_when_sitting_out(build) -> None:
    state = build(hands=[["1/4", "0/0"], ["4/1", "2/2"], ["5/5"]], abwurf=["1/3"],
                  options={"compensation": "take"})
    act(state, "p1")
    act(state, "sitout")
    assert (state.phase, state.current_player) == ("sitout", 1)
    assert legal(state) == ["take 0:1", "take 2:1", "take draw", "take discard", "pass"]
    act(state, "take discard")
    assert texts(state, state.hands[1])[-1] == "1/3"
    full = build(hands=[["1/4", "0/0"], ["4/1", "2/2", "1/2", "0/1", "0/2"], ["5/5"]],
                 options={"compensation": "take"})
    act(full, "p1")
    act(full, "sitout")
    assert legal(full) == ["low 4", "low 5", "pass"]  # five cards: a lowest instead


def test_default_options_are_the_documented_readings() -> None:
    opts = Krumme20(3).options
    assert (opts.three_zeros_action, opts.last_card_crosswise, opts.compensation) == (
        "zero", "any_card", "draw")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_terminal_asks_for_the_compensation_as_the_option_reads_it(build, lang: str) -> None:
    from kartentisch.cli.presenters import load_presenter
    from kartentisch.locale import set_language

    presenter = load_presenter("krumme20")
    names = ["Anna", "Ben", "Cleo"]
    words = {"en": ("take a card like the 1's action", "draw one as compensation (draw)"),
             "de": ("eine Karte wie mit der Aktion der 1 nehmen",
                    "als Entschädigung eine ziehen (draw)")}[lang]
    set_language(lang)
    try:
        for reading, wanted, unwanted in (("take", *words), ("draw", *reversed(words))):
            state = build(hands=[["2/1", "2/3"], ["4/1", "3/0"], ["5/5"]],
                          options={"compensation": reading})
            act(state, "p1")
            act(state, "take 1:2")
            presenter.use_game(state.game)
            line = presenter.step_line(state.observation(1), names)
            assert wanted in line and unwanted not in line
    finally:
        set_language("en")
        presenter.use_game(Krumme20(3))
