"""Casino rules: the source's examples, every rule and every option value, error paths."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from kartentisch import IllegalActionError, InvalidOptionsError, load_game
from kartentisch.core.errors import GameOverError
from kartentisch.games.casino import Build, Capture, Casino, CasinoState, Trail
from kartentisch.games.casino.cards import parse_card
from kartentisch.games.casino.scoring import score_pack
from kartentisch.games.casino.state import OVER, deal_order

from .conftest import refusal

C = parse_card
Setup = Callable[..., CasinoState]


def cards(text: str) -> list[int]:
    """``"7h 3c"`` -> card ints."""
    return [C(t) for t in text.split()]


def texts(state: object) -> set[str]:
    game = state.game  # type: ignore[attr-defined]
    return {game.format_action(a) for a in state.legal_actions()}  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- the examples
def test_example_1_seven_takes_three_and_four(setup: Setup) -> None:
    state = setup(hands=["7h 9c", "Kc Kd"], loose="3c 4d")
    assert Capture(C("7h"), (C("3c"), C("4d"))) in state.legal_actions()
    state.apply(Capture(C("7h"), (C("3c"), C("4d"))))
    assert state.loose == []
    assert sorted(state.captured[0]) == sorted(cards("7h 3c 4d"))
    assert state.last_capturer == 0


def test_example_2_build_eight_then_take_it_or_the_opponent_does(setup: Setup) -> None:
    state = setup(hands=["2h 8s", "8d Kd"], loose="6c")
    build = Build(C("2h"), 8, (C("6c"),))
    assert build in state.legal_actions()
    state.apply(build)
    unit = state.builds[8]
    assert unit.owner == 0 and unit.cards == tuple(sorted(cards("2h 6c"))) and not unit.multiple
    assert state.loose == []
    # the opponent holding an 8 may take it first
    opponent = state.clone()
    assert Capture(C("8d"), (), 8) in opponent.legal_actions()
    opponent.apply(Capture(C("8d"), (), 8))
    assert not opponent.builds and sorted(opponent.captured[1]) == sorted(cards("8d 2h 6c"))
    # or the builder takes it next turn
    state.apply(Trail(C("Kd")))
    state.apply(Capture(C("8s"), (), 8))
    assert 8 not in state.builds and C("6c") in state.captured[0]


def test_example_2_build_needs_the_card_of_its_value(setup: Setup) -> None:
    state = setup(hands=["2h 9s", "Kc Kd"], loose="6c")
    assert not any(isinstance(a, Build) for a in state.legal_actions())
    error = refusal(state, Build(C("2h"), 8, (C("6c"),)))
    assert isinstance(error, IllegalActionError)
    assert error.code == "casino.build_needs_card" and error.params["value"] == 8
    assert error.params["card"] == "2h" and error.params["action"] == "2h + 6c = 8"


def test_example_3_ace_raises_eight_to_nine(setup: Setup) -> None:
    state = setup(hands=["Ac 9d", "8d Kd"], loose="", builds=[(8, "2h 6c", 1, 9)])
    raise_ = Build(C("Ac"), 9, (), 8)
    assert raise_ in state.legal_actions()
    state.apply(raise_)
    assert 8 not in state.builds
    unit = state.builds[9]
    assert unit.owner == 0 and not unit.multiple  # ownership passes to the raiser
    assert unit.cards == tuple(sorted(cards("Ac 2h 6c")))


def test_example_3_raise_needs_the_new_value_in_hand(setup: Setup) -> None:
    state = setup(hands=["Ac 8s", "8d Kd"], builds=[(8, "2h 6c", 1, 9)])
    assert not any(isinstance(a, Build) and a.raised for a in state.legal_actions())


def test_example_4_eight_onto_eight_calls_eights(setup: Setup) -> None:
    state = setup(hands=["8h 8s", "Kc Kd"], loose="8c")
    call = Build(C("8h"), 8, (C("8c"),))
    assert call in state.legal_actions()
    state.apply(call)
    unit = state.builds[8]
    assert unit.multiple and unit.owner == 0
    state.apply(Trail(C("Kc")))
    state.apply(Capture(C("8s"), (), 8))
    assert sorted(state.captured[0]) == sorted(cards("8h 8s 8c"))


def test_example_5_five_on_two_joined_with_seven(setup: Setup) -> None:
    state = setup(hands=["5h 7s", "Kc Kd"], loose="2c 7d")
    call = Build(C("5h"), 7, (C("2c"), C("7d")))
    assert call in state.legal_actions()
    state.apply(call)
    assert state.builds[7].multiple and state.loose == []
    # only when holding a 7
    other = setup(hands=["5h 9s", "Kc Kd"], loose="2c 7d")
    assert not any(isinstance(a, Build) and a.value == 7 for a in other.legal_actions())


def test_example_6_no_trail_next_turn_with_an_unchanged_build(setup: Setup) -> None:
    state = setup(hands=["2h 8s Kh 3c", "Kc Kd Qc Qd"], loose="6c")
    state.apply(Build(C("2h"), 8, (C("6c"),)))
    state.apply(Trail(C("Kc")))
    assert not any(isinstance(a, Trail) for a in state.legal_actions())
    error = refusal(state, Trail(C("Kh")))
    assert error.code == "casino.trail_ban_next_turn" and error.params["legal"] == ["Kh x Kc"]
    # the ban is for the next turn only (default next_turn): build something else instead
    state.apply(Capture(C("Kh"), (C("Kc"),)))
    state.apply(Trail(C("Kd")))
    assert Trail(C("3c")) in state.legal_actions()


def test_example_6_while_build_stands(setup: Setup) -> None:
    state = setup(options={"trail_ban": "while_build_stands"},
                  hands=["2h 8s Kh 3c", "Kc Kd Qc Qd"], loose="6c")
    state.apply(Build(C("2h"), 8, (C("6c"),)))
    state.apply(Trail(C("Kc")))
    state.apply(Capture(C("Kh"), (C("Kc"),)))
    state.apply(Trail(C("Kd")))
    assert not any(isinstance(a, Trail) for a in state.legal_actions())


def test_trail_allowed_again_when_the_build_was_changed(setup: Setup) -> None:
    state = setup(hands=["2h 8s Kh", "Ac 9d Qd"], loose="6c")
    state.apply(Build(C("2h"), 8, (C("6c"),)))
    state.apply(Build(C("Ac"), 9, (), 8))  # the opponent raises it: no longer ours
    assert Trail(C("Kh")) in state.legal_actions()


# ----------------------------------------------------------------------------- dealing
def test_two_player_first_deal_order() -> None:
    game = Casino(2)
    state = game.new_initial_state(5)
    top = deal_order(5, 0)[::-1]  # dealt from the end
    opponent, dealer = 1, 0
    assert state.dealer == dealer and state.current_player == opponent
    assert state.hands[opponent] == top[0:2] + top[6:8]
    assert sorted(state.loose) == sorted(top[2:4] + top[8:10])
    assert state.hands[dealer] == top[4:6] + top[10:12]
    assert len(state.deck) == 40


@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3)])
def test_deals_per_pack(players: int, deals: int) -> None:
    game = Casino(players)
    state = game.new_initial_state(1)
    rng = random.Random(0)
    seen_deals = 1
    assert all(len(h) == 4 for h in state.hands) and len(state.loose) == 4
    while state.pack == 0:
        before = len(state.deck)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        if state.pack == 0 and len(state.deck) < before:
            seen_deals += 1
            assert before - len(state.deck) == 4 * players
            assert all(len(h) == 4 for h in state.hands)
    assert seen_deals == deals


def test_dealer_rotates_and_left_of_dealer_leads() -> None:
    game = Casino(3)
    state = game.new_initial_state(2)
    rng = random.Random(3)
    dealers = [state.dealer]
    assert state.current_player == (state.dealer + 1) % 3
    while not state.is_terminal() and len(dealers) < 3:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        if state.dealer != dealers[-1]:
            dealers.append(state.dealer)
            assert state.current_player == (state.dealer + 1) % 3
    assert dealers == [0, 1, 2]


# ----------------------------------------------------------------------------- captures
def test_captures_several_groups_and_builds_at_once(setup: Setup) -> None:
    state = setup(hands=["9h 9s", "Kc Kd"], loose="2c 7d 4h 5s 9c Ac",
                  builds=[(9, "3d 6d", 1, 8)])
    everything = Capture(C("9h"), tuple(sorted(cards("2c 7d 4h 5s 9c"))), 9)
    assert everything in state.legal_actions()
    state.apply(everything)
    assert state.loose == [C("Ac")] and not state.builds


def test_each_capture_set_is_one_action(setup: Setup) -> None:
    # 7 with 3c 4d 3h 4s: the same set via different pairings is one move
    state = setup(hands=["7h 9s", "Kc Kd"], loose="3c 4d 3h 4s")
    captures = [a for a in state.legal_actions() if isinstance(a, Capture) and a.card == C("7h")]
    assert len(captures) == len(set(captures))
    sets = {a.loose for a in captures}
    assert tuple(sorted(cards("3c 4d 3h 4s"))) in sets
    assert len(captures) == 4 + 1  # four pairs, and all four cards
    assert len(state.legal_actions()) == len(set(state.legal_actions()))


def test_a_capture_must_add_up(setup: Setup) -> None:
    state = setup(hands=["7h 9s", "Kc Kd"], loose="3c 5d")
    error = refusal(state, Capture(C("7h"), (C("3c"), C("5d"))))
    assert error.code == "casino.capture_groups" and error.params["value"] == 7
    assert error.params["legal"] == ["7h -"]


def test_build_taken_only_by_its_value(setup: Setup) -> None:
    state = setup(hands=["6h 8s", "Kc Kd"], loose="6c", builds=[(8, "2h 6d", 1, 8)])
    assert Capture(C("6h"), (C("6c"),)) in state.legal_actions()
    error = refusal(state, Capture(C("6h"), (), 8))  # no id: a 6 never takes a build of 8
    assert error.code == "action.invalid"
    assert state.why_illegal(Capture(C("6h"), (), 8)).code == "casino.build_taken_by_value"


@pytest.mark.parametrize("capture_all", [False, True])
def test_face_cards_capture_by_rank(setup: Setup, capture_all: bool) -> None:
    state = setup(options={"face_cards_capture_all": capture_all},
                  hands=["Qh 9s", "Kc Kd"], loose="Qc Qd Kh 2c")
    captures = sorted(a.loose for a in state.legal_actions()
                      if isinstance(a, Capture) and a.card == C("Qh"))
    if capture_all:
        assert captures == [tuple(sorted(cards("Qc Qd")))]
    else:
        assert captures == [(C("Qc"),), (C("Qd"),)]


def test_face_cards_never_build(setup: Setup) -> None:
    state = setup(hands=["Jh Js", "Kc Kd"], loose="2c")
    assert {type(a) for a in state.legal_actions()} == {Trail}
    error = refusal(state, Build(C("Jh"), 2, (C("2c"),)))  # no id: faces have no value
    assert error.code == "action.invalid"
    assert state.why_illegal(Build(C("Jh"), 2, (C("2c"),))).code == "casino.face_no_build"


# ----------------------------------------------------------------------------- builds
def test_build_value_at_most_ten(setup: Setup) -> None:
    state = setup(hands=["6h 9s Ts", "Kc Kd Qd"], loose="5c")
    assert all(a.value <= 10 for a in state.legal_actions() if isinstance(a, Build))
    assert not any(isinstance(a, Build) for a in state.legal_actions())  # 6+5 = 11


def test_never_two_builds_of_one_value(setup: Setup) -> None:
    state = setup(hands=["3h 7s", "Kc Kd"], loose="4c", builds=[(7, "2d 5d", 1, 8)])
    assert Build(C("3h"), 7, (C("4c"),), 0, True) in state.legal_actions()
    assert Build(C("3h"), 7, (C("4c"),), 0, False) not in state.legal_actions()
    state.apply(Build(C("3h"), 7, (C("4c"),), 0, True))
    unit = state.builds[7]
    assert unit.multiple and unit.owner == 0 and len(state.builds) == 1
    assert unit.cards == tuple(sorted(cards("2d 5d 3h 4c")))


def test_add_a_card_of_the_value_to_an_existing_build(setup: Setup) -> None:
    state = setup(hands=["8h 8s", "Kc Kd"], builds=[(8, "2d 6d", 1, 8)])
    add = Build(C("8h"), 8, (), 0, True)
    assert add in state.legal_actions()
    state.apply(add)
    assert state.builds[8].multiple and state.builds[8].owner == 0


def test_multiple_build_is_never_raised(setup: Setup) -> None:
    state = setup(hands=["Ah 9s", "Kc Kd"], builds=[(8, "2d 6d 8c", 1, 8)])
    assert not any(isinstance(a, Build) and a.raised for a in state.legal_actions())
    error = refusal(state, Build(C("Ah"), 9, (), 8))
    assert error.code == "casino.multiple_not_raised"


def test_raise_onto_a_standing_build_merges(setup: Setup) -> None:
    state = setup(hands=["Ah 9s", "Kc Kd"], builds=[(8, "2d 6d", 1, 8), (9, "4c 5c", 1, 9)])
    merge = Build(C("Ah"), 9, (), 8, True)
    assert merge in state.legal_actions()
    state.apply(merge)
    assert list(state.builds) == [9] and state.builds[9].multiple


def test_build_onto_own_build_as_owner(setup: Setup) -> None:
    # a single build's owner may raise it too
    state = setup(hands=["2h 8s Ts", "Kc Kd Qd"], builds=[(8, "3d 5d", 0, 8)],
                  last_turn=[8, 9])
    assert Build(C("2h"), 10, (), 8) in state.legal_actions()


# ----------------------------------------------------------------------------- owner's duties
def test_owner_keeps_a_card_of_the_build_value(setup: Setup) -> None:
    state = setup(hands=["8s 8h 3c", "Kc Kd Qd"], loose="", builds=[(8, "2d 6d", 0, 3)],
                  last_turn=[5, 6])
    legal = state.legal_actions()
    assert Trail(C("8s")) in legal  # two eights: one may go
    only = setup(hands=["8s 3c", "Kc Kd"], loose="8c", builds=[(8, "2d 6d", 0, 3)],
                 last_turn=[5, 6])
    legal = only.legal_actions()
    assert Trail(C("8s")) not in legal
    assert Capture(C("8s"), (C("8c"),)) not in legal  # leaves the build without its card
    assert Capture(C("8s"), (C("8c"),), 8) in legal
    for refused in (Trail(C("8s")), Capture(C("8s"), (C("8c"),))):
        error = refusal(only, refused)
        assert error.code == "casino.keep_for_build" and error.params["value"] == 8
        assert error.params["legal"] == ["8s x [8]", "8s x 8c [8]"]


def test_owner_keeps_option_off(setup: Setup) -> None:
    state = setup(options={"owner_keeps_capture_card": False}, hands=["8s 3c", "Kc Kd"],
                  loose="8c", builds=[(8, "2d 6d", 0, 3)], last_turn=[5, 6])
    legal = state.legal_actions()
    assert Trail(C("8s")) in legal and Capture(C("8s"), (C("8c"),)) in legal


def test_no_legal_move_falls_back_to_trails(setup: Setup) -> None:
    # duties off: an owner without a card of the build's value, banned from trailing
    state = setup(options={"owner_keeps_capture_card": False}, hands=["Kh", "Qc"],
                  builds=[(8, "2d 6d", 0, 9)], last_turn=[9, -1], turn=10)
    assert state.trail_banned(0)
    assert state.legal_actions() == [Trail(C("Kh"))]


def test_partner_is_not_bound_by_the_owner_duty(setup: Setup) -> None:
    state = setup(players=4, options={"partnerships": True},
                  hands=["Kc Kd", "Qc Qd", "8s 3c", "Jc Jd"], builds=[(8, "2d 6d", 0, 5)],
                  to_move=2, last_turn=[5, 6, 7, 8], turn=9)
    assert Trail(C("8s")) in state.legal_actions()


@pytest.mark.parametrize("allowed", [True, False])
def test_trail_when_capture_possible(setup: Setup, allowed: bool) -> None:
    state = setup(options={"trail_when_capture_possible": allowed},
                  hands=["7h 9s", "Kc Kd"], loose="3c 4d")
    assert (Trail(C("7h")) in state.legal_actions()) is allowed
    assert Trail(C("9s")) in state.legal_actions()


# ----------------------------------------------------------------------------- pack end
def test_last_capture_takes_the_table(setup: Setup) -> None:
    state = setup(hands=["7h", "Kc"], loose="3c 4d 9d", deck="")
    state.apply(Capture(C("7h"), (C("3c"), C("4d"))))
    assert not state.pack_results  # the pack is not over yet
    state.apply(Trail(C("Kc")))
    # the pack ended: the 9d and Kc went to seat 0, the last capturer
    assert state.pack == 1 or state.is_terminal()
    taken = [p for p in state.events if p.kind == "table_taken"]
    assert taken[-1].seat == 0 and sorted(taken[-1].data["cards"]) == ["9d", "Kc"]


def test_dealer_takes_the_table_when_nobody_captured(setup: Setup) -> None:
    state = setup(hands=["7h", "Kc"], loose="9d", deck="", dealer=1)
    state.plays = []
    state.last_capturer = -1
    state.captured = [[], []]
    state.apply(Trail(C("7h")))
    state.apply(Trail(C("Kc")))
    taken = [e for e in state.events if e.kind == "table_taken"]
    assert taken[-1].seat == 1  # the dealer
    assert sorted(taken[-1].data["cards"]) == ["7h", "9d", "Kc"]


def test_sweeps_option(setup: Setup) -> None:
    for sweeps in (False, True):
        state = setup(options={"sweeps": sweeps}, hands=["7h 9s", "Kc Kd"], loose="3c 4d")
        state.apply(Capture(C("7h"), (C("3c"), C("4d"))))
        assert state.sweeps[0] == (1 if sweeps else 0)
        assert state.plays[-1].sweep is sweeps


def test_no_sweep_on_the_last_play(setup: Setup) -> None:
    state = setup(options={"sweeps": True}, hands=["", "7h"], loose="3c 4d", deck="",
                  to_move=1)
    state.apply(Capture(C("7h"), (C("3c"), C("4d"))))
    assert state.pack_results[-1]["sweeps"] == [0, 0]


# ----------------------------------------------------------------------------- scoring
def pile(text: str) -> list[int]:
    return cards(text)


def test_pack_scores_eleven() -> None:
    everything = list(range(52))
    a = [c for c in everything if c % 3 == 0] + [C("Td"), C("2s")]
    a = sorted(set(a))
    b = [c for c in everything if c not in a]
    items = score_pack([a, b], [0, 0], 2, lambda s: s)
    assert sum(items["total"]) == 11
    assert items["big_casino"] == [2, 0] and items["little_casino"] == [1, 0]
    assert sum(items["aces"]) == 4


def test_card_and_spade_ties_score_nothing() -> None:
    spades = [c for c in range(52) if c % 4 == 3]
    others = [c for c in range(52) if c % 4 != 3]
    a = spades[:7] + others[:19]
    b = spades[7:] + others[19:]
    items = score_pack([a, b], [0, 0], 2, lambda s: s)
    assert items["cards"] == [0, 0]  # 26 each: nobody scores the 3
    assert items["spades"] == [1, 0]
    assert sum(items["total"]) == 8
    # three players: spades 5, 5, 3 is a tie for most spades
    piles = [spades[:5] + others[:13], spades[5:10] + others[13:26], spades[10:] + others[26:]]
    items = score_pack(piles, [0, 0, 0], 3, lambda s: s)
    assert items["spades"] == [0, 0, 0]
    assert items["cards"] == [0, 0, 0] or sum(items["cards"]) == 3


def test_three_player_scoring_and_partnerships() -> None:
    piles = [list(range(0, 20)), list(range(20, 36)), list(range(36, 52))]
    items = score_pack(piles, [0, 0, 0], 3, lambda s: s)
    assert items["cards"] == [3, 0, 0] and sum(items["total"]) == 11
    piles4 = [list(range(0, 10)), list(range(10, 20)), list(range(20, 30)), list(range(30, 52))]
    pooled = score_pack(piles4, [0] * 4, 2, lambda s: s % 2)
    assert pooled["cards"] == [0, 3]  # 20 against 32


def play_out(game: Casino, seed: int) -> object:
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def test_game_ends_at_21_with_a_single_leader() -> None:
    state = play_out(Casino(2), 4)
    assert state.phase == OVER  # type: ignore[attr-defined]
    scores = state.scores  # type: ignore[attr-defined]
    assert max(scores) >= 21 and scores.count(max(scores)) == 1
    assert state.returns() == [1.0 if s == max(scores) else -1.0 for s in scores]  # type: ignore[attr-defined]
    with pytest.raises(GameOverError):
        state.apply(Trail(0))  # type: ignore[attr-defined]


def test_tied_totals_play_another_pack(setup: Setup) -> None:
    # 20 and 19 before the pack; the pack gives 5 and 6: both at 25, so play goes on
    state = setup(hands=["Kh", "Kc"], loose="", deck="")
    state.scores = [20, 19]
    zero = cards("2s Ac Ad Ah As")  # little casino and the aces: 5 points
    state.captured = [zero, [c for c in range(52) if c not in zero and c not in cards("Kh Kc")]]
    state.plays = []
    state.last_capturer = 1  # takes the two kings: cards 3, spades 1, big casino 2
    state.apply(Trail(C("Kh")))
    state.apply(Trail(C("Kc")))
    assert state.pack_results[-1]["total"] == [5, 6]
    assert state.scores == [25, 25]
    assert not state.is_terminal() and state.pack == 1 and len(state.deck) == 40


def test_count_out_stops_at_21(setup: Setup) -> None:
    state = setup(options={"count_out": True}, hands=["Kh", "Kc"], deck="")
    state.scores = [19, 20]
    state.captured = [[c for c in range(52) if c not in (C("Kh"), C("Kc"))][:40], []]
    state.captured[1] = [c for c in range(52) if c not in state.captured[0]
                         and c not in (C("Kh"), C("Kc"))]
    state.plays = []
    state.apply(Trail(C("Kh")))
    state.apply(Trail(C("Kc")))
    # cards (3) are counted first: seat 0 reaches 22 and wins before seat 1 counts anything
    assert state.is_terminal() and state.winners == [0]
    assert state.scores[0] == 22


def test_count_out_tie_rule_not_needed() -> None:
    game = Casino(2, {"count_out": True})
    state = play_out(game, 7)
    assert state.is_terminal()  # type: ignore[attr-defined]
    assert len(state.winners) == 1  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- options
@pytest.mark.parametrize(("players", "options", "message"), [
    (2, {"partnerships": True}, "needs 4 players"),
    (3, {"partnerships": True}, "needs 4 players"),
    (2, {"trail_ban": "never"}, "allowed: next_turn, while_build_stands"),
    (2, {"sweeps": "maybe"}, "true or false"),
    (2, {"jokers": True}, "unknown option"),
    (5, {}, "2 to 4 players"),
    (1, {}, "2 to 4 players"),
])
def test_bad_options(players: int, options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionsError, match=message):
        load_game("casino", players, options)


def test_options_from_text() -> None:
    game = load_game("casino", 4, {"partnerships": "true", "trail_ban": "while_build_stands"})
    assert game.options.partnerships and game.sides == 2 and game.side_of(2) == 0


def test_partnership_game_returns() -> None:
    state = play_out(Casino(4, {"partnerships": True}), 3)
    r = state.returns()  # type: ignore[attr-defined]
    assert r[0] == r[2] and r[1] == r[3] and sorted({r[0], r[1]}) == [-1.0, 1.0]


def test_three_player_returns_sum_to_zero() -> None:
    state = play_out(Casino(3), 2)
    assert sum(state.returns()) == 0  # type: ignore[attr-defined]
    assert max(state.returns()) == 2.0  # type: ignore[attr-defined]


@pytest.mark.parametrize(("players", "options"), [(2, {}), (3, {}), (4, {"partnerships": True})])
def test_search_hooks_favour_the_leader(players: int, options: dict[str, object]) -> None:
    game = Casino(players, options)
    state = game.new_initial_state(1)
    assert game.horizon_key(state) == (0, len(state.deck))  # pack, cards left to deal
    even = game.evaluate(state)
    assert len(set(even)) == 1 and abs(sum(even)) < 1e-9
    state.scores[0] += 8
    lead = game.evaluate(state)
    assert lead[0] == max(lead) and lead[1] < lead[0] and abs(sum(lead)) < 1e-9
    assert all(game.spec.min_utility <= r <= game.spec.max_utility for r in lead)
    finished = play_out(game, 2)
    assert game.evaluate(finished) == finished.returns()  # type: ignore[arg-type,attr-defined]
